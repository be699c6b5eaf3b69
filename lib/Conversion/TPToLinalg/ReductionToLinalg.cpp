//===- ReductionToLinalg.cpp - tp reductions to linalg --------------------===//
//
// sum, mean, prod, max, amax, argmax, max_dim, norm, dist, trace as
// reduction linalg.generics; cumsum/cumprod as an scf.for scan. f16/bf16
// inputs accumulate in f32 (tensorplay's CPU kernels use an f32 "opmath"
// accumulator) and the result is rounded once to the result dtype.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// Converts the reduced tensor (without kept dims) to `resultType`,
/// inserting the kept unit dimensions.
Value finishReduction(OpBuilder &b, Location loc, Value reduced,
                      RankedTensorType resultType, ArrayRef<int64_t> dims,
                      bool keepdim) {
  Value v = convertTensor(b, loc, reduced, resultType.getElementType());
  if (keepdim)
    v = insertUnitDims(b, loc, v, dims);
  return reshapeTo(b, loc, v, resultType.getShape());
}

enum class ReduceKind { Sum, Mean, Prod };

/// sum / mean / prod with an optional dtype=.
template <typename OpTy, ReduceKind Kind>
struct AccumulateOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    if (!isa<FloatType, IntegerType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    SmallVector<int64_t> dims;
    if constexpr (Kind == ReduceKind::Prod) {
      std::optional<uint64_t> dim = op.getDim();
      if (dim)
        dims.push_back(normalizeDim((int64_t)*dim, rank));
      else
        dims = reductionDims(std::nullopt, rank);
    } else {
      dims = reductionDims(op.getDim(), rank);
    }
    // The dtype the op computes in (dtype= or the result's), then the
    // accumulator type.
    Type accType = computeTypeFor(resultElem);
    if (resultElem.isInteger(1))
      accType = rewriter.getI64Type();
    Value init = scalarConstant(rewriter, loc, accType,
                                Kind == ReduceKind::Prod ? 1.0 : 0.0);
    bool isFloat = isa<FloatType>(accType);
    Value reduced = buildReduction(
        rewriter, loc, input, dims, accType, init,
        [&](OpBuilder &b, Location nloc, Value x, Value acc) -> Value {
          if (Kind == ReduceKind::Prod)
            return isFloat ? (Value)arith::MulFOp::create(b, nloc, x, acc)
                           : (Value)arith::MulIOp::create(b, nloc, x, acc);
          return isFloat ? (Value)arith::AddFOp::create(b, nloc, x, acc)
                         : (Value)arith::AddIOp::create(b, nloc, x, acc);
        },
        [&](OpBuilder &b, Location nloc, Value x) {
          return convertToCompute(b, nloc, x, resultElem, accType);
        },
        /*widenLong=*/Kind != ReduceKind::Prod);
    if (Kind == ReduceKind::Mean) {
      int64_t count = 1;
      for (int64_t d : dims)
        count *= shapeOf(input)[d];
      auto reducedType = cast<RankedTensorType>(reduced.getType());
      reduced = buildElementwise(
          rewriter, loc, reducedType, reduced,
          [&](OpBuilder &b, Location nloc, ValueRange args) {
            return (Value)arith::DivFOp::create(
                b, nloc, args[0],
                scalarConstant(b, nloc, accType, (double)count));
          });
    }
    rewriter.replaceOp(op, finishReduction(rewriter, loc, reduced, resultType,
                                           dims, op.getKeepdim()));
    return success();
  }
};

/// max (all elements) and amax (dims).
template <typename OpTy>
struct MaxOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    SmallVector<int64_t> dims;
    bool keepdim = false;
    if constexpr (std::is_same_v<OpTy, AmaxOp>) {
      dims = reductionDims(op.getDim(), rank);
      keepdim = op.getKeepdim();
    } else {
      dims = reductionDims(std::nullopt, rank);
    }
    Type elem = elementTypeOf(input);
    if (!isa<FloatType, IntegerType>(elem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    Value reduced = buildMax(rewriter, loc, input, dims, computeTypeFor(elem));
    rewriter.replaceOp(
        op, finishReduction(rewriter, loc, reduced, resultType, dims, keepdim));
    return success();
  }
};

