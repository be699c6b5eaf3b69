//===- ElementwiseToLinalg.cpp - tp elementwise ops to linalg -------------===//
//
// Unary math and activations, binary ops with broadcasting and native type
// promotion, scalar-operand ops, addcmul/addcdiv, where, dropout, tp.cast
// and tp.constant. Every op becomes one elementwise linalg.generic; f16/bf16
// values are widened to f32 inside the body (arith.extf) and the result
// rounded back (arith.truncf), so casts fuse with their neighbours.
//
// The unary and binary ops are driven by tables of op kinds: one entry per
// op holding the scalar body; one pattern class per table.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

/// Scalar body of a unary op on a float `x` (f32 or f64); `op` gives the
/// attributes.
using FloatUnaryFn = Value (*)(OpBuilder &, Location, Value, Operation *);
/// Scalar body on an integer `x` (null when the op has no integer form).
using IntUnaryFn = Value (*)(OpBuilder &, Location, Value, Operation *);

struct UnaryKind {
  StringLiteral name;
  FloatUnaryFn floatFn;
  IntUnaryFn intFn = nullptr;
};

Value cst(OpBuilder &b, Location loc, Value like, double v) {
  return scalarConstant(b, loc, like.getType(), v);
}

/// erfinv: Giles' single-precision approximation refined by one Newton step
/// on erf.
Value buildErfinv(OpBuilder &b, Location loc, Value x) {
  auto poly = [&](Value w, ArrayRef<double> coeffs) {
    Value p = cst(b, loc, w, coeffs[0]);
    for (double c : coeffs.drop_front())
      p = arith::AddFOp::create(b, loc, cst(b, loc, w, c),
                                arith::MulFOp::create(b, loc, p, w));
    return p;
  };
  Value one = cst(b, loc, x, 1.0);
  Value w = arith::NegFOp::create(
      b, loc,
      math::LogOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, arith::SubFOp::create(b, loc, one, x),
                                arith::AddFOp::create(b, loc, one, x))));
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, w,
                                      cst(b, loc, w, 5.0));
  Value w1 = arith::SubFOp::create(b, loc, w, cst(b, loc, w, 2.5));
  Value p1 = poly(w1, {2.81022636e-08, 3.43273939e-07, -3.5233877e-06,
                       -4.39150654e-06, 0.00021858087, -0.00125372503,
                       -0.00417768164, 0.246640727, 1.50140941});
  Value w2 = arith::SubFOp::create(b, loc, math::SqrtOp::create(b, loc, w),
                                   cst(b, loc, w, 3.0));
  Value p2 = poly(w2, {-0.000200214257, 0.000100950558, 0.00134934322,
                       -0.00367342844, 0.00573950773, -0.0076224613,
                       0.00943887047, 1.00167406, 2.83297682});
  Value p = arith::SelectOp::create(b, loc, small, p1, p2);
  Value y = arith::MulFOp::create(b, loc, p, x);
  // Newton: y -= (erf(y) - x) / (2/sqrt(pi) * exp(-y^2)).
  Value err = arith::SubFOp::create(b, loc, math::ErfOp::create(b, loc, y), x);
  Value dy = arith::MulFOp::create(
      b, loc, cst(b, loc, x, 2.0 / std::sqrt(M_PI)),
      math::ExpOp::create(
          b, loc,
          arith::NegFOp::create(b, loc, arith::MulFOp::create(b, loc, y, y))));
  Value refined =
      arith::SubFOp::create(b, loc, y, arith::DivFOp::create(b, loc, err, dy));
  // |x| == 1 gives +-inf; keep the closed-form value there.
  Value absX = math::AbsFOp::create(b, loc, x);
  Value inside =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, absX, one);
  Value inf = arith::MulFOp::create(
      b, loc, x, scalarConstant(b, loc, x.getType(), INFINITY));
  Value edge =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, absX, one);
  Value r = arith::SelectOp::create(b, loc, inside, refined, y);
  return arith::SelectOp::create(b, loc, edge, inf, r);
}

Value buildGelu(OpBuilder &b, Location loc, Value x, Operation *op) {
  if (cast<GeluOp>(op).getApproximate() == GeluApproximation::Tanh) {
    // 0.5 x (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3):
    // the same value without the cancellation of 1 + tanh(u) for x << 0.
    Value x3 =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value t = arith::AddFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, cst(b, loc, x, 0.044715), x3));
    Value twoU = arith::MulFOp::create(
        b, loc, cst(b, loc, x, 2.0 * std::sqrt(2.0 / M_PI)), t);
    return arith::MulFOp::create(b, loc, x, buildSigmoid(b, loc, twoU));
  }
  // 0.5 x (1 + erf(x / sqrt(2))) as 0.5 x erfc(-x / sqrt(2)): the same
  // value without the cancellation of 1 + erf for x << 0.
  Value half = cst(b, loc, x, 0.5);
  Value z = arith::MulFOp::create(b, loc, x, cst(b, loc, x, -M_SQRT1_2));
  return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, half, x),
                               math::ErfcOp::create(b, loc, z));
}

