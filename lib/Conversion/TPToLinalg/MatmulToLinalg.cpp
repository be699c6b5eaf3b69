//===- MatmulToLinalg.cpp - tp matrix products to linalg ------------------===//
//
// The matrix-product family as linalg.matmul / linalg.batch_matmul with an
// f32 accumulator for f16/bf16 operands (the named ops widen their inputs
// to the output type), followed by an elementwise epilogue (bias, alpha,
// beta, rounding) that fuses with its consumers. Used when oneDNN is not
// available or for dtypes it does not take; the CPU pipeline tiles and
// vectorizes these ops.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// acc[batch..., M, N] = a[batch..., M, K] @ b[batch..., K, N] in `accType`,
/// where b is 2-D or has a's batch shape.
Value buildBatchedMatmul(OpBuilder &builder, Location loc, Value a, Value b,
                         Type accType) {
  ArrayRef<int64_t> aShape = shapeOf(a), bShape = shapeOf(b);
  int64_t k = aShape.back(), n = bShape.back();
  int64_t m = aShape[aShape.size() - 2];
  SmallVector<int64_t> batch(aShape.drop_back(2));
  int64_t batchCount = numElements(batch);
  SmallVector<int64_t> resultShape(batch);
  resultShape.push_back(m);
  resultShape.push_back(n);
  Value acc;
  if (bShape.size() == 2) {
    Value a2 = reshapeTo(builder, loc, a, {batchCount * m, k});
    Value init = filledTensor(builder, loc, {batchCount * m, n}, accType, 0.0);
    acc = linalg::MatmulOp::create(builder, loc, TypeRange{init.getType()},
                                   ValueRange{a2, b}, ValueRange{init})
              .getResult(0);
  } else {
    Value a3 = reshapeTo(builder, loc, a, {batchCount, m, k});
    Value b3 = reshapeTo(builder, loc, b, {batchCount, k, n});
    Value init = filledTensor(builder, loc, {batchCount, m, n}, accType, 0.0);
    acc = linalg::BatchMatmulOp::create(builder, loc, TypeRange{init.getType()},
                                        ValueRange{a3, b3}, ValueRange{init})
              .getResult(0);
  }
  return reshapeTo(builder, loc, acc, resultShape);
}

} // namespace

/// torch.matmul semantics (1-D operands, broadcast batch dimensions) in
/// `accType`; `resultShape` is the product's shape as the op's shape rule
/// gives it (its declared result), whose leading dimensions are the
/// broadcast batch.
static Value buildTorchMatmul(OpBuilder &builder, Location loc, Value a,
                              Value b, ArrayRef<int64_t> resultShape,
                              Type accType) {
  bool aVec = shapeOf(a).size() == 1, bVec = shapeOf(b).size() == 1;
  if (aVec)
    a = reshapeTo(builder, loc, a, {1, shapeOf(a)[0]});
  if (bVec)
    b = reshapeTo(builder, loc, b, {shapeOf(b)[0], 1});
  ArrayRef<int64_t> aShape = shapeOf(a), bShape = shapeOf(b);
  int64_t m = aShape[aShape.size() - 2], n = bShape.back();
  ArrayRef<int64_t> batch = resultShape.drop_back(int(!aVec) + int(!bVec));
  Value acc;
  if (bShape.size() == 2) {
    acc = buildBatchedMatmul(builder, loc, a, b, accType);
  } else {
    SmallVector<int64_t> aFull(batch), bFull(batch);
    aFull.append({m, aShape.back()});
    bFull.append({bShape[bShape.size() - 2], n});
    acc = buildBatchedMatmul(builder, loc, broadcastTo(builder, loc, a, aFull),
                             broadcastTo(builder, loc, b, bFull), accType);
  }
  return reshapeTo(builder, loc, acc, resultShape);
}

