//===- BackwardRulesConvolution.cpp - Rules of the convolutions -----------===//
//
// The backward of conv1d / conv2d / conv3d (batched or not), written with
// the dialect's own convolutions so that both products go to oneDNN where
// the forward does:
//
//   dx = conv_transpose(g, w) with the forward's stride, padding, dilation
//        and groups, and the output_padding that gives back x's size;
//   dw = conv(x^T, g^T) with batch and channels swapped, the forward's
//        stride as dilation and its dilation as stride, cropped to the
//        kernel and swapped back (groups = 1);
//   db = sum(g) over all but the channels.
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

/// The first `size` entries of `v` along `dim` (a gather of rows: the
/// dialect has no slice op).
Value cropDim(Rule &r, Value v, int64_t dim, int64_t size) {
  if (!v || shapeOf(v)[dim] == size)
    return v;
  int64_t rank = rankOf(v);
  SmallVector<int64_t> perm = {dim};
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      perm.push_back(d);
  SmallVector<int64_t> inverse(rank);
  for (int64_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;
  Value front = r.make(
      "tp.permute", v, {r.attr("dims", r.b.builder.getDenseI64ArrayAttr(perm))});
  if (!front)
    return {};
  SmallVector<int64_t> frontShape(shapeOf(front));
  int64_t rest = numElementsOrDynamic(frontShape) / frontShape[0];
  Value rows = r.reshape(front, {frontShape[0], rest});
  SmallVector<int64_t> indices;
  for (int64_t i = 0; i < size; ++i)
    indices.push_back(i);
  auto indexType =
      RankedTensorType::get({size}, r.b.builder.getIntegerType(64));
  ++r.b.numCreated;
  Value index = ConstantOp::create(
      r.b.builder, r.b.loc, indexType,
      DenseElementsAttr::get(indexType, ArrayRef<int64_t>(indices)));
  Value kept = r.make("tp.embedding", {rows, index});
  frontShape[0] = size;
  return r.make("tp.permute", r.reshape(kept, frontShape),
                {r.attr("dims", r.b.builder.getDenseI64ArrayAttr(inverse))});
}

template <typename ConvOp>
LogicalResult convRule(Rule &r, ConvOp conv, int64_t n) {
  Value x = conv.getInput(), w = conv.getWeight(), bias = conv.getBias();
  SmallVector<int64_t> stride = expandConvAttribute(conv.getStride(), n, 1),
                       padding = expandConvAttribute(conv.getPadding(), n, 0),
                       dilation = expandConvAttribute(conv.getDilation(), n, 1);
  auto groups = static_cast<int64_t>(conv.getGroups());
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
  std::string suffix = std::to_string(n) + "d";
  if (r.active(x)) {
    // The input rows the forward's last window does not reach come back as
    // output_padding (less than the stride).
    SmallVector<int64_t> outputPadding;
    for (int64_t i = 0; i < n; ++i)
      outputPadding.push_back(xs[2 + i] + 2 * padding[i] -
                              dilation[i] * (ws[2 + i] - 1) - 1 -
                              stride[i] * (gs[2 + i] - 1));
    Value dx = r.make("tp.conv_transpose" + suffix, {g, w},
                      {segments, r.attr("stride", array(stride)),
                       r.attr("padding", array(padding)),
                       r.attr("output_padding", array(outputPadding)),
                       r.attr("groups", builder.getI64IntegerAttr(groups)),
                       r.attr("dilation", array(dilation))});
    r.give(x, r.reshape(dx, shapeOf(x)));
  }
  if (r.active(w)) {
    if (groups != 1)
      return conv.emitOpError("tp-autodiff: the weight gradient of a "
                              "grouped convolution (groups = ")
             << groups << ") is not implemented yet";
    Value d = r.make("tp.conv" + suffix, {swapLeading(r, xb), swapLeading(r, g)},
                     {segments, r.attr("stride", array(dilation)),
                      r.attr("padding", array(padding)),
                      r.attr("dilation", array(stride)),
                      r.attr("groups", builder.getI64IntegerAttr(1))});
    // The correlation reaches up to stride - 1 positions past the kernel
    // where the forward's windows leave input rows unused.
    for (int64_t i = 0; i < n; ++i)
      d = cropDim(r, d, 2 + i, ws[2 + i]);
    r.give(w, swapLeading(r, d));
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
  if (auto conv = dyn_cast<Conv1dOp>(r.op))
    return convRule(r, conv, 1);
  if (auto conv = dyn_cast<Conv2dOp>(r.op))
    return convRule(r, conv, 2);
  if (auto conv = dyn_cast<Conv3dOp>(r.op))
    return convRule(r, conv, 3);
  return std::nullopt;
}
