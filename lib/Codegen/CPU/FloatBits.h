//===- FloatBits.h - float conversions as integer operations ----*- C++ -*-===//
//
// Shared by tp-expand-float8 and tp-expand-bf16, which rewrite float
// conversions LLVM would lower differently from tensorplay (or not at all)
// into integer operations on the bit patterns: a builder of scalar or
// vector constants and ops of one shape, and f64 -> f32 round-to-odd, which
// makes a second rounding to a format with at most 21 mantissa bits exact.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_CODEGEN_CPU_FLOATBITS_H
#define TENSORPLAY_LIB_CODEGEN_CPU_FLOATBITS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>
#include <utility>

namespace mlir {
namespace tp {

/// Builds scalar or vector constants and ops of one shape (the shape of
/// the converted value: a scalar in a loop body, a vector after
/// vectorization).
class FloatBitsBuilder {
public:
  FloatBitsBuilder(PatternRewriter &rewriter, Location loc, Type like)
      : rewriter(rewriter), loc(loc), like(like) {}

  Type typeOf(Type element) const {
    if (auto vector = dyn_cast<VectorType>(like))
      return vector.clone(element);
    return element;
  }
  Value i32(uint32_t value) {
    Type type = typeOf(rewriter.getI32Type());
    return arith::ConstantOp::create(
        rewriter, loc,
        attr(type, rewriter.getI32IntegerAttr(static_cast<int32_t>(value))));
  }
  Value f32(float value) {
    Type type = typeOf(rewriter.getF32Type());
    return arith::ConstantOp::create(
        rewriter, loc, attr(type, rewriter.getF32FloatAttr(value)));
  }
  Value bitsOf(Value x) {
    return arith::BitcastOp::create(rewriter, loc,
                                    typeOf(rewriter.getI32Type()), x);
  }
  Value floatOf(Value bits) {
    return arith::BitcastOp::create(rewriter, loc,
                                    typeOf(rewriter.getF32Type()), bits);
  }
  /// An op of the builder's location.
  template <typename OpTy, typename... Args>
  Value create(Args &&...args) {
    return OpTy::create(rewriter, loc, std::forward<Args>(args)...);
  }
  Value andI(Value a, Value b) { return create<arith::AndIOp>(a, b); }
  Value orI(Value a, Value b) { return create<arith::OrIOp>(a, b); }
  Value add(Value a, Value b) { return create<arith::AddIOp>(a, b); }
  Value sub(Value a, Value b) { return create<arith::SubIOp>(a, b); }
  Value shl(Value a, Value b) { return create<arith::ShLIOp>(a, b); }
  Value shr(Value a, Value b) { return create<arith::ShRUIOp>(a, b); }
  Value minU(Value a, Value b) { return create<arith::MinUIOp>(a, b); }
  Value cmp(arith::CmpIPredicate p, Value a, Value b) {
    return create<arith::CmpIOp>(p, a, b);
  }
  Value select(Value c, Value a, Value b) {
    return create<arith::SelectOp>(c, a, b);
  }

  PatternRewriter &rewriter;
  Location loc;

private:
  TypedAttr attr(Type type, TypedAttr scalar) {
    if (auto vector = dyn_cast<VectorType>(type))
      return DenseElementsAttr::get(vector, scalar);
    return scalar;
  }
  Type like;
};

/// `x` (f64, scalar or vector of the builder's shape) rounded to f32 by
/// round-to-odd: toward zero, with the last bit set when inexact. A NaN
/// stays a NaN (arith.truncf's).
Value roundToOddF32(FloatBitsBuilder &b, Value x);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_CODEGEN_CPU_FLOATBITS_H
