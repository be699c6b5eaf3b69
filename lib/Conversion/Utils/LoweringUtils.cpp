//===- LoweringUtils.cpp - Helpers shared by the tp lowerings -------------===//
//
// See LoweringUtils.h.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

int64_t lowering::numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

bool lowering::isLowPrecisionFloat(Type type) {
  return type.isF16() || type.isBF16();
}

Type lowering::computeTypeFor(Type type) {
  if (isLowPrecisionFloat(type))
    return Float32Type::get(type.getContext());
  return type;
}

Value lowering::convertScalar(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  // f8 values convert to and from floats only (tp-expand-float8 lowers those
  // extf / truncf): to an integer through f32 (exact), from one through f64
  // (exact for 32 bits and fewer; an i64 beyond 2^53 is far beyond f8's
  // range either way).
  if (isa<Float8E4M3FNType, Float8E5M2Type>(from) && !isa<FloatType>(to))
    return convertScalar(b, loc,
                         arith::ExtFOp::create(b, loc, b.getF32Type(), v), to);
  if (isa<Float8E4M3FNType, Float8E5M2Type>(to) && isa<IntegerType>(from))
    return arith::TruncFOp::create(b, loc, to,
                                   convertScalar(b, loc, v, b.getF64Type()));
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    if (fromFloat.getWidth() == toFloat.getWidth()) {
      // f16 <-> bf16 (neither holds the other): through f32, exactly, then
      // rounded once, as tensorplay's .to() does.
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
      return arith::TruncFOp::create(b, loc, to, wide);
    }
    return arith::TruncFOp::create(b, loc, to, v);
  }
  if (fromInt && toFloat) {
    if (fromInt.getWidth() == 1 || fromInt.isUnsigned())
      return arith::UIToFPOp::create(b, loc, to, v);
    return arith::SIToFPOp::create(b, loc, to, v);
  }
  if (fromFloat && toInt) {
    if (toInt.getWidth() == 1) {
      Value zero = scalarConstant(b, loc, from, 0.0);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
    }
    return arith::FPToSIOp::create(b, loc, to, v);
  }
  if (fromInt && toInt) {
    if (toInt.getWidth() == 1) {
      Value zero = scalarConstant(b, loc, from, 0.0);
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
    }
    if (fromInt.getWidth() < toInt.getWidth()) {
      if (fromInt.getWidth() == 1 || fromInt.isUnsigned())
        return arith::ExtUIOp::create(b, loc, to, v);
      return arith::ExtSIOp::create(b, loc, to, v);
    }
    if (fromInt.getWidth() > toInt.getWidth())
      return arith::TruncIOp::create(b, loc, to, v);
    return v;
  }
  if (isa<IndexType>(from) && toInt)
    return arith::IndexCastOp::create(b, loc, to, v);
  if (fromInt && isa<IndexType>(to))
    return arith::IndexCastOp::create(b, loc, to, v);
  llvm_unreachable("unsupported scalar conversion");
}

Value lowering::convertToCompute(OpBuilder &b, Location loc, Value v,
                                 Type commonType, Type computeType) {
  return convertScalar(b, loc, convertScalar(b, loc, v, commonType),
                       computeType);
}

Value lowering::scalarConstant(OpBuilder &b, Location loc, Type type,
                               double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Type real = complexType.getElementType();
    return complex::CreateOp::create(b, loc, complexType,
                                     scalarConstant(b, loc, real, value),
                                     scalarConstant(b, loc, real, 0.0));
  }
  if (isa<IndexType>(type))
    return arith::ConstantIndexOp::create(b, loc, (int64_t)value);
  auto intType = cast<IntegerType>(type);
  if (intType.getWidth() == 1)
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(value != 0.0));
  return arith::ConstantOp::create(b, loc,
                                   b.getIntegerAttr(intType, (int64_t)value));
}

