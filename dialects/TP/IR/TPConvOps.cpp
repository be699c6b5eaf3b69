//===- TPConvOps.cpp - tp convolution ops ---------------------------------===//

#include "CheckedInt64.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

#define GET_OP_CLASSES
#include "tensorplay/Dialect/TP/IR/TPConvOps.cpp.inc"

/// Expands a per-dimension parameter: absent -> `fallback`, one value -> all.
static FailureOr<SmallVector<int64_t>>
expandParam(RuleContext &op, StringRef name, std::optional<ArrayRef<int64_t>> v,
            int64_t n, int64_t fallback, int64_t minValue) {
  SmallVector<int64_t> values(n, fallback);
  if (v && !v->empty()) {
    if (v->size() == 1)
      values.assign(n, v->front());
    else if (static_cast<int64_t>(v->size()) == n)
      values.assign(v->begin(), v->end());
    else
      return op.emitOpError()
             << name << " must have 1 or " << n << " values, got " << v->size();
  }
  for (int64_t x : values)
    if (x < minValue)
      return op.emitOpError()
             << name << " values must be >= " << minValue << ", got " << x;
  return values;
}

/// Output size of one spatial dimension, kDynamic when unknown, nullopt when
/// it overflows int64.
static std::optional<int64_t> convOutputSize(int64_t in, int64_t k, int64_t s,
                                             int64_t p, int64_t d, int64_t op,
                                             bool transposed) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k))
    return ShapedType::kDynamic;
  CheckedInt64 x = in, pad = p, dil = d;
  if (transposed)
    return ((x - 1) * s - pad * 2 + dil * (k - 1) + op + 1).value();
  return ((x + pad * 2 - dil * (k - 1) - 1) / s + 1).value();
}

LogicalResult mlir::tp::inferConvolutionShape(
    RuleContext &op, int64_t n, bool transposed, Value input, Value weight,
    Value bias, std::optional<ArrayRef<int64_t>> stride,
    std::optional<ArrayRef<int64_t>> padding,
    std::optional<ArrayRef<int64_t>> dilation,
    std::optional<ArrayRef<int64_t>> outputPadding, int64_t groups) {
  if (n < 1 || n > 3)
    return op.emitOpError("expected 1 to 3 spatial dimensions, got ") << n;
  if (failed(expectRank(op, input, "an input", n + 1, n + 2)) ||
      failed(expectRank(op, weight, "a weight", n + 2, n + 2)))
    return failure();
  if (groups < 1)
    return op.emitOpError("groups must be positive, got ") << groups;
  auto s = expandParam(op, "stride", stride, n, 1, 1);
  auto p = expandParam(op, "padding", padding, n, 0, 0);
  auto d = expandParam(op, "dilation", dilation, n, 1, 1);
  auto o = expandParam(op, "output_padding", outputPadding, n, 0, 0);
  if (failed(s) || failed(p) || failed(d) || failed(o))
    return failure();

  ArrayRef<int64_t> x = shapeOf(input), w = shapeOf(weight);
  bool batched = static_cast<int64_t>(x.size()) == n + 2;
  int64_t inChannels = x[batched ? 1 : 0];
  int64_t outChannels;
  if (!transposed) {
    int64_t perGroup = w[1];
    if (!ShapedType::isDynamic(perGroup))
      perGroup *= groups;
    if (failed(expectDimsMatch(op, inChannels, perGroup,
                               "input channels must equal weight dim 1 "
                               "times groups")))
      return failure();
    outChannels = w[0];
    if (!ShapedType::isDynamic(outChannels) && outChannels % groups != 0)
      return op.emitOpError("output channels (")
             << outChannels << ") must be divisible by groups (" << groups
             << ")";
  } else {
    if (failed(expectDimsMatch(op, inChannels, w[0],
                               "input channels must equal weight dim 0")))
      return failure();
    outChannels = ShapedType::isDynamic(w[1]) ? w[1] : w[1] * groups;
    for (int64_t i = 0; i < n; ++i)
      if ((*o)[i] >= std::max((*s)[i], (*d)[i]))
        return op.emitOpError("output_padding must be smaller than stride "
                              "or dilation");
  }
  if (bias) {
    if (failed(expectRank(op, bias, "a 1-D bias", 1, 1)) ||
        failed(expectDimsMatch(op, shapeOf(bias)[0], outChannels,
                               "bias size must equal output channels")))
      return failure();
  }

  SmallVector<int64_t> shape;
  if (batched)
    shape.push_back(x[0]);
  shape.push_back(outChannels);
  for (int64_t i = 0; i < n; ++i) {
    std::optional<int64_t> size =
        convOutputSize(x[x.size() - n + i], w[2 + i], (*s)[i], (*p)[i], (*d)[i],
                       (*o)[i], transposed);
    if (!size)
      return op.emitOpError("stride, padding or dilation too large: the "
                            "output size of spatial dimension ")
             << i << " overflows int64";
    if (!ShapedType::isDynamic(*size) && *size <= 0)
      return op.emitOpError("computed output size ")
             << *size << " of spatial dimension " << i
             << " is not positive (input too small for the kernel)";
    shape.push_back(*size);
  }
  return op.setResultShape(0, shape);
}

