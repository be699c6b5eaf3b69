//===- DtypeRules.cpp - How tp op dtypes follow from operands -------------===//
//
// tensorplay's native type promotion (torch.result_type) and the dtype rules
// of tp ops.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/DtypeRules.h"
#include "tensorplay/Dialect/TP/IR/RuleContext.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// Type categories in promotion order.
enum class Category { Bool = 0, Integer = 1, Float = 2, Complex = 3 };

Category categoryOf(Type type) {
  if (isa<ComplexType>(type))
    return Category::Complex;
  if (isa<FloatType>(type))
    return Category::Float;
  if (type.isInteger(1))
    return Category::Bool;
  return Category::Integer;
}

/// Promotes two floating types: the wider wins, f16 and bf16 meet at f32.
Type promoteFloats(Type a, Type b) {
  if (a == b)
    return a;
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  if (wa != wb)
    return wa > wb ? a : b;
  return Float32Type::get(a.getContext()); // f16 vs bf16
}

Type realPart(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return complex.getElementType();
  return type;
}

/// promoteTypes(a, b) of tensorplay's type promotion lattice.
Type promotePair(Type a, Type b) {
  if (!a)
    return b;
  if (!b || a == b)
    return a;
  Category ca = categoryOf(a), cb = categoryOf(b);
  if (ca == Category::Complex || cb == Category::Complex) {
    Type ra =
        ca == Category::Complex || ca == Category::Float ? realPart(a) : Type();
    Type rb =
        cb == Category::Complex || cb == Category::Float ? realPart(b) : Type();
    Type real = ra && rb ? promoteFloats(ra, rb) : (ra ? ra : rb);
    // complex<f16>/complex<bf16> do not exist as tp element types: widen.
    if (real.getIntOrFloatBitWidth() < 32)
      real = Float32Type::get(a.getContext());
    return ComplexType::get(real);
  }
  if (ca == Category::Float && cb == Category::Float)
    return promoteFloats(a, b);
  if (ca == Category::Float)
    return a;
  if (cb == Category::Float)
    return b;
  if (ca == Category::Bool)
    return b;
  if (cb == Category::Bool)
    return a;
  // Two integers: the wider wins; uint8 with a signed 8-bit type gives i16.
  auto ia = cast<IntegerType>(a), ib = cast<IntegerType>(b);
  if (ia.getWidth() != ib.getWidth())
    return ia.getWidth() > ib.getWidth() ? a : b;
  if (ia.isUnsigned() != ib.isUnsigned())
    return IntegerType::get(a.getContext(), 2 * ia.getWidth());
  return a;
}

/// combine_categories of torch.result_type: a higher category among the
/// lower-priority types (zero-dim) beats the dimensioned result.
Type combineCategories(Type higher, Type lower) {
  if (!higher)
    return lower;
  if (!lower)
    return higher;
  Category ch = categoryOf(higher), cl = categoryOf(lower);
  if (ch == Category::Complex)
    return higher;
  if (cl == Category::Complex)
    return ch == Category::Float ? ComplexType::get(higher) : lower;
  if (ch == Category::Float)
    return higher;
  if (ch == Category::Bool || cl == Category::Float)
    return promotePair(higher, lower);
  return higher;
}
} // namespace

bool mlir::tp::isLosslessConversion(Type from, Type to) {
  if (from == to)
    return true;
  auto ff = dyn_cast<FloatType>(from), ft = dyn_cast<FloatType>(to);
  if (ff && ft) // f16 and bf16 are exact in f32 and f64; f32 is exact in f64.
    return ft.getWidth() > ff.getWidth() &&
           ft.getFPMantissaWidth() >= ff.getFPMantissaWidth();
  auto fi = dyn_cast<IntegerType>(from), ti = dyn_cast<IntegerType>(to);
  if (fi && ti)
    return fi.isSignless() && ti.isSignless() && fi.getWidth() > 1 &&
           ti.getWidth() > fi.getWidth();
  return false;
}

bool mlir::tp::isFloatingOrComplex(Type elementType) {
  return isa<FloatType, ComplexType>(elementType);
}

Type mlir::tp::widestFloatType(Type a, Type b) { return promotePair(a, b); }

