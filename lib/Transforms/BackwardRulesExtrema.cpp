//===- BackwardRulesExtrema.cpp - Rules of max and its kin ----------------===//
//
// The backward of the ops that select elements by value, as PyTorch
// defines it:
//
//   amax / max (all elements): the gradient is shared evenly between the
//     elements equal to the maximum;
//   max_dim: the gradient goes to the element its index names;
//   topk: the values' gradient is scatter-added at the indices;
//   maximum / minimum: to the larger (smaller) operand, halved on ties.
//
// The dialect has no comparison ops: the masks are built with
// threshold_backward (Rule::isZero), exactly.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

// Declared in BackwardRule.h: where(x == y, g / 2, g) masked to where each
// operand wins.
std::pair<Value, Value> mlir::tp::extremumGradients(Rule &r, Value x, Value y,
                                                    Value g, bool isMaximum) {
  Value d = r.castTo(r.sub(x, y), elementTypeOf(g));
  Value tie = r.scale(r.mul(r.isZero(d), g), 0.5);
  Value xWins = r.passAbove(g, isMaximum ? d : r.neg(d), 0.0);
  Value yWins = r.passAbove(g, isMaximum ? r.neg(d) : d, 0.0);
  return {r.add(xWins, tie), r.add(yWins, tie)};
}

// Declared in BackwardRule.h.
Value mlir::tp::shareAmongTies(Rule &r, Value values, Value extreme, Value g,
                               ArrayRef<int64_t> dims) {
  Value mask = r.isZero(r.sub(values, extreme));
  Value count = r.sumAlong(mask, dims, /*keepdim=*/true);
  return r.mul(mask, r.div(g, count));
}

namespace {
/// amax over `dims` and max over all: shared among the maxima.
LogicalResult evenRule(Rule &r, ArrayRef<int64_t> dims, bool keepdim) {
  Value x = r.op->getOperand(0), y = r.op->getResult(0);
  Value ye = expandReduced(r, y, x, dims, keepdim);
  // g with the reduced dims kept (size 1): divided before it broadcasts.
  SmallVector<int64_t> kept(shapeOf(x));
  for (int64_t d : dims)
    kept[d] = 1;
  r.give(x, shareAmongTies(r, x, ye, r.reshape(r.grad, kept), dims));
  return success();
}

/// max_dim: the gradient of the values goes to the positions the indices
/// name: mask = (iota == index) along dim.
LogicalResult maxDimRule(Rule &r, MaxDimOp max) {
  Value x = max.getInput();
  int64_t rank = rankOf(x);
  auto dim = static_cast<int64_t>(max.getDim());
  if (dim < 0)
    dim += rank;
  int64_t size = shapeOf(x)[dim];
  SmallVector<int64_t> kept(shapeOf(x)), iotaShape(rank, 1);
  kept[dim] = 1;
  iotaShape[dim] = size;
  SmallVector<double> positions;
  for (int64_t i = 0; i < size; ++i)
    positions.push_back(static_cast<double>(i));
  Type i64 = r.b.builder.getIntegerType(64);
  Value iota = r.constant(iotaShape, i64, positions);
  Value index = r.reshape(max.getIndices(), kept);
  Value mask = r.equalIndices(iota, index, elementTypeOf(r.grad));
  r.give(x, r.mul(mask, r.reshape(r.grad, kept)));
  return success();
}

/// topk: the values' gradient goes back to the positions the indices name
/// (aten's value_selecting_reduction_backward).
LogicalResult topkRule(Rule &r, TopkOp topk) {
  Value x = topk.getInput();
  int64_t dim = normalizeDim(topk.getDim(), rankOf(x));
  if (rankOf(x) == 0) {
    // A 0-d input: k is 0 or 1, and the one element is taken or not.
    r.give(x, topk.getK() ? r.grad : r.scale(r.grad, 0.0));
    return success();
  }
  r.give(x, r.scatterIntoZeros(shapeOf(x), dim, topk.getIndices(), r.grad));
  return success();
}

/// maximum / minimum of the operands.
LogicalResult binaryRule(Rule &r, bool isMaximum) {
  Value x = r.op->getOperand(0), y = r.op->getOperand(1);
  auto [dx, dy] = extremumGradients(r, x, y, r.grad, isMaximum);
  if (r.active(x))
    r.give(x, dx);
  if (r.active(y))
    r.give(y, dy);
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyExtremaRule(Rule &r) {
  Operation *op = r.op;
  if (auto amax = dyn_cast<AmaxOp>(op)) {
    SmallVector<int64_t> dims =
        reductionDims(amax.getDim(), rankOf(amax.getInput()));
    return evenRule(r, dims, amax.getKeepdim());
  }
  if (auto max = dyn_cast<MaxOp>(op))
    return evenRule(r, reductionDims(std::nullopt, rankOf(max.getInput())),
                    /*keepdim=*/false);
  if (auto max = dyn_cast<MaxDimOp>(op))
    return maxDimRule(r, max);
  if (auto topk = dyn_cast<TopkOp>(op))
    return topkRule(r, topk);
  if (isa<MaximumOp, MinimumOp>(op))
    return binaryRule(r, isa<MaximumOp>(op));
  return std::nullopt;
}
