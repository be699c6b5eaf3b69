//===- FloatBits.cpp - float conversions as integer operations ------------===//
//
// See FloatBits.h.
//
//===----------------------------------------------------------------------===//

#include "FloatBits.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

Value tp::roundToOddF32(FloatBitsBuilder &b, Value x) {
  Type f32Type = b.typeOf(b.rewriter.getF32Type());
  Value nearest = arith::TruncFOp::create(b.rewriter, b.loc, f32Type, x);
  Value back = arith::ExtFOp::create(b.rewriter, b.loc, x.getType(), nearest);
  // Inexact (neither NaN): ordered and unequal.
  Value inexact = arith::CmpFOp::create(b.rewriter, b.loc,
                                        arith::CmpFPredicate::ONE, back, x);
  Value absBack = math::AbsFOp::create(b.rewriter, b.loc, back);
  Value absX = math::AbsFOp::create(b.rewriter, b.loc, x);
  Value awayFromZero = arith::CmpFOp::create(
      b.rewriter, b.loc, arith::CmpFPredicate::OGT, absBack, absX);
  Value bits = b.bitsOf(nearest);
  // One step toward zero on the magnitude (the sign bit is untouched: a
  // nonzero magnitude that rounded away from zero is at least one ulp).
  Value towardZero = b.select(awayFromZero, b.sub(bits, b.i32(1)), bits);
  Value odd = b.orI(towardZero, b.i32(1));
  return b.floatOf(b.select(inexact, odd, bits));
}