namespace {

LogicalResult checkFloat(Operation *op, Type resultElem) {
  if (!isa<FloatType>(resultElem))
    return emitUnsupported(op, "has no CPU lowering for ")
           << resultElem << " matrix products";
  return success();
}

/// mm, bmm, matmul, mv, dot: torch.matmul semantics covers them all.
class ProductOpLowering : public ConversionPattern {
public:
  ProductOpLowering(MLIRContext *ctx, StringRef name)
      : ConversionPattern(name, /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    if (failed(checkFloat(op, resultType.getElementType())))
      return failure();
    Type accType = computeTypeFor(resultType.getElementType());
    Value acc = buildTorchMatmul(rewriter, op->getLoc(), operands[0],
                                 operands[1], resultType.getShape(), accType);
    rewriter.replaceOp(op,
                       buildAlphaBetaEpilogue(rewriter, op->getLoc(), acc,
                                              nullptr, 1.0, 0.0, resultType));
    return success();
  }
};

/// addmm, baddbmm, addmv: beta * input + alpha * (a @ b).
template <typename OpTy>
struct AddProductOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    if (failed(checkFloat(op, resultType.getElementType())))
      return failure();
    Type accType = computeTypeFor(resultType.getElementType());
    Value acc =
        buildTorchMatmul(rewriter, op.getLoc(), op->getOperand(1),
                         op->getOperand(2), resultType.getShape(), accType);
    rewriter.replaceOp(op, buildAlphaBetaEpilogue(
                               rewriter, op.getLoc(), acc, adaptor.getInput(),
                               op.getAlpha().convertToDouble(),
                               op.getBeta().convertToDouble(), resultType));
    return success();
  }
};

/// addbmm: the batch folds into the contraction: [M, B*K] @ [B*K, N].
struct AddbmmOpLowering : public OpConversionPattern<AddbmmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddbmmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    if (failed(checkFloat(op, resultType.getElementType())))
      return failure();
    Type accType = computeTypeFor(resultType.getElementType());
    ArrayRef<int64_t> s1 = shapeOf(adaptor.getBatch1());
    ArrayRef<int64_t> s2 = shapeOf(adaptor.getBatch2());
    int64_t batch = s1[0], m = s1[1], k = s1[2], n = s2[2];
    Value a = transposeTensor(rewriter, loc, adaptor.getBatch1(), {1, 0, 2});
    a = reshapeTo(rewriter, loc, a, {m, batch * k});
    Value b = reshapeTo(rewriter, loc, adaptor.getBatch2(), {batch * k, n});
    Value acc = buildTorchMatmul(rewriter, loc, a, b, {m, n}, accType);
    rewriter.replaceOp(
        op, buildAlphaBetaEpilogue(rewriter, loc, acc, adaptor.getInput(),
                                   op.getAlpha().convertToDouble(),
                                   op.getBeta().convertToDouble(), resultType));
    return success();
  }
};

/// linear: x @ W^T + bias.
struct LinearOpLowering : public OpConversionPattern<LinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    if (failed(checkFloat(op, resultType.getElementType())))
      return failure();
    Type accType = computeTypeFor(resultType.getElementType());
    Value w = adaptor.getWeight();
    Value wt =
        shapeOf(w).size() == 2 ? transposeTensor(rewriter, loc, w, {1, 0}) : w;
    Value acc = buildTorchMatmul(rewriter, loc, adaptor.getInput(), wt,
                                 resultType.getShape(), accType);
    rewriter.replaceOp(op, buildAlphaBetaEpilogue(rewriter, loc, acc,
                                                  adaptor.getBias(), 1.0, 1.0,
                                                  resultType));
    return success();
  }
};