Value buildSoftplusOp(OpBuilder &b, Location loc, Value x, Operation *op) {
  auto softplus = cast<SoftplusOp>(op);
  double beta = softplus.getBeta().convertToDouble();
  double threshold = softplus.getThreshold().convertToDouble();
  Value bx = arith::MulFOp::create(b, loc, x, cst(b, loc, x, beta));
  Value soft = arith::DivFOp::create(
      b, loc, math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, bx)),
      cst(b, loc, x, beta));
  Value linear = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, bx,
                                       cst(b, loc, x, threshold));
  return arith::SelectOp::create(b, loc, linear, x, soft);
}

Value buildLeakyRelu(OpBuilder &b, Location loc, Value x, Operation *op) {
  double slope = cast<LeakyReluOp>(op).getNegativeSlope().convertToDouble();
  Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x,
                                         cst(b, loc, x, 0.0));
  return arith::SelectOp::create(
      b, loc, positive, x,
      arith::MulFOp::create(b, loc, x, cst(b, loc, x, slope)));
}

/// x * min(max(x + 3, 0), 6) / 6 (NaN propagates).
Value buildHardswish(OpBuilder &b, Location loc, Value x) {
  Value r6 = arith::MinimumFOp::create(
      b, loc,
      arith::MaximumFOp::create(
          b, loc, arith::AddFOp::create(b, loc, x, cst(b, loc, x, 3.0)),
          cst(b, loc, x, 0.0)),
      cst(b, loc, x, 6.0));
  return arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, x, r6),
                               cst(b, loc, x, 6.0));
}

/// elu (selu and celu are its parameters): scale * x above 0, else
/// scale * alpha * expm1(input_scale * x); NaN propagates.
Value buildElu(OpBuilder &b, Location loc, Value x, Operation *op) {
  auto elu = cast<EluOp>(op);
  double alpha = elu.getAlpha().convertToDouble();
  double scale = elu.getScale().convertToDouble();
  double inputScale = elu.getInputScale().convertToDouble();
  Value negative = arith::MulFOp::create(
      b, loc,
      math::ExpM1Op::create(
          b, loc, arith::MulFOp::create(b, loc, x, cst(b, loc, x, inputScale))),
      cst(b, loc, x, alpha * scale));
  Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x,
                                         cst(b, loc, x, 0.0));
  return arith::SelectOp::create(
      b, loc, positive, arith::MulFOp::create(b, loc, x, cst(b, loc, x, scale)),
      negative);
}

/// log(1 + exp(x)): x itself above 20, where exp would only round to it
/// (and overflow beyond 88 in f32).
Value buildSoftplusOne(OpBuilder &b, Location loc, Value x) {
  Value soft = math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
  Value large = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                      cst(b, loc, x, 20.0));
  return arith::SelectOp::create(b, loc, large, x, soft);
}

/// mish: x * tanh(softplus(x)).
Value buildMish(OpBuilder &b, Location loc, Value x) {
  return arith::MulFOp::create(
      b, loc, x, math::TanhOp::create(b, loc, buildSoftplusOne(b, loc, x)));
}

/// log_sigmoid: min(x, 0) - log1p(exp(-|x|)), exact for large |x| (NaN
/// propagates).
Value buildLogSigmoid(OpBuilder &b, Location loc, Value x) {
  Value tail = math::Log1pOp::create(
      b, loc,
      math::ExpOp::create(
          b, loc,
          arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, x))));
  return arith::SubFOp::create(
      b, loc, arith::MinimumFOp::create(b, loc, x, cst(b, loc, x, 0.0)), tail);
}

/// clamp: max with the lower bound, then min with the upper one; NaN
/// propagates (maximumf / minimumf) and min > max gives max.
Value buildClamp(OpBuilder &b, Location loc, Value x, Operation *op) {
  auto clamp = cast<ClampOp>(op);
  bool isFloat = isa<FloatType>(x.getType());
  if (std::optional<APFloat> lo = clamp.getMin()) {
    Value c = cst(b, loc, x, lo->convertToDouble());
    x = isFloat ? (Value)arith::MaximumFOp::create(b, loc, x, c)
                : (Value)arith::MaxSIOp::create(b, loc, x, c);
  }
  if (std::optional<APFloat> hi = clamp.getMax()) {
    Value c = cst(b, loc, x, hi->convertToDouble());
    x = isFloat ? (Value)arith::MinimumFOp::create(b, loc, x, c)
                : (Value)arith::MinSIOp::create(b, loc, x, c);
  }
  return x;
}

/// fake_quantize_per_tensor_affine as tensorplay's CPU kernel: q =
/// clamp(nearbyint(x * (1 / scale)) + zero_point, quant_min, quant_max),
/// then (q - zero_point) * scale, in f32 (1 / scale rounded to f32 first).
/// NaN gives quant_min, as the kernel's integer conversion does; +-inf
/// clamp to the nearer bound (the kernel's conversion of them is undefined).
Value buildFakeQuantize(OpBuilder &b, Location loc, Value x, Operation *op) {
  auto fq = cast<FakeQuantizePerTensorAffineOp>(op);
  double scale = fq.getScale().convertToDouble();
  // I64Attr reads back unsigned: the zero point and bounds may be negative.
  auto zeroPoint = (double)(int64_t)fq.getZeroPoint();
  auto lo = (double)(int64_t)fq.getQuantMin(),
       hi = (double)(int64_t)fq.getQuantMax();
  Value q = math::RoundEvenOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, x,
                            cst(b, loc, x, (double)(float)(1.0 / scale))));
  q = arith::AddFOp::create(b, loc, q, cst(b, loc, x, zeroPoint));
  q = arith::MaxNumFOp::create(b, loc, q, cst(b, loc, x, lo));
  q = arith::MinNumFOp::create(b, loc, q, cst(b, loc, x, hi));
  return arith::MulFOp::create(
      b, loc, arith::SubFOp::create(b, loc, q, cst(b, loc, x, zeroPoint)),
      cst(b, loc, x, (double)(float)scale));
}

