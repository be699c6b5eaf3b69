//===- BackwardRulesReductions.cpp - Rules of reductions and layouts ------===//
//
// The backward of sum and mean (the gradient expanded back over the reduced
// dimensions), cumsum, the layout ops (the inverse layout change, or the
// sum over what expand broadcast), and softmax / log_softmax / softmin
// from their saved outputs.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
LogicalResult reductionRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0);
  int64_t rank = rankOf(x);
  if (auto sum = dyn_cast<SumOp>(op)) {
    SmallVector<int64_t> dims = reductionDims(sum.getDim(), rank);
    r.give(x, expandReduced(r, r.grad, x, dims, sum.getKeepdim()));
    return success();
  }
  auto mean = cast<MeanOp>(op);
  SmallVector<int64_t> dims = reductionDims(mean.getDim(), rank);
  int64_t count = 1;
  for (int64_t d : dims)
    count *= shapeOf(x)[d];
  Value scaled = r.div(r.grad, r.scalar(r.grad, static_cast<double>(count)));
  r.give(x, expandReduced(r, scaled, x, dims, mean.getKeepdim()));
  return success();
}

/// cumsum: each input element reaches every later output, so its gradient
/// is the reversed cumulative sum of g: sum(g) - cumsum(g) + g.
LogicalResult cumsumRule(Rule &r, CumsumOp cumsum) {
  Value x = cumsum.getInput(), g = r.grad;
  // (I64Attr getters return unsigned values.)
  auto dim = static_cast<int64_t>(cumsum.getDim());
  if (dim < 0)
    dim += rankOf(x);
  Value total = r.expand(r.sumAlong(g, {dim}, /*keepdim=*/true), shapeOf(g));
  Value running = r.make("tp.cumsum", g,
                         {r.attr("dim", r.b.builder.getI64IntegerAttr(dim))});
  r.give(x, r.add(r.sub(total, running), g));
  return success();
}

LogicalResult layoutRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), g = r.grad;
  if (isa<ReshapeOp, UnsqueezeOp, SqueezeOp, FlattenOp>(op)) {
    r.give(x, r.reshape(g, shapeOf(x)));
  } else if (isa<ExpandOp>(op)) {
    // give() sums over the broadcast dimensions.
    r.give(x, g);
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    r.give(x, r.transpose(g, t.getDim0(), t.getDim1()));
  } else {
    auto permute = cast<PermuteOp>(op);
    ArrayRef<int64_t> dims = permute.getDims();
    SmallVector<int64_t> inverse(dims.size());
    for (auto [i, d] : llvm::enumerate(dims))
      inverse[d < 0 ? d + dims.size() : d] = static_cast<int64_t>(i);
    r.give(x,
           r.make("tp.permute", g,
                  {r.attr("dims", r.b.builder.getDenseI64ArrayAttr(inverse))}));
  }
  return success();
}

LogicalResult softmaxRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), y = op->getResult(0), g = r.grad;
  int64_t dim = op->getAttrOfType<IntegerAttr>("dim").getInt();
  if (dim < 0)
    dim += rankOf(x);
  if (isa<LogSoftmaxOp>(op)) {
    // g - exp(y) * sum(g, dim)
    Value s = r.sumAlong(g, {dim}, /*keepdim=*/true);
    r.give(x, r.sub(g, r.mul(r.make("tp.exp", y), s)));
    return success();
  }
  // softmax: y * (g - sum(g * y, dim)); softmin is softmax(-x).
  Value s = r.sumAlong(r.mul(g, y), {dim}, /*keepdim=*/true);
  Value dx = r.mul(y, r.sub(g, s));
  r.give(x, isa<SoftminOp>(op) ? r.neg(dx) : dx);
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyReductionRule(Rule &r) {
  Operation *op = r.op;
  if (isa<SumOp, MeanOp>(op))
    return reductionRule(r);
  if (auto cumsum = dyn_cast<CumsumOp>(op))
    return cumsumRule(r, cumsum);
  if (isa<ReshapeOp, UnsqueezeOp, SqueezeOp, FlattenOp, ExpandOp, TransposeOp,
          PermuteOp>(op))
    return layoutRule(r);
  if (isa<SoftmaxOp, LogSoftmaxOp, SoftminOp>(op))
    return softmaxRule(r);
  return std::nullopt;
}
