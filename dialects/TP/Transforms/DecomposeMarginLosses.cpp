//===- DecomposeMarginLosses.cpp - the multi-class hinge losses -----------===//
//
// multi_margin_loss, multilabel_margin_loss and its `_forward` (which also
// returns is_target) as the tp ops they are made of: the target's scores
// gathered per sample, the hinge max(0, margin - x[y] + x[j]) over the
// classes that are not targets, its sum over the classes divided by their
// count, then the reduction, as tensorplay's CPU kernels compute them. An
// unbatched (C) input is a batch of one.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

/// The per-sample losses [N] reduced: kept (0-d for an unbatched input),
/// summed or averaged; cast to `type`'s element type.
Value reduceSamples(PatternRewriter &rewriter, Location loc, Value perSample,
                    Reduction reduction, bool unbatched,
                    RankedTensorType type) {
  Value out = perSample;
  if (reduction == Reduction::Sum)
    out = build<SumOp>(rewriter, loc, perSample);
  else if (reduction == Reduction::Mean)
    out = build<MeanOp>(rewriter, loc, perSample);
  else if (unbatched)
    out = reshape(rewriter, loc, perSample, {});
  return castTo(rewriter, loc, out, type.getElementType());
}

/// Sum over `dims` of h divided by the class count: the per-sample loss.
Value perClassMean(PatternRewriter &rewriter, Location loc, Value h,
                   ArrayRef<int64_t> dims, int64_t classes) {
  Value sum =
      build<SumOp>(rewriter, loc, h, {arrayAttr(rewriter, "dim", dims)});
  return build<DivOp>(
      rewriter, loc,
      {sum, scalarTensor(rewriter, loc, elementTypeOf(sum), (double)classes)});
}

/// The positions 0 .. C-1 (to compare class indices with).
Value classPositions(PatternRewriter &rewriter, Location loc, int64_t c) {
  SmallVector<int64_t> positions;
  for (int64_t i = 0; i < c; ++i)
    positions.push_back(i);
  return indexTensor(rewriter, loc, positions);
}

/// multi_margin_loss(x [N, C], y [N], weight [C]?, p, margin): per sample,
/// sum over j != y of w[y] * max(0, margin - x[y] + x[j])^p, over C.
struct DecomposeMultiMargin : public OpRewritePattern<MultiMarginLossOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MultiMarginLossOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value x = op.getInput(), y = op.getTarget();
    bool unbatched = rankOf(x) == 1;
    if (unbatched) {
      x = unsqueeze(rewriter, loc, x, 0);
      y = reshape(rewriter, loc, y, {1});
    }
    int64_t c = shapeOf(x)[1];
    Type elem = elementTypeOf(x);
    Value yi = unsqueeze(rewriter, loc, y, 1);
    Value xy =
        build<GatherOp>(rewriter, loc, {x, yi}, {i64Attr(rewriter, "dim", 1)});
    Value margin =
        scalarTensor(rewriter, loc, elem, op.getMargin().convertToDouble());
    Value z = build<AddOp>(rewriter, loc,
                           {build<SubOp>(rewriter, loc, {margin, xy}), x});
    Value h = build<ReluOp>(rewriter, loc, z);
    if (op.getP() == 2)
      h = build<MulOp>(rewriter, loc, {h, h});
    if (Value w = op.getWeight())
      h = build<MulOp>(
          rewriter, loc,
          {h, build<EmbeddingOp>(rewriter, loc,
                                 {reshape(rewriter, loc, w, {c, 1}), y})});
    Value isTarget =
        build<EqOp>(rewriter, loc, {yi, classPositions(rewriter, loc, c)});
    h = build<MaskedFillOp>(rewriter, loc, {h, isTarget},
                            {f64Attr(rewriter, "value", 0.0)});
    Value loss = perClassMean(rewriter, loc, h, {1}, c);
    rewriter.replaceOp(op, reduceSamples(rewriter, loc, loss, op.getReduction(),
                                         unbatched,
                                         cast<RankedTensorType>(op.getType())));
    return success();
  }
};