Value lowering::extremeConstant(OpBuilder &b, Location loc, Type type,
                                bool negative) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat inf = APFloat::getInf(floatType.getFloatSemantics(), negative);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, inf));
  }
  auto intType = cast<IntegerType>(type);
  unsigned width = intType.getWidth();
  APInt value = width == 1 ? APInt(1, negative ? 0 : 1)
                : negative ? APInt::getSignedMinValue(width)
                           : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(intType, value));
}

Operation *lowering::declareExternalFunction(OpBuilder &b, Operation *anchor,
                                             StringRef name,
                                             FunctionType type) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, anchor->getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

Value lowering::emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                            Type elementType) {
  return tensor::EmptyOp::create(b, loc, shape, elementType);
}

Value lowering::filledTensor(OpBuilder &b, Location loc,
                             ArrayRef<int64_t> shape, Value value) {
  Value empty = emptyTensor(b, loc, shape, value.getType());
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

Value lowering::filledTensor(OpBuilder &b, Location loc,
                             ArrayRef<int64_t> shape, Type elementType,
                             double value) {
  return filledTensor(b, loc, shape,
                      scalarConstant(b, loc, elementType, value));
}

/// Drops the dimensions of `operand` (aligned to the trailing dimensions of
/// a result of rank `resultRank`) that broadcast, and returns the collapsed
/// operand with its indexing map into the result's iteration space.
static std::pair<Value, AffineMap>
broadcastOperand(OpBuilder &b, Location loc, Value operand,
                 ArrayRef<int64_t> resultShape) {
  MLIRContext *ctx = b.getContext();
  int64_t resultRank = resultShape.size();
  ArrayRef<int64_t> shape = shapeOf(operand);
  int64_t rank = shape.size();
  int64_t lead = resultRank - rank;
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> keptDims;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] == 1 && resultShape[lead + d] != 1)
      continue;
    keptDims.push_back(d);
    exprs.push_back(getAffineDimExpr(lead + d, ctx));
  }
  AffineMap map = AffineMap::get(resultRank, 0, exprs, ctx);
  if ((int64_t)keptDims.size() == rank)
    return {operand, map};
  // Collapse the dropped (size-1) dimensions into their neighbours.
  SmallVector<ReassociationIndices> reassociation;
  if (keptDims.empty()) {
    Value collapsed = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({}, elementTypeOf(operand)), operand,
        ArrayRef<ReassociationIndices>{});
    return {collapsed, map};
  }
  ReassociationIndices group;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d) {
    group.push_back(d);
    bool isKept = next < keptDims.size() && keptDims[next] == d;
    if (isKept) {
      ++next;
      // Trailing dropped dimensions join the last kept one.
      if (next == keptDims.size()) {
        for (int64_t e = d + 1; e < rank; ++e)
          group.push_back(e);
        reassociation.push_back(group);
        break;
      }
      reassociation.push_back(group);
      group.clear();
    }
  }
  SmallVector<int64_t> newShape;
  for (int64_t d : keptDims)
    newShape.push_back(shape[d]);
  Value collapsed = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get(newShape, elementTypeOf(operand)), operand,
      reassociation);
  return {collapsed, map};
}

SmallVector<Value> lowering::buildElementwiseMulti(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
    TypeRange resultElementTypes, ValueRange operands,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = shape.size();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    auto [value, map] = broadcastOperand(b, loc, operand, shape);
    inputs.push_back(value);
    maps.push_back(map);
  }
  SmallVector<Value> inits;
  SmallVector<Type> resultTypes;
  for (Type t : resultElementTypes) {
    inits.push_back(emptyTensor(b, loc, shape, t));
    resultTypes.push_back(RankedTensorType::get(shape, t));
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultTypes, inputs, inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> results =
            body(nb, nloc, args.take_front(inputs.size()));
        linalg::YieldOp::create(nb, nloc, results);
      });
  return SmallVector<Value>(generic.getResults().begin(),
                            generic.getResults().end());
}

