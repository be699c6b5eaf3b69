//===- Subnormals.cpp - f32 log and exp at the subnormal range
//-------------===//
//
// See MathPatterns.h. log(x) = log(x * 2^24) - 24 ln 2 for x < 2^-126: the
// scaled argument is normal, the scaling exact. exp(x) for x in
// (-103.98, -87.34), whose results are subnormal, is libm's f64 exp rounded
// to f32 (upstream's approximation builds the result from an exponent field
// and flushes these to 0). The rewritten ops carry kHandledAttr so that the
// patterns leave them to the approximations.
//
//===----------------------------------------------------------------------===//

#include "MathFallback.h"

#include "tensorplay/Codegen/CPU/MathPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kHandledAttr = "tp.subnormals_handled";

template <typename OpTy>
struct SubnormalLog : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    Type type = x.getType();
    if (!getElementTypeOrSelf(type).isF32() || op->hasAttr(kHandledAttr))
      return failure();
    Location loc = op.getLoc();
    // log2(2^24) = 24; log(2^24) = 24 ln 2.
    double shift = std::is_same_v<OpTy, math::Log2Op> ? 24.0 : 24.0 * M_LN2;
    Value subnormal =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                              math::AbsFOp::create(rewriter, loc, x),
                              tp::mathConstant(rewriter, loc, type, 0x1p-126));
    Value scaled = arith::SelectOp::create(
        rewriter, loc, subnormal,
        arith::MulFOp::create(rewriter, loc, x,
                              tp::mathConstant(rewriter, loc, type, 0x1p24)),
        x);
    auto log = OpTy::create(rewriter, loc, scaled);
    log->setAttr(kHandledAttr, rewriter.getUnitAttr());
    Value correction = arith::SelectOp::create(
        rewriter, loc, subnormal, tp::mathConstant(rewriter, loc, type, shift),
        tp::mathConstant(rewriter, loc, type, 0.0));
    rewriter.replaceOpWithNewOp<arith::SubFOp>(op, log, correction);
    return success();
  }
};

struct SubnormalExp : public OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getOperand();
    Type type = x.getType();
    if (!getElementTypeOrSelf(type).isF32() || op->hasAttr(kHandledAttr))
      return failure();
    Location loc = op.getLoc();
    auto fast = math::ExpOp::create(rewriter, loc, x);
    fast->setAttr(kHandledAttr, rewriter.getUnitAttr());
    // exp(-87.3365) is 2^-126; below -103.9721 the result rounds to 0.
    Value low = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x,
        tp::mathConstant(rewriter, loc, type, -87.33654475));
    Value high =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, x,
                              tp::mathConstant(rewriter, loc, type, -103.98));
    Value subnormal = arith::AndIOp::create(rewriter, loc, low, high);
    rewriter.replaceOp(
        op, tp::withF64Fallback(
                rewriter, loc, x, subnormal, fast,
                [&](OpBuilder &b, Location nloc, Value wide) -> Value {
                  return math::ExpOp::create(b, nloc, wide);
                }));
    return success();
  }
};

} // namespace

void mlir::tp::populateSubnormalPatterns(RewritePatternSet &patterns,
                                         PatternBenefit benefit) {
  patterns
      .add<SubnormalLog<math::LogOp>, SubnormalLog<math::Log2Op>, SubnormalExp>(
          patterns.getContext(), benefit);
}
