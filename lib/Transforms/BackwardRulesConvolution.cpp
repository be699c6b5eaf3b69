//===- BackwardRulesConvolution.cpp - Rules of the convolutions -----------===//
//
// The backward of conv1d / conv2d / conv3d, conv_transpose1d/2d/3d and the
// general convolution (batched or not), written with the dialect's own
// convolutions so that both products go to oneDNN where the forward does.
// For y = conv(x, w):
//
//   dx = conv_transpose(g, w) with the forward's stride, padding, dilation
//        and groups, and the output_padding that gives back x's size;
//   dw = conv(x^T, g^T) with batch and channels swapped, the forward's
//        stride as dilation and its dilation as stride, cropped to the
//        kernel and swapped back (for G groups the input is regrouped to
//        (C_in / G, G N, ...) and the correlation has G groups);
//   db = sum(g) over all but the channels.
//
// A transposed convolution is the adjoint of a convolution in its input,
// so for y = conv_transpose(x, w): dx = conv(g, w) with the same stride,
// padding, dilation and groups, and dw is the weight gradient above of the
// convolution that takes g to x (g as its input, x as its output's
// gradient).
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ConvAttributes.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// Swaps dims 0 and 1 (batch and channels).
Value swapLeading(Rule &r, Value v) {
  if (!v)
    return {};
  SmallVector<int64_t> perm;
  for (int64_t d = 0, e = rankOf(v); d < e; ++d)
    perm.push_back(d);
  std::swap(perm[0], perm[1]);
  return r.make("tp.permute", v,
                {r.attr("dims", r.b.builder.getDenseI64ArrayAttr(perm))});
}

/// What a convolution rule reads of its op.
struct ConvParams {
  Value input, weight, bias;
  int64_t n; // spatial dimensions
  SmallVector<int64_t> stride, padding, dilation;
  int64_t groups;
  bool transposed;
};

template <typename Op>
ConvParams readConv(Op conv, int64_t n, bool transposed) {
  return {conv.getInput(),
          conv.getWeight(),
          conv.getBias(),
          n,
          expandConvAttribute(conv.getStride(), n, 1),
          expandConvAttribute(conv.getPadding(), n, 0),
          expandConvAttribute(conv.getDilation(), n, 1),
          static_cast<int64_t>(conv.getGroups()),
          transposed};
}

