//===- NormalizationToLinalg.cpp - softmax and norms to linalg ------------===//
//
// softmax, log_softmax, softmin (max-shifted, one exp per element), their
// backward ops,
// layer_norm, group_norm, batch_norm (two-pass mean and biased variance)
// and their backward ops,
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

/// softmax_backward: y (g - sum(g y)); log_softmax_backward: g - exp(y)
/// sum(g); the sum along dim and the rest in f32 for f16/bf16.
template <typename OpTy, bool Log>
struct SoftmaxBackwardLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    Type accType = computeTypeFor(resultElem);
    Value g = adaptor.getGradOutput(), y = adaptor.getOutput();
    int64_t rank = shapeOf(y).size();
    if (rank == 0) {
      g = reshapeTo(rewriter, loc, g, {1});
      y = reshapeTo(rewriter, loc, y, {1});
    }
    SmallVector<int64_t> shape(shapeOf(y));
    int64_t dim = normalizeDim((int64_t)op.getDim(), shape.size());
    auto accTensor = RankedTensorType::get(shape, accType);
    auto toAcc = [&](OpBuilder &nb, Location nloc, Value v) {
      return convertScalar(nb, nloc, v, accType);
    };
    Value summed = g;
    if (!Log)
      summed = buildElementwise(
          rewriter, loc, accTensor, {g, y},
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            return (Value)arith::MulFOp::create(
                nb, nloc, toAcc(nb, nloc, args[0]), toAcc(nb, nloc, args[1]));
          });
    Value sum = insertUnitDims(
        rewriter, loc, buildSum(rewriter, loc, summed, {dim}, accType), {dim});
    Value dx = buildElementwise(
        rewriter, loc, RankedTensorType::get(shape, resultElem), {g, y, sum},
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value gv = toAcc(nb, nloc, args[0]), yv = toAcc(nb, nloc, args[1]);
          Value v = Log ? (Value)arith::SubFOp::create(
                              nb, nloc, gv,
                              arith::MulFOp::create(
                                  nb, nloc, math::ExpOp::create(nb, nloc, yv),
                                  args[2]))
                        : (Value)arith::MulFOp::create(
                              nb, nloc, yv,
                              arith::SubFOp::create(nb, nloc, gv, args[2]));
          return convertScalar(nb, nloc, v, resultElem);
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, dx, resultType.getShape()));
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

/// Which gradients of a normalization to compute (the results with uses).
struct NeededGradients {
  bool input, weight, bias;
};

/// The backward of a normalization of `x` over `dims` with batch
/// statistics (layer_norm over the trailing dims, group_norm over a group's
/// elements, batch_norm over a channel's): the statistics again
/// (buildMoments), then only the needed results: grad_input = rstd (gw -
/// mean(gw) - xhat mean(gw xhat)) over `dims` with gw = g w (`w` shaped to
/// broadcast against x, or null), and grad_weight = sum(g xhat), grad_bias
/// = sum(g) over `paramDims`; all in accType, rounded once to `elem` (the
/// parameter gradients to `paramElem`). Unneeded results are null.
SmallVector<Value>
buildNormalizationBackward(OpBuilder &b, Location loc, Value g, Value x,
                           Value w, ArrayRef<int64_t> dims,
                           ArrayRef<int64_t> paramDims, double eps, Type elem,
                           Type paramElem, NeededGradients needed) {
  Type acc = computeTypeFor(elem);
  SmallVector<int64_t> shape(shapeOf(x));
  int64_t count = 1;
  for (int64_t d : dims)
    count *= shape[d];
  // Operands {g, x, mean, rstd[, w]}: g, xhat and g * w in accType (the
  // statistics only for the results that need them).
  SmallVector<Value> operands;
  if (needed.input || needed.weight) {
    auto [mean, var] = buildMoments(b, loc, x, dims, acc);
    Value rstd = buildElementwise(
        b, loc, cast<RankedTensorType>(var.getType()), var,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          return (Value)math::RsqrtOp::create(
              nb, nloc,
              arith::AddFOp::create(nb, nloc, args[0],
                                    scalarConstant(nb, nloc, acc, eps)));
        });
    operands = {g, x, mean, rstd};
    if (w)
      operands.push_back(w);
  }
  struct Scalars {
    Value g, xhat, gw;
  };
  auto scalars = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    Value gv = convertScalar(nb, nloc, args[0], acc);
    Value xhat = arith::MulFOp::create(
        nb, nloc,
        arith::SubFOp::create(nb, nloc, convertScalar(nb, nloc, args[1], acc),
                              args[2]),
        args[3]);
    Value gw = w ? (Value)arith::MulFOp::create(
                       nb, nloc, gv, convertScalar(nb, nloc, args[4], acc))
                 : gv;
    return Scalars{gv, xhat, gw};
  };
  auto sumOver = [&](Value v, ArrayRef<int64_t> over) {
    return over.empty() ? v : buildSum(b, loc, v, over, acc);
  };
  SmallVector<Value> results(3);
  if (needed.input) {
    SmallVector<Value> products = buildElementwiseMulti(
        b, loc, shape, {acc, acc}, operands,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Scalars v = scalars(nb, nloc, args);
          return SmallVector<Value>{
              v.gw, arith::MulFOp::create(nb, nloc, v.gw, v.xhat)};
        });
    SmallVector<Value> withSums(operands);
    for (Value p : products)
      withSums.push_back(insertUnitDims(b, loc, sumOver(p, dims), dims));
    Value n = scalarConstant(b, loc, acc, static_cast<double>(count));
    size_t sums = operands.size();
    results[0] = buildElementwise(
        b, loc, RankedTensorType::get(shape, elem), withSums,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Scalars v = scalars(nb, nloc, args);
          Value meanG = arith::DivFOp::create(nb, nloc, args[sums], n);
          Value meanGX = arith::DivFOp::create(nb, nloc, args[sums + 1], n);
          Value d = arith::SubFOp::create(
              nb, nloc, arith::SubFOp::create(nb, nloc, v.gw, meanG),
              arith::MulFOp::create(nb, nloc, v.xhat, meanGX));
          return convertScalar(
              nb, nloc, arith::MulFOp::create(nb, nloc, args[3], d), elem);
        });
  }
  if (needed.weight) {
    Value gx = buildElementwise(
        b, loc, RankedTensorType::get(shape, acc), operands,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Scalars v = scalars(nb, nloc, args);
          return (Value)arith::MulFOp::create(nb, nloc, v.g, v.xhat);
        });
    results[1] = convertTensor(b, loc, sumOver(gx, paramDims), paramElem);
  }
  if (needed.bias)
    results[2] = convertTensor(b, loc, sumOver(g, paramDims), paramElem);
  return results;
}

