//===- BackwardRulesComplex.cpp - Rules of the complex and FFT ops --------===//
//
// The gradient of a real loss L with respect to a complex z = x + iy is, as
// in PyTorch, G = dL/dx + i dL/dy. A complex-linear map's input then gets
// the adjoint (conjugate transpose) of the map applied to its result's G,
// and a real input the real part of that (Differentiator::accumulate takes
// it). The FFTs are linear: the adjoint of each is the transform of the
// opposite direction with the normalization swapped (backward <->
// forward), a one-sided spectrum zero-extended to the full signal (r2c) or
// its mirrored bins doubled (c2r), and a trimmed or zero-padded signal
// fitted back to the input's size. Products conjugate the other factor; a
// holomorphic function f gives G conj(f'(z)), abs G z / |z|.
// Any other op reading or making a complex tensor is an error here, never
// a silently real rule.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include <cmath>

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
bool isComplex(Value v) { return v && isa<ComplexType>(elementTypeOf(v)); }

/// The complex helpers of the rules: each returns null on a null operand.
struct Complex {
  Rule &r;

  Value asReal(Value z) { return r.make<ViewAsRealOp>(z); }
  Value asComplex(Value x) { return r.make<ViewAsComplexOp>(x); }
  /// The real element type of the complex `z`.
  Type realOf(Value z) {
    return cast<ComplexType>(elementTypeOf(z)).getElementType();
  }
  /// The real 0-d constant `value` in the complex `z`'s real type.
  Value real(Value z, double value) {
    return r.constant({}, realOf(z), {value});
  }
  /// conj(z); a real value is its own conjugate.
  Value conj(Value z) {
    if (!isComplex(z))
      return z;
    return asComplex(r.mul(asReal(z), r.constant({2}, realOf(z), {1, -1})));
  }
  /// The real (part 0) or imaginary (part 1) part of `z`.
  Value part(Value z, int64_t which) {
    if (!z)
      return {};
    Value pair = r.sliceAlong(asReal(z), rankOf(z), which, 1);
    return r.reshape(pair, shapeOf(z));
  }
  /// `v` fitted to `size` entries along `dim`: its first `size`, or zeros
  /// appended (in the real domain for a complex `v`).
  Value fit(Value v, int64_t dim, int64_t size) {
    if (!v || shapeOf(v)[dim] == size)
      return v;
    if (shapeOf(v)[dim] > size)
      return r.sliceAlong(v, dim, 0, size);
    bool complex = isComplex(v);
    Value x = complex ? asReal(v) : v;
    if (!x)
      return {};
    SmallVector<int64_t> shape(shapeOf(x));
    shape[dim] = size - shape[dim];
    Value zeros =
        createFloatSplat(r.b.builder, r.b.loc,
                         RankedTensorType::get(shape, elementTypeOf(x)), 0.0);
    Value joined = r.cat({x, zeros}, dim);
    return complex ? asComplex(joined) : joined;
  }
};

