//===- ExpandFloat8.cpp - f8 conversions as integer operations -----------===//
//
// arith.truncf to and arith.extf from the OCP 8-bit floats f8E4M3FN and
// f8E5M2 (the conversions tp.cast lowers to) rewritten as f32 and i32
// operations and an i8 bitcast: LLVM has no 8-bit float type (an f8 value is
// its i8 bit pattern after lowering) and no instruction that converts one.
//
// Rounding is to nearest, ties to even, from the exact value: f16 and bf16
// sources are widened to f32 exactly, f64 ones rounded to f32 by
// round-to-odd (which makes the second rounding exact, as f32 keeps more
// than two bits beyond f8's mantissa). The rest is tensorplay's
// `.to(float8_*)`, checked against it bit for bit: NaN becomes S.1111.111
// in both formats; a value beyond the largest finite (448, 57344) becomes
// the largest finite of its sign in E4M3FN (which has no infinity;
// infinities included: OCP's saturating conversion) and infinity in E5M2
// (OCP's non-saturating one; tp.cast's `saturate` clamps the value before
// the rounding, in its lowering). Widening is exact; a NaN widens to a
// quiet NaN carrying the mantissa as payload.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "FloatBits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <cstdint>

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPEXPANDFLOAT8PASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using tp::FloatBitsBuilder;
using tp::roundToOddF32;