/// The gradient of the weight of the convolution taking `in` to an output
/// whose gradient is `out` (both batched), of kernel shape `kernel`, with
/// `p.groups` groups: the correlation of `in` and `out` with batch and
/// channels swapped; for G groups `in` becomes (C_in / G, G * N, ...), so
/// that the G-grouped correlation pairs each output channel's gradient
/// with its own group's input channels.
Value convWeightGrad(Rule &r, const ConvParams &p, Value in, Value out,
                     ArrayRef<int64_t> kernel) {
  OpBuilder &builder = r.b.builder;
  auto array = [&](ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  int64_t groups = p.groups;
  Value lhs = swapLeading(r, in);
  if (groups != 1 && in) {
    // (N, C, L...) -> (N, G, C / G, L...) -> (C / G, G, N, L...) ->
    // (C / G, G * N, L...).
    ArrayRef<int64_t> is = shapeOf(in);
    int64_t n = is[0], perGroup = is[1] / groups;
    SmallVector<int64_t> split = {n, groups, perGroup};
    split.append(is.begin() + 2, is.end());
    SmallVector<int64_t> perm = {2, 1, 0};
    for (int64_t d = 3, e = static_cast<int64_t>(split.size()); d < e; ++d)
      perm.push_back(d);
    Value moved = r.make("tp.permute", r.reshape(in, split),
                         {r.attr("dims", builder.getDenseI64ArrayAttr(perm))});
    SmallVector<int64_t> merged = {perGroup, groups * n};
    merged.append(is.begin() + 2, is.end());
    lhs = r.reshape(moved, merged);
  }
  Value d = r.make(
      "tp.conv" + std::to_string(p.n) + "d", {lhs, swapLeading(r, out)},
      {r.attr("operandSegmentSizes",
              builder.getDenseI32ArrayAttr({1, 1, 0, 0})),
       r.attr("stride", array(p.dilation)), r.attr("padding", array(p.padding)),
       r.attr("dilation", array(p.stride)),
       r.attr("groups", builder.getI64IntegerAttr(groups))});
  // The correlation reaches up to stride - 1 positions past the kernel
  // where the forward's windows leave input rows unused.
  for (int64_t i = 0; i < p.n; ++i)
    d = r.sliceAlong(d, 2 + i, 0, kernel[2 + i]);
  return swapLeading(r, d);
}

LogicalResult convRule(Rule &r, const ConvParams &p) {
  Value x = p.input, w = p.weight, bias = p.bias;
  int64_t n = p.n;
  bool unbatched = rankOf(x) == n + 1;
  auto batched = [&](Value v) {
    SmallVector<int64_t> shape = {1};
    llvm::append_range(shape, shapeOf(v));
    return unbatched ? r.reshape(v, shape) : v;
  };
  Value xb = batched(x), g = batched(r.grad);
  ArrayRef<int64_t> xs = shapeOf(xb), gs = shapeOf(g), ws = shapeOf(w);
  OpBuilder &builder = r.b.builder;
  auto array = [&](ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  NamedAttribute segments =
      r.attr("operandSegmentSizes", builder.getDenseI32ArrayAttr({1, 1, 0, 0}));
  NamedAttribute common[] = {
      r.attr("stride", array(p.stride)), r.attr("padding", array(p.padding)),
      r.attr("dilation", array(p.dilation)),
      r.attr("groups", builder.getI64IntegerAttr(p.groups))};
  std::string suffix = std::to_string(n) + "d";
  if (r.active(x)) {
    Value dx;
    if (p.transposed) {
      SmallVector<NamedAttribute> attrs = {segments};
      attrs.append(std::begin(common), std::end(common));
      dx = r.make("tp.conv" + suffix, {g, w}, attrs);
    } else {
      // The input rows the forward's last window does not reach come back
      // as output_padding (less than the stride).
      SmallVector<int64_t> outputPadding;
      for (int64_t i = 0; i < n; ++i)
        outputPadding.push_back(xs[2 + i] + 2 * p.padding[i] -
                                p.dilation[i] * (ws[2 + i] - 1) - 1 -
                                p.stride[i] * (gs[2 + i] - 1));
      SmallVector<NamedAttribute> attrs = {
          segments, r.attr("output_padding", array(outputPadding))};
      attrs.append(std::begin(common), std::end(common));
      dx = r.make("tp.conv_transpose" + suffix, {g, w}, attrs);
    }
    r.give(x, r.reshape(dx, shapeOf(x)));
  }
  if (r.active(w)) {
    r.give(w, p.transposed ? convWeightGrad(r, p, g, xb, ws)
                           : convWeightGrad(r, p, xb, g, ws));
  }
  if (r.active(bias)) {
    SmallVector<int64_t> dims = {0};
    for (int64_t i = 0; i < n; ++i)
      dims.push_back(2 + i);
    r.give(bias, r.sumAlong(g, dims, /*keepdim=*/false));
  }
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyConvolutionRule(Rule &r) {
  Operation *op = r.op;
  if (auto conv = dyn_cast<Conv1dOp>(op))
    return convRule(r, readConv(conv, 1, false));
  if (auto conv = dyn_cast<Conv2dOp>(op))
    return convRule(r, readConv(conv, 2, false));
  if (auto conv = dyn_cast<Conv3dOp>(op))
    return convRule(r, readConv(conv, 3, false));
  if (auto conv = dyn_cast<ConvTranspose1dOp>(op))
    return convRule(r, readConv(conv, 1, true));
  if (auto conv = dyn_cast<ConvTranspose2dOp>(op))
    return convRule(r, readConv(conv, 2, true));
  if (auto conv = dyn_cast<ConvTranspose3dOp>(op))
    return convRule(r, readConv(conv, 3, true));
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    int64_t n = rankOf(conv.getWeight()) - 2;
    return convRule(r, readConv(conv, n, conv.getTransposed()));
  }
  return std::nullopt;
}
