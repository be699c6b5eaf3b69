//===- BackwardRulesElementwise.cpp - Rules of elementwise tp ops ---------===//
//
// The backward of the elementwise families: binary arithmetic (summed back
// over broadcast dimensions by Rule::give), the unary math and activation
// ops from their saved input or output, the scalar-operand forms, addcmul /
// addcdiv, where, masked_fill, prelu, and dropout in its inference form.
// Comparisons have i1 results: no gradient flows through them.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;

namespace {
double toDouble(const APFloat &value) { return value.convertToDouble(); }

LogicalResult binaryRule(Rule &r) {
  Operation *op = r.op;
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), g = r.grad;
  if (auto add = dyn_cast<AddOp>(op)) {
    r.give(lhs, g);
    r.give(rhs, r.scale(g, toDouble(add.getAlpha())));
  } else if (auto sub = dyn_cast<SubOp>(op)) {
    r.give(lhs, g);
    r.give(rhs, r.scale(g, -toDouble(sub.getAlpha())));
  } else if (isa<MulOp>(op)) {
    r.give(lhs, r.mul(g, rhs));
    r.give(rhs, r.mul(g, lhs));
  } else if (auto div = dyn_cast<DivOp>(op)) {
    // A rounded quotient is piecewise constant: zero gradients, as
    // PyTorch gives.
    if (div.getRoundingMode())
      return success();
    // d/da = g / b, d/db = -g * (a / b) / b.
    r.give(lhs, r.div(g, rhs));
    r.give(rhs, r.neg(r.div(r.mul(g, op->getResult(0)), rhs)));
  } else {
    // atan2(a, b): d/da = g b / (a^2 + b^2), d/db = -g a / (a^2 + b^2).
    Value denom = r.add(r.mul(lhs, lhs), r.mul(rhs, rhs));
    Value q = r.div(g, denom);
    r.give(lhs, r.mul(q, rhs));
    r.give(rhs, r.neg(r.mul(q, lhs)));
  }
  return success();
}

/// pow with a scalar exponent e: g * e * x^(e - 1) (zero for e = 0, as in
/// PyTorch). With a tensor exponent e, as PyTorch: the input gets g e
/// x^(e - 1) (0 where e = 0), the exponent g y log(x) (0 where x = 0 and
/// e >= 0).
LogicalResult powRule(Rule &r, PowOp pow) {
  Value x = pow.getInput(), g = r.grad;
  if (Value e = pow.getExponent()) {
    Value y = pow.getResult();
    Value zero = r.scalar(g, 0.0);
    if (r.active(x)) {
      Value em1 = r.sub(e, r.scalar(e, 1.0));
      Value p = r.make<PowOp>(
          {x, em1}, {r.attr("operandSegmentSizes",
                            r.b.builder.getDenseI32ArrayAttr({1, 1, 0}))});
      r.give(x, r.where(r.compare<EqOp>(e, 0.0), zero, r.mul(g, r.mul(e, p))));
    }
    if (r.active(e)) {
      Value v = r.mul(g, r.mul(y, r.make<LogOp>(x)));
      Value keep = r.where(r.compare<GeOp>(e, 0.0), zero, v);
      r.give(e, r.where(r.compare<EqOp>(x, 0.0), keep, v));
    }
    return success();
  }
  double e = toDouble(*pow.getScalarExponent());
  if (e == 0.0)
    return success();
  if (e == 1.0) {
    r.give(x, g);
    return success();
  }
  Value power = e == 2.0 ? x : r.power(x, e - 1.0);
  r.give(x, r.mul(r.scale(g, e), power));
  return success();
}

LogicalResult scalarOperandRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), y = op->getResult(0), g = r.grad;
  if (auto rpow = dyn_cast<RpowOp>(op)) {
    // base ** x: g * y * ln(base).
    double base = toDouble(rpow.getBase());
    if (base <= 0.0)
      return op->emitOpError("tp-autodiff: the backward of tp.rpow is "
                             "implemented for a positive base only, got ")
             << base;
    r.give(x, r.mul(g, r.scale(y, std::log(base))));
    return success();
  }
  // other / x: -g * y / x.
  r.give(x, r.neg(r.div(r.mul(g, y), x)));
  return success();
}

LogicalResult addcRule(Rule &r) {
  Operation *op = r.op;
  Value input = op->getOperand(0), t1 = op->getOperand(1),
        t2 = op->getOperand(2), g = r.grad;
  double value = toDouble(op->getAttrOfType<FloatAttr>("value").getValue());
  Value gv = r.scale(g, value);
  r.give(input, g);
  if (isa<AddcmulOp>(op)) {
    r.give(t1, r.mul(gv, t2));
    r.give(t2, r.mul(gv, t1));
  } else {
    // input + v * t1 / t2
    Value q = r.div(gv, t2);
    r.give(t1, q);
    r.give(t2, r.neg(r.div(r.mul(q, t1), t2)));
  }
  return success();
}