LogicalResult mlir::tp::inferConvolutionBackwardShape(RuleContext &op) {
  auto bwd = op.as<ConvolutionBackwardOp>();
  Value grad = bwd.getGradOutput(), input = bwd.getInput(),
        weight = bwd.getWeight();
  int64_t n = rankOf(weight) - 2;
  if (failed(expectRank(op, weight, "a weight", 3, 5)) ||
      failed(expectRank(op, input, "a batched input", n + 2, n + 2)))
    return failure();
  // The forward's output shape, recorded as result 0 for a moment.
  if (failed(inferConvolutionShape(op, n, bwd.getTransposed(), input, weight,
                                   Value(), bwd.getStride(), bwd.getPadding(),
                                   bwd.getDilation(), bwd.getOutputPadding(),
                                   bwd.getGroups())))
    return failure();
  SmallVector<int64_t> output(*op.getResultShape(0));
  if (failed(expectRank(op, grad, "a grad_output of the forward's rank", n + 2,
                        n + 2)))
    return failure();
  ArrayRef<int64_t> g = shapeOf(grad);
  for (int64_t i = 0; i < n + 2; ++i)
    if (failed(expectDimsMatch(op, g[i], output[i],
                               "grad_output dim " + Twine(i) +
                                   " must equal the forward output's")))
      return failure();
  if (failed(op.setResultShape(0, shapeOf(input))) ||
      failed(op.setResultShape(1, shapeOf(weight))))
    return failure();
  return op.setResultShape(2, {output[1]});
}

LogicalResult mlir::tp::inferConvTbcShape(RuleContext &op) {
  auto conv = op.as<ConvTbcOp>();
  if (failed(expectRank(op, conv.getInput(), "a (time, batch, channel) input",
                        3, 3)) ||
      failed(expectRank(op, conv.getWeight(), "a 3-D weight", 3, 3)) ||
      failed(expectRank(op, conv.getBias(), "a 1-D bias", 1, 1)))
    return failure();
  ArrayRef<int64_t> x = shapeOf(conv.getInput()), w = shapeOf(conv.getWeight());
  if (failed(expectDimsMatch(op, x[2], w[1],
                             "input channels must equal weight dim 1")) ||
      failed(expectDimsMatch(op, shapeOf(conv.getBias())[0], w[2],
                             "bias size must equal weight dim 2")))
    return failure();
  int64_t time = ShapedType::kDynamic;
  if (!ShapedType::isDynamic(x[0]) && !ShapedType::isDynamic(w[0])) {
    std::optional<int64_t> size =
        (CheckedInt64(x[0]) + CheckedInt64(conv.getPad()) * 2 - w[0] + 1)
            .value();
    if (!size)
      return op.emitOpError("pad too large: the output length overflows "
                            "int64");
    if (*size < 0)
      return op.emitOpError("the kernel (")
             << w[0] << ") is longer than the padded input (" << x[0]
             << " + 2 x " << conv.getPad() << ")";
    time = *size;
  }
  return op.setResultShape(0, {time, x[1], w[2]});
}
