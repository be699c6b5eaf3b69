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

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Creates a single-result tp op `OpTy` generically: operands, result type
/// and attributes (inherent ones become properties).
template <typename OpTy>
Value makeOp(PatternRewriter &rewriter, Location loc, Type resultType,
             ValueRange operands, ArrayRef<NamedAttribute> attrs = {}) {
  OperationState state(loc, OpTy::getOperationName());
  state.addOperands(operands);
  state.addTypes(resultType);
  state.addAttributes(attrs);
  return rewriter.create(state)->getResult(0);
}

NamedAttribute segments(PatternRewriter &rewriter, ArrayRef<int32_t> sizes) {
  return rewriter.getNamedAttr("operandSegmentSizes",
                               rewriter.getDenseI32ArrayAttr(sizes));
}

/// x^T over the last two dimensions.
Value transposeLast2(PatternRewriter &rewriter, Location loc, Value x) {
  RankedTensorType t = typeOf(x);
  SmallVector<int64_t> shape(t.getShape());
  int64_t r = shape.size();
  std::swap(shape[r - 1], shape[r - 2]);
  return makeOp<TransposeOp>(
      rewriter, loc, RankedTensorType::get(shape, t.getElementType()), x,
      {rewriter.getNamedAttr("dim0", rewriter.getI64IntegerAttr(r - 2)),
       rewriter.getNamedAttr("dim1", rewriter.getI64IntegerAttr(r - 1))});
}

/// torch.matmul result type of a @ b.
RankedTensorType matmulType(Value a, Value b) {
  ArrayRef<int64_t> as = typeOf(a).getShape(), bs = typeOf(b).getShape();
  SmallVector<int64_t> shape;
  if (as.size() == 1 && bs.size() == 1)
    return RankedTensorType::get({}, typeOf(a).getElementType());
  SmallVector<int64_t> ab(as.begin(), as.end()), bb(bs.begin(), bs.end());
  bool aVec = ab.size() == 1, bVec = bb.size() == 1;
  if (aVec)
    ab.insert(ab.begin(), 1);
  if (bVec)
    bb.push_back(1);
  size_t batchRank = std::max(ab.size(), bb.size()) - 2;
  for (size_t i = 0; i < batchRank; ++i) {
    int64_t da =
        i + ab.size() - 2 >= batchRank ? ab[i + ab.size() - 2 - batchRank] : 1;
    int64_t db =
        i + bb.size() - 2 >= batchRank ? bb[i + bb.size() - 2 - batchRank] : 1;
    shape.push_back(da == 1 ? db : da);
  }
  if (!aVec)
    shape.push_back(ab[ab.size() - 2]);
  if (!bVec)
    shape.push_back(bb.back());
  return RankedTensorType::get(shape, typeOf(a).getElementType());
}

Value matmul(PatternRewriter &rewriter, Location loc, Value a, Value b) {
  return makeOp<MatmulOp>(rewriter, loc, matmulType(a, b), {a, b});
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
    Type elem = typeOf(q).getElementType();
    if (!isa<FloatType>(elem))
      return failure();
    ArrayRef<int64_t> qs = typeOf(q).getShape(), ks = typeOf(k).getShape();
    if (op.getEnableGqa() && qs.size() >= 3 && ks.size() >= 3 &&
        qs[qs.size() - 3] != ks[ks.size() - 3])
      return op.emitOpError("has no CPU lowering for grouped-query attention "
                            "with differing head counts");
    int64_t e = qs.back();
    double scale = op.getScale() ? op.getScale()->convertToDouble()
                                 : 1.0 / std::sqrt((double)e);
    Value scores = matmul(rewriter, loc, q, transposeLast2(rewriter, loc, k));
    RankedTensorType st = typeOf(scores);
    scores = makeOp<MulOp>(
        rewriter, loc, st,
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
      scores = makeOp<WhereOp>(rewriter, loc, st, {mask, scores, negInf});
    }
    if (Value mask = op.getAttnMask()) {
      RankedTensorType mt = typeOf(mask);
      if (mt.getElementType().isInteger(1)) {
        scores = makeOp<WhereOp>(rewriter, loc, st, {mask, scores, negInf});
      } else {
        if (mt.getElementType() != elem)
          mask = makeOp<CastOp>(
              rewriter, loc, RankedTensorType::get(mt.getShape(), elem), mask);
        scores = makeOp<AddOp>(rewriter, loc, st, {scores, mask});
      }
    }
    Value probs = makeOp<SoftmaxOp>(
        rewriter, loc, st, scores,
        {rewriter.getNamedAttr("dim", rewriter.getI64IntegerAttr(-1))});
    double p = op.getDropoutP().convertToDouble();
    if (p > 0.0)
      probs = makeOp<DropoutOp>(
          rewriter, loc, st, probs,
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
  RankedTensorType t = typeOf(x);
  SmallVector<int64_t> shape;
  for (int64_t d : dims)
    shape.push_back(t.getShape()[d]);
  return makeOp<PermuteOp>(
      rewriter, loc, RankedTensorType::get(shape, t.getElementType()), x,
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
    RankedTensorType rt = cast<RankedTensorType>(op.getType());
    auto convType = RankedTensorType::get(
        {rt.getShape()[1], rt.getShape()[2], rt.getShape()[0]},
        rt.getElementType());
    int64_t pad = (int64_t)op.getPad();
    Value y = makeOp<Conv1dOp>(
        rewriter, loc, convType, {x, w, op.getBias()},
        {segments(rewriter, {1, 1, 1, 0}),
         rewriter.getNamedAttr("padding",
                               rewriter.getDenseI64ArrayAttr({pad}))});
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
    Type resultType = op.getType();
    auto linear = [&](Value x, Value w, Value b) {
      SmallVector<Value> operands = {x, w};
      if (b)
        operands.push_back(b);
      return makeOp<LinearOp>(rewriter, loc, resultType, operands,
                              {segments(rewriter, {1, 1, b ? 1 : 0, 0})});
    };
    Value gi = linear(op.getInput(), op.getWIh(), op.getBIh());
    Value gh = linear(op.getHx(), op.getWHh(), op.getBHh());
    Value sum = makeOp<AddOp>(rewriter, loc, resultType, {gi, gh});
    Value h = op.getNonlinearity() == "relu"
                  ? makeOp<ReluOp>(rewriter, loc, resultType, sum)
                  : makeOp<TanhOp>(rewriter, loc, resultType, sum);
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
