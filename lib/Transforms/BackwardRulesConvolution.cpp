//===- BackwardRulesConvolution.cpp - Rules of the convolutions -----------===//
//
// The backward of conv1d / conv2d / conv3d, conv_transpose1d/2d/3d and the
// general convolution (batched or not): one tp.convolution_backward
// (aten::convolution_backward) with the forward's geometry, on the batched
// gradient, input and weight. Its lowerings compute what is used of it:
//
//   dx = conv_transpose(g, w) with the forward's stride, padding, dilation
//        and groups, and the output_padding that gives back x's size (for a
//        transposed forward: conv(g, w), the adjoint in its input);
//   dw = the correlation of x and g summed over the batch (oneDNN's
//        backward-weights primitive, or an im2col product);
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
/// What a convolution rule reads of its op.
struct ConvParams {
  Value input, weight, bias;
  int64_t n; // spatial dimensions
  SmallVector<int64_t> stride, padding, dilation, outputPadding;
  int64_t groups;
  bool transposed;
};

template <typename Op>
ConvParams readConv(Op conv, int64_t n, bool transposed,
                    std::optional<ArrayRef<int64_t>> outputPadding) {
  return {conv.getInput(),
          conv.getWeight(),
          conv.getBias(),
          n,
          expandConvAttribute(conv.getStride(), n, 1),
          expandConvAttribute(conv.getPadding(), n, 0),
          expandConvAttribute(conv.getDilation(), n, 1),
          expandConvAttribute(transposed ? outputPadding : std::nullopt, n, 0),
          static_cast<int64_t>(conv.getGroups()),
          transposed};
}

LogicalResult convRule(Rule &r, const ConvParams &p) {
  Value x = p.input, w = p.weight, bias = p.bias;
  if (!r.active(x) && !r.active(w) && !r.active(bias))
    return success();
  bool unbatched = rankOf(x) == p.n + 1;
  auto batched = [&](Value v) {
    SmallVector<int64_t> shape = {1};
    llvm::append_range(shape, shapeOf(v));
    return unbatched ? r.reshape(v, shape) : v;
  };
  OpBuilder &builder = r.b.builder;
  auto array = [&](ArrayRef<int64_t> v) {
    return builder.getDenseI64ArrayAttr(v);
  };
  Operation *bwd = r.makeOp<ConvolutionBackwardOp>(
      {batched(r.grad), batched(x), w},
      {r.attr("stride", array(p.stride)), r.attr("padding", array(p.padding)),
       r.attr("dilation", array(p.dilation)),
       r.attr("transposed", builder.getBoolAttr(p.transposed)),
       r.attr("output_padding", array(p.outputPadding)),
       r.attr("groups", builder.getI64IntegerAttr(p.groups))});
  if (!bwd)
    return success(); // diagnosed by the builder
  if (r.active(x))
    r.give(x, r.reshape(bwd->getResult(0), shapeOf(x)));
  if (r.active(w))
    r.give(w, bwd->getResult(1));
  if (r.active(bias))
    r.give(bias, bwd->getResult(2));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyConvolutionRule(Rule &r) {
  Operation *op = r.op;
  if (auto conv = dyn_cast<Conv1dOp>(op))
    return convRule(r, readConv(conv, 1, false, std::nullopt));
  if (auto conv = dyn_cast<Conv2dOp>(op))
    return convRule(r, readConv(conv, 2, false, std::nullopt));
  if (auto conv = dyn_cast<Conv3dOp>(op))
    return convRule(r, readConv(conv, 3, false, std::nullopt));
  if (auto conv = dyn_cast<ConvTranspose1dOp>(op))
    return convRule(r, readConv(conv, 1, true, conv.getOutputPadding()));
  if (auto conv = dyn_cast<ConvTranspose2dOp>(op))
    return convRule(r, readConv(conv, 2, true, conv.getOutputPadding()));
  if (auto conv = dyn_cast<ConvTranspose3dOp>(op))
    return convRule(r, readConv(conv, 3, true, conv.getOutputPadding()));
  if (auto conv = dyn_cast<ConvolutionOp>(op)) {
    int64_t n = rankOf(conv.getWeight()) - 2;
    return convRule(
        r, readConv(conv, n, conv.getTransposed(), conv.getOutputPadding()));
  }
  return std::nullopt;
}