Value lowering::buildElementwise(OpBuilder &b, Location loc,
                                 RankedTensorType resultType,
                                 ValueRange operands, ElementwiseBodyFn body) {
  return buildElementwiseMulti(
      b, loc, resultType.getShape(), TypeRange{resultType.getElementType()},
      operands, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return SmallVector<Value>{body(nb, nloc, args)};
      })[0];
}

Value lowering::convertTensor(OpBuilder &b, Location loc, Value v,
                              Type elementType) {
  if (elementTypeOf(v) == elementType)
    return v;
  auto type = RankedTensorType::get(shapeOf(v), elementType);
  return buildElementwise(
      b, loc, type, v, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return convertScalar(nb, nloc, args[0], elementType);
      });
}

Value lowering::buildReduction(OpBuilder &b, Location loc, Value input,
                               ArrayRef<int64_t> dims, Type accType, Value init,
                               CombineFn combine, MapFn map, bool widenLong) {
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> shape = shapeOf(input);
  int64_t rank = shape.size();
  llvm::SmallBitVector reduced(rank);
  for (int64_t d : dims)
    reduced.set(d);
  int64_t terms = 1;
  for (int64_t d : dims)
    terms *= shape[d];
  if (widenLong && accType.isF32() && terms >= kLongReduction) {
    // The same reduction accumulated in f64, rounded to f32 once.
    Type f64 = b.getF64Type();
    Value wideInit = arith::ExtFOp::create(b, loc, f64, init);
    Value wide =
        buildReduction(b, loc, input, dims, f64, wideInit, combine,
                       [&](OpBuilder &nb, Location nloc, Value x) -> Value {
                         Value v = map ? map(nb, nloc, x)
                                       : convertScalar(nb, nloc, x, accType);
                         return arith::ExtFOp::create(nb, nloc, f64, v);
                       });
    return convertTensor(b, loc, wide, accType);
  }
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    if (reduced.test(d)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    outShape.push_back(shape[d]);
    outExprs.push_back(getAffineDimExpr(d, ctx));
  }
  Value acc = filledTensor(b, loc, outShape, init);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 AffineMap::get(rank, 0, outExprs, ctx)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{input}, ValueRange{acc},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = map ? map(nb, nloc, args[0])
                      : convertScalar(nb, nloc, args[0], accType);
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, x, args[1]));
      });
  return generic.getResult(0);
}

Value lowering::buildSum(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> dims, Type accType) {
  Value zero = scalarConstant(b, loc, accType, 0.0);
  return buildReduction(
      b, loc, input, dims, accType, zero,
      [&](OpBuilder &nb, Location nloc, Value x, Value acc) {
        if (isa<FloatType>(acc.getType()))
          return (Value)arith::AddFOp::create(nb, nloc, x, acc);
        return (Value)arith::AddIOp::create(nb, nloc, x, acc);
      },
      nullptr, /*widenLong=*/true);
}

Value lowering::buildMax(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> dims, Type accType) {
  Value init = extremeConstant(b, loc, accType, /*negative=*/true);
  return buildReduction(
      b, loc, input, dims, accType, init,
      [&](OpBuilder &nb, Location nloc, Value x, Value acc) {
        if (isa<FloatType>(accType))
          return (Value)arith::MaximumFOp::create(nb, nloc, x, acc);
        return (Value)arith::MaxSIOp::create(nb, nloc, x, acc);
      });
}