LogicalResult whereRule(Rule &r, WhereOp where) {
  Value g = r.grad, zero = r.scalar(g, 0.0);
  Value c = where.getCondition();
  r.give(where.getInput(), r.make<WhereOp>({c, g, zero}));
  r.give(where.getOther(), r.make<WhereOp>({c, zero, g}));
  return success();
}

/// prelu: x where x > 0, w x elsewhere, with one weight or one per channel
/// (dim 1; dim 0 of a 1-D input).
LogicalResult preluRule(Rule &r, PreluOp prelu) {
  Value x = prelu.getInput(), w = prelu.getWeight(), g = r.grad;
  int64_t rank = rankOf(x);
  int64_t numWeights = rankOf(w) == 0 ? 1 : shapeOf(w)[0];
  int64_t channelDim = rank >= 2 ? 1 : 0;
  Value wb = w;
  if (numWeights != 1 && rank >= 2) {
    SmallVector<int64_t> shape = {numWeights};
    shape.append(rank - 2, 1);
    wb = r.reshape(w, shape);
  }
  Value above = r.passAbove(g, x, 0.0);
  if (r.active(x))
    r.give(x, r.add(above, r.mul(wb, r.sub(g, above))));
  if (r.active(w)) {
    // g x where x <= 0, summed over all but the weight's channel.
    Value gx = r.mul(g, x);
    Value below = r.sub(gx, r.passAbove(gx, x, 0.0));
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < rank; ++d)
      if (numWeights == 1 || d != channelDim)
        dims.push_back(d);
    Value summed =
        dims.empty() ? below : r.sumAlong(below, dims, /*keepdim=*/false);
    r.give(w, r.reshape(summed, shapeOf(w)));
  }
  return success();
}

