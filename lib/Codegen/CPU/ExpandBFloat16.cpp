//===- ExpandBFloat16.cpp - f32 / f64 -> bf16 as integer operations -------===//
//
// arith.truncf from f32 or f64 to bf16 (what tp.cast and autocast's casts
// lower to) rewritten as integer operations on the bit pattern, with
// tensorplay's rule on the CPU, the one of
// include/tensorplay/Runtime/FloatRounding.h: round to nearest even,
// overflow to infinity, subnormals rounded like any other value, and a NaN
// kept a NaN of its sign, made quiet, with the top of its payload (x86's
// vcvtneps2bf16 and tensorplay's vectorized `.to(bfloat16)`). arith-expand's
// bf16 expansion, which runs after this pass for the rest, would give every
// NaN as 0x7fc0. f64 sources are first rounded to f32 by round-to-odd, so
// that the value is rounded once; LLVM never sees a bf16 conversion.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "FloatBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPEXPANDBF16PASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using tp::FloatBitsBuilder;

namespace {

/// A truncf this pass rewrites: f32 or f64 (scalar or vector) to bf16,
/// rounding to nearest even (the default mode).
bool isBFloat16Truncation(arith::TruncFOp op) {
  Type source = getElementTypeOrSelf(op.getIn().getType());
  std::optional<arith::RoundingMode> mode = op.getRoundingmode();
  return getElementTypeOrSelf(op.getType()).isBF16() &&
         (source.isF32() || source.isF64()) &&
         (!mode || *mode == arith::RoundingMode::to_nearest_even);
}

struct TruncateToBFloat16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isBFloat16Truncation(op))
      return failure();
    Value x = op.getIn();
    FloatBitsBuilder b(rewriter, op.getLoc(), x.getType());
    if (getElementTypeOrSelf(x.getType()).isF64())
      x = tp::roundToOddF32(b, x);
    Value bits = b.bitsOf(x);
    // Adding 0x7fff, plus one when the kept half is odd, carries into the
    // kept half exactly when the dropped half is above the tie or at it
    // with an odd kept half; a carry out of the mantissa rounds up the
    // exponent (to infinity past the largest finite), as it should.
    Value lsb = b.andI(b.shr(bits, b.i32(16)), b.i32(1));
    Value rounded = b.shr(b.add(bits, b.add(b.i32(0x7fff), lsb)), b.i32(16));
    // NaN: sign and the top of the payload kept, the quiet bit set.
    Value quiet = b.shr(b.orI(bits, b.i32(0x00400000u)), b.i32(16));
    Value isNaN = b.cmp(arith::CmpIPredicate::ugt,
                        b.andI(bits, b.i32(0x7fffffffu)), b.i32(0x7f800000u));
    Value half = arith::TruncIOp::create(rewriter, op.getLoc(),
                                         b.typeOf(rewriter.getI16Type()),
                                         b.select(isNaN, quiet, rounded));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), half);
    return success();
  }
};

struct TPExpandBF16Pass
    : public tp::impl::TPExpandBF16PassBase<TPExpandBF16Pass> {
  void runOnOperation() override {
    SmallVector<Operation *> truncations;
    getOperation()->walk([&](arith::TruncFOp op) {
      if (isBFloat16Truncation(op))
        truncations.push_back(op);
    });
    if (truncations.empty())
      return;
    RewritePatternSet patterns(&getContext());
    tp::populateExpandBF16Patterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(
            applyOpPatternsGreedily(truncations, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void tp::populateExpandBF16Patterns(RewritePatternSet &patterns) {
  patterns.add<TruncateToBFloat16>(patterns.getContext());
}