#define FLOAT_FN(expr)                                                         \
  [](OpBuilder &b, Location loc, Value x, Operation *op) -> Value {            \
    (void)op;                                                                  \
    return expr;                                                               \
  }

const UnaryKind kUnaryKinds[] = {
    {AbsOp::getOperationName(), FLOAT_FN(math::AbsFOp::create(b, loc, x)),
     FLOAT_FN(math::AbsIOp::create(b, loc, x))},
    {AcosOp::getOperationName(), FLOAT_FN(math::AcosOp::create(b, loc, x))},
    {ClampOp::getOperationName(), FLOAT_FN(buildClamp(b, loc, x, op)),
     FLOAT_FN(buildClamp(b, loc, x, op))},
    {AsinOp::getOperationName(), FLOAT_FN(math::AsinOp::create(b, loc, x))},
    {AtanOp::getOperationName(), FLOAT_FN(math::AtanOp::create(b, loc, x))},
    {AsinhOp::getOperationName(), FLOAT_FN(math::AsinhOp::create(b, loc, x))},
    {AcoshOp::getOperationName(), FLOAT_FN(math::AcoshOp::create(b, loc, x))},
    {AtanhOp::getOperationName(), FLOAT_FN(math::AtanhOp::create(b, loc, x))},
    {CosOp::getOperationName(), FLOAT_FN(math::CosOp::create(b, loc, x))},
    {CoshOp::getOperationName(), FLOAT_FN(math::CoshOp::create(b, loc, x))},
    {EluOp::getOperationName(), FLOAT_FN(buildElu(b, loc, x, op))},
    {ErfOp::getOperationName(), FLOAT_FN(buildErf(b, loc, x))},
    {ErfinvOp::getOperationName(), FLOAT_FN(buildErfinv(b, loc, x))},
    {ExpOp::getOperationName(), FLOAT_FN(math::ExpOp::create(b, loc, x))},
    {FakeQuantizePerTensorAffineOp::getOperationName(),
     FLOAT_FN(buildFakeQuantize(b, loc, x, op))},
    {Expm1Op::getOperationName(), FLOAT_FN(math::ExpM1Op::create(b, loc, x))},
    {GeluOp::getOperationName(), FLOAT_FN(buildGelu(b, loc, x, op))},
    {HardswishOp::getOperationName(), FLOAT_FN(buildHardswish(b, loc, x))},
    {LeakyReluOp::getOperationName(), FLOAT_FN(buildLeakyRelu(b, loc, x, op))},
    {LogOp::getOperationName(), FLOAT_FN(math::LogOp::create(b, loc, x))},
    {LogSigmoidOp::getOperationName(), FLOAT_FN(buildLogSigmoid(b, loc, x))},
    {Log10Op::getOperationName(), FLOAT_FN(math::Log10Op::create(b, loc, x))},
    {Log1pOp::getOperationName(), FLOAT_FN(math::Log1pOp::create(b, loc, x))},
    {Log2Op::getOperationName(), FLOAT_FN(math::Log2Op::create(b, loc, x))},
    {MishOp::getOperationName(), FLOAT_FN(buildMish(b, loc, x))},
    {NegOp::getOperationName(), FLOAT_FN(arith::NegFOp::create(b, loc, x)),
     FLOAT_FN(arith::SubIOp::create(b, loc, cst(b, loc, x, 0), x))},
    {ReciprocalOp::getOperationName(),
     FLOAT_FN(arith::DivFOp::create(b, loc, cst(b, loc, x, 1.0), x))},
    {ReluOp::getOperationName(),
     FLOAT_FN(arith::MaximumFOp::create(b, loc, x, cst(b, loc, x, 0.0))),
     FLOAT_FN(arith::MaxSIOp::create(b, loc, x, cst(b, loc, x, 0)))},
    {RsqrtOp::getOperationName(), FLOAT_FN(math::RsqrtOp::create(b, loc, x))},
    {SigmoidOp::getOperationName(), FLOAT_FN(buildSigmoid(b, loc, x))},
    {SiluOp::getOperationName(),
     FLOAT_FN(arith::MulFOp::create(b, loc, x, buildSigmoid(b, loc, x)))},
    {SinOp::getOperationName(), FLOAT_FN(math::SinOp::create(b, loc, x))},
    {SinhOp::getOperationName(), FLOAT_FN(math::SinhOp::create(b, loc, x))},
    {SoftplusOp::getOperationName(), FLOAT_FN(buildSoftplusOp(b, loc, x, op))},
    {SqrtOp::getOperationName(), FLOAT_FN(math::SqrtOp::create(b, loc, x))},
    {TanOp::getOperationName(), FLOAT_FN(math::TanOp::create(b, loc, x))},
    {TanhOp::getOperationName(), FLOAT_FN(math::TanhOp::create(b, loc, x))},
};