/// addr: beta * input + alpha * outer(v1, v2), elementwise.
struct AddrOpLowering : public OpConversionPattern<AddrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (failed(checkFloat(op, resultElem)))
      return failure();
    Type accType = computeTypeFor(resultElem);
    Value v1 = reshapeTo(rewriter, loc, adaptor.getVec1(),
                         {shapeOf(adaptor.getVec1())[0], 1});
    auto accTensor = RankedTensorType::get(resultType.getShape(), accType);
    Value outer = buildElementwise(
        rewriter, loc, accTensor, {v1, adaptor.getVec2()},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          return (Value)arith::MulFOp::create(
              b, nloc, convertToCompute(b, nloc, args[0], resultElem, accType),
              convertToCompute(b, nloc, args[1], resultElem, accType));
        });
    rewriter.replaceOp(
        op, buildAlphaBetaEpilogue(rewriter, loc, outer, adaptor.getInput(),
                                   op.getAlpha().convertToDouble(),
                                   op.getBeta().convertToDouble(), resultType));
    return success();
  }
};

/// tensordot: free dims of self, contracted dims; contracted dims of other,
/// free dims; one matmul.
struct TensordotOpLowering : public OpConversionPattern<TensordotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TensordotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    if (failed(checkFloat(op, resultType.getElementType())))
      return failure();
    Type accType = computeTypeFor(resultType.getElementType());
    Value a = adaptor.getInput(), b = adaptor.getOther();
    int64_t ra = shapeOf(a).size(), rb = shapeOf(b).size();
    SmallVector<int64_t> ca, cb;
    for (int64_t d : op.getDimsSelf())
      ca.push_back(normalizeDim(d, ra));
    for (int64_t d : op.getDimsOther())
      cb.push_back(normalizeDim(d, rb));
    SmallVector<int64_t> permA, permB;
    int64_t freeA = 1, freeB = 1, contr = 1;
    for (int64_t d = 0; d < ra; ++d)
      if (!llvm::is_contained(ca, d)) {
        permA.push_back(d);
        freeA *= shapeOf(a)[d];
      }
    for (int64_t d : ca) {
      permA.push_back(d);
      contr *= shapeOf(a)[d];
    }
    permB.append(cb.begin(), cb.end());
    for (int64_t d = 0; d < rb; ++d)
      if (!llvm::is_contained(cb, d)) {
        permB.push_back(d);
        freeB *= shapeOf(b)[d];
      }
    Value a2 =
        reshapeTo(rewriter, loc, transposeTensor(rewriter, loc, a, permA),
                  {freeA, contr});
    Value b2 =
        reshapeTo(rewriter, loc, transposeTensor(rewriter, loc, b, permB),
                  {contr, freeB});
    Value acc =
        buildTorchMatmul(rewriter, loc, a2, b2, {freeA, freeB}, accType);
    acc = reshapeTo(rewriter, loc, acc, resultType.getShape());
    rewriter.replaceOp(op, buildAlphaBetaEpilogue(rewriter, loc, acc, nullptr,
                                                  1.0, 0.0, resultType));
    return success();
  }
};

/// bilinear: y[m, o] = sum_ij x1[m, i] W[o, i, j] x2[m, j] + b[o].
struct BilinearOpLowering : public OpConversionPattern<BilinearOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BilinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (failed(checkFloat(op, resultElem)))
      return failure();
    Type accType = computeTypeFor(resultElem);
    Value x1 = adaptor.getInput1(), x2 = adaptor.getInput2();
    Value w = adaptor.getWeight();
    ArrayRef<int64_t> ws = shapeOf(w);
    int64_t out = ws[0], n1 = ws[1], n2 = ws[2];
    int64_t m = numElements(shapeOf(x1)) / n1;
    Value x1f = reshapeTo(rewriter, loc, x1, {m, n1});
    Value x2f = reshapeTo(rewriter, loc, x2, {m, 1, n2});
    Value wp =
        reshapeTo(rewriter, loc, transposeTensor(rewriter, loc, w, {1, 0, 2}),
                  {n1, out * n2});
    Value t = reshapeTo(
        rewriter, loc,
        buildTorchMatmul(rewriter, loc, x1f, wp, {m, out * n2}, accType),
        {m, out, n2});
    auto accTensor = RankedTensorType::get({m, out, n2}, accType);
    Value prod = buildElementwise(
        rewriter, loc, accTensor, {t, x2f},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          return (Value)arith::MulFOp::create(
              b, nloc, args[0],
              convertToCompute(b, nloc, args[1], resultElem, accType));
        });
    Value y = buildSum(rewriter, loc, prod, {2}, accType);
    y = reshapeTo(rewriter, loc, y, resultType.getShape());
    rewriter.replaceOp(op, buildAlphaBetaEpilogue(rewriter, loc, y,
                                                  adaptor.getBias(), 1.0, 1.0,
                                                  resultType));
    return success();
  }
};