/// The derivative of a unary op from its input x, its output y and the
/// gradient g.
Value unaryGradient(Rule &r, Value x, Value y, Value g) {
  auto one = [&](Value like) { return r.scalar(like, 1.0); };
  return llvm::TypeSwitch<Operation *, Value>(r.op)
      .Case([&](NegOp) { return r.neg(g); })
      .Case([&](ExpOp) { return r.mul(g, y); })
      .Case([&](Expm1Op) { return r.mul(g, r.add(y, one(y))); })
      .Case([&](LogOp) { return r.div(g, x); })
      .Case([&](Log2Op) { return r.div(g, r.scale(x, std::log(2.0))); })
      .Case([&](Log10Op) { return r.div(g, r.scale(x, std::log(10.0))); })
      .Case([&](Log1pOp) { return r.div(g, r.add(x, one(x))); })
      .Case([&](SqrtOp) { return r.div(r.scale(g, 0.5), y); })
      // -g / x^2 = -g y^2; -g / (2 x^1.5) = -g y^3 / 2.
      .Case([&](ReciprocalOp) { return r.neg(r.mul(g, r.mul(y, y))); })
      .Case([&](RsqrtOp) {
        return r.mul(r.scale(g, -0.5), r.mul(y, r.mul(y, y)));
      })
      .Case([&](SinOp) { return r.mul(g, r.make<CosOp>(x)); })
      .Case([&](CosOp) { return r.neg(r.mul(g, r.make<SinOp>(x))); })
      .Case([&](TanOp) { return r.mul(g, r.add(one(y), r.mul(y, y))); })
      .Case([&](SinhOp) { return r.mul(g, r.make<CoshOp>(x)); })
      .Case([&](CoshOp) { return r.mul(g, r.make<SinhOp>(x)); })
      .Case([&](AsinOp) {
        return r.mul(g, r.make<RsqrtOp>(r.sub(one(x), r.mul(x, x))));
      })
      .Case([&](AcosOp) {
        return r.neg(r.mul(g, r.make<RsqrtOp>(r.sub(one(x), r.mul(x, x)))));
      })
      .Case([&](AtanOp) {
        // 1 / (1 + x^2)
        return r.div(g, r.add(one(x), r.mul(x, x)));
      })
      .Case([&](AsinhOp) {
        // 1 / sqrt(x^2 + 1)
        return r.mul(g, r.make<RsqrtOp>(r.add(r.mul(x, x), one(x))));
      })
      .Case([&](AcoshOp) {
        // 1 / sqrt(x^2 - 1)
        return r.mul(g, r.make<RsqrtOp>(r.sub(r.mul(x, x), one(x))));
      })
      .Case([&](AtanhOp) {
        // 1 / (1 - x^2)
        return r.div(g, r.sub(one(x), r.mul(x, x)));
      })
      .Case([&](ErfOp) {
        // 2 / sqrt(pi) * exp(-x^2)
        return r.mul(r.scale(g, 2.0 / std::sqrt(M_PI)),
                     r.make<ExpOp>(r.neg(r.mul(x, x))));
      })
      .Case([&](ErfinvOp) {
        // sqrt(pi) / 2 * exp(y^2)
        return r.mul(r.scale(g, std::sqrt(M_PI) / 2.0),
                     r.make<ExpOp>(r.mul(y, y)));
      })
      .Case([&](TanhOp) { return r.mul(g, r.sub(one(y), r.mul(y, y))); })
      .Case([&](SigmoidOp) { return r.mul(r.mul(g, y), r.sub(one(y), y)); })
      .Case([&](SiluOp) {
        // s (1 + x (1 - s)), s = sigmoid(x)
        Value s = r.make<SigmoidOp>(x);
        return r.mul(r.mul(g, s),
                     r.add(one(x), r.mul(x, r.sub(one(s), s))));
      })
      .Case([&](SoftplusOp softplus) {
        // PyTorch's softplus_backward: g where beta x > threshold, else
        // g * sigmoid(beta x).
        Value bx = r.scale(x, toDouble(softplus.getBeta()));
        Value smooth = r.mul(g, r.make<SigmoidOp>(bx));
        double threshold = toDouble(softplus.getThreshold());
        return r.add(r.sub(smooth, r.passAbove(smooth, bx, threshold)),
                     r.passAbove(g, bx, threshold));
      })
      .Case([&](AbsOp) {
        // g * sgn(x): g above 0, -g below, 0 at 0.
        return r.sub(r.passAbove(g, x, 0.0), r.passAbove(g, r.neg(x), 0.0));
      })
      .Case([&](ReluOp) { return r.passAbove(g, x, 0.0); })
      .Case([&](LeakyReluOp leaky) {
        // g where x > 0, else negative_slope * g.
        Value above = r.passAbove(g, x, 0.0);
        return r.add(above, r.scale(r.sub(g, above),
                                    toDouble(leaky.getNegativeSlope())));
      })
      .Case([&](HardswishOp) {
        // aten's hardswish_backward: 0 below -3, g (x / 3 + 1/2) up to 3,
        // g above.
        Value ramp = r.mul(g, r.add(r.scale(x, 1.0 / 3.0), r.scalar(x, 0.5)));
        Value inner = r.where(r.compare<LeOp>(x, 3.0), ramp, g);
        return r.where(r.compare<LtOp>(x, -3.0), r.scalar(g, 0.0), inner);
      })
      .Case([&](EluOp elu) {
        // aten's elu_backward from the input: g input_scale alpha scale
        // exp(input_scale x) at and below 0, g scale above.
        double alpha = toDouble(elu.getAlpha());
        double scale = toDouble(elu.getScale());
        double inputScale = toDouble(elu.getInputScale());
        Value negative =
            r.scale(r.mul(g, r.make<ExpOp>(r.scale(x, inputScale))),
                    inputScale * alpha * scale);
        return r.where(r.compare<LeOp>(x, 0.0), negative, r.scale(g, scale));
      })
      .Case([&](MishOp) {
        // tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2), sp = softplus(x).
        Value t = r.make<TanhOp>(r.make<SoftplusOp>(x));
        Value slope =
            r.mul(r.mul(x, r.make<SigmoidOp>(x)), r.sub(one(t), r.mul(t, t)));
        return r.mul(g, r.add(t, slope));
      })
      .Case([&](LogSigmoidOp) {
        // sigmoid(-x) = 1 - sigmoid(x).
        return r.mul(g, r.make<SigmoidOp>(r.neg(x)));
      })
      .Case([&](ClampOp clamp) {
        // g where min <= x <= max (aten's clamp_backward), else 0.
        Value kept = g;
        if (std::optional<APFloat> lo = clamp.getMin())
          kept = r.where(r.compare<GeOp>(x, toDouble(*lo)), kept,
                         r.scalar(g, 0.0));
        if (std::optional<APFloat> hi = clamp.getMax())
          kept = r.where(r.compare<LeOp>(x, toDouble(*hi)), kept,
                         r.scalar(g, 0.0));
        return kept;
      })
      .Case([&](FakeQuantizePerTensorAffineOp fq) {
        // aten's straight-through mask: g where round(x / scale) + zero_point
        // lies in [quant_min, quant_max], else 0. round(x * (1/scale)) is
        // computed as the lowering does (in f32, f64 for f64), by a fake
        // quantization of scale 1 whose bounds reach one step past the
        // checked ones, so that the comparisons are of exact integers.
        auto zeroPoint = (int64_t)fq.getZeroPoint();
        auto lo = (int64_t)fq.getQuantMin(), hi = (int64_t)fq.getQuantMax();
        Type compute = elementTypeOf(x).isF64()
                           ? Type(Float64Type::get(fq.getContext()))
                           : Type(Float32Type::get(fq.getContext()));
        Value t =
            r.scale(r.castTo(x, compute),
                    (double)(float)(1.0 / fq.getScale().convertToDouble()));
        Builder &attrs = r.b.builder;
        Value k = r.make<FakeQuantizePerTensorAffineOp>(
            t,
            {r.attr("scale", attrs.getF64FloatAttr(1.0)),
             r.attr("zero_point", attrs.getI64IntegerAttr(0)),
             r.attr("quant_min", attrs.getI64IntegerAttr(lo - zeroPoint - 1)),
             r.attr("quant_max", attrs.getI64IntegerAttr(hi - zeroPoint + 1))});
        Value zero = r.scalar(g, 0.0);
        Value kept =
            r.where(r.compare<GeOp>(k, (double)(lo - zeroPoint)), g, zero);
        return r.where(r.compare<LeOp>(k, (double)(hi - zeroPoint)), kept,
                       zero);
      })
      .Case([&](GeluOp gelu) {
        return r.make<GeluBackwardOp>(
            {g, x}, {r.attr("approximate",
                            GeluApproximationAttr::get(
                                gelu.getContext(), gelu.getApproximate()))});
      })
      .Default([](Operation *) { return Value(); });
}
/// dropout: the gradient through the same mask. In training form the
/// mask is drawn again, exactly: a dropout of ones on the forward's stream
/// (the forward op gets its position as an explicit stream, which does not
/// change what it draws) gives 1 / (1 - p) where the forward kept an
/// element and 0 where it dropped it.
LogicalResult dropoutRule(Rule &r, DropoutOp dropout) {
  Value x = dropout.getInput();
  if (!dropout.getTrain() || dropout.getP().isZero()) {
    r.give(x, r.grad);
    return success();
  }
  if (!dropout.getStream()) {
    int64_t position = 0;
    dropout->getParentOp()->walk([&](DropoutOp other) {
      if (other == dropout)
        return WalkResult::interrupt();
      ++position;
      return WalkResult::advance();
    });
    dropout.setStream(static_cast<uint64_t>(position));
  }
  auto type = cast<RankedTensorType>(x.getType());
  ++r.b.numCreated;
  Value ones = createFloatSplat(r.b.builder, r.b.loc, type, 1.0);
  Value mask = r.make<DropoutOp>(
      ones,
      {r.attr("p",
              r.b.builder.getF64FloatAttr(dropout.getP().convertToDouble())),
       r.attr("train", r.b.builder.getBoolAttr(true)),
       r.attr("stream", r.b.builder.getI64IntegerAttr(
                            static_cast<int64_t>(*dropout.getStream())))});
  r.give(x, r.mul(r.grad, mask));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyElementwiseRule(Rule &r) {
  Operation *op = r.op;
  if (isa<AddOp, SubOp, MulOp, DivOp, Atan2Op>(op))
    return binaryRule(r);
  if (auto pow = dyn_cast<PowOp>(op))
    return powRule(r, pow);
  if (isa<RpowOp, RdivOp, RtruedivOp>(op))
    return scalarOperandRule(r);
  if (isa<AddcmulOp, AddcdivOp>(op))
    return addcRule(r);
  if (auto where = dyn_cast<WhereOp>(op))
    return whereRule(r, where);
  if (auto prelu = dyn_cast<PreluOp>(op))
    return preluRule(r, prelu);
  if (auto fill = dyn_cast<MaskedFillOp>(op)) {
    r.give(fill.getInput(),
           r.where(fill.getMask(), r.scalar(r.grad, 0.0), r.grad));
    return success();
  }
  if (auto dropout = dyn_cast<DropoutOp>(op))
    return dropoutRule(r, dropout);
  if (isa<NegOp, ExpOp, Expm1Op, LogOp, Log2Op, Log10Op, Log1pOp, SqrtOp,
          ReciprocalOp, RsqrtOp, SinOp, CosOp, TanOp, SinhOp, CoshOp, AsinOp,
          AcosOp, AtanOp, AsinhOp, AcoshOp, AtanhOp, ErfOp, ErfinvOp, TanhOp, SigmoidOp, SiluOp, SoftplusOp, AbsOp,
          ReluOp, LeakyReluOp, HardswishOp, EluOp, MishOp, LogSigmoidOp,
          ClampOp, GeluOp, FakeQuantizePerTensorAffineOp>(op)) {
    Value x = op->getOperand(0);
    r.give(x, unaryGradient(r, x, op->getResult(0), r.grad));
    return success();
  }
  return std::nullopt;
}