#undef FLOAT_FN

/// True when elementwise lowering supports element type `t`.
bool isRealType(Type t) { return isa<FloatType, IntegerType>(t); }

class UnaryOpLowering : public ConversionPattern {
public:
  UnaryOpLowering(MLIRContext *ctx, const UnaryKind &kind)
      : ConversionPattern(kind.name, /*benefit=*/1, ctx), kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type resultElem = resultType.getElementType();
    Type inputElem = elementTypeOf(operands[0]);
    if (!isRealType(resultElem) || !isRealType(inputElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    bool isFloat = isa<FloatType>(resultElem);
    if (!isFloat && !kind.intFn)
      return emitUnsupported(op, "has no CPU lowering for integer tensors");
    Type computeType = computeTypeFor(resultElem);
    Value result = buildElementwise(
        rewriter, loc, resultType, operands[0],
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, computeType);
          Value y = isFloat ? kind.floatFn(b, nloc, x, op)
                            : kind.intFn(b, nloc, x, op);
          return convertScalar(b, nloc, y, resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  const UnaryKind &kind;
};

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

/// Scalar body of a binary op on operands already in the compute type.
using BinaryFn = Value (*)(OpBuilder &, Location, Value, Value, Operation *);

struct BinaryKind {
  StringLiteral name;
  BinaryFn floatFn;
  BinaryFn intFn = nullptr;
};

Value scaledRhs(OpBuilder &b, Location loc, Value y, double alpha,
                bool isFloat) {
  if (alpha == 1.0)
    return y;
  if (isFloat)
    return arith::MulFOp::create(b, loc, y, cst(b, loc, y, alpha));
  return arith::MulIOp::create(b, loc, y, cst(b, loc, y, alpha));
}

double alphaOf(Operation *op) {
  if (auto add = dyn_cast<AddOp>(op))
    return add.getAlpha().convertToDouble();
  return cast<SubOp>(op).getAlpha().convertToDouble();
}

/// Floor division of floats as tensorplay computes it (c10's
/// div_floor_floating): the floor of the exact quotient, from fmod, not of
/// the rounded one (1 // 0.1f is 9: 1 / 0.1f is 9.99999985).
Value buildFloorDiv(OpBuilder &b, Location loc, Value x, Value y) {
  using P = arith::CmpFPredicate;
  Value zero = cst(b, loc, x, 0.0);
  Value q = arith::DivFOp::create(b, loc, x, y);
  Value mod = arith::RemFOp::create(b, loc, x, y); // fmod
  Value div =
      arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, x, mod), y);
  Value modNonZero = arith::CmpFOp::create(b, loc, P::UNE, mod, zero);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, arith::CmpFOp::create(b, loc, P::OLT, y, zero),
      arith::CmpFOp::create(b, loc, P::OLT, mod, zero));
  div = arith::SelectOp::create(
      b, loc, arith::AndIOp::create(b, loc, modNonZero, signsDiffer),
      arith::SubFOp::create(b, loc, div, cst(b, loc, x, 1.0)), div);
  Value floor = math::FloorOp::create(b, loc, div);
  Value roundUp = arith::CmpFOp::create(
      b, loc, P::OGT, arith::SubFOp::create(b, loc, div, floor),
      cst(b, loc, x, 0.5));
  floor = arith::SelectOp::create(
      b, loc, roundUp,
      arith::AddFOp::create(b, loc, floor, cst(b, loc, x, 1.0)), floor);
  Value divZero = arith::CmpFOp::create(b, loc, P::OEQ, div, zero);
  Value signedZero = math::CopySignOp::create(b, loc, zero, q);
  Value result = arith::SelectOp::create(b, loc, divZero, signedZero, floor);
  // Division by zero: the plain quotient (+-inf or NaN).
  Value byZero = arith::CmpFOp::create(b, loc, P::OEQ, y, zero);
  return arith::SelectOp::create(b, loc, byZero, q, result);
}

Value buildDiv(OpBuilder &b, Location loc, Value x, Value y, Operation *op) {
  std::optional<StringRef> mode = cast<DivOp>(op).getRoundingMode();
  if (mode && *mode == "floor")
    return buildFloorDiv(b, loc, x, y);
  Value q = arith::DivFOp::create(b, loc, x, y);
  if (mode && *mode == "trunc")
    return math::TruncOp::create(b, loc, q);
  return q;
}

Value buildIntDiv(OpBuilder &b, Location loc, Value x, Value y, Operation *op) {
  std::optional<StringRef> mode = cast<DivOp>(op).getRoundingMode();
  if (mode && *mode == "floor")
    return arith::FloorDivSIOp::create(b, loc, x, y);
  return arith::DivSIOp::create(b, loc, x, y);
}