/// linalg_vecdot: sum(x * y) along dim.
struct VecdotOpLowering : public OpConversionPattern<LinalgVecdotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinalgVecdotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (failed(checkFloat(op, resultElem)))
      return failure();
    Type accType = computeTypeFor(resultElem);
    auto shape =
        broadcastShapes(shapeOf(adaptor.getX()), shapeOf(adaptor.getY()));
    if (!shape)
      return emitUnsupported(op, "operands do not broadcast");
    int64_t dim = normalizeDim((int64_t)op.getDim(), shape->size());
    Value prod = buildElementwise(
        rewriter, loc, RankedTensorType::get(*shape, accType),
        {adaptor.getX(), adaptor.getY()},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          return (Value)arith::MulFOp::create(
              b, nloc, convertToCompute(b, nloc, args[0], resultElem, accType),
              convertToCompute(b, nloc, args[1], resultElem, accType));
        });
    Value sum = buildSum(rewriter, loc, prod, {dim}, accType);
    rewriter.replaceOp(op, buildAlphaBetaEpilogue(rewriter, loc, sum, nullptr,
                                                  1.0, 0.0, resultType));
    return success();
  }
};

/// prelu: max(0, x) + w * min(0, x), w per channel (dim 1) or one value.
struct PreluOpLowering : public OpConversionPattern<PreluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PreluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (failed(checkFloat(op, resultElem)))
      return failure();
    Type accType = computeTypeFor(resultElem);
    Value w = adaptor.getWeight();
    int64_t rank = resultType.getRank();
    int64_t count = numElements(shapeOf(w));
    if (count == 1) {
      w = reshapeTo(rewriter, loc, w, {});
    } else {
      SmallVector<int64_t> s = {count};
      for (int64_t d = 2; d < rank; ++d)
        s.push_back(1);
      w = reshapeTo(rewriter, loc, w, s);
    }
    rewriter.replaceOp(
        op,
        buildElementwise(
            rewriter, loc, resultType, {adaptor.getInput(), w},
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value x = convertToCompute(b, nloc, args[0], resultElem, accType);
              Value ww =
                  convertToCompute(b, nloc, args[1], resultElem, accType);
              Value zero = scalarConstant(b, nloc, accType, 0.0);
              Value pos = arith::MaximumFOp::create(b, nloc, x, zero);
              Value neg = arith::MinimumFOp::create(b, nloc, x, zero);
              return convertScalar(
                  b, nloc,
                  arith::AddFOp::create(
                      b, nloc, pos, arith::MulFOp::create(b, nloc, ww, neg)),
                  resultElem);
            }));
    return success();
  }
};

} // namespace

void mlir::tp::populateMatmulToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (StringRef name : {MmOp::getOperationName(), BmmOp::getOperationName(),
                         MatmulOp::getOperationName(), MvOp::getOperationName(),
                         DotOp::getOperationName()})
    patterns.add<ProductOpLowering>(ctx, name);
  patterns.add<AddProductOpLowering<AddmmOp>, AddProductOpLowering<BaddbmmOp>,
               AddProductOpLowering<AddmvOp>, AddbmmOpLowering,
               LinearOpLowering, AddrOpLowering, TensordotOpLowering,
               BilinearOpLowering, VecdotOpLowering, PreluOpLowering>(ctx);
}
