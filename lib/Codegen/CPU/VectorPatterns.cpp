//===- VectorPatterns.cpp - Vector rewrites of the CPU pipeline -----------===//
//
// See VectorPatterns.h.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/VectorPatterns.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {

/// multi_reduction(%v : vector<1x6xf32>, [0, 1]) -> multi_reduction(
/// shape_cast(%v) : vector<6xf32>, [0]); with no reduced dimension left, the
/// source is combined with the accumulator directly.
struct DropUnitReductionDims
    : public OpRewritePattern<vector::MultiDimReductionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.isMasked())
      return rewriter.notifyMatchFailure(op, "masked reduction");
    VectorType sourceType = op.getSourceVectorType();
    SmallVector<bool> reduced = op.getReductionMask();
    SmallVector<int64_t> shape;
    SmallVector<bool> scalable;
    SmallVector<bool> newReduced;
    for (auto [size, isScalable, isReduced] : llvm::zip_equal(
             sourceType.getShape(), sourceType.getScalableDims(), reduced)) {
      if (isReduced && size == 1 && !isScalable)
        continue;
      shape.push_back(size);
      scalable.push_back(isScalable);
      newReduced.push_back(isReduced);
    }
    if (shape.size() == reduced.size())
      return rewriter.notifyMatchFailure(op, "no unit reduced dimension");

    Location loc = op.getLoc();
    Value acc = op.getAcc();
    if (!llvm::is_contained(newReduced, true)) {
      // Every reduced dimension had size 1: source and accumulator have the
      // same elements.
      Value source;
      if (auto accType = dyn_cast<VectorType>(acc.getType()))
        source =
            vector::ShapeCastOp::create(rewriter, loc, accType, op.getSource());
      else
        source = vector::ExtractOp::create(
            rewriter, loc, op.getSource(),
            SmallVector<int64_t>(sourceType.getRank(), 0));
      rewriter.replaceOp(op, vector::makeArithReduction(
                                 rewriter, loc, op.getKind(), source, acc));
      return success();
    }
    auto newType =
        VectorType::get(shape, sourceType.getElementType(), scalable);
    Value source =
        vector::ShapeCastOp::create(rewriter, loc, newType, op.getSource());
    rewriter.replaceOpWithNewOp<vector::MultiDimReductionOp>(
        op, source, acc, newReduced, op.getKind());
    return success();
  }
};

} // namespace

void tp::populateDropUnitReductionDimsPatterns(RewritePatternSet &patterns,
                                               PatternBenefit benefit) {
  patterns.add<DropUnitReductionDims>(patterns.getContext(), benefit);
}