/// threshold_backward: self <= threshold ? 0 : grad (a NaN self passes the
/// gradient, as aten's does).
Value buildThresholdBackward(OpBuilder &b, Location loc, Value grad, Value self,
                             Operation *op) {
  double threshold =
      cast<ThresholdBackwardOp>(op).getThreshold().convertToDouble();
  Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, self,
                                      cst(b, loc, self, threshold));
  return arith::SelectOp::create(b, loc, below, cst(b, loc, grad, 0.0), grad);
}

/// gelu_backward: grad * gelu'(self), in aten's formulas.
Value buildGeluBackward(OpBuilder &b, Location loc, Value grad, Value x,
                        Operation *op) {
  auto mul = [&](Value l, Value r) {
    return (Value)arith::MulFOp::create(b, loc, l, r);
  };
  auto add = [&](Value l, Value r) {
    return (Value)arith::AddFOp::create(b, loc, l, r);
  };
  if (cast<GeluBackwardOp>(op).getApproximate() == GeluApproximation::Tanh) {
    // d/dx 0.5 x (1 + tanh(k (x + c x^3))), k = sqrt(2/pi), c = 0.044715.
    double k = std::sqrt(2.0 / M_PI), c = 0.044715;
    Value x2 = mul(x, x);
    Value inner =
        mul(cst(b, loc, x, k), add(x, mul(cst(b, loc, x, c), mul(x2, x))));
    Value t = math::TanhOp::create(b, loc, inner);
    Value one = cst(b, loc, x, 1.0);
    Value left = mul(cst(b, loc, x, 0.5), x);
    Value leftDerivative = mul(cst(b, loc, x, 0.5), add(one, t));
    Value innerDerivative =
        mul(cst(b, loc, x, k), add(one, mul(cst(b, loc, x, 3.0 * c), x2)));
    Value rightDerivative =
        mul(mul(left, arith::SubFOp::create(b, loc, one, mul(t, t))),
            innerDerivative);
    return mul(grad, add(leftDerivative, rightDerivative));
  }
  // Phi(x) + x phi(x), Phi(x) = 0.5 erfc(-x / sqrt(2)),
  // phi(x) = exp(-x^2 / 2) / sqrt(2 pi).
  Value cdf =
      mul(cst(b, loc, x, 0.5),
          math::ErfcOp::create(b, loc, mul(x, cst(b, loc, x, -M_SQRT1_2))));
  Value pdf =
      mul(cst(b, loc, x, 0.5 * M_2_SQRTPI * M_SQRT1_2),
          math::ExpOp::create(b, loc, mul(cst(b, loc, x, -0.5), mul(x, x))));
  return mul(grad, add(cdf, mul(x, pdf)));
}

#define BINARY_FN(expr)                                                        \
  [](OpBuilder &b, Location loc, Value x, Value y, Operation *op) -> Value {   \
    (void)op;                                                                  \
    return expr;                                                               \
  }

const BinaryKind kBinaryKinds[] = {
    {AddOp::getOperationName(),
     BINARY_FN(arith::AddFOp::create(b, loc, x,
                                     scaledRhs(b, loc, y, alphaOf(op), true))),
     BINARY_FN(arith::AddIOp::create(
         b, loc, x, scaledRhs(b, loc, y, alphaOf(op), false)))},
    {SubOp::getOperationName(),
     BINARY_FN(arith::SubFOp::create(b, loc, x,
                                     scaledRhs(b, loc, y, alphaOf(op), true))),
     BINARY_FN(arith::SubIOp::create(
         b, loc, x, scaledRhs(b, loc, y, alphaOf(op), false)))},
    {MulOp::getOperationName(), BINARY_FN(arith::MulFOp::create(b, loc, x, y)),
     BINARY_FN(arith::MulIOp::create(b, loc, x, y))},
    {DivOp::getOperationName(), BINARY_FN(buildDiv(b, loc, x, y, op)),
     BINARY_FN(buildIntDiv(b, loc, x, y, op))},
    {MaximumOp::getOperationName(),
     BINARY_FN(arith::MaximumFOp::create(b, loc, x, y)),
     BINARY_FN(arith::MaxSIOp::create(b, loc, x, y))},
    {MinimumOp::getOperationName(),
     BINARY_FN(arith::MinimumFOp::create(b, loc, x, y)),
     BINARY_FN(arith::MinSIOp::create(b, loc, x, y))},
    {Atan2Op::getOperationName(),
     BINARY_FN(math::Atan2Op::create(b, loc, x, y))},
    {ThresholdBackwardOp::getOperationName(),
     BINARY_FN(buildThresholdBackward(b, loc, x, y, op))},
    {GeluBackwardOp::getOperationName(),
     BINARY_FN(buildGeluBackward(b, loc, x, y, op))},
};

#undef BINARY_FN