/// The results of a normalization backward op: `computed`, reshaped to the
/// op's result types, with an (unused) empty tensor for each null.
SmallVector<Value> normalizationResults(OpBuilder &b, Location loc,
                                        Operation *op,
                                        ArrayRef<Value> computed) {
  SmallVector<Value> results;
  for (auto [result, value] : llvm::zip(op->getResults(), computed)) {
    auto type = cast<RankedTensorType>(result.getType());
    results.push_back(
        value ? reshapeTo(b, loc, value, type.getShape())
              : (Value)tensor::EmptyOp::create(b, loc, type.getShape(),
                                               type.getElementType()));
  }
  return results;
}

template <typename OpTy>
NeededGradients neededGradients(OpTy op) {
  return {!op.getGradInput().use_empty(), !op.getGradWeight().use_empty(),
          !op.getGradBias().use_empty()};
}

/// Where a normalization backward op computes: the view of its input (and
/// grad_output), the shape its weight is viewed in, and the dims of the
/// statistics and of the parameter gradients in that view.
struct BackwardView {
  SmallVector<int64_t> shape, weightShape, dims, paramDims;
};

/// layer_norm_backward: statistics over the trailing normalized dims, the
/// parameter gradients over the leading ones (no reshape).
BackwardView backwardView(LayerNormBackwardOp op) {
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  int64_t rank = shape.size();
  int64_t lead = rank - static_cast<int64_t>(op.getNormalizedShape().size());
  BackwardView v{SmallVector<int64_t>(shape),
                 SmallVector<int64_t>(shape.drop_front(lead)),
                 {},
                 {}};
  for (int64_t d = 0; d < rank; ++d)
    (d < lead ? v.paramDims : v.dims).push_back(d);
  return v;
}

/// group_norm_backward: in the (N, G, C / G, S) view of the input,
/// statistics over dims 2 and 3, the parameter gradients over 0 and 3.
BackwardView backwardView(GroupNormBackwardOp op) {
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  int64_t groups = static_cast<int64_t>(op.getNumGroups());
  int64_t n = shape[0], c = shape[1];
  return {{n, groups, c / groups, numElements(shape.drop_front(2))},
          {groups, c / groups, 1},
          {2, 3},
          {0, 3}};
}

/// batch_norm_backward (batch statistics): in the (N, C, S) view of the
/// input, statistics and parameter gradients over dims 0 and 2.
BackwardView backwardView(BatchNormBackwardOp op) {
  ArrayRef<int64_t> shape = shapeOf(op.getInput());
  return {{shape[0], shape[1], numElements(shape.drop_front(2))},
          {shape[1], 1},
          {0, 2},
          {0, 2}};
}

/// The normalization backward ops: buildNormalizationBackward in the op's
/// view, the results reshaped back.
template <typename OpTy>
struct NormalizationBackwardLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = elementTypeOf(op.getGradInput());
    if (!isa<FloatType>(elem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << elem << " tensors";
    BackwardView view = backwardView(op);
    Value w = adaptor.getWeight();
    if (w)
      w = reshapeTo(rewriter, loc, w, view.weightShape);
    SmallVector<Value> computed = buildNormalizationBackward(
        rewriter, loc,
        reshapeTo(rewriter, loc, adaptor.getGradOutput(), view.shape),
        reshapeTo(rewriter, loc, adaptor.getInput(), view.shape), w, view.dims,
        view.paramDims, op.getEps().convertToDouble(), elem,
        elementTypeOf(op.getGradWeight()), neededGradients(op));
    rewriter.replaceOp(op, normalizationResults(rewriter, loc, op, computed));
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
  patterns.add<
      SoftmaxOpLowering<SoftmaxOp, false, false>,
      SoftmaxOpLowering<LogSoftmaxOp, true, false>,
      SoftmaxOpLowering<SoftminOp, false, true>,
      SoftmaxBackwardLowering<SoftmaxBackwardOp, false>,
      SoftmaxBackwardLowering<LogSoftmaxBackwardOp, true>, LayerNormOpLowering,
      NormalizationBackwardLowering<LayerNormBackwardOp>,
      NormalizationBackwardLowering<GroupNormBackwardOp>,
      NormalizationBackwardLowering<BatchNormBackwardOp>, GroupNormOpLowering,
      BatchNormOpLowering, NormalizeOpLowering, CosineSimilarityOpLowering>(
      ctx);
}
