//===- ComplexToLinalg.cpp - The ops that build complex tensors -----------===//
//
// polar (abs * cos(angle) + i abs * sin(angle), broadcast, as tensorplay's
// kernel) and view_as_complex (the (..., 2) real pairs as complex numbers,
// a copy here: compiled tensors have no aliasing views) as linalg.generic
// ops whose bodies build complex.create; the complex dialect lowers to
// LLVM in the CPU pipeline (convert-complex-to-llvm).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

struct PolarOpLowering : public OpConversionPattern<PolarOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PolarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return emitUnsupported(op, "has no CPU lowering with out=");
    auto resultType = cast<RankedTensorType>(op.getType());
    auto complexType = cast<ComplexType>(resultType.getElementType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType,
        {adaptor.getAbs(), adaptor.getAngle()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value re = arith::MulFOp::create(
              b, loc, args[0], math::CosOp::create(b, loc, args[1]));
          Value im = arith::MulFOp::create(
              b, loc, args[0], math::SinOp::create(b, loc, args[1]));
          return complex::CreateOp::create(b, loc, complexType, re, im);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ViewAsComplexOpLowering : public OpConversionPattern<ViewAsComplexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ViewAsComplexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getOut().empty())
      return emitUnsupported(op, "has no CPU lowering with out=");
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto complexType = cast<ComplexType>(resultType.getElementType());
    Value input = adaptor.getInput();
    int64_t last = shapeOf(input).size() - 1;
    auto part = [&](int64_t k) {
      return reshapeTo(rewriter, loc,
                       sliceAlong(rewriter, loc, input, last, k, 1),
                       resultType.getShape());
    };
    Value result = buildElementwise(
        rewriter, loc, resultType, {part(0), part(1)},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          return complex::CreateOp::create(b, l, complexType, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tp::populateComplexToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<PolarOpLowering, ViewAsComplexOpLowering>(patterns.getContext());
}