Type mlir::tp::promoteTypes(ArrayRef<Type> elementTypes,
                            ArrayRef<int64_t> ranks) {
  Type dimResult, zeroResult;
  for (auto [type, rank] : llvm::zip_equal(elementTypes, ranks)) {
    Type &slot = rank == 0 ? zeroResult : dimResult;
    slot = promotePair(slot, type);
  }
  return combineCategories(dimResult, zeroResult);
}

bool mlir::tp::hasMixedFloatingOperands(OperandRule rule, ValueRange operands) {
  if (rule != OperandRule::Same)
    return false;
  Type seen;
  for (Value operand : operands) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor || !isFloatingOrComplex(tensor.getElementType()))
      continue;
    if (seen && seen != tensor.getElementType())
      return true;
    seen = tensor.getElementType();
  }
  return false;
}

FailureOr<Type> mlir::tp::computeElementType(const RuleContext &op,
                                             OperandRule rule,
                                             ValueRange operands,
                                             Type explicitDtype, bool emit) {
  MLIRContext *ctx = op.getContext();
  SmallVector<Type> elementTypes;
  SmallVector<int64_t> ranks;
  for (Value operand : operands) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor)
      continue;
    elementTypes.push_back(tensor.getElementType());
    ranks.push_back(tensor.getRank());
  }

  Type base;
  switch (rule) {
  case OperandRule::Same: {
    for (Type type : elementTypes) {
      if (!isFloatingOrComplex(type))
        continue;
      if (base && base != type) {
        if (emit)
          op.emitOpError("expected all floating operands to have the same "
                         "dtype, got ")
              << base << " and " << type;
        return failure();
      }
      base = type;
    }
    if (!base && !elementTypes.empty())
      base = elementTypes.front();
    break;
  }
  case OperandRule::Promote:
  case OperandRule::Float:
    base = promoteTypes(elementTypes, ranks);
    if (rule == OperandRule::Float && base && !isFloatingOrComplex(base))
      base = Float32Type::get(ctx);
    break;
  case OperandRule::First:
  case OperandRule::Accumulate:
    if (!elementTypes.empty())
      base = elementTypes.front();
    if (rule == OperandRule::Accumulate && base && isa<IntegerType>(base))
      base = IntegerType::get(ctx, 64);
    break;
  }
  if (explicitDtype)
    base = explicitDtype;
  if (!base) {
    if (emit)
      op.emitOpError("expected at least one tensor operand");
    return failure();
  }
  return base;
}

LogicalResult
mlir::tp::inferResultElementTypes(const RuleContext &op, OperandRule rule,
                                  ArrayRef<ResultKind> kinds,
                                  ValueRange operands, Type explicitDtype,
                                  SmallVectorImpl<Type> &types, bool emit) {
  MLIRContext *ctx = op.getContext();
  FailureOr<Type> computed =
      computeElementType(op, rule, operands, explicitDtype, emit);
  if (failed(computed))
    return failure();
  Type base = *computed;
  types.clear();
  for (ResultKind kind : kinds) {
    switch (kind) {
    case ResultKind::Value:
      types.push_back(base);
      break;
    case ResultKind::Complex:
      if (isa<ComplexType>(base))
        types.push_back(base);
      else if (auto f = dyn_cast<FloatType>(base))
        types.push_back(
            ComplexType::get(f.getWidth() < 32 ? Float32Type::get(ctx) : base));
      else
        types.push_back(ComplexType::get(Float32Type::get(ctx)));
      break;
    case ResultKind::Real:
      types.push_back(realPart(base));
      break;
    case ResultKind::I64:
      types.push_back(IntegerType::get(ctx, 64));
      break;
    case ResultKind::I32:
      types.push_back(IntegerType::get(ctx, 32));
      break;
    case ResultKind::U8:
      types.push_back(IntegerType::get(ctx, 8, IntegerType::Unsigned));
      break;
    case ResultKind::Bool:
      types.push_back(IntegerType::get(ctx, 1));
      break;
    case ResultKind::Weight:
      types.push_back(operands.size() > 2
                          ? mlir::getElementTypeOrSelf(operands[2].getType())
                          : base);
      break;
    }
  }
  return success();
}
