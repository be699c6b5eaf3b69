//===- ConvolutionUtils.cpp - Convolution geometry for the lowerings ------===//
//
// See ConvolutionUtils.h.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/ConvolutionUtils.h"

#include "tensorplay/Dialect/TP/IR/ConvAttributes.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

FailureOr<ConvParams> lowering::getConvParams(Operation *op) {
  ConvParams p;
  auto fill = [&](auto conv, int64_t n, bool transposed,
                  std::optional<ArrayRef<int64_t>> outputPadding) {
    p.spatialRank = n;
    p.transposed = transposed;
    p.groups = (int64_t)conv.getGroups();
    p.stride = expandConvAttribute(conv.getStride(), n, 1);
    p.padding = expandConvAttribute(conv.getPadding(), n, 0);
    p.dilation = expandConvAttribute(conv.getDilation(), n, 1);
    p.outputPadding =
        expandConvAttribute(transposed ? outputPadding : std::nullopt, n, 0);
    p.batched = (int64_t)shapeOf(conv.getInput()).size() == n + 2;
  };
  if (auto c = dyn_cast<Conv1dOp>(op))
    fill(c, 1, false, std::nullopt);
  else if (auto c = dyn_cast<Conv2dOp>(op))
    fill(c, 2, false, std::nullopt);
  else if (auto c = dyn_cast<Conv3dOp>(op))
    fill(c, 3, false, std::nullopt);
  else if (auto c = dyn_cast<ConvTranspose1dOp>(op))
    fill(c, 1, true, c.getOutputPadding());
  else if (auto c = dyn_cast<ConvTranspose2dOp>(op))
    fill(c, 2, true, c.getOutputPadding());
  else if (auto c = dyn_cast<ConvTranspose3dOp>(op))
    fill(c, 3, true, c.getOutputPadding());
  else if (auto c = dyn_cast<ConvolutionOp>(op))
    fill(c, rankOf(c.getWeight()) - 2, c.getTransposed(),
         std::optional<ArrayRef<int64_t>>(c.getOutputPadding()));
  else if (auto c = dyn_cast<ConvolutionBackwardOp>(op))
    fill(c, rankOf(c.getWeight()) - 2, c.getTransposed(),
         std::optional<ArrayRef<int64_t>>(c.getOutputPadding()));
  else
    return failure();
  return p;
}

namespace {
/// The tp op `name` with inferred result types, or null when it cannot be
/// built or its first result would not have type `expected`.
Value buildExpecting(OpBuilder &b, Location loc, StringRef name,
                     ValueRange operands, ArrayRef<NamedAttribute> attrs,
                     Type expected) {
  Operation *op = createWithInferredResultTypes(b, loc, name, operands, attrs);
  if (!op)
    return {};
  if (op->getResult(0).getType() != expected) {
    op->erase();
    return {};
  }
  return op->getResult(0);
}
} // namespace

Value lowering::buildConvolutionInputGradient(OpBuilder &b,
                                              ConvolutionBackwardOp op,
                                              ValueRange operands) {
  ConvParams p = *getConvParams(op);
  Value g = operands[0], x = operands[1], w = operands[2];
  ArrayRef<int64_t> xs = shapeOf(x), gs = shapeOf(g), ws = shapeOf(w);
  int64_t n = p.spatialRank;
  // The adjoint of a convolution is the transposed convolution with the
  // same geometry; the input rows the forward's last window does not reach
  // come back as output_padding (less than the stride). The adjoint of a
  // transposed convolution is the convolution (whose output size is then
  // exactly the input's).
  SmallVector<int64_t> outputPadding(n, 0);
  if (!p.transposed)
    for (int64_t i = 0; i < n; ++i)
      outputPadding[i] = xs[2 + i] + 2 * p.padding[i] -
                         p.dilation[i] * (ws[2 + i] - 1) - 1 -
                         p.stride[i] * (gs[2 + i] - 1);
  NamedAttribute attrs[] = {
      b.getNamedAttr("operandSegmentSizes",
                     b.getDenseI32ArrayAttr({1, 1, 0, 0})),
      b.getNamedAttr("stride", b.getDenseI64ArrayAttr(p.stride)),
      b.getNamedAttr("padding", b.getDenseI64ArrayAttr(p.padding)),
      b.getNamedAttr("dilation", b.getDenseI64ArrayAttr(p.dilation)),
      b.getNamedAttr("transposed", b.getBoolAttr(!p.transposed)),
      b.getNamedAttr("output_padding", b.getDenseI64ArrayAttr(outputPadding)),
      b.getNamedAttr("groups", b.getI64IntegerAttr(p.groups))};
  return buildExpecting(b, op.getLoc(), ConvolutionOp::getOperationName(),
                        {g, w}, attrs, op.getGradInput().getType());
}

Value lowering::buildConvolutionBiasGradient(OpBuilder &b,
                                             ConvolutionBackwardOp op,
                                             ValueRange operands) {
  Value g = operands[0];
  SmallVector<int64_t> dims = {0};
  for (int64_t d = 2, e = rankOf(g); d < e; ++d)
    dims.push_back(d);
  NamedAttribute attrs[] = {b.getNamedAttr("dim", b.getDenseI64ArrayAttr(dims)),
                            b.getNamedAttr("keepdim", b.getBoolAttr(false))};
  return buildExpecting(b, op.getLoc(), SumOp::getOperationName(), {g}, attrs,
                        op.getGradBias().getType());
}
