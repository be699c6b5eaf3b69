//===- DecomposeComposite.cpp - composite tp ops into simpler tp ops ------===//
//
// Rewrites the tp ops that tensorplay implements as compositions of other
// operators into those compositions, in the op's dtypes, so that the matrix
// products reach the oneDNN (or linalg) lowering of matmul and the rest the
// elementwise / softmax / reduction lowerings: here attention (grouped-query
// too), chain_matmul, multi_dot and conv_tbc, and the pass; the recurrent
// cells in DecomposeCells.cpp, distances and renorm in
// DecomposeDistances.cpp, the margin losses in DecomposeMarginLosses.cpp,
// index_put with a boolean mask in DecomposeIndexPutMask.cpp, complex
// matrix products in DecomposeComplexProducts.cpp.
// tp.autocast regions are inlined first (InlineAutocastRegions.cpp).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPDECOMPOSECOMPOSITEOPSPASS
#include "tensorplay/Dialect/TP/Transforms/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

/// x [..., H, S, E] with each head repeated `times` times in place:
/// [..., H * times, S, E] (repeat_interleave along dim -3).
Value repeatHeads(PatternRewriter &rewriter, Location loc, Value x,
                  int64_t times) {
  SmallVector<int64_t> shape(shapeOf(x));
  int64_t h = shape.size() - 3;
  Value y = unsqueeze(rewriter, loc, x, h + 1);
  SmallVector<int64_t> expanded(shapeOf(y));
  expanded[h + 1] = times;
  y = build<ExpandOp>(rewriter, loc, y,
                      {arrayAttr(rewriter, "size", expanded)});
  shape[h] *= times;
  return reshape(rewriter, loc, y, shape);
}