/// (max value, first index of it) over `dim` of `input`; NaN counts as the
/// maximum, as in tensorplay.
std::pair<Value, Value> buildArgmax(OpBuilder &b, Location loc, Value input,
                                    int64_t dim) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> shape = shapeOf(input);
  int64_t rank = shape.size();
  Type elem = elementTypeOf(input);
  Type valType = computeTypeFor(elem);
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dim) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    outShape.push_back(shape[d]);
    outExprs.push_back(getAffineDimExpr(d, ctx));
  }
  Value initVal =
      filledTensor(b, loc, outShape, extremeConstant(b, loc, valType, true));
  Value initIdx = filledTensor(b, loc, outShape, b.getI64Type(), 0.0);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 outMap, outMap};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{initVal.getType(), initIdx.getType()},
      ValueRange{input}, ValueRange{initVal, initIdx}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = convertScalar(nb, nloc, args[0], valType);
        Value best = args[1], bestIdx = args[2];
        Value i = arith::IndexCastOp::create(
            nb, nloc, nb.getI64Type(), linalg::IndexOp::create(nb, nloc, dim));
        Value take;
        if (isa<FloatType>(valType)) {
          Value greater = arith::CmpFOp::create(
              nb, nloc, arith::CmpFPredicate::OGT, x, best);
          Value xNan =
              arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, x, x);
          Value bestNan = arith::CmpFOp::create(
              nb, nloc, arith::CmpFPredicate::UNO, best, best);
          Value notBestNan = arith::XOrIOp::create(
              nb, nloc, bestNan, scalarConstant(nb, nloc, nb.getI1Type(), 1));
          take = arith::OrIOp::create(
              nb, nloc, arith::AndIOp::create(nb, nloc, greater, notBestNan),
              arith::AndIOp::create(nb, nloc, xNan, notBestNan));
          // The first element always initialises (handles -inf inputs).
          Value first = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::eq, i,
              scalarConstant(nb, nloc, nb.getI64Type(), 0));
          take = arith::OrIOp::create(nb, nloc, take, first);
        } else {
          Value greater = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::sgt, x, best);
          Value first = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::eq, i,
              scalarConstant(nb, nloc, nb.getI64Type(), 0));
          take = arith::OrIOp::create(nb, nloc, greater, first);
        }
        Value newBest = arith::SelectOp::create(nb, nloc, take, x, best);
        Value newIdx = arith::SelectOp::create(nb, nloc, take, i, bestIdx);
        linalg::YieldOp::create(nb, nloc, ValueRange{newBest, newIdx});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

struct ArgmaxOpLowering : public OpConversionPattern<ArgmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    if (!isa<FloatType, IntegerType>(elementTypeOf(input)))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    std::optional<uint64_t> dimAttr = op.getDim();
    int64_t dim = 0;
    if (dimAttr && rank > 0) {
      dim = normalizeDim((int64_t)*dimAttr, rank);
    } else {
      input = reshapeTo(rewriter, loc, input, {numElements(shapeOf(input))});
    }
    Value idx = buildArgmax(rewriter, loc, input, dim).second;
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, idx, resultType.getShape()));
    return success();
  }
};

struct MaxDimOpLowering : public OpConversionPattern<MaxDimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxDimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    int64_t rank = shapeOf(input).size();
    if (!isa<FloatType, IntegerType>(elementTypeOf(input)))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    if (rank == 0)
      input = reshapeTo(rewriter, loc, input, {1});
    int64_t dim = normalizeDim((int64_t)op.getDim(), rank);
    auto [val, idx] = buildArgmax(rewriter, loc, input, dim);
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    val = convertTensor(rewriter, loc, val, valuesType.getElementType());
    rewriter.replaceOp(op,
                       {reshapeTo(rewriter, loc, val, valuesType.getShape()),
                        reshapeTo(rewriter, loc, idx, indicesType.getShape())});
    return success();
  }
};

struct NormOpLowering : public OpConversionPattern<NormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    Value input = adaptor.getInput();
    if (!isa<FloatType>(resultElem) ||
        !isa<FloatType, IntegerType>(elementTypeOf(input)))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    int64_t rank = shapeOf(input).size();
    SmallVector<int64_t> dims = reductionDims(op.getDim(), rank);
    double p = op.getP() ? op.getP()->convertToDouble() : 2.0;
    Value norm = buildNorm(rewriter, loc, input, dims, resultElem,
                           computeTypeFor(resultElem), p);
    rewriter.replaceOp(op, finishReduction(rewriter, loc, norm, resultType,
                                           dims, op.getKeepdim()));
    return success();
  }
};

struct DistOpLowering : public OpConversionPattern<DistOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DistOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " results";
    auto shape = broadcastShapes(shapeOf(adaptor.getInput()),
                                 shapeOf(adaptor.getOther()));
    if (!shape)
      return emitUnsupported(op, "operands do not broadcast");
    Type accType = computeTypeFor(resultElem);
    Value diff = buildElementwise(
        rewriter, loc, RankedTensorType::get(*shape, accType),
        {adaptor.getInput(), adaptor.getOther()},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, accType);
          Value y = convertToCompute(b, nloc, args[1], resultElem, accType);
          return (Value)arith::SubFOp::create(b, nloc, x, y);
        });
    SmallVector<int64_t> dims = reductionDims(std::nullopt, shape->size());
    Value norm = buildNorm(rewriter, loc, diff, dims, accType, accType,
                           op.getP().convertToDouble());
    rewriter.replaceOp(
        op, finishReduction(rewriter, loc, norm, resultType, dims, false));
    return success();
  }
};