/// multilabel_margin_loss(x [N, C], y [N, C]): the targets of a sample are
/// y's entries before its first negative one; per sample, the sum over
/// targets t and non-target classes j of max(0, 1 - x[t] + x[j]), over C.
/// Returns (loss, is_target), is_target in x's dtype and shape.
template <typename OpTy>
struct DecomposeMultilabelMargin : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    Value x = op.getInput(), y = op.getTarget();
    bool unbatched = rankOf(x) == 1;
    if (unbatched) {
      x = unsqueeze(rewriter, loc, x, 0);
      y = unsqueeze(rewriter, loc, y, 0);
    }
    int64_t c = shapeOf(x)[1];
    Type elem = elementTypeOf(x), index = elementTypeOf(y);
    Type i64 = rewriter.getI64Type();
    // valid[n, k]: no negative entry in y[n, :k+1].
    Value negative = build<LtOp>(rewriter, loc,
                                 {y, scalarTensor(rewriter, loc, index, 0.0)});
    Value seen =
        build<CumsumOp>(rewriter, loc, castTo(rewriter, loc, negative, i64),
                        {i64Attr(rewriter, "dim", 1)});
    Value valid = build<EqOp>(rewriter, loc,
                              {seen, scalarTensor(rewriter, loc, i64, 0.0)});
    Value targets = build<WhereOp>(
        rewriter, loc, {valid, y, scalarTensor(rewriter, loc, index, 0.0)});
    Value valid3 = unsqueeze(rewriter, loc, valid, 2);
    Value no = scalarTensor(rewriter, loc, rewriter.getI1Type(), 0.0);
    // isTarget[n, j] = any over valid k of y[n, k] == j.
    Value hits =
        build<WhereOp>(rewriter, loc,
                       {valid3,
                        build<EqOp>(rewriter, loc,
                                    {unsqueeze(rewriter, loc, targets, 2),
                                     classPositions(rewriter, loc, c)}),
                        no});
    Value isTarget =
        build<AmaxOp>(rewriter, loc, castTo(rewriter, loc, hits, elem),
                      {arrayAttr(rewriter, "dim", {1})});
    Value xt = build<GatherOp>(rewriter, loc, {x, targets},
                               {i64Attr(rewriter, "dim", 1)});
    Value z =
        build<AddOp>(rewriter, loc,
                     {build<SubOp>(rewriter, loc,
                                   {scalarTensor(rewriter, loc, elem, 1.0),
                                    unsqueeze(rewriter, loc, xt, 2)}),
                      unsqueeze(rewriter, loc, x, 1)});
    Value other = build<EqOp>(rewriter, loc,
                              {unsqueeze(rewriter, loc, isTarget, 1),
                               scalarTensor(rewriter, loc, elem, 0.0)});
    Value keep = build<WhereOp>(rewriter, loc, {valid3, other, no});
    Value h = build<WhereOp>(rewriter, loc,
                             {keep, build<ReluOp>(rewriter, loc, z),
                              scalarTensor(rewriter, loc, elem, 0.0)});
    Value loss = perClassMean(rewriter, loc, h, {1, 2}, c);
    auto lossType = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<Value> results = {reduceSamples(
        rewriter, loc, loss, op.getReduction(), unbatched, lossType)};
    if (op->getNumResults() == 2) {
      if (unbatched)
        isTarget = reshape(rewriter, loc, isTarget, {c});
      results.push_back(castTo(
          rewriter, loc, isTarget,
          cast<RankedTensorType>(op->getResult(1).getType()).getElementType()));
    }
    for (auto [value, result] : llvm::zip(results, op->getResults()))
      if (value.getType() != result.getType())
        return op.emitOpError("decomposition produced ")
               << value.getType() << " instead of " << result.getType();
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeMarginLossPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeMultiMargin,
               DecomposeMultilabelMargin<MultilabelMarginLossOp>,
               DecomposeMultilabelMargin<MultilabelMarginLossForwardOp>>(
      patterns.getContext());
}