/// scaled_dot_product_attention as tensorplay's math reference computes it:
/// softmax(q @ k^T * scale + mask) @ v, with an optional causal mask and
/// dropout on the probabilities.
struct DecomposeSdpa : public OpRewritePattern<ScaledDotProductAttentionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScaledDotProductAttentionOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
    if (!op.getOut().empty())
      return failure();
    Type elem = tensorTypeOf(q).getElementType();
    if (!isa<FloatType>(elem))
      return failure();
    ArrayRef<int64_t> qs = tensorTypeOf(q).getShape(),
                      ks = tensorTypeOf(k).getShape();
    if (op.getEnableGqa() && qs.size() >= 3 && ks.size() >= 3 &&
        qs[qs.size() - 3] != ks[ks.size() - 3]) {
      // Grouped-query attention: each key / value head serves
      // heads(q) / heads(k) consecutive query heads, as tensorplay's
      // repeat_interleave(k, heads(q) / heads(k), dim=-3).
      int64_t hq = qs[qs.size() - 3], hk = ks[ks.size() - 3];
      if (hk <= 0 || hq % hk != 0)
        return op.emitOpError("grouped-query attention needs the query's "
                              "head count (")
               << hq << ") to be a multiple of the key's (" << hk << ")";
      k = repeatHeads(rewriter, loc, k, hq / hk);
      v = repeatHeads(rewriter, loc, v, hq / hk);
    }
    int64_t e = qs.back();
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt((double)e);
    Value scores = matmul(rewriter, loc, q, transposeLast2(rewriter, loc, k));
    RankedTensorType st = tensorTypeOf(scores);
    // Without embedding the products are zeros (tensorplay scales q and k
    // by sqrt(scale) before them, so an infinite default scale stays out).
    if (e != 0)
      scores = build<MulOp>(rewriter, loc,
                            {scores, scalarFor(rewriter, loc, scores, scale)});
    int64_t l = st.getShape()[st.getRank() - 2], s = st.getShape().back();
    Value negInf = scalarTensor(rewriter, loc, elem, -INFINITY);
    if (op.getIsCausal()) {
      SmallVector<bool> causal;
      for (int64_t i = 0; i < l; ++i)
        for (int64_t j = 0; j < s; ++j)
          causal.push_back(j <= i);
      auto maskType = RankedTensorType::get({l, s}, rewriter.getI1Type());
      Value mask = makeOp<ConstantOp>(
          rewriter, loc, maskType, {},
          {rewriter.getNamedAttr("value",
                                 DenseElementsAttr::get(maskType, causal))});
      scores = build<WhereOp>(rewriter, loc, {mask, scores, negInf});
    }
    if (Value mask = op.getAttnMask()) {
      RankedTensorType mt = tensorTypeOf(mask);
      if (mt.getElementType().isInteger(1)) {
        scores = build<WhereOp>(rewriter, loc, {mask, scores, negInf});
      } else {
        if (mt.getElementType() != elem)
          mask = makeOp<CastOp>(
              rewriter, loc, RankedTensorType::get(mt.getShape(), elem), mask);
        scores = build<AddOp>(rewriter, loc, {scores, mask});
      }
    }
    Value probs = build<SoftmaxOp>(
        rewriter, loc, scores,
        {rewriter.getNamedAttr("dim", rewriter.getI64IntegerAttr(-1))});
    double p = op.getDropoutP().convertToDouble();
    if (p > 0.0)
      probs = build<DropoutOp>(
          rewriter, loc, probs,
          {rewriter.getNamedAttr("p", rewriter.getF64FloatAttr(p)),
           rewriter.getNamedAttr("train", rewriter.getBoolAttr(true))});
    Value out = matmul(rewriter, loc, probs, v);
    if (out.getType() != op.getType())
      return op.emitOpError("decomposition produced ")
             << out.getType() << " instead of " << op.getType();
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// chain_matmul / multi_dot: left-to-right products.
template <typename OpTy>
struct DecomposeChain : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return failure();
    auto tensors = op.getTensors();
    Value acc = tensors[0];
    for (Value t : llvm::drop_begin(tensors))
      acc = matmul(rewriter, op.getLoc(), acc, t);
    if (acc.getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// conv_tbc(x [T, B, C], w [K, C, O], b) = conv1d over [B, C, T] with
/// weight [O, C, K], permuted back to [T', B, O].
struct DecomposeConvTbc : public OpRewritePattern<ConvTbcOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvTbcOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getOut().empty())
      return failure();
    Value x = permute(rewriter, loc, op.getInput(), {1, 2, 0});
    Value w = permute(rewriter, loc, op.getWeight(), {2, 1, 0});
    int64_t pad = (int64_t)op.getPad();
    Value y =
        build<Conv1dOp>(rewriter, loc, {x, w, op.getBias()},
                        {segments(rewriter, {1, 1, 1, 0}),
                         rewriter.getNamedAttr(
                             "padding", rewriter.getDenseI64ArrayAttr({pad}))});
    rewriter.replaceOp(op, permute(rewriter, loc, y, {2, 0, 1}));
    return success();
  }
};

struct DecomposeCompositeOpsPass
    : public tp::impl::TPDecomposeCompositeOpsPassBase<
          DecomposeCompositeOpsPass> {
  void runOnOperation() override {
    inlineAutocastRegions(getOperation());
    RewritePatternSet patterns(&getContext());
    populateDecomposeAttentionPatterns(patterns);
    populateDecomposeCompositePatterns(patterns);
    populateStripOutFormPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::tp::populateDecomposeAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeSdpa>(patterns.getContext());
  populateDecomposeMultiHeadAttentionPatterns(patterns);
}

void mlir::tp::populateDecomposeCompositePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeChain<ChainMatmulOp>, DecomposeChain<MultiDotOp>,
               DecomposeConvTbc>(patterns.getContext());
  populateDecomposeCellPatterns(patterns);
  populateDecomposeDistancePatterns(patterns);
  populateDecomposeMarginLossPatterns(patterns);
  populateDecomposeLinalgPatterns(patterns);
  populateDecomposeQuantilePatterns(patterns);
  populateDecomposeStftPatterns(patterns);
  populateDecomposeIndexPutMaskPatterns(patterns);
  populateDecomposeComplexProductPatterns(patterns);
  populateDecomposeLogsumexpPatterns(patterns);
}
