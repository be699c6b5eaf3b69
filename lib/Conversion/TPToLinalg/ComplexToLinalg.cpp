//===- ComplexToLinalg.cpp - Complex tensors: building, viewing, arithmetic
//===//
//
// polar (abs * cos(angle) + i abs * sin(angle), broadcast, as tensorplay's
// kernel), view_as_complex (the (..., 2) real pairs as complex numbers, a
// copy here: compiled tensors have no aliasing views), view_as_real (the
// reverse), add, sub, mul, div and neg with a complex result (real
// operands promoted to complex with a zero imaginary part, as tensorplay
// promotes them) as linalg.generic ops over complex dialect scalars; the
// complex dialect lowers to LLVM in the CPU pipeline
// (convert-complex-to-standard, convert-complex-to-llvm). The functions abs
// (to the real magnitude), exp, expm1, log, log1p, sqrt, rsqrt, sin, cos,
// tan, tanh, reciprocal, sigmoid, log2, log10, sinh and cosh of complex
// tensors are such generics too, as are pow (tensorplay's special
// exponents as products and roots) and the comparisons eq and ne; a
// complex sum or mean is that of the real pairs.
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

#include <cmath>

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

struct ViewAsRealOpLowering : public OpConversionPattern<ViewAsRealOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ViewAsRealOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> leading;
    for (int64_t d = 0; d + 1 < rank; ++d)
      leading.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, leading, ctx),
                                   rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value init = emptyTensor(rewriter, loc, resultType.getShape(),
                             resultType.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, adaptor.getInput(), init, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value part = linalg::IndexOp::create(b, l, rank - 1);
          Value isReal =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, part,
                                    arith::ConstantIndexOp::create(b, l, 0));
          Value re = complex::ReOp::create(b, l, args[0]);
          Value im = complex::ImOp::create(b, l, args[0]);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::SelectOp::create(b, l, isReal, re, im)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// `v` (complex, float, integer or bool) as a complex scalar of `type`.
Value toComplex(OpBuilder &b, Location loc, Value v, ComplexType type) {
  Type real = type.getElementType();
  if (auto from = dyn_cast<ComplexType>(v.getType())) {
    if (from == type)
      return v;
    return complex::CreateOp::create(
        b, loc, type,
        convertScalar(b, loc, complex::ReOp::create(b, loc, v), real),
        convertScalar(b, loc, complex::ImOp::create(b, loc, v), real));
  }
  return complex::CreateOp::create(b, loc, type, convertScalar(b, loc, v, real),
                                   scalarConstant(b, loc, real, 0.0));
}

/// The complex constant `value` (a zero imaginary part) of `type`.
Value complexConstant(OpBuilder &b, Location loc, ComplexType type,
                      double value) {
  return toComplex(b, loc, scalarConstant(b, loc, type.getElementType(), value),
                   type);
}

/// `z` times the real constant `alpha`.
Value scaleComplex(OpBuilder &b, Location loc, Value z, double alpha) {
  if (alpha == 1.0)
    return z;
  auto type = cast<ComplexType>(z.getType());
  Value a = scalarConstant(b, loc, type.getElementType(), alpha);
  return complex::CreateOp::create(
      b, loc, type,
      arith::MulFOp::create(b, loc, complex::ReOp::create(b, loc, z), a),
      arith::MulFOp::create(b, loc, complex::ImOp::create(b, loc, z), a));
}