Value lowering::insertUnitDims(OpBuilder &b, Location loc, Value v,
                               ArrayRef<int64_t> dims) {
  if (dims.empty())
    return v;
  ArrayRef<int64_t> shape = shapeOf(v);
  int64_t newRank = shape.size() + dims.size();
  SmallVector<int64_t> newShape;
  llvm::SmallBitVector isUnit(newRank);
  for (int64_t d : dims)
    isUnit.set(d);
  size_t next = 0;
  for (int64_t d = 0; d < newRank; ++d)
    newShape.push_back(isUnit.test(d) ? 1 : shape[next++]);
  return reshapeTo(b, loc, v, newShape);
}

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value v,
                          ArrayRef<int64_t> shape) {
  RankedTensorType type = tensorTypeOf(v);
  if (type.getShape() == shape)
    return v;
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  // A reshape that only merges or only splits groups of dimensions.
  if (auto reassoc = getReassociationIndicesForReshape(type, resultType)) {
    if (shape.size() < type.getRank())
      return tensor::CollapseShapeOp::create(b, loc, resultType, v, *reassoc);
    return tensor::ExpandShapeOp::create(b, loc, resultType, v, *reassoc);
  }
  // General case: collapse to 1-D (or 0-D) and expand again.
  int64_t n = numElements(type.getShape());
  Value flat = v;
  if (type.getRank() != 1) {
    SmallVector<ReassociationIndices> all;
    if (type.getRank() > 0) {
      all.emplace_back();
      for (int64_t d = 0; d < type.getRank(); ++d)
        all.back().push_back(d);
    }
    flat = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({n}, type.getElementType()), v, all);
  }
  if (shape.size() == 1)
    return flat;
  SmallVector<ReassociationIndices> all;
  if (!shape.empty()) {
    all.emplace_back();
    for (size_t d = 0; d < shape.size(); ++d)
      all.back().push_back(d);
  }
  if (shape.empty())
    return tensor::CollapseShapeOp::create(b, loc, resultType, flat, all);
  return tensor::ExpandShapeOp::create(b, loc, resultType, flat, all);
}

Value lowering::transposeTensor(OpBuilder &b, Location loc, Value v,
                                ArrayRef<int64_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return v;
  MLIRContext *ctx = b.getContext();
  ArrayRef<int64_t> shape = shapeOf(v);
  int64_t rank = shape.size();
  SmallVector<int64_t> outShape;
  for (int64_t p : perm)
    outShape.push_back(shape[p]);
  // out[i0..] = in[...]: input dim perm[i] is iterated by loop i.
  SmallVector<AffineExpr> inExprs(rank);
  for (int64_t i = 0; i < rank; ++i)
    inExprs[perm[i]] = getAffineDimExpr(i, ctx);
  Value init = emptyTensor(b, loc, outShape, elementTypeOf(v));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, inExprs, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{v}, ValueRange{init},
             maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

Value lowering::broadcastTo(OpBuilder &b, Location loc, Value v,
                            ArrayRef<int64_t> shape) {
  if (shapeOf(v) == shape)
    return v;
  auto type = RankedTensorType::get(shape, elementTypeOf(v));
  return buildElementwise(
      b, loc, type, v,
      [](OpBuilder &, Location, ValueRange args) { return args[0]; });
}

Value lowering::sliceAlong(OpBuilder &b, Location loc, Value v, int64_t dim,
                           int64_t offset, int64_t size) {
  ArrayRef<int64_t> shape = shapeOf(v);
  SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(shape.size(), b.getIndexAttr(1));
  for (int64_t s : shape)
    sizes.push_back(b.getIndexAttr(s));
  offsets[dim] = b.getIndexAttr(offset);
  sizes[dim] = b.getIndexAttr(size);
  return tensor::ExtractSliceOp::create(b, loc, v, offsets, sizes, strides);
}

Value lowering::padOrCrop(OpBuilder &b, Location loc, Value v,
                          ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                          double padValue) {
  ArrayRef<int64_t> shape = shapeOf(v);
  size_t rank = shape.size();
  // Crop first (negative amounts), then pad.
  bool crop = false, pad = false;
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<int64_t> croppedShape;
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = std::min<int64_t>(low[d], 0),
            hi = std::min<int64_t>(high[d], 0);
    crop |= lo < 0 || hi < 0;
    pad |= low[d] > 0 || high[d] > 0;
    offsets.push_back(b.getIndexAttr(-lo));
    croppedShape.push_back(shape[d] + lo + hi);
    sizes.push_back(b.getIndexAttr(croppedShape.back()));
    strides.push_back(b.getIndexAttr(1));
  }
  if (crop)
    v = tensor::ExtractSliceOp::create(b, loc, v, offsets, sizes, strides);
  if (!pad)
    return v;
  SmallVector<OpFoldResult> lowPad, highPad;
  SmallVector<int64_t> paddedShape;
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = std::max<int64_t>(low[d], 0),
            hi = std::max<int64_t>(high[d], 0);
    lowPad.push_back(b.getIndexAttr(lo));
    highPad.push_back(b.getIndexAttr(hi));
    paddedShape.push_back(croppedShape[d] + lo + hi);
  }
  Type elementType = elementTypeOf(v);
  Value padScalar = scalarConstant(b, loc, elementType, padValue);
  return tensor::PadOp::create(b, loc,
                               RankedTensorType::get(paddedShape, elementType),
                               v, lowPad, highPad, padScalar);
}