struct TraceOpLowering : public OpConversionPattern<TraceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TraceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType, IntegerType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    Value input = adaptor.getInput();
    ArrayRef<int64_t> shape = shapeOf(input);
    int64_t n = std::min(shape[0], shape[1]);
    Value square = input;
    if (shape[0] != n)
      square = sliceAlong(rewriter, loc, square, 0, 0, n);
    if (shape[1] != n)
      square = sliceAlong(rewriter, loc, square, 1, 0, n);
    Type accType = computeTypeFor(resultElem);
    Value acc = filledTensor(rewriter, loc, {}, accType, 0.0);
    AffineExpr i = getAffineDimExpr(0, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(1, 0, {i, i}, ctx),
                                   AffineMap::get(1, 0, {}, ctx)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{acc.getType()}, ValueRange{square},
        ValueRange{acc}, maps, {utils::IteratorType::reduction},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, accType);
          Value s = isa<FloatType>(accType)
                        ? (Value)arith::AddFOp::create(b, nloc, x, args[1])
                        : (Value)arith::AddIOp::create(b, nloc, x, args[1]);
          linalg::YieldOp::create(b, nloc, s);
        });
    rewriter.replaceOp(
        op, convertTensor(rewriter, loc, generic.getResult(0), resultElem));
    return success();
  }
};

/// cumsum / cumprod: a scan along `dim` as an scf.for over its positions,
/// carrying the running f32 (opmath) accumulator. A plain rewrite pattern,
/// applied before the dialect conversion: the conversion driver does not
/// support building region-holding ops like scf.for inside its patterns.
template <typename OpTy, bool IsProd>
struct ScanOpLowering : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto adaptor = op;
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType, IntegerType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    Value input = adaptor.getInput();
    ArrayRef<int64_t> shape = shapeOf(input);
    int64_t rank = shape.size();
    if (rank == 0) {
      rewriter.replaceOp(op, convertTensor(rewriter, loc, input, resultElem));
      return success();
    }
    int64_t dim = normalizeDim((int64_t)op.getDim(), rank);
    Type accType = computeTypeFor(resultElem);
    bool isFloat = isa<FloatType>(accType);
    SmallVector<int64_t> sliceShape(shape);
    sliceShape[dim] = 1;
    Value acc0 =
        filledTensor(rewriter, loc, sliceShape, accType, IsProd ? 1.0 : 0.0);
    Value out0 = emptyTensor(rewriter, loc, shape, resultElem);
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = arith::ConstantIndexOp::create(rewriter, loc, shape[dim]);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto sliceType = RankedTensorType::get(sliceShape, accType);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, ValueRange{acc0, out0},
        [&](OpBuilder &b, Location nloc, Value k, ValueRange iterArgs) {
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
          for (int64_t s : sliceShape)
            sizes.push_back(b.getIndexAttr(s));
          offsets[dim] = k;
          Value x = tensor::ExtractSliceOp::create(b, nloc, input, offsets,
                                                   sizes, strides);
          Value acc = buildElementwise(
              b, nloc, sliceType, {iterArgs[0], x},
              [&](OpBuilder &bb, Location l, ValueRange args) -> Value {
                Value v = convertToCompute(bb, l, args[1], resultElem, accType);
                if (IsProd)
                  return isFloat
                             ? (Value)arith::MulFOp::create(bb, l, args[0], v)
                             : (Value)arith::MulIOp::create(bb, l, args[0], v);
                return isFloat
                           ? (Value)arith::AddFOp::create(bb, l, args[0], v)
                           : (Value)arith::AddIOp::create(bb, l, args[0], v);
              });
          Value rounded = convertTensor(b, nloc, acc, resultElem);
          Value out = tensor::InsertSliceOp::create(
              b, nloc, rounded, iterArgs[1], offsets, sizes, strides);
          scf::YieldOp::create(b, nloc, ValueRange{acc, out});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};

} // namespace

void mlir::tp::populateReductionToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<AccumulateOpLowering<SumOp, ReduceKind::Sum>,
           AccumulateOpLowering<MeanOp, ReduceKind::Mean>,
           AccumulateOpLowering<ProdOp, ReduceKind::Prod>, MaxOpLowering<MaxOp>,
           MaxOpLowering<AmaxOp>, ArgmaxOpLowering, MaxDimOpLowering,
           NormOpLowering, DistOpLowering, TraceOpLowering>(ctx);
}

void mlir::tp::populateScanToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<ScanOpLowering<CumsumOp, false>, ScanOpLowering<CumprodOp, true>>(
          patterns.getContext());
}