/// add, sub, mul, div and neg with a complex result (benefit 2: tried
/// before the real elementwise patterns, which refuse complex tensors).
class ComplexArithmeticLowering : public ConversionPattern {
public:
  ComplexArithmeticLowering(MLIRContext *ctx, StringRef name)
      : ConversionPattern(name, /*benefit=*/2, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto complexType = dyn_cast<ComplexType>(resultType.getElementType());
    if (!complexType)
      return failure();
    // A rounded quotient of complex numbers does not exist (tensorplay
    // refuses it too): the real patterns report it.
    if (auto div = dyn_cast<DivOp>(op); div && div.getRoundingMode())
      return failure();
    double alpha = 1.0;
    if (auto add = dyn_cast<AddOp>(op))
      alpha = add.getAlpha().convertToDouble();
    if (auto sub = dyn_cast<SubOp>(op))
      alpha = sub.getAlpha().convertToDouble();
    Value result = buildElementwise(
        rewriter, op->getLoc(), resultType, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = toComplex(b, loc, args[0], complexType);
          if (isa<NegOp>(op))
            return complex::NegOp::create(b, loc, x);
          Value y = toComplex(b, loc, args[1], complexType);
          if (isa<AddOp>(op))
            return complex::AddOp::create(b, loc, x,
                                          scaleComplex(b, loc, y, alpha));
          if (isa<SubOp>(op))
            return complex::SubOp::create(b, loc, x,
                                          scaleComplex(b, loc, y, alpha));
          if (isa<MulOp>(op))
            return complex::MulOp::create(b, loc, x, y);
          return complex::DivOp::create(b, loc, x, y);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The elementwise functions of a complex tensor (benefit 2, as above):
/// the complex dialect's functions (abs to the real magnitude), reciprocal
/// as 1 / z and sigmoid as 1 / (1 + exp(-z)).
class ComplexUnaryLowering : public ConversionPattern {
public:
  ComplexUnaryLowering(MLIRContext *ctx, StringRef name)
      : ConversionPattern(name, /*benefit=*/2, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto complexType = dyn_cast<ComplexType>(elementTypeOf(operands[0]));
    if (!complexType)
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    StringRef name = op->getName().stripDialect();
    Value result = buildElementwise(
        rewriter, op->getLoc(), resultType, operands[0],
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value z = args[0];
          auto one = [&] { return complexConstant(b, loc, complexType, 1); };
          if (name == "abs")
            return complex::AbsOp::create(b, loc, z);
          if (name == "exp")
            return complex::ExpOp::create(b, loc, z);
          if (name == "expm1")
            return complex::Expm1Op::create(b, loc, z);
          if (name == "log")
            return complex::LogOp::create(b, loc, z);
          if (name == "log1p")
            return complex::Log1pOp::create(b, loc, z);
          if (name == "sqrt")
            return complex::SqrtOp::create(b, loc, z);
          if (name == "rsqrt")
            return complex::RsqrtOp::create(b, loc, z);
          if (name == "sin")
            return complex::SinOp::create(b, loc, z);
          if (name == "cos")
            return complex::CosOp::create(b, loc, z);
          if (name == "tan")
            return complex::TanOp::create(b, loc, z);
          if (name == "tanh")
            return complex::TanhOp::create(b, loc, z);
          if (name == "log2")
            return scaleComplex(b, loc, complex::LogOp::create(b, loc, z),
                                1 / M_LN2);
          if (name == "log10")
            return scaleComplex(b, loc, complex::LogOp::create(b, loc, z),
                                1 / M_LN10);
          if (name == "sinh" || name == "cosh") {
            // sinh(x + iy) = sinh x cos y + i cosh x sin y, cosh(x + iy) =
            // cosh x cos y + i sinh x sin y (libstdc++'s formulas).
            Value x = complex::ReOp::create(b, loc, z);
            Value y = complex::ImOp::create(b, loc, z);
            Value sh = math::SinhOp::create(b, loc, x);
            Value ch = math::CoshOp::create(b, loc, x);
            Value c = math::CosOp::create(b, loc, y);
            Value sn = math::SinOp::create(b, loc, y);
            bool sinh = name == "sinh";
            return complex::CreateOp::create(
                b, loc, complexType,
                arith::MulFOp::create(b, loc, sinh ? sh : ch, c),
                arith::MulFOp::create(b, loc, sinh ? ch : sh, sn));
          }
          if (name == "reciprocal")
            return complex::DivOp::create(b, loc, one(), z);
          // sigmoid
          Value e =
              complex::ExpOp::create(b, loc, complex::NegOp::create(b, loc, z));
          return complex::DivOp::create(
              b, loc, one(), complex::AddOp::create(b, loc, one(), e));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// pow with a complex result (benefit 2): tensorplay's CPU kernel's
/// special exponents (0.5 sqrt, -0.5 rsqrt, -1 reciprocal, 2, 3 and -2 as
/// products), else the complex dialect's pow (exp(e log z)); a real operand
/// promoted to complex.
struct ComplexPowLowering : public OpConversionPattern<PowOp> {
  ComplexPowLowering(MLIRContext *ctx)
      : OpConversionPattern<PowOp>(ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(PowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    auto complexType = dyn_cast<ComplexType>(resultType.getElementType());
    if (!complexType)
      return failure();
    SmallVector<Value> operands = {adaptor.getInput()};
    if (adaptor.getExponent())
      operands.push_back(adaptor.getExponent());
    std::optional<double> scalar;
    if (auto e = op.getScalarExponent())
      scalar = e->convertToDouble();
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value z = toComplex(b, loc, args[0], complexType);
          auto one = [&] { return complexConstant(b, loc, complexType, 1); };
          auto mul = [&](Value x, Value y) {
            return complex::MulOp::create(b, loc, x, y);
          };
          if (scalar == 0.5)
            return complex::SqrtOp::create(b, loc, z);
          if (scalar == -0.5)
            return complex::RsqrtOp::create(b, loc, z);
          if (scalar == -1.0)
            return complex::DivOp::create(b, loc, one(), z);
          if (scalar == 2.0)
            return mul(z, z);
          if (scalar == 3.0)
            return mul(mul(z, z), z);
          if (scalar == -2.0)
            return complex::DivOp::create(b, loc, one(), mul(z, z));
          Value e = scalar ? complexConstant(b, loc, complexType, *scalar)
                           : toComplex(b, loc, args[1], complexType);
          return complex::PowOp::create(b, loc, z, e);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// eq and ne of operands whose promoted type is complex (benefit 2): equal
/// real and imaginary parts (ordered: a NaN part is unequal), ne its
/// negation, as tensorplay compares complex numbers.
template <typename OpTy>
struct ComplexComparisonLowering : public OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  ComplexComparisonLowering(MLIRContext *ctx)
      : OpConversionPattern<OpTy>(ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto complexType = dyn_cast_or_null<ComplexType>(
        cast<ComputeOpInterface>(op.getOperation()).getComputeElementType());
    if (!complexType)
      return failure();
    bool equal = std::is_same_v<OpTy, EqOp>;
    Value result = buildElementwise(
        rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
        {adaptor.getOperands()[0], adaptor.getOperands()[1]},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = toComplex(b, loc, args[0], complexType);
          Value y = toComplex(b, loc, args[1], complexType);
          auto pred =
              equal ? arith::CmpFPredicate::OEQ : arith::CmpFPredicate::UNE;
          Value re = arith::CmpFOp::create(b, loc, pred,
                                           complex::ReOp::create(b, loc, x),
                                           complex::ReOp::create(b, loc, y));
          Value im = arith::CmpFOp::create(b, loc, pred,
                                           complex::ImOp::create(b, loc, x),
                                           complex::ImOp::create(b, loc, y));
          return equal ? arith::AndIOp::create(b, loc, re, im).getResult()
                       : arith::OrIOp::create(b, loc, re, im).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// sum and mean of a complex tensor: those of its (..., 2) real pairs over
/// the same dims, viewed as complex again (the new tp ops are lowered in
/// turn).
template <typename OpTy>
struct ComplexReductionLowering : public OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  ComplexReductionLowering(MLIRContext *ctx)
      : OpConversionPattern<OpTy>(ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    if (!isa<ComplexType>(elementTypeOf(input)) ||
        elementTypeOf(input) != elementTypeOf(op.getResult()))
      return failure();
    int64_t rank = rankOf(input);
    SmallVector<int64_t> dims;
    if (auto given = op.getDim())
      for (int64_t d : *given)
        dims.push_back(normalizeDim(d, rank));
    else
      dims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    Location loc = op.getLoc();
    auto make = [&](StringRef name, Value v, ArrayRef<NamedAttribute> attrs) {
      return createWithInferredResultTypes(rewriter, loc, name, v, attrs)
          ->getResult(0);
    };
    Value pairs = make("tp.view_as_real", input, {});
    Value reduced =
        make(op->getName().getStringRef(), pairs,
             {rewriter.getNamedAttr("dim", rewriter.getDenseI64ArrayAttr(dims)),
              rewriter.getNamedAttr("keepdim", op.getKeepdimAttr())});
    rewriter.replaceOp(op, make("tp.view_as_complex", reduced, {}));
    return success();
  }
};

} // namespace

void mlir::tp::populateComplexToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<PolarOpLowering, ViewAsComplexOpLowering, ViewAsRealOpLowering,
           ComplexReductionLowering<SumOp>, ComplexReductionLowering<MeanOp>>(
          ctx);
  for (StringRef name : {AddOp::getOperationName(), SubOp::getOperationName(),
                         MulOp::getOperationName(), DivOp::getOperationName(),
                         NegOp::getOperationName()})
    patterns.add<ComplexArithmeticLowering>(ctx, name);
  for (StringRef name :
       {AbsOp::getOperationName(), ExpOp::getOperationName(),
        Expm1Op::getOperationName(), LogOp::getOperationName(),
        Log1pOp::getOperationName(), SqrtOp::getOperationName(),
        RsqrtOp::getOperationName(), SinOp::getOperationName(),
        CosOp::getOperationName(), TanOp::getOperationName(),
        TanhOp::getOperationName(), ReciprocalOp::getOperationName(),
        SigmoidOp::getOperationName(), Log2Op::getOperationName(),
        Log10Op::getOperationName(), SinhOp::getOperationName(),
        CoshOp::getOperationName()})
    patterns.add<ComplexUnaryLowering>(ctx, name);
  patterns.add<ComplexPowLowering, ComplexComparisonLowering<EqOp>,
               ComplexComparisonLowering<NeOp>>(ctx);
}