/// The adjoint of an FFT op (nullopt for other ops).
std::optional<LogicalResult> fftRule(Rule &r, Complex &c) {
  Operation *op = r.op;
  // The transform's family: its one-dimensional op's name.
  std::optional<StringRef> family =
      llvm::TypeSwitch<Operation *, std::optional<StringRef>>(op)
          .Case<FftFftOp, FftFft2Op, FftFftnOp>([](auto) { return "fft"; })
          .Case<FftIfftOp, FftIfft2Op, FftIfftnOp>([](auto) { return "ifft"; })
          .Case<FftRfftOp, FftRfft2Op, FftRfftnOp>([](auto) { return "rfft"; })
          .Case<FftIrfftOp, FftIrfft2Op, FftIrfftnOp>(
              [](auto) { return "irfft"; })
          .Case<FftHfftOp>([](auto) { return "hfft"; })
          .Case<FftIhfftOp>([](auto) { return "ihfft"; })
          .Default([](Operation *) { return std::nullopt; });
  if (!family)
    return std::nullopt;
  StringRef base = *family;
  StringRef name = op->getName().stripDialect();
  name.consume_front("fft_");
  Value input = op->getOperand(0), y = op->getResult(0);
  if (!r.active(input))
    return success();
  ArrayRef<int64_t> out = shapeOf(y);
  int64_t rank = out.size();
  auto s = op->getAttrOfType<DenseI64ArrayAttr>("s");
  SmallVector<int64_t> dims =
      fftDims(name, op->getAttrOfType<IntegerAttr>("dim"),
              op->getAttrOfType<DenseI64ArrayAttr>("dim"), s, rank);
  SmallVector<int64_t> sizes;
  for (int64_t &d : dims) {
    d = normalizeDim(d, rank);
    sizes.push_back(out[d]);
  }
  int64_t last = dims.back();
  bool oneSidedResult = base == "rfft" || base == "ihfft";
  if (oneSidedResult) {
    // The full signal size of the one-sided dimension.
    if (auto n = op->getAttrOfType<IntegerAttr>("n"))
      sizes.back() = n.getInt();
    else if (s)
      sizes.back() = s.asArrayRef().back();
    else
      sizes.back() = shapeOf(input)[last];
  }
  StringRef norm = "backward";
  if (auto attr = op->getAttrOfType<StringAttr>("norm"))
    norm = attr.getValue();
  StringRef swapped = norm == "ortho"      ? "ortho"
                      : norm == "backward" ? "forward"
                                           : "backward";
  OpBuilder &builder = r.b.builder;
  auto transform = [&](StringRef adjoint, Value v) {
    return r.makeNamed(adjoint, v,
                       {r.attr("s", builder.getDenseI64ArrayAttr(sizes)),
                        r.attr("dim", builder.getDenseI64ArrayAttr(dims)),
                        r.attr("norm", builder.getStringAttr(swapped))});
  };
  Value g = r.grad, x;
  if (base == "fft") {
    x = transform(FftIfftnOp::getOperationName(), g);
  } else if (base == "ifft") {
    x = transform(FftFftnOp::getOperationName(), g);
  } else if (oneSidedResult) {
    // The bins the one-sided result leaves out have zero gradient.
    g = c.fit(g, last, sizes.back());
    x = transform(base == "rfft" ? FftIfftnOp::getOperationName()
                                 : FftFftnOp::getOperationName(),
                  g);
  } else {
    int64_t n = sizes.back(), h = n / 2 + 1;
    if (base == "irfft")
      x = transform(FftRfftnOp::getOperationName(), g);
    else
      x = r.make<FftIhfftOp>(g,
                             {r.attr("n", builder.getI64IntegerAttr(n)),
                              r.attr("dim", builder.getI64IntegerAttr(last)),
                              r.attr("norm", builder.getStringAttr(swapped))});
    // The bins 1 .. n - h stand for themselves and their mirrored
    // conjugates in the real result: twice the gradient.
    SmallVector<double> weights(h, 1.0);
    for (int64_t k = 1; k <= n - h; ++k)
      weights[k] = 2.0;
    SmallVector<int64_t> shape = {h};
    shape.append(rank - 1 - last, 1);
    if (x)
      x = r.mul(x, r.constant(shape, c.realOf(x), weights));
  }
  // The forward trimmed or zero-padded the input to the signal sizes (the
  // c2r ones to the one-sided size along the last dimension).
  for (int64_t d : dims)
    x = c.fit(x, d, shapeOf(input)[d]);
  r.give(input, x);
  return success();
}