namespace {

/// The layout of an f8 format.
struct Float8Format {
  unsigned mantissaBits;
  int bias;
  /// The code an overflow gives: tensorplay's, the largest finite in
  /// E4M3FN, infinity in E5M2.
  uint32_t overflow;
  /// The code of NaN (sign clear), tensorplay's: S.1111.111 in both.
  uint32_t nan;
  /// Whether the format has infinities (E5M2) or not (E4M3FN).
  bool hasInfinity;
};

std::optional<Float8Format> formatOf(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return Float8Format{3, 7, 0x7e, 0x7f, false};
  if (isa<Float8E5M2Type>(type))
    return Float8Format{2, 15, 0x7c, 0x7f, true};
  return std::nullopt;
}

/// The f8 code (in the low 8 bits of an i32) of the f32 `x`, rounded to
/// nearest even.
Value truncateF32(FloatBitsBuilder &b, Value x, const Float8Format &f) {
  Value bits = b.bitsOf(x);
  Value sign = b.andI(b.shr(bits, b.i32(24)), b.i32(0x80));
  Value magnitude = b.andI(bits, b.i32(0x7fffffffu));
  unsigned shift = 23 - f.mantissaBits;
  // Normal results: rebase the exponent, round the mantissa to nearest even.
  Value rebased = b.sub(magnitude, b.i32(uint32_t(127 - f.bias) << 23));
  Value lsb = b.andI(b.shr(rebased, b.i32(shift)), b.i32(1));
  Value normal =
      b.shr(b.add(b.add(rebased, b.i32((1u << (shift - 1)) - 1)), lsb),
            b.i32(shift));
  // Subnormal results: adding 2^e, whose f32 ulp is the f8 subnormal step,
  // rounds the magnitude to that step (to nearest even, the FPU's mode);
  // the difference of the bit patterns is the step count.
  uint32_t magicBits = uint32_t(127 - f.bias + 23 - f.mantissaBits + 1) << 23;
  Value magic = b.floatOf(b.i32(magicBits));
  Value sum = arith::AddFOp::create(b.rewriter, b.loc, b.floatOf(magnitude),
                                    magic);
  Value subnormal = b.sub(b.bitsOf(sum), b.i32(magicBits));
  uint32_t minNormalBits = uint32_t(127 + 1 - f.bias) << 23;
  Value isSubnormal =
      b.cmp(arith::CmpIPredicate::ult, magnitude, b.i32(minNormalBits));
  Value code = b.select(isSubnormal, subnormal, normal);
  // Beyond the largest finite (infinities included, whose "rounding" is
  // larger still): the overflow code.
  code = b.minU(code, b.i32(f.overflow));
  Value isNaN =
      b.cmp(arith::CmpIPredicate::ugt, magnitude, b.i32(0x7f800000u));
  code = b.select(isNaN, b.i32(f.nan), code);
  return b.orI(code, sign);
}

/// The f32 value of the f8 code `code` (an i32 holding 8 bits).
Value extendToF32(FloatBitsBuilder &b, Value code, const Float8Format &f) {
  unsigned exponentBits = 7 - f.mantissaBits;
  Value sign = b.shl(b.andI(code, b.i32(0x80)), b.i32(24));
  Value exponent = b.andI(b.shr(code, b.i32(f.mantissaBits)),
                          b.i32((1u << exponentBits) - 1));
  Value mantissa = b.andI(code, b.i32((1u << f.mantissaBits) - 1));
  Value normal = b.orI(
      b.shl(b.add(exponent, b.i32(uint32_t(127 - f.bias))), b.i32(23)),
      b.shl(mantissa, b.i32(23 - f.mantissaBits)));
  // Subnormals: mantissa * 2^(1 - bias - mantissaBits), exact in f32.
  Value scaled = arith::MulFOp::create(
      b.rewriter, b.loc,
      arith::UIToFPOp::create(b.rewriter, b.loc,
                              b.typeOf(b.rewriter.getF32Type()), mantissa),
      b.f32(std::ldexp(1.0f, 1 - f.bias - int(f.mantissaBits))));
  Value isSubnormal =
      b.cmp(arith::CmpIPredicate::eq, exponent, b.i32(0));
  Value magnitude = b.select(isSubnormal, b.bitsOf(scaled), normal);
  if (f.hasInfinity) {
    // Exponent all ones: infinity (mantissa 0) or NaN, quiet, its payload
    // kept (as f16 -> f32 does).
    Value special = b.cmp(arith::CmpIPredicate::eq, exponent,
                          b.i32((1u << exponentBits) - 1));
    Value inf = b.orI(b.i32(0x7f800000u),
                      b.shl(mantissa, b.i32(23 - f.mantissaBits)));
    Value quiet = b.select(b.cmp(arith::CmpIPredicate::ne, mantissa, b.i32(0)),
                           b.i32(0x00400000u), b.i32(0));
    magnitude = b.select(special, b.orI(inf, quiet), magnitude);
  } else {
    // S.1111.111 is E4M3FN's only NaN: a quiet NaN with the mantissa as
    // its payload, as tensorplay widens it.
    Value isNaN =
        b.cmp(arith::CmpIPredicate::eq, b.andI(code, b.i32(0x7f)), b.i32(0x7f));
    magnitude = b.select(isNaN, b.i32(0x7ff00000u), magnitude);
  }
  return b.floatOf(b.orI(magnitude, sign));
}

struct TruncateToFloat8 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Float8Format> format =
        formatOf(getElementTypeOrSelf(op.getType()));
    if (!format)
      return failure();
    Location loc = op.getLoc();
    Value x = op.getIn();
    FloatBitsBuilder b(rewriter, loc, x.getType());
    Type source = getElementTypeOrSelf(x.getType());
    Type f32Type = b.typeOf(rewriter.getF32Type());
    if (source.isF64())
      x = roundToOddF32(b, x);
    else if (!source.isF32()) // f16, bf16, f8: exact in f32
      x = arith::ExtFOp::create(rewriter, loc, f32Type, x);
    Value code = truncateF32(b, x, *format);
    Value byte = arith::TruncIOp::create(
        rewriter, loc, b.typeOf(rewriter.getI8Type()), code);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), byte);
    return success();
  }
};

