//===- NormalizationToLinalg.cpp - softmax and norms to linalg ------------===//
//
// softmax, log_softmax, softmin (max-shifted, one exp per element),
// layer_norm, group_norm, batch_norm (two-pass mean and biased variance),
// normalize and cosine_similarity. All compute in f32 for f16/bf16 inputs
// and round once to the result dtype.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// softmax / log_softmax / softmin with an optional dtype=.
template <typename OpTy, bool Log, bool Negate>
struct SoftmaxOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " results";
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    if (rank == 0)
      input = reshapeTo(rewriter, loc, input, {1});
    int64_t dim = normalizeDim((int64_t)op.getDim(), rank);
    Value y = buildSoftmax(rewriter, loc, input, dim, resultElem,
                           computeTypeFor(resultElem), Log, Negate);
    y = convertTensor(rewriter, loc, y, resultElem);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, y, resultType.getShape()));
    return success();
  }
};

/// Mean and biased variance of `x` (in accType) over `dims`, kept as
/// broadcastable (keepdim) tensors.
std::pair<Value, Value> buildMoments(OpBuilder &b, Location loc, Value x,
                                     ArrayRef<int64_t> dims, Type accType) {
  int64_t count = 1;
  for (int64_t d : dims)
    count *= shapeOf(x)[d];
  Value sum = buildSum(b, loc, x, dims, accType);
  auto reducedType = cast<RankedTensorType>(sum.getType());
  Value n = scalarConstant(b, loc, accType, (double)count);
  Value mean = buildElementwise(
      b, loc, reducedType, sum,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return (Value)arith::DivFOp::create(nb, nloc, args[0], n);
      });
  Value meanKeep = insertUnitDims(b, loc, mean, dims);
  auto xType = RankedTensorType::get(shapeOf(x), accType);
  Value sq = buildElementwise(
      b, loc, xType, {x, meanKeep},
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value d = arith::SubFOp::create(
            nb, nloc, convertScalar(nb, nloc, args[0], accType), args[1]);
        return (Value)arith::MulFOp::create(nb, nloc, d, d);
      });
  Value var = buildElementwise(
      b, loc, reducedType, buildSum(b, loc, sq, dims, accType),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return (Value)arith::DivFOp::create(nb, nloc, args[0], n);
      });
  return {meanKeep, insertUnitDims(b, loc, var, dims)};
}

/// (x - mean) * rsqrt(var + eps) [* weight] [+ bias], converted to
/// `resultType`. weight/bias are already shaped to broadcast against x.
Value buildNormalized(OpBuilder &b, Location loc, Value x, Value mean,
                      Value var, Value weight, Value bias, double eps,
                      RankedTensorType resultType, Type accType) {
  SmallVector<Value> operands = {x, mean, var};
  if (weight)
    operands.push_back(weight);
  if (bias)
    operands.push_back(bias);
  Type resultElem = resultType.getElementType();
  auto accResult = RankedTensorType::get(resultType.getShape(), resultElem);
  return buildElementwise(
      b, loc, accResult, operands,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = convertScalar(nb, nloc, args[0], accType);
        Value inv = math::RsqrtOp::create(
            nb, nloc,
            arith::AddFOp::create(nb, nloc, args[2],
                                  scalarConstant(nb, nloc, accType, eps)));
        Value y = arith::MulFOp::create(
            nb, nloc, arith::SubFOp::create(nb, nloc, v, args[1]), inv);
        size_t next = 3;
        if (weight)
          y = arith::MulFOp::create(
              nb, nloc, y, convertScalar(nb, nloc, args[next++], accType));
        if (bias)
          y = arith::AddFOp::create(
              nb, nloc, y, convertScalar(nb, nloc, args[next++], accType));
        return convertScalar(nb, nloc, y, resultElem);
      });
}

struct LayerNormOpLowering : public OpConversionPattern<LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors";
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    int64_t k = op.getNormalizedShape().size();
    SmallVector<int64_t> dims;
    for (int64_t d = rank - k; d < rank; ++d)
      dims.push_back(d);
    Type accType = computeTypeFor(resultElem);
    auto [mean, var] = buildMoments(rewriter, loc, input, dims, accType);
    rewriter.replaceOp(op,
                       buildNormalized(rewriter, loc, input, mean, var,
                                       adaptor.getWeight(), adaptor.getBias(),
                                       op.getEps().convertToDouble(),
                                       resultType, accType));
    return success();
  }
};

/// A per-channel vector [C] reshaped to broadcast along dim 1 of a tensor
/// of rank `rank`.
Value channelVector(OpBuilder &b, Location loc, Value v, int64_t rank) {
  if (!v)
    return v;
  SmallVector<int64_t> shape = {shapeOf(v)[0]};
  for (int64_t d = 2; d < rank; ++d)
    shape.push_back(1);
  return reshapeTo(b, loc, v, shape);
}