/// polar(m, a) = m e^{ia}: with q = G e^{-ia}, m gets Re q and a gets
/// m Im q. (PyTorch's rule goes through sgn(z), which differs from this
/// derivative where m <= 0.)
LogicalResult polarRule(Rule &r, Complex &c, PolarOp polar) {
  Value m = polar.getAbs(), a = polar.getAngle();
  Value ones = createFloatSplat(r.b.builder, r.b.loc,
                                cast<RankedTensorType>(a.getType()), 1.0);
  Value unit = r.make<PolarOp>({ones, a});
  Value q = r.mul(r.grad, c.conj(unit));
  r.give(m, c.part(q, 0));
  if (r.active(a))
    r.give(a, r.mul(m, c.part(q, 1)));
  return success();
}

/// gather of a complex x: the real pairs of G scattered into zeros at the
/// index (repeated for both parts), viewed as complex again.
LogicalResult gatherRule(Rule &r, Complex &c, GatherOp gather) {
  Value x = gather.getInput(), index = gather.getIndex();
  if (!r.active(x))
    return success();
  SmallVector<int64_t> pairs(shapeOf(x)), indexShape(shapeOf(index));
  pairs.push_back(2);
  indexShape.push_back(1);
  Value pairIndex = r.reshape(index, indexShape);
  indexShape.back() = 2;
  pairIndex = r.expand(pairIndex, indexShape);
  r.give(x, c.asComplex(r.scatterIntoZeros(
                pairs, normalizeDim(gather.getDim(), rankOf(x)), pairIndex,
                c.asReal(r.grad))));
  return success();
}

/// The elementwise functions of a complex z (nullopt for other ops). A
/// holomorphic f gives G conj(f'(z)); abs (real) gives G sgn(z), sgn(z) =
/// z / |z| and 0 at 0, as PyTorch.
std::optional<LogicalResult> functionRule(Rule &r, Complex &c) {
  Operation *op = r.op;
  if (op->getNumOperands() != 1 || !isComplex(op->getOperand(0)))
    return std::nullopt;
  Value z = op->getOperand(0), y = op->getResult(0), g = r.grad;
  auto one = [&](Value like) { return c.real(like, 1.0); };
  if (isa<AbsOp>(op)) {
    Value safe = r.where(r.compare<EqOp>(y, 0.0), r.scalar(y, 1.0), y);
    r.give(z, r.mul(g, r.div(z, safe)));
    return success();
  }
  // f'(z), or nullopt for the ops without a complex rule here.
  std::optional<Value> derivative =
      llvm::TypeSwitch<Operation *, std::optional<Value>>(op)
          .Case<ExpOp>([&](auto) { return y; })
          .Case<Expm1Op>([&](auto) { return r.add(y, one(z)); })
          .Case<LogOp>([&](auto) { return r.div(one(z), z); })
          .Case<Log1pOp>([&](auto) { return r.div(one(z), r.add(z, one(z))); })
          .Case<SqrtOp>([&](auto) { return r.div(r.scalar(y, 0.5), y); })
          .Case<RsqrtOp>([&](auto) { return r.div(r.scale(y, -0.5), z); })
          .Case<SinOp>([&](auto) { return r.make<CosOp>(z); })
          .Case<CosOp>([&](auto) { return r.neg(r.make<SinOp>(z)); })
          .Case<TanOp>([&](auto) { return r.add(r.mul(y, y), one(z)); })
          .Case<TanhOp>([&](auto) { return r.sub(one(z), r.mul(y, y)); })
          .Case<ReciprocalOp>([&](auto) { return r.neg(r.mul(y, y)); })
          .Case<SigmoidOp>([&](auto) { return r.mul(y, r.sub(one(z), y)); })
          .Case<Log2Op, Log10Op>([&](Operation *log) {
            double ln = isa<Log2Op>(log) ? M_LN2 : M_LN10;
            return r.div(one(z), r.mul(z, c.real(z, ln)));
          })
          .Case<SinhOp>([&](auto) { return r.make<CoshOp>(z); })
          .Case<CoshOp>([&](auto) { return r.make<SinhOp>(z); })
          .Default([](Operation *) { return std::nullopt; });
  if (!derivative)
    return std::nullopt;
  r.give(z, r.mul(g, c.conj(*derivative)));
  return success();
}

