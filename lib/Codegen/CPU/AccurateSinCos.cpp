//===- AccurateSinCos.cpp - sin and cos with an exact range reduction -----===//
//
// See MathPatterns.h. sin(x) = +-sin(r) or +-cos(r) with x = k pi/2 + r,
// |r| <= pi/4, by k mod 4. k = roundeven(x * 2/pi) and r = (x - k C1) - k C2
// in f64, C1 the leading 33 bits of pi/2 (so k C1 is exact for |k| < 2^20
// and x - k C1 is exact) and C2 = pi/2 - C1 rounded: r is within 2^-60 of
// x - k pi/2, far below what f32 resolves even where r is small. The
// polynomials (fdlibm's kernel coefficients, truncated) run in f64 and the
// result is rounded to f32 once: within about half an ulp.
//
//===----------------------------------------------------------------------===//

#include "MathFallback.h"

#include "tensorplay/Codegen/CPU/MathPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

/// Arguments up to this magnitude are reduced inline (|k| < 2^19).
constexpr double kInlineLimit = 823549.6; // 2^19 * pi/2
constexpr double kTwoOverPi = 0.63661977236758134308;
constexpr double kPiOver2Hi = 1.5707963267341256; // 33 significant bits
constexpr double kPiOver2Lo = 6.077100506506192e-11;

Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar = b.getIntegerAttr(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     SplatElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// `type` with element type `element`.
Type withElement(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

/// c0 + x * (c1 + x * (c2 + ...)), Horner with fused multiply-adds.
Value polynomial(OpBuilder &b, Location loc, Value x, ArrayRef<double> c) {
  Type type = x.getType();
  Value acc = tp::mathConstant(b, loc, type, c.back());
  for (double coefficient : llvm::reverse(c.drop_back()))
    acc = math::FmaOp::create(b, loc, acc, x,
                              tp::mathConstant(b, loc, type, coefficient));
  return acc;
}

template <typename OpTy>
struct AccurateSinCos : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  static constexpr bool kIsSin = std::is_same_v<OpTy, math::SinOp>;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    Type type = x.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    auto vector = dyn_cast<VectorType>(type);
    if (vector && vector.isScalable())
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type f64Type = withElement(type, b.getF64Type());
    Type i32Type = withElement(type, b.getI32Type());

    // x = k pi/2 + r in f64.
    Value xd = arith::ExtFOp::create(b, loc, f64Type, x);
    Value k = math::RoundEvenOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, xd,
                              tp::mathConstant(b, loc, f64Type, kTwoOverPi)));
    Value r = arith::SubFOp::create(
        b, loc, xd,
        arith::MulFOp::create(b, loc, k,
                              tp::mathConstant(b, loc, f64Type, kPiOver2Hi)));
    r = arith::SubFOp::create(
        b, loc, r,
        arith::MulFOp::create(b, loc, k,
                              tp::mathConstant(b, loc, f64Type, kPiOver2Lo)));
    // sin(r) = r + r^3 (S1 + r^2 (S2 + r^2 (S3 + r^2 S4))),
    // cos(r) = 1 - r^2/2 + r^4 (C1 + r^2 (C2 + r^2 (C3 + r^2 C4))), in f64:
    // truncation errors below 2^-29 on [-pi/4, pi/4], so the one rounding to
    // f32 dominates.
    Value r2 = arith::MulFOp::create(b, loc, r, r);
    Value sinP =
        polynomial(b, loc, r2,
                   {-1.66666666666666324348e-01, 8.33333333332248946124e-03,
                    -1.98412698298579493134e-04, 2.75573137070700676789e-06});
    Value sinR = math::FmaOp::create(
        b, loc, arith::MulFOp::create(b, loc, r, r2), sinP, r);
    Value cosP =
        polynomial(b, loc, r2,
                   {4.16666666666666019037e-02, -1.38888888888741095749e-03,
                    2.48015872894767294178e-05, -2.75573143513906633035e-07});
    Value r4 = arith::MulFOp::create(b, loc, r2, r2);
    Value cosR = math::FmaOp::create(
        b, loc, r4, cosP,
        math::FmaOp::create(b, loc, r2, tp::mathConstant(b, loc, f64Type, -0.5),
                            tp::mathConstant(b, loc, f64Type, 1.0)));

    // The quadrant: sin(x) is sin r, cos r, -sin r, -cos r for k mod 4 = 0..3;
    // cos(x) is the same sequence shifted by one.
    Value q = arith::AndIOp::create(b, loc,
                                    arith::FPToSIOp::create(b, loc, i32Type, k),
                                    intConstant(b, loc, i32Type, 3));
    if (!kIsSin)
      q = arith::AndIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, q, intConstant(b, loc, i32Type, 1)),
          intConstant(b, loc, i32Type, 3));
    Value useCos = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, q, intConstant(b, loc, i32Type, 1)),
        intConstant(b, loc, i32Type, 0));
    Value negate = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(b, loc, q, intConstant(b, loc, i32Type, 2)),
        intConstant(b, loc, i32Type, 0));
    Value magnitude = arith::TruncFOp::create(
        b, loc, type, arith::SelectOp::create(b, loc, useCos, cosR, sinR));
    Value inlineResult = arith::SelectOp::create(
        b, loc, negate, arith::NegFOp::create(b, loc, magnitude), magnitude);

    // |x| > the limit, infinities and NaN (unordered): libm in f64.
    Value far = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::UGT, math::AbsFOp::create(b, loc, x),
        tp::mathConstant(b, loc, type, kInlineLimit));
    Value result = tp::withF64Fallback(
        b, loc, x, far, inlineResult,
        [&](OpBuilder &nb, Location nloc, Value wide) -> Value {
          return OpTy::create(nb, nloc, wide);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tp::populateAccurateSinCosPatterns(RewritePatternSet &patterns,
                                              PatternBenefit benefit) {
  patterns.add<AccurateSinCos<math::SinOp>, AccurateSinCos<math::CosOp>>(
      patterns.getContext(), benefit);
}
