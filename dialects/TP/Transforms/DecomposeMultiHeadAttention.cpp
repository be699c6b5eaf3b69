//===- DecomposeMultiHeadAttention.cpp - _native_multi_head_attention -----===//
//
// aten::_native_multi_head_attention (nn.MultiheadAttention's fused
// inference path) as tensorplay's CPU kernel computes it: the q, k, v
// projections by the rows of qkv_weight, the bias added and q scaled by
// 1/sqrt(head_dim), the heads split, softmax(q k^T) with the boolean mask
// (true: masked; a row with every key masked gives zeros, as the masked
// softmax), the context joined back and projected; the weights averaged
// over the heads (or per head), or an empty tensor without need_weights.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

struct DecomposeNativeMha
    : public OpRewritePattern<NativeMultiHeadAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NativeMultiHeadAttentionOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    Location loc = op.getLoc();
    int64_t e = op.getEmbedDim(), heads = op.getNumHead(), headDim = e / heads;
    Type elem = elementTypeOf(op.getQuery());
    if (!isa<FloatType>(elem))
      return failure();
    Value w = op.getQkvWeight(), b = op.getQkvBias();
    // Projection k of {q, k, v}: x W_k^T + b_k, split into heads
    // [B, H, L, head_dim].
    auto project = [&](Value x, int64_t k, double scale) {
      Value y = linear(rewriter, loc, x,
                       slice(rewriter, loc, w, 0, k * e, (k + 1) * e), Value());
      y = build<AddOp>(rewriter, loc,
                       {y, slice(rewriter, loc, b, 0, k * e, (k + 1) * e)});
      if (scale != 1.0)
        y = build<MulOp>(rewriter, loc,
                         {y, scalarFor(rewriter, loc, y, scale)});
      ArrayRef<int64_t> s = shapeOf(y);
      y = reshape(rewriter, loc, y, {s[0], s[1], heads, headDim});
      return build<TransposeOp>(
          rewriter, loc, y,
          {i64Attr(rewriter, "dim0", 1), i64Attr(rewriter, "dim1", 2)});
    };
    Value q = project(op.getQuery(), 0, 1.0 / std::sqrt((double)headDim));
    Value k = project(op.getKey(), 1, 1.0);
    Value v = project(op.getValue(), 2, 1.0);
    Value scores = matmul(rewriter, loc, q, transposeLast2(rewriter, loc, k));
    Value mask = op.getMask();
    if (mask) {
      // mask_type 1: a key padding mask [B, S] (the verifier checks it).
      ArrayRef<int64_t> ms = shapeOf(mask);
      if (op.getMaskType() && *op.getMaskType() == 1)
        mask = reshape(rewriter, loc, mask, {ms[0], 1, 1, ms[1]});
      scores = build<WhereOp>(
          rewriter, loc,
          {mask, scalarTensor(rewriter, loc, elem, -INFINITY), scores});
    }
    Value probs =
        build<SoftmaxOp>(rewriter, loc, scores, {i64Attr(rewriter, "dim", -1)});
    if (mask)
      probs = build<MaskedFillOp>(rewriter, loc, {probs, mask},
                                  {f64Attr(rewriter, "value", 0.0)});
    Value ctx = matmul(rewriter, loc, probs, v);
    ctx = build<TransposeOp>(
        rewriter, loc, ctx,
        {i64Attr(rewriter, "dim0", 1), i64Attr(rewriter, "dim1", 2)});
    ArrayRef<int64_t> qs = shapeOf(op.getQuery());
    ctx = reshape(rewriter, loc, ctx, {qs[0], qs[1], e});
    Value out =
        linear(rewriter, loc, ctx, op.getProjWeight(), op.getProjBias());
    auto weightsType = cast<RankedTensorType>(op.getWeights().getType());
    Value weights;
    if (!op.getNeedWeights()) {
      weights = zerosOf(rewriter, loc, weightsType);
    } else if (op.getAverageAttnWeights()) {
      Value sum =
          build<SumOp>(rewriter, loc, probs, {arrayAttr(rewriter, "dim", {1})});
      weights = build<DivOp>(
          rewriter, loc, {sum, scalarFor(rewriter, loc, sum, (double)heads)});
    } else {
      weights = probs;
    }
    weights = castTo(rewriter, loc, weights, weightsType.getElementType());
    if (out.getType() != op.getOutput().getType() ||
        weights.getType() != weightsType)
      return op.emitOpError("decomposition produced ")
             << out.getType() << " and " << weights.getType() << " instead of "
             << op.getOutput().getType() << " and " << weightsType;
    rewriter.replaceOp(op, {out, weights});
    return success();
  }
};

} // namespace

void mlir::tp::decompose::populateDecomposeMultiHeadAttentionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeNativeMha>(patterns.getContext());
}
