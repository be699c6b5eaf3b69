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
//   adaptive_max_pool3d: tp.adaptive_max_pool3d_backward with its indices.
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
  r.give(x, r.make(backward, operands, attrs));
  return success();
}

/// max_pool{2,3}d: its indices from a max_pool{2,3}d_with_indices of the
/// same input (computed in the backward, in the forward's dtype).
LogicalResult maxPoolRule(Rule &r, StringRef withIndices, StringRef backward) {
  if (!r.active(r.op->getOperand(0)))
    return success();
  Operation *pool =
      r.makeOp(withIndices, r.op->getOperand(0), poolAttributes(r.op));
  if (!pool)
    return success();
  return poolRule(r, backward, pool->getResult(1), /*withAttributes=*/true);
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyPoolingRule(Rule &r) {
  Operation *op = r.op;
  if (isa<AvgPool2dOp>(op))
    return poolRule(r, "tp.avg_pool2d_backward", {}, true);
  if (isa<AvgPool3dOp>(op))
    return poolRule(r, "tp.avg_pool3d_backward", {}, true);
  if (isa<AdaptiveAvgPool2dOp>(op))
    return poolRule(r, "tp.adaptive_avg_pool2d_backward", {}, false);
  if (isa<AdaptiveAvgPool3dOp>(op))
    return poolRule(r, "tp.adaptive_avg_pool3d_backward", {}, false);
  if (isa<MaxPool2dOp>(op))
    return maxPoolRule(r, "tp.max_pool2d_with_indices",
                       "tp.max_pool2d_with_indices_backward");
  if (isa<MaxPool3dOp>(op))
    return maxPoolRule(r, "tp.max_pool3d_with_indices",
                       "tp.max_pool3d_with_indices_backward");
  if (isa<MaxPool2dWithIndicesOp>(op))
    return poolRule(r, "tp.max_pool2d_with_indices_backward", op->getResult(1),
                    true);
  if (isa<MaxPool3dWithIndicesOp>(op))
    return poolRule(r, "tp.max_pool3d_with_indices_backward", op->getResult(1),
                    true);
  if (isa<AdaptiveMaxPool3dOp>(op))
    return poolRule(r, "tp.adaptive_max_pool3d_backward", op->getResult(1),
                    false);
  return std::nullopt;
}