InFlightDiagnostic lowering::emitUnsupported(Operation *op,
                                             const Twine &message) {
  return op->emitOpError() << message;
}

Value lowering::buildErf(OpBuilder &b, Location loc, Value x) {
  return math::ErfOp::create(b, loc, x);
}

Value lowering::buildSigmoid(OpBuilder &b, Location loc, Value x) {
  // 1 / (1 + e) for x >= 0 and e / (1 + e) below, with e = exp(-|x|): the
  // same value, but exp never overflows, so the tail below -88 keeps its
  // (subnormal) values instead of 1 / inf = 0.
  Value one = scalarConstant(b, loc, x.getType(), 1.0);
  Value zero = scalarConstant(b, loc, x.getType(), 0.0);
  Value e = math::ExpOp::create(
      b, loc, arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x)));
  Value den = arith::AddFOp::create(b, loc, one, e);
  Value negative =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
  Value num = arith::SelectOp::create(b, loc, negative, e, one);
  return arith::DivFOp::create(b, loc, num, den);
}

Value lowering::buildSoftplus(OpBuilder &b, Location loc, Value x) {
  // max(x, 0) + log1p(exp(-|x|))
  Value zero = scalarConstant(b, loc, x.getType(), 0.0);
  Value maxX = arith::MaximumFOp::create(b, loc, x, zero);
  Value absX = math::AbsFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, absX));
  return arith::AddFOp::create(b, loc, maxX, math::Log1pOp::create(b, loc, e));
}

/// The p-norm of `input` over `dims` in `accType` (p = +-inf, 0, 1, 2 or
/// any other real).
Value lowering::buildNorm(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> dims, Type commonType, Type accType,
                          double p) {
  auto absOf = [&](OpBuilder &nb, Location nloc, Value x) {
    return (Value)math::AbsFOp::create(
        nb, nloc, convertToCompute(nb, nloc, x, commonType, accType));
  };
  if (std::isinf(p)) {
    Value init = p > 0 ? scalarConstant(b, loc, accType, 0.0)
                       : extremeConstant(b, loc, accType, false);
    return buildReduction(
        b, loc, input, dims, accType, init,
        [&](OpBuilder &nb, Location nloc, Value x, Value acc) -> Value {
          if (p > 0)
            return arith::MaximumFOp::create(nb, nloc, x, acc);
          return arith::MinimumFOp::create(nb, nloc, x, acc);
        },
        absOf);
  }
  Value zero = scalarConstant(b, loc, accType, 0.0);
  Value sum = buildReduction(
      b, loc, input, dims, accType, zero,
      [&](OpBuilder &nb, Location nloc, Value x, Value acc) {
        return (Value)arith::AddFOp::create(nb, nloc, x, acc);
      },
      [&](OpBuilder &nb, Location nloc, Value x) -> Value {
        Value a = absOf(nb, nloc, x);
        if (p == 0.0) {
          Value nz =
              arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNE, a,
                                    scalarConstant(nb, nloc, accType, 0.0));
          return arith::UIToFPOp::create(nb, nloc, accType, nz);
        }
        if (p == 1.0)
          return a;
        if (p == 2.0)
          return arith::MulFOp::create(nb, nloc, a, a);
        return math::PowFOp::create(nb, nloc, a,
                                    scalarConstant(nb, nloc, accType, p));
      },
      /*widenLong=*/true);
  if (p == 0.0 || p == 1.0)
    return sum;
  auto type = cast<RankedTensorType>(sum.getType());
  return buildElementwise(
      b, loc, type, sum, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        if (p == 2.0)
          return (Value)math::SqrtOp::create(nb, nloc, args[0]);
        return (Value)math::PowFOp::create(
            nb, nloc, args[0], scalarConstant(nb, nloc, accType, 1.0 / p));
      });
}