/// The ops whose real rules hold for complex tensors as they are: linear
/// maps that commute with conjugation, and the cast (reversed).
bool keepsRealRule(Operation *op) {
  return isa<AddOp, SubOp, NegOp, ReshapeOp, UnsqueezeOp, SqueezeOp, FlattenOp,
             PermuteOp, TransposeOp, SliceOp, CatOp, StackOp, SumOp, MeanOp,
             ExpandOp>(op);
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyComplexRule(Rule &r) {
  Operation *op = r.op;
  Complex c{r};
  if (std::optional<LogicalResult> fft = fftRule(r, c))
    return fft;
  if (auto view = dyn_cast<ViewAsComplexOp>(op)) {
    r.give(view.getInput(), c.asReal(r.grad));
    return success();
  }
  if (auto view = dyn_cast<ViewAsRealOp>(op)) {
    r.give(view.getInput(), c.asComplex(r.grad));
    return success();
  }
  if (auto polar = dyn_cast<PolarOp>(op))
    return polarRule(r, c, polar);
  if (auto gather = dyn_cast<GatherOp>(op);
      gather && isComplex(gather.getInput()) && rankOf(gather.getInput()))
    return gatherRule(r, c, gather);
  if (std::optional<LogicalResult> function = functionRule(r, c))
    return function;
  bool touchesComplex =
      llvm::any_of(op->getOperands(), isComplex) ||
      llvm::any_of(op->getResults(), [](Value v) { return isComplex(v); });
  if (!touchesComplex || keepsRealRule(op))
    return std::nullopt;
  Value lhs = op->getNumOperands() == 2 ? op->getOperand(0) : Value();
  Value rhs = op->getNumOperands() == 2 ? op->getOperand(1) : Value();
  if (isa<MulOp>(op)) {
    r.give(lhs, r.mul(r.grad, c.conj(rhs)));
    r.give(rhs, r.mul(r.grad, c.conj(lhs)));
    return success();
  }
  // z^e for a scalar e: G conj(e z^(e - 1)), zero for e = 0 (PyTorch's
  // pow_backward).
  if (auto pow = dyn_cast<PowOp>(op);
      pow && !pow.getExponent() && pow.getScalarExponent()) {
    double e = pow.getScalarExponent()->convertToDouble();
    Value z = pow.getInput();
    if (e == 0.0) {
      r.give(z, r.mul(r.grad, c.real(z, 0.0)));
      return success();
    }
    Value d =
        r.mul(r.make<PowOp>(z, {r.attr("scalar_exponent",
                                       r.b.builder.getF64FloatAttr(e - 1.0)),
                                r.attr("operandSegmentSizes",
                                       pow->getAttr("operandSegmentSizes"))}),
              c.real(z, e));
    r.give(z, r.mul(r.grad, c.conj(d)));
    return success();
  }
  if (auto div = dyn_cast<DivOp>(op); div && !div.getRoundingMode()) {
    // d/da = G / conj(b), d/db = -G conj(a / b) / conj(b).
    Value q = r.div(r.grad, c.conj(rhs));
    r.give(lhs, q);
    r.give(rhs, r.neg(r.mul(q, c.conj(div.getResult()))));
    return success();
  }
  return op->emitOpError("tp-autodiff: no backward rule for complex tensors "
                         "in '")
         << op->getName()
         << "' yet (complex gradients go through add, sub, neg, mul, div, "
            "abs, exp, expm1, log, log1p, log2, log10, sqrt, rsqrt, sin, cos, "
            "tan, tanh, sinh, cosh, reciprocal, sigmoid, pow with a scalar "
            "exponent, sum, mean, the FFTs, stft, polar, gather, "
            "view_as_real / "
            "view_as_complex and the shape ops)";
}