struct GroupNormOpLowering : public OpConversionPattern<GroupNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors";
    Value input = adaptor.getInput();
    ArrayRef<int64_t> shape = shapeOf(input);
    int64_t rank = shape.size();
    int64_t groups = (int64_t)op.getNumGroups();
    int64_t n = shape[0], c = shape[1];
    int64_t inner = numElements(shape) / (n * groups);
    Type accType = computeTypeFor(resultElem);
    Value grouped = reshapeTo(rewriter, loc, input, {n, groups, inner});
    auto [mean, var] = buildMoments(rewriter, loc, grouped, {2}, accType);
    // Normalise in the grouped view (f32), then apply the per-channel affine
    // transform in the original shape.
    auto groupedAcc = RankedTensorType::get({n, groups, inner}, accType);
    Value normalized =
        buildNormalized(rewriter, loc, grouped, mean, var, nullptr, nullptr,
                        op.getEps().convertToDouble(), groupedAcc, accType);
    normalized = reshapeTo(rewriter, loc, normalized, shape);
    (void)c;
    Value weight = channelVector(rewriter, loc, adaptor.getWeight(), rank);
    Value bias = channelVector(rewriter, loc, adaptor.getBias(), rank);
    SmallVector<Value> operands = {normalized};
    if (weight)
      operands.push_back(weight);
    if (bias)
      operands.push_back(bias);
    Value result = buildElementwise(
        rewriter, loc, resultType, operands,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value y = args[0];
          size_t next = 1;
          if (weight)
            y = arith::MulFOp::create(
                b, nloc, y, convertScalar(b, nloc, args[next++], accType));
          if (bias)
            y = arith::AddFOp::create(
                b, nloc, y, convertScalar(b, nloc, args[next++], accType));
          return convertScalar(b, nloc, y, resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BatchNormOpLowering : public OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors";
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    Type accType = computeTypeFor(resultElem);
    Value mean, var;
    if (op.getTraining() || !adaptor.getRunningMean() ||
        !adaptor.getRunningVar()) {
      SmallVector<int64_t> dims = {0};
      for (int64_t d = 2; d < rank; ++d)
        dims.push_back(d);
      std::tie(mean, var) = buildMoments(rewriter, loc, input, dims, accType);
    } else {
      mean = channelVector(
          rewriter, loc,
          convertTensor(rewriter, loc, adaptor.getRunningMean(), accType),
          rank);
      var = channelVector(
          rewriter, loc,
          convertTensor(rewriter, loc, adaptor.getRunningVar(), accType), rank);
    }
    rewriter.replaceOp(
        op,
        buildNormalized(rewriter, loc, input, mean, var,
                        channelVector(rewriter, loc, adaptor.getWeight(), rank),
                        channelVector(rewriter, loc, adaptor.getBias(), rank),
                        op.getEps().convertToDouble(), resultType, accType));
    return success();
  }
};

/// x / max(||x||_p over dim, eps).
struct NormalizeOpLowering : public OpConversionPattern<NormalizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NormalizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors";
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    int64_t dim = normalizeDim((int64_t)op.getDim(), rank);
    Type accType = computeTypeFor(resultElem);
    Value norm = buildNorm(rewriter, loc, input, {dim}, resultElem, accType,
                           op.getP().convertToDouble());
    Value normKeep = insertUnitDims(rewriter, loc, norm, {dim});
    double eps = op.getEps().convertToDouble();
    rewriter.replaceOp(
        op,
        buildElementwise(
            rewriter, loc, resultType, {input, normKeep},
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value x = convertToCompute(b, nloc, args[0], resultElem, accType);
              Value d = arith::MaximumFOp::create(
                  b, nloc, args[1], scalarConstant(b, nloc, accType, eps));
              return convertScalar(
                  b, nloc, arith::DivFOp::create(b, nloc, x, d), resultElem);
            }));
    return success();
  }
};

/// sum((x1 / max(||x1||, eps)) * (x2 / max(||x2||, eps))) along dim, as
/// tensorplay computes it.
struct CosineSimilarityOpLowering
    : public OpConversionPattern<CosineSimilarityOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CosineSimilarityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors";
    auto shape =
        broadcastShapes(shapeOf(adaptor.getX1()), shapeOf(adaptor.getX2()));
    if (!shape)
      return emitUnsupported(op, "operands do not broadcast");
    int64_t rank = shape->size();
    int64_t dim = normalizeDim((int64_t)op.getDim(), rank);
    Type accType = computeTypeFor(resultElem);
    auto accTensor = RankedTensorType::get(*shape, accType);
    auto toAcc = [&](Value v) {
      return buildElementwise(
          rewriter, loc, accTensor, v,
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            return convertToCompute(b, nloc, args[0], resultElem, accType);
          });
    };
    Value x1 = toAcc(adaptor.getX1()), x2 = toAcc(adaptor.getX2());
    double eps = op.getEps().convertToDouble();
    auto clampedNorm = [&](Value x) {
      Value n = buildNorm(rewriter, loc, x, {dim}, accType, accType, 2.0);
      return insertUnitDims(rewriter, loc, n, {dim});
    };
    Value n1 = clampedNorm(x1), n2 = clampedNorm(x2);
    Value prod = buildElementwise(
        rewriter, loc, accTensor, {x1, n1, x2, n2},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value e = scalarConstant(b, nloc, accType, eps);
          Value a = arith::DivFOp::create(
              b, nloc, args[0], arith::MaximumFOp::create(b, nloc, args[1], e));
          Value c = arith::DivFOp::create(
              b, nloc, args[2], arith::MaximumFOp::create(b, nloc, args[3], e));
          return (Value)arith::MulFOp::create(b, nloc, a, c);
        });
    Value sum = buildSum(rewriter, loc, prod, {dim}, accType);
    sum = convertTensor(rewriter, loc, sum, resultElem);
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, sum, resultType.getShape()));
    return success();
  }
};

} // namespace

void mlir::tp::populateNormalizationToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SoftmaxOpLowering<SoftmaxOp, false, false>,
               SoftmaxOpLowering<LogSoftmaxOp, true, false>,
               SoftmaxOpLowering<SoftminOp, false, true>, LayerNormOpLowering,
               GroupNormOpLowering, BatchNormOpLowering, NormalizeOpLowering,
               CosineSimilarityOpLowering>(ctx);
}
