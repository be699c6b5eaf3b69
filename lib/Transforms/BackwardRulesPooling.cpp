//===- BackwardRulesPooling.cpp - Rules of the pools ----------------------===//
//
// The backward of the pools, as aten's backward ops (which take the
// forward's attributes):
//
//   avg_pool{2,3}d: tp.avg_pool{2,3}d_backward;
//   adaptive_avg_pool{2,3}d: tp.adaptive_avg_pool{2,3}d_backward;
//   max_pool{2,3}d(_with_indices): tp.max_pool{2,3}d_with_indices_backward
//     with the forward's indices (max_pool{2,3}d, which has none, gets them
//     from a max_pool{2,3}d_with_indices of its input);
//   adaptive_max_pool3d: tp.adaptive_max_pool3d_backward with its indices;
//   fractional_max_pool{2,3}d: the gradient scatter-added into each input
//     plane at the forward's indices (tp.scatter_add);
//   max_unpool{2,3}d: the gradient gathered from each output plane at the
//     indices (tp.gather), as PyTorch: with duplicate indices every input
//     entry gets the gradient of the place it was (or would have been)
//     written to.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// The forward op's own (inherent) attributes, for its backward op.
SmallVector<NamedAttribute> poolAttributes(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getAttrs())
    if (!attr.getName().getValue().contains('.'))
      attrs.push_back(attr);
  return attrs;
}

/// `backward` of (grad, input[, indices]) with the forward's attributes.
LogicalResult poolRule(Rule &r, StringRef backward, Value indices,
                       bool withAttributes) {
  Value x = r.op->getOperand(0);
  if (!r.active(x))
    return success();
  SmallVector<Value> operands = {r.grad, x};
  if (indices)
    operands.push_back(indices);
  SmallVector<NamedAttribute> attrs;
  if (withAttributes)
    attrs = poolAttributes(r.op);
  r.give(x, r.makeNamed(backward, operands, attrs));
  return success();
}

/// max_pool{2,3}d: its indices from a max_pool{2,3}d_with_indices of the
/// same input (computed in the backward, in the forward's dtype).
LogicalResult maxPoolRule(Rule &r, StringRef withIndices, StringRef backward) {
  if (!r.active(r.op->getOperand(0)))
    return success();
  Operation *pool =
      r.makeNamedOp(withIndices, r.op->getOperand(0), poolAttributes(r.op));
  if (!pool)
    return success();
  return poolRule(r, backward, pool->getResult(1), /*withAttributes=*/true);
}

/// `v` with its trailing `n` (spatial) dims flattened into one and the
/// ones before them into another: (rows, plane).
Value asPlanes(Rule &r, Value v, int64_t n) {
  if (!v)
    return {};
  ArrayRef<int64_t> s = shapeOf(v);
  int64_t rows = 1, plane = 1;
  for (auto [d, size] : llvm::enumerate(s))
    (static_cast<int64_t>(d) < static_cast<int64_t>(s.size()) - n ? rows
                                                                  : plane) *=
        size;
  return r.reshape(v, {rows, plane});
}

/// fractional_max_pool: x's planes get g at the indices of the maxima.
LogicalResult fractionalRule(Rule &r, int64_t n) {
  Value x = r.op->getOperand(0);
  if (!r.active(x))
    return success();
  Value plane = asPlanes(r, x, n);
  if (!plane)
    return success();
  Value scattered =
      r.scatterIntoZeros(shapeOf(plane), 1, asPlanes(r, r.op->getResult(1), n),
                         asPlanes(r, r.grad, n));
  r.give(x, r.reshape(scattered, shapeOf(x)));
  return success();
}

/// max_unpool: x gets the output's gradient at its indices.
LogicalResult unpoolRule(Rule &r, int64_t n) {
  Value x = r.op->getOperand(0), indices = r.op->getOperand(1);
  if (!r.active(x))
    return success();
  Value taken = r.gather(asPlanes(r, r.grad, n), 1, asPlanes(r, indices, n));
  r.give(x, r.reshape(taken, shapeOf(x)));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyPoolingRule(Rule &r) {
  Operation *op = r.op;
  if (isa<AvgPool2dOp>(op))
    return poolRule(r, AvgPool2dBackwardOp::getOperationName(), {}, true);
  if (isa<AvgPool3dOp>(op))
    return poolRule(r, AvgPool3dBackwardOp::getOperationName(), {}, true);
  if (isa<AdaptiveAvgPool2dOp>(op))
    return poolRule(r, AdaptiveAvgPool2dBackwardOp::getOperationName(), {},
                    false);
  if (isa<AdaptiveAvgPool3dOp>(op))
    return poolRule(r, AdaptiveAvgPool3dBackwardOp::getOperationName(), {},
                    false);
  if (isa<MaxPool2dOp>(op))
    return maxPoolRule(r, MaxPool2dWithIndicesOp::getOperationName(),
                       MaxPool2dWithIndicesBackwardOp::getOperationName());
  if (isa<MaxPool3dOp>(op))
    return maxPoolRule(r, MaxPool3dWithIndicesOp::getOperationName(),
                       MaxPool3dWithIndicesBackwardOp::getOperationName());
  if (isa<MaxPool2dWithIndicesOp>(op))
    return poolRule(r, MaxPool2dWithIndicesBackwardOp::getOperationName(),
                    op->getResult(1), true);
  if (isa<MaxPool3dWithIndicesOp>(op))
    return poolRule(r, MaxPool3dWithIndicesBackwardOp::getOperationName(),
                    op->getResult(1), true);
  if (isa<AdaptiveMaxPool3dOp>(op))
    return poolRule(r, AdaptiveMaxPool3dBackwardOp::getOperationName(),
                    op->getResult(1), false);
  if (isa<FractionalMaxPool2dOp>(op))
    return fractionalRule(r, 2);
  if (isa<FractionalMaxPool3dOp>(op))
    return fractionalRule(r, 3);
  // The samplers are differentiated in their decomposed form (gathers,
  // DecomposeGridSample.cpp), which bicubic has for 4-D inputs only.
  auto grid = dyn_cast<GridSampleOp>(op);
  bool bicubic =
      grid ? grid.getMode() == "bicubic"
           : isa<GridSamplerOp, GridSampler2dOp, GridSampler2dCpuFallbackOp>(
                 op) &&
                 op->getAttrOfType<IntegerAttr>("interpolation_mode")
                         .getInt() == 2;
  if (bicubic && rankOf(op->getOperand(0)) != 4)
    return op->emitOpError("tp-autodiff: bicubic grid sampling takes 4-D "
                           "inputs, got ")
           << op->getOperand(0).getType();
  if (isa<MaxUnpool2dOp>(op))
    return unpoolRule(r, 2);
  if (isa<MaxUnpool3dOp>(op))
    return unpoolRule(r, 3);
  return std::nullopt;
}