/// Lowers a binary op: both operands are converted to the result dtype (the
/// promoted common dtype), then to the compute type.
class BinaryOpLowering : public ConversionPattern {
public:
  BinaryOpLowering(MLIRContext *ctx, const BinaryKind &kind)
      : ConversionPattern(kind.name, /*benefit=*/1, ctx), kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type resultElem = resultType.getElementType();
    if (!isRealType(resultElem) || !isRealType(elementTypeOf(operands[0])) ||
        !isRealType(elementTypeOf(operands[1])))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    bool isFloat = isa<FloatType>(resultElem);
    if (!isFloat && (!kind.intFn || resultElem.isInteger(1)))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors";
    // Integer division with an integer result only with a rounding mode.
    Type computeType = computeTypeFor(resultElem);
    Value result = buildElementwise(
        rewriter, loc, resultType, {operands[0], operands[1]},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, computeType);
          Value y = convertToCompute(b, nloc, args[1], resultElem, computeType);
          Value r = isFloat ? kind.floatFn(b, nloc, x, y, op)
                            : kind.intFn(b, nloc, x, y, op);
          return convertScalar(b, nloc, r, resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  const BinaryKind &kind;
};

//===----------------------------------------------------------------------===//
// Comparisons and masked_fill
//===----------------------------------------------------------------------===//

struct ComparisonKind {
  StringLiteral name;
  arith::CmpFPredicate floatPredicate;
  arith::CmpIPredicate signedPredicate;
  arith::CmpIPredicate unsignedPredicate;
};

// Ordered float predicates (a NaN operand gives false) except `ne`, which
// holds for NaN, as IEEE and tensorplay compare.
const ComparisonKind kComparisonKinds[] = {
    {EqOp::getOperationName(), arith::CmpFPredicate::OEQ,
     arith::CmpIPredicate::eq, arith::CmpIPredicate::eq},
    {NeOp::getOperationName(), arith::CmpFPredicate::UNE,
     arith::CmpIPredicate::ne, arith::CmpIPredicate::ne},
    {LtOp::getOperationName(), arith::CmpFPredicate::OLT,
     arith::CmpIPredicate::slt, arith::CmpIPredicate::ult},
    {LeOp::getOperationName(), arith::CmpFPredicate::OLE,
     arith::CmpIPredicate::sle, arith::CmpIPredicate::ule},
    {GtOp::getOperationName(), arith::CmpFPredicate::OGT,
     arith::CmpIPredicate::sgt, arith::CmpIPredicate::ugt},
    {GeOp::getOperationName(), arith::CmpFPredicate::OGE,
     arith::CmpIPredicate::sge, arith::CmpIPredicate::uge},
};

/// Lowers a comparison: both operands are converted to their promoted
/// dtype (the op's computation dtype), then compared (floats widened to
/// the compute type, which is exact); bool compares as unsigned.
class ComparisonOpLowering : public ConversionPattern {
public:
  ComparisonOpLowering(MLIRContext *ctx, const ComparisonKind &kind)
      : ConversionPattern(kind.name, /*benefit=*/1, ctx), kind(kind) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type promoted = cast<ComputeOpInterface>(op).getComputeElementType();
    if (!promoted || !isRealType(promoted) ||
        !isRealType(elementTypeOf(operands[0])) ||
        !isRealType(elementTypeOf(operands[1])))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    bool isFloat = isa<FloatType>(promoted);
    bool isUnsigned =
        !isFloat && (promoted.isInteger(1) || promoted.isUnsignedInteger());
    Type computeType = computeTypeFor(promoted);
    Value result = buildElementwise(
        rewriter, op->getLoc(), resultType, {operands[0], operands[1]},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = convertToCompute(b, loc, args[0], promoted, computeType);
          Value y = convertToCompute(b, loc, args[1], promoted, computeType);
          if (isFloat)
            return arith::CmpFOp::create(b, loc, kind.floatPredicate, x, y);
          return arith::CmpIOp::create(
              b, loc,
              isUnsigned ? kind.unsignedPredicate : kind.signedPredicate, x, y);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  const ComparisonKind &kind;
};

struct MaskedFillOpLowering : public OpConversionPattern<MaskedFillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaskedFillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isRealType(resultElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    double value = op.getValue().convertToDouble();
    if (isa<IntegerType>(resultElem) && !std::isfinite(value))
      return op.emitOpError("cannot fill an integer tensor with ") << value;
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType,
        {adaptor.getInput(), adaptor.getMask()},
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value fill = scalarConstant(
              b, loc, resultElem,
              isa<IntegerType>(resultElem) ? std::trunc(value) : value);
          return arith::SelectOp::create(b, loc, args[1], fill, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// pow, rdiv, rtruediv, rpow, addcmul, addcdiv, where
//===----------------------------------------------------------------------===//

/// x ** e for a float x with a constant exponent: cheap forms first.
Value powScalar(OpBuilder &b, Location loc, Value x, double e) {
  if (e == 1.0)
    return x;
  if (e == 2.0)
    return arith::MulFOp::create(b, loc, x, x);
  if (e == 3.0)
    return arith::MulFOp::create(b, loc, x,
                                 arith::MulFOp::create(b, loc, x, x));
  if (e == 0.5)
    return math::SqrtOp::create(b, loc, x);
  if (e == -0.5)
    return math::RsqrtOp::create(b, loc, x);
  if (e == -1.0)
    return arith::DivFOp::create(b, loc, cst(b, loc, x, 1.0), x);
  if (e == 0.0)
    return cst(b, loc, x, 1.0);
  return math::PowFOp::create(b, loc, x, cst(b, loc, x, e));
}

/// Integer power by squaring (exponent >= 0), as torch does for integers.
Value powInt(OpBuilder &b, Location loc, Value x, Value e) {
  return math::IPowIOp::create(b, loc, x, e);
}

struct PowOpLowering : public OpConversionPattern<PowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isRealType(resultElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    bool isFloat = isa<FloatType>(resultElem);
    Type computeType = computeTypeFor(resultElem);
    SmallVector<Value> operands = {adaptor.getInput()};
    if (adaptor.getExponent())
      operands.push_back(adaptor.getExponent());
    std::optional<double> scalar;
    if (auto e = op.getScalarExponent())
      scalar = e->convertToDouble();
    Value result = buildElementwise(
        rewriter, loc, resultType, operands,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, computeType);
          Value r;
          if (scalar) {
            r = isFloat ? powScalar(b, nloc, x, *scalar)
                        : powInt(b, nloc, x, cst(b, nloc, x, *scalar));
          } else {
            Value e =
                convertToCompute(b, nloc, args[1], resultElem, computeType);
            r = isFloat ? (Value)math::PowFOp::create(b, nloc, x, e)
                        : powInt(b, nloc, x, e);
          }
          return convertScalar(b, nloc, r, resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// rdiv / rtruediv / rpow: `other op x` with a scalar attribute.
template <typename OpTy>
struct ScalarLhsOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " results";
    Type computeType = computeTypeFor(resultElem);
    double scalar;
    if constexpr (std::is_same_v<OpTy, RpowOp>)
      scalar = op.getBase().convertToDouble();
    else
      scalar = op.getOther().convertToDouble();
    Value result = buildElementwise(
        rewriter, loc, resultType, adaptor.getInput(),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = convertToCompute(b, nloc, args[0], resultElem, computeType);
          Value s = cst(b, nloc, x, scalar);
          Value r;
          if constexpr (std::is_same_v<OpTy, RpowOp>)
            r = math::PowFOp::create(b, nloc, s, x);
          else
            r = arith::DivFOp::create(b, nloc, s, x);
          return convertScalar(b, nloc, r, resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// addcmul / addcdiv: self + value * (t1 op t2).
template <typename OpTy, bool IsDiv>
struct AddcOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " results";
    Type computeType = computeTypeFor(resultElem);
    double value = op.getValue().convertToDouble();
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType,
        {adaptor.getInput(), adaptor.getTensor1(), adaptor.getTensor2()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value s = convertToCompute(b, loc, args[0], resultElem, computeType);
          Value t1 = convertToCompute(b, loc, args[1], resultElem, computeType);
          Value t2 = convertToCompute(b, loc, args[2], resultElem, computeType);
          Value t = IsDiv ? (Value)arith::DivFOp::create(b, loc, t1, t2)
                          : (Value)arith::MulFOp::create(b, loc, t1, t2);
          t = arith::MulFOp::create(b, loc, t, cst(b, loc, t, value));
          return convertScalar(b, loc, arith::AddFOp::create(b, loc, s, t),
                               resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WhereOpLowering : public OpConversionPattern<WhereOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    if (!isRealType(resultElem))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType,
        {adaptor.getCondition(), adaptor.getInput(), adaptor.getOther()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value a = convertScalar(b, loc, args[1], resultElem);
          Value c = convertScalar(b, loc, args[2], resultElem);
          return (Value)arith::SelectOp::create(b, loc, args[0], a, c);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dropout
//===----------------------------------------------------------------------===//

/// splitmix64's finaliser: a bijective mix of a 64-bit counter.
Value mix64(OpBuilder &b, Location loc, Value z) {
  auto c = [&](uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr((int64_t)v));
  };
  z = arith::MulIOp::create(
      b, loc,
      arith::XOrIOp::create(b, loc, z,
                            arith::ShRUIOp::create(b, loc, z, c(30))),
      c(0xbf58476d1ce4e5b9ULL));
  z = arith::MulIOp::create(
      b, loc,
      arith::XOrIOp::create(b, loc, z,
                            arith::ShRUIOp::create(b, loc, z, c(27))),
      c(0x94d049bb133111ebULL));
  return arith::XOrIOp::create(b, loc, z,
                               arith::ShRUIOp::create(b, loc, z, c(31)));
}

/// Dropout with a counter-based generator: element i of the op's stream k
/// (its `stream`, else its position among the function's dropouts) keeps
/// its value (scaled by 1 / (1 - p)) when
/// mix64(seed ^ k * golden + i) / 2^64 >= p. Deterministic for a seed, so
/// runs are reproducible; not torch's stream of random numbers.
class DropoutOpLowering : public OpConversionPattern<DropoutOp> {
public:
  DropoutOpLowering(MLIRContext *ctx, uint64_t seed)
      : OpConversionPattern(ctx), seed(seed) {}

  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type resultElem = resultType.getElementType();
    double p = op.getP().convertToDouble();
    Value input = adaptor.getInput();
    if (!op.getTrain() || p == 0.0) {
      rewriter.replaceOp(op, convertTensor(rewriter, loc, input, resultElem));
      return success();
    }
    if (!isa<FloatType>(resultElem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << resultElem << " tensors in training mode";
    // A per-op stream: the op's own, else its position in its function.
    uint64_t instance = 0;
    if (std::optional<uint64_t> stream = op.getStream())
      instance = *stream;
    else
      op->getParentOp()->walk([&](DropoutOp other) {
        if (other == op)
          return WalkResult::interrupt();
        ++instance;
        return WalkResult::advance();
      });
    uint64_t stream = seed ^ (instance * 0x9e3779b97f4a7c15ULL);
    ArrayRef<int64_t> shape = resultType.getShape();
    Type computeType = computeTypeFor(resultElem);
    // threshold = p * 2^53 on the top 53 bits of the hash.
    uint64_t threshold = (uint64_t)std::ldexp(p, 53);
    double scale = p >= 1.0 ? 0.0 : 1.0 / (1.0 - p);
    Value result = buildElementwise(
        rewriter, loc, resultType, input,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value linear = arith::ConstantIndexOp::create(b, nloc, 0);
          for (size_t d = 0; d < shape.size(); ++d) {
            Value idx = linalg::IndexOp::create(b, nloc, d);
            linear = arith::AddIOp::create(
                b, nloc,
                arith::MulIOp::create(
                    b, nloc, linear,
                    arith::ConstantIndexOp::create(b, nloc, shape[d])),
                idx);
          }
          Value counter =
              arith::IndexCastOp::create(b, nloc, b.getI64Type(), linear);
          counter = arith::AddIOp::create(
              b, nloc, counter,
              arith::ConstantOp::create(b, nloc,
                                        b.getI64IntegerAttr((int64_t)stream)));
          Value bits = arith::ShRUIOp::create(
              b, nloc, mix64(b, nloc, counter),
              arith::ConstantOp::create(b, nloc, b.getI64IntegerAttr(11)));
          Value keep = arith::CmpIOp::create(
              b, nloc, arith::CmpIPredicate::uge, bits,
              arith::ConstantOp::create(
                  b, nloc, b.getI64IntegerAttr((int64_t)threshold)));
          Value x = convertToCompute(b, nloc, args[0], resultElem, computeType);
          Value scaled =
              arith::MulFOp::create(b, nloc, x, cst(b, nloc, x, scale));
          Value r = arith::SelectOp::create(b, nloc, keep, scaled,
                                            cst(b, nloc, x, 0.0));
          return convertScalar(b, nloc, r, resultElem);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  uint64_t seed;
};

//===----------------------------------------------------------------------===//
// cast and constant
//===----------------------------------------------------------------------===//

struct CastOpLowering : public OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = cast<RankedTensorType>(op.getType()).getElementType();
    if (!isRealType(to) || !isRealType(elementTypeOf(adaptor.getInput())))
      return emitUnsupported(op, "has no CPU lowering for complex tensors");
    if (!op.getSaturate()) {
      rewriter.replaceOp(
          op, convertTensor(rewriter, op.getLoc(), adaptor.getInput(), to));
      return success();
    }
    // Saturating (to f8): clamped to the largest finite in f32 (f64 for f64
    // and integer sources), where the value is exact, then rounded: the
    // rounding can no longer overflow, and NaN propagates through the
    // clamp.
    auto type = RankedTensorType::get(shapeOf(adaptor.getInput()), to);
    double largest =
        APFloat::getLargest(cast<FloatType>(to).getFloatSemantics())
            .convertToDouble();
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, op.getLoc(), type, adaptor.getInput(),
                [&](OpBuilder &b, Location loc, ValueRange args) {
                  Type from = args[0].getType();
                  Type wide = from.isF64() || isa<IntegerType>(from)
                                  ? Type(b.getF64Type())
                                  : Type(b.getF32Type());
                  Value v = convertScalar(b, loc, args[0], wide);
                  v = arith::MinimumFOp::create(
                      b, loc, v, scalarConstant(b, loc, wide, largest));
                  v = arith::MaximumFOp::create(
                      b, loc, v, scalarConstant(b, loc, wide, -largest));
                  return convertScalar(b, loc, v, to);
                }));
    return success();
  }
};

struct ConstantOpLowering : public OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValueAttr());
    if (!value)
      return emitUnsupported(op, "has no CPU lowering for this attribute");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

} // namespace

void mlir::tp::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns,
                                                   uint64_t dropoutSeed) {
  MLIRContext *ctx = patterns.getContext();
  for (const UnaryKind &kind : kUnaryKinds)
    patterns.add<UnaryOpLowering>(ctx, kind);
  for (const BinaryKind &kind : kBinaryKinds)
    patterns.add<BinaryOpLowering>(ctx, kind);
  for (const ComparisonKind &kind : kComparisonKinds)
    patterns.add<ComparisonOpLowering>(ctx, kind);
  patterns.add<PowOpLowering, ScalarLhsOpLowering<RdivOp>,
               ScalarLhsOpLowering<RtruedivOp>, ScalarLhsOpLowering<RpowOp>,
               AddcOpLowering<AddcmulOp, false>,
               AddcOpLowering<AddcdivOp, true>, WhereOpLowering,
               MaskedFillOpLowering, CastOpLowering, ConstantOpLowering>(ctx);
  patterns.add<DropoutOpLowering>(ctx, dropoutSeed);
}
