//===- DecomposeComposite.cpp - composite tp ops into simpler tp ops ------===//
//
// Rewrites the tp ops that tensorplay implements as compositions of other
// operators (scaled_dot_product_attention, chain_matmul, multi_dot,
// conv_tbc, rnn_cell) into those compositions, in the op's dtypes, so that
// the matrix products reach the oneDNN (or linalg) lowering of matmul and
// the rest the elementwise / softmax lowerings. tp.autocast regions are
// inlined first (InlineAutocastRegions.cpp).
//
//===----------------------------------------------------------------------===//

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

namespace {

/// Creates a single-result tp op `OpTy` generically: operands, result type
/// and attributes (inherent ones become properties). For the ops whose
/// result type is the caller's choice (constants, casts).
template <typename OpTy>
Value makeOp(PatternRewriter &rewriter, Location loc, Type resultType,
             ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
  OperationState state(loc, OpTy::getOperationName());
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(attrs);
  return rewriter.create(state)->getResult(0);
}

/// Creates the compute op `OpTy` from operands and attributes: its result
/// type follows from the op's shape and dtype rules (the inferring builder).
template <typename OpTy>
Value build(PatternRewriter &rewriter, Location loc, ValueRange operands,
            ArrayRef<NamedAttribute> attrs = {}) {
  return OpTy::create(rewriter, loc, operands, attrs)->getResult(0);
}

NamedAttribute segments(PatternRewriter &rewriter, ArrayRef<int32_t> sizes) {
  return rewriter.getNamedAttr("operandSegmentSizes",
                               rewriter.getDenseI32ArrayAttr(sizes));
}

/// x^T over the last two dimensions.
Value transposeLast2(PatternRewriter &rewriter, Location loc, Value x) {
  int64_t r = rankOf(x);
  return build<TransposeOp>(
      rewriter, loc, x,
      {rewriter.getNamedAttr("dim0", rewriter.getI64IntegerAttr(r - 2)),
       rewriter.getNamedAttr("dim1", rewriter.getI64IntegerAttr(r - 1))});
}

Value matmul(PatternRewriter &rewriter, Location loc, Value a, Value b) {
  return build<MatmulOp>(rewriter, loc, {a, b});
}

/// A 0-d constant of `elementType`.
Value scalarTensor(PatternRewriter &rewriter, Location loc, Type elementType,
                   double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute attr;
  if (auto ft = dyn_cast<FloatType>(elementType))
    attr = DenseElementsAttr::get(type, rewriter.getFloatAttr(ft, value));
  else
    attr = DenseElementsAttr::get(type, rewriter.getBoolAttr(value != 0));
  return makeOp<ConstantOp>(rewriter, loc, type, {},
                            {rewriter.getNamedAttr("value", attr)});
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
        qs[qs.size() - 3] != ks[ks.size() - 3])
      return op.emitOpError("has no CPU lowering for grouped-query attention "
                            "with differing head counts");
    int64_t e = qs.back();
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt((double)e);
    Value scores = matmul(rewriter, loc, q, transposeLast2(rewriter, loc, k));
    RankedTensorType st = tensorTypeOf(scores);
    scores = build<MulOp>(
        rewriter, loc,
        {scores, scalarTensor(rewriter, loc, rewriter.getF32Type(), scale)});
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

Value permute(PatternRewriter &rewriter, Location loc, Value x,
              ArrayRef<int64_t> dims) {
  return build<PermuteOp>(
      rewriter, loc, x,
      {rewriter.getNamedAttr("dims", rewriter.getDenseI64ArrayAttr(dims))});
}

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

/// rnn_cell: act(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh)).
struct DecomposeRnnCell : public OpRewritePattern<RnnCellOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RnnCellOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getOut().empty())
      return failure();
    auto linear = [&](Value x, Value w, Value b) {
      SmallVector<Value> operands = {x, w};
      if (b)
        operands.push_back(b);
      return build<LinearOp>(rewriter, loc, operands,
                             {segments(rewriter, {1, 1, b ? 1 : 0, 0})});
    };
    Value gi = linear(op.getInput(), op.getWIh(), op.getBIh());
    Value gh = linear(op.getHx(), op.getWHh(), op.getBHh());
    Value sum = build<AddOp>(rewriter, loc, {gi, gh});
    Value h = op.getNonlinearity() == "relu"
                  ? build<ReluOp>(rewriter, loc, sum)
                  : build<TanhOp>(rewriter, loc, sum);
    rewriter.replaceOp(op, h);
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
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::tp::populateDecomposeAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeSdpa>(patterns.getContext());
}

void mlir::tp::populateDecomposeCompositePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeChain<ChainMatmulOp>, DecomposeChain<MultiDotOp>,
               DecomposeConvTbc, DecomposeRnnCell>(patterns.getContext());
}
