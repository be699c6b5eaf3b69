//===- FftToRuntime.cpp - The torch.fft ops to the runtime's FFT ----------===//
//
// fft_fft, fft_ifft, fft_rfft, fft_irfft, fft_hfft, fft_ihfft and their 2-D
// and n-D forms become one tp_rt.call of tp_rt_fft_{c2c,r2c,c2r,r2r}_*
// (runtime/calls/FftCalls.cpp): the transformed dimensions as a bit
// mask, each one's signal size from the result (the one-sided dimension's
// from `n` / `s` or the input), the sign of the transform's direction and
// `norm`'s scale (backward: 1 forward, 1/n inverse; forward: the reverse;
// ortho: 1/sqrt(n), n the product of the signal sizes). A real input of a
// complex-to-complex transform takes the r2c call with a full output;
// integer inputs are cast to the result's real type first. bf16 and f16
// inputs are an error (tensorplay's CPU FFT has no such kernels; under
// autocast the fft ops run in f32).
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;
namespace rc = mlir::tp::runtime_call;

namespace {

/// What an fft op computes, from its name.
struct FftKind {
  /// "fft", "ifft", "rfft", "irfft", "hfft", "ihfft".
  StringRef base;
  bool inverse, oneSidedResult, realResult;
};

std::optional<FftKind> fftKindOf(Operation *op) {
  StringRef name = op->getName().stripDialect();
  if (!name.consume_front("fft_"))
    return std::nullopt;
  StringRef base = name.rtrim("2n");
  FftKind kind{base, base.starts_with("i"), base == "rfft" || base == "ihfft",
               base == "irfft" || base == "hfft"};
  if (!llvm::is_contained({"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"},
                          base))
    return std::nullopt;
  return kind;
}

/// The real type of the transform (f32 or f64 from the result).
Type realTypeOf(Operation *op) {
  Type t = elementTypeOf(op->getResult(0));
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType();
  return t;
}

bool takesInput(Type t) {
  if (auto c = dyn_cast<ComplexType>(t))
    t = c.getElementType();
  return t.isF32() || t.isF64() || (isa<IntegerType>(t) && !t.isInteger(1));
}

struct FftToRuntime : public RewritePattern {
  FftToRuntime(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    std::optional<FftKind> kind = fftKindOf(op);
    if (!kind || op->getNumOperands() != 1 ||
        !takesInput(elementTypeOf(op->getOperand(0))))
      return failure();
    Location loc = op->getLoc();
    Value input = op->getOperand(0), result = op->getResult(0);
    Type real = realTypeOf(op);
    if (!real.isF32() && !real.isF64())
      return failure();
    StringRef suffix = real.isF32() ? "f32" : "f64";
    Type inElem = elementTypeOf(input);
    if (isa<IntegerType>(inElem)) {
      input = CastOp::create(
          rewriter, loc, RankedTensorType::get(shapeOf(input), real), input);
      inElem = real;
    }
    ArrayRef<int64_t> out = shapeOf(result);
    int64_t rank = out.size();
    SmallVector<int64_t> dims =
        fftDims(op->getName().stripDialect().drop_front(4),
                op->getAttrOfType<IntegerAttr>("dim"),
                op->getAttrOfType<DenseI64ArrayAttr>("dim"),
                op->getAttrOfType<DenseI64ArrayAttr>("s"), rank);
    int64_t mask = 0;
    for (int64_t &d : dims) {
      d = normalizeDim(d, rank);
      mask |= int64_t(1) << d;
    }
    int64_t last = dims.back();
    // The one-sided dimension's full signal size.
    int64_t signal = out[last];
    if (kind->oneSidedResult) {
      if (auto n = op->getAttrOfType<IntegerAttr>("n"))
        signal = n.getInt();
      else if (auto s = op->getAttrOfType<DenseI64ArrayAttr>("s"))
        signal = s.asArrayRef().back();
      else
        signal = shapeOf(input)[last];
    }
    double count = 1;
    for (int64_t d : dims)
      count *= d == last ? signal : out[d];
    StringRef norm = "backward";
    if (auto attr = op->getAttrOfType<StringAttr>("norm"))
      norm = attr.getValue();
    double scale = norm == "ortho" ? 1.0 / std::sqrt(count)
                   : (norm == "forward") != kind->inverse ? 1.0 / count
                                                          : 1.0;
    auto i64 = [&](int64_t v) {
      return rc::input(arith::ConstantOp::create(
          rewriter, loc, rewriter.getI64IntegerAttr(v)));
    };
    rc::Argument scaleArg = rc::input(arith::ConstantOp::create(
        rewriter, loc, rewriter.getF64FloatAttr(scale)));
    int64_t sign = kind->inverse ? 1 : -1;
    bool complexIn = isa<ComplexType>(inElem);
    auto resultType = cast<RankedTensorType>(result.getType());
    rc::Argument output =
        rc::output(rewriter, loc, out, resultType.getElementType());
    std::string callee;
    SmallVector<rc::Argument> args = {rc::input(input), output, i64(mask)};
    if (kind->realResult) {
      callee = (complexIn ? "tp_rt_fft_c2r_" : "tp_rt_fft_r2r_") + suffix.str();
      args.append({i64(last), i64(sign), scaleArg});
    } else if (complexIn) {
      callee = "tp_rt_fft_c2c_" + suffix.str();
      args.append({i64(sign), scaleArg});
    } else {
      callee = "tp_rt_fft_r2c_" + suffix.str();
      args.append({i64(last), i64(signal), i64(sign), scaleArg});
    }
    rewriter.replaceOp(op, rc::emitCall(rewriter, loc, op, callee, args));
    return success();
  }
};

} // namespace

void mlir::tp::populateFftToRuntimePatterns(RewritePatternSet &patterns) {
  patterns.add<FftToRuntime>(patterns.getContext());
}

LogicalResult mlir::tp::checkFftOp(Operation *op) {
  if (!fftKindOf(op))
    return success();
  Type in = elementTypeOf(op->getOperand(0));
  Type real = realTypeOf(op);
  if (takesInput(in) && (real.isF32() || real.isF64()))
    return success();
  return op->emitOpError("runs on f32, f64, complex<f32>, complex<f64> and "
                         "integer inputs, got ")
         << op->getOperand(0).getType()
         << " (tensorplay's CPU FFT has no such kernel; under autocast the "
            "fft ops run in f32)";
}