Value lowering::buildSoftmax(OpBuilder &b, Location loc, Value x, int64_t dim,
                             Type commonType, Type accType, bool log,
                             bool negate) {
  ArrayRef<int64_t> shape = shapeOf(x);
  SmallVector<int64_t> dims = {dim};
  auto toAcc = [&](OpBuilder &nb, Location nloc, Value v) -> Value {
    Value c = convertToCompute(nb, nloc, v, commonType, accType);
    return negate ? (Value)arith::NegFOp::create(nb, nloc, c) : c;
  };
  Value init = extremeConstant(b, loc, accType, /*negative=*/true);
  Value m = buildReduction(
      b, loc, x, dims, accType, init,
      [&](OpBuilder &nb, Location nloc, Value v, Value acc) {
        return (Value)arith::MaximumFOp::create(nb, nloc, v, acc);
      },
      toAcc);
  Value mKeep = insertUnitDims(b, loc, m, dims);
  auto accTensor = RankedTensorType::get(shape, accType);
  // exp(x - max), summed along dim.
  Value shifted = buildElementwise(
      b, loc, accTensor, {x, mKeep},
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = toAcc(nb, nloc, args[0]);
        return (Value)math::ExpOp::create(
            nb, nloc, arith::SubFOp::create(nb, nloc, v, args[1]));
      });
  Value s = buildSum(b, loc, shifted, dims, accType);
  Value sKeep = insertUnitDims(b, loc, s, dims);
  if (log)
    return buildElementwise(
        b, loc, accTensor, {x, mKeep, sKeep},
        [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
          Value v = arith::SubFOp::create(nb, nloc, toAcc(nb, nloc, args[0]),
                                          args[1]);
          return arith::SubFOp::create(nb, nloc, v,
                                       math::LogOp::create(nb, nloc, args[2]));
        });
  // softmax divides the exponentials already computed (one exp per
  // element).
  return buildElementwise(
      b, loc, accTensor, {shifted, sKeep},
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, nloc, args[0], args[1]);
      });
}

/// `alpha * acc [+ beta * input]` converted to `resultType` (the torch
/// addmm family's epilogue); beta == 0 ignores `input` entirely.
Value lowering::buildAlphaBetaEpilogue(OpBuilder &b, Location loc, Value acc,
                                       Value input, double alpha, double beta,
                                       RankedTensorType resultType) {
  Type resultElem = resultType.getElementType();
  Type accType = elementTypeOf(acc);
  SmallVector<Value> operands = {acc};
  bool useInput = input && beta != 0.0;
  if (useInput)
    operands.push_back(input);
  return buildElementwise(
      b, loc, resultType, operands,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = args[0];
        if (alpha != 1.0)
          v = arith::MulFOp::create(nb, nloc, v,
                                    scalarConstant(nb, nloc, accType, alpha));
        if (useInput) {
          Value in = convertToCompute(nb, nloc, args[1], resultElem, accType);
          if (beta != 1.0)
            in = arith::MulFOp::create(nb, nloc, in,
                                       scalarConstant(nb, nloc, accType, beta));
          v = arith::AddFOp::create(nb, nloc, v, in);
        }
        return convertScalar(nb, nloc, v, resultElem);
      });
}