struct ExtendFromFloat8 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getIn();
    std::optional<Float8Format> format =
        formatOf(getElementTypeOrSelf(x.getType()));
    if (!format)
      return failure();
    Location loc = op.getLoc();
    FloatBitsBuilder b(rewriter, loc, x.getType());
    Value byte = arith::BitcastOp::create(
        rewriter, loc, b.typeOf(rewriter.getI8Type()), x);
    Value code = arith::ExtUIOp::create(rewriter, loc,
                                        b.typeOf(rewriter.getI32Type()), byte);
    Value wide = extendToF32(b, code, *format);
    Type target = getElementTypeOrSelf(op.getType());
    if (target.isF32())
      rewriter.replaceOp(op, wide);
    else if (target.isF64())
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), wide);
    else // f16, bf16: every f8 value is exact there
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), wide);
    return success();
  }
};

/// An integer converted to f8 (canonicalization folds convertScalar's
/// sitofp-to-f64-then-truncf into one sitofp): through f64, exact for 32
/// bits and fewer (and a larger integer is far beyond f8's range).
template <typename OpTy>
struct IntegerToFloat8 : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!formatOf(getElementTypeOrSelf(op.getType())))
      return failure();
    FloatBitsBuilder b(rewriter, op.getLoc(), op.getType());
    Value wide = OpTy::create(rewriter, op.getLoc(),
                              b.typeOf(rewriter.getF64Type()), op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), wide);
    return success();
  }
};

/// An f8 value converted to an integer: through its exact f32 value.
template <typename OpTy>
struct Float8ToInteger : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!formatOf(getElementTypeOrSelf(op.getIn().getType())))
      return failure();
    FloatBitsBuilder b(rewriter, op.getLoc(), op.getType());
    Value wide = arith::ExtFOp::create(
        rewriter, op.getLoc(), b.typeOf(rewriter.getF32Type()), op.getIn());
    rewriter.replaceOpWithNewOp<OpTy>(op, op.getType(), wide);
    return success();
  }
};

/// Whether `type` is an f8 scalar or vector (not a tensor or memref of
/// f8, which only holds the values).
bool isFloat8Value(Type type) {
  return !isa<TensorType, BaseMemRefType>(type) &&
         formatOf(getElementTypeOrSelf(type));
}

struct TPExpandFloat8Pass
    : public tp::impl::TPExpandFloat8PassBase<TPExpandFloat8Pass> {
  void runOnOperation() override {
    // The arith ops on f8 values: the conversions the patterns rewrite, and
    // anything else, which has no lowering. A module without f8 values is
    // left untouched (no greedy driver over every op of every compile).
    SmallVector<Operation *> conversions;
    Operation *unsupported = nullptr;
    getOperation()->walk([&](Operation *op) {
      if (!isa_and_nonnull<arith::ArithDialect>(op->getDialect()) ||
          isa<arith::BitcastOp>(op) ||
          llvm::none_of(
              llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()),
              isFloat8Value))
        return WalkResult::advance();
      if (!isa<arith::TruncFOp, arith::ExtFOp, arith::SIToFPOp, arith::UIToFPOp,
               arith::FPToSIOp, arith::FPToUIOp>(op)) {
        unsupported = op;
        return WalkResult::interrupt();
      }
      conversions.push_back(op);
      return WalkResult::advance();
    });
    if (unsupported) {
      Type type =
          *llvm::find_if(llvm::concat<Type>(unsupported->getOperandTypes(),
                                            unsupported->getResultTypes()),
                         isFloat8Value);
      unsupported->emitOpError("has no lowering for ")
          << type << " (tp computes on f8 values only through tp.cast)";
      return signalPassFailure();
    }
    if (conversions.empty())
      return;
    RewritePatternSet patterns(&getContext());
    tp::populateExpandFloat8Patterns(patterns);
    // The conversions and what their rewrites create (an integer
    // conversion's truncf or extf).
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(
            applyOpPatternsGreedily(conversions, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace

void tp::populateExpandFloat8Patterns(RewritePatternSet &patterns) {
  patterns.add<TruncateToFloat8, ExtendFromFloat8,
               IntegerToFloat8<arith::SIToFPOp>,
               IntegerToFloat8<arith::UIToFPOp>,
               Float8ToInteger<arith::FPToSIOp>,
               Float8ToInteger<arith::FPToUIOp>>(patterns.getContext());
}
