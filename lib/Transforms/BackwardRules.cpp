//===- BackwardRules.cpp - Reverse-mode rules of tp ops -------------------===//
//
// Each rule reads the forward op (its operands are the saved activations,
// its results the saved outputs) and the gradient of its result, and builds
// the gradient contributions of its operands as tp ops in the forward's
// dtypes. A contribution whose dtype differs from its operand's (a promoted
// binary op, an explicit dtype=) is cast back by the accumulation.
//
//===----------------------------------------------------------------------===//

#include "BackwardRules.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tp;

//===----------------------------------------------------------------------===//
// BackwardBuilder
//===----------------------------------------------------------------------===//

Value BackwardBuilder::create(Operation *forward, StringRef name,
                              ValueRange operands,
                              ArrayRef<NamedAttribute> attrs) {
  Operation *op =
      createWithInferredResultTypes(builder, loc, name, operands, attrs);
  if (!op) {
    forward->emitOpError("internal error: tp-autodiff could not build ")
        << name << " for its backward";
    hadError = true;
    return {};
  }
  ++numCreated;
  return op->getResult(0);
}

Value mlir::tp::createFloatSplat(OpBuilder &builder, Location loc,
                                 RankedTensorType type, double value) {
  return ConstantOp::create(
      builder, loc, type,
      DenseElementsAttr::get(
          type, builder.getFloatAttr(type.getElementType(), value)));
}

Value BackwardBuilder::scalar(Value like, double value) {
  ++numCreated;
  return createFloatSplat(
      builder, loc, RankedTensorType::get({}, elementTypeOf(like)), value);
}

Value BackwardBuilder::unbroadcast(Operation *forward, Value grad,
                                   Value target) {
  ArrayRef<int64_t> from = shapeOf(grad), to = shapeOf(target);
  if (from == to)
    return grad;
  SmallVector<int64_t> dims;
  size_t lead = from.size() - to.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (d < lead || (to[d - lead] == 1 && from[d] != 1))
      dims.push_back(static_cast<int64_t>(d));
  Value summed = grad;
  if (!dims.empty())
    summed =
        create(forward, "tp.sum", grad,
               {builder.getNamedAttr("dim", builder.getDenseI64ArrayAttr(dims)),
                builder.getNamedAttr("keepdim", builder.getBoolAttr(true))});
  if (!summed || shapeOf(summed) == to)
    return summed;
  return create(
      forward, "tp.reshape", summed,
      {builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(to))});
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

namespace {
/// The context of one rule: the forward op, the gradient of its (first)
/// result, and builders for the backward ops.
struct Rule {
  Operation *op;
  Value grad;
  BackwardBuilder &b;

  Value make(StringRef name, ValueRange operands,
             ArrayRef<NamedAttribute> attrs = {}) {
    for (Value v : operands)
      if (!v)
        return {};
    return b.create(op, name, operands, attrs);
  }
  NamedAttribute attr(StringRef name, Attribute value) {
    return b.builder.getNamedAttr(name, value);
  }
  Value mul(Value x, Value y) { return make("tp.mul", {x, y}); }
  Value div(Value x, Value y) { return make("tp.div", {x, y}); }
  Value sub(Value x, Value y) { return make("tp.sub", {x, y}); }
  Value neg(Value x) { return make("tp.neg", x); }
  Value transpose(Value x) {
    return make("tp.transpose", x,
                {attr("dim0", b.builder.getI64IntegerAttr(0)),
                 attr("dim1", b.builder.getI64IntegerAttr(1))});
  }
  Value reshape(Value x, ArrayRef<int64_t> shape) {
    if (!x || shapeOf(x) == shape)
      return x;
    return make("tp.reshape", x,
                {attr("shape", b.builder.getDenseI64ArrayAttr(shape))});
  }
  Value expand(Value x, ArrayRef<int64_t> shape) {
    if (!x || shapeOf(x) == shape)
      return x;
    return make("tp.expand", x,
                {attr("size", b.builder.getDenseI64ArrayAttr(shape))});
  }
  Value sumAlong(Value x, ArrayRef<int64_t> dims, bool keepdim) {
    return make("tp.sum", x,
                {attr("dim", b.builder.getDenseI64ArrayAttr(dims)),
                 attr("keepdim", b.builder.getBoolAttr(keepdim))});
  }
  /// Adds `contribution`, summed to `operand`'s shape, to its gradient.
  void give(Value operand, Value contribution) {
    if (!contribution)
      return;
    if (Value v = b.unbroadcast(op, contribution, operand))
      b.add(operand, v);
  }
};

/// The gradient of a reduction's input: the result's gradient with the
/// reduced dims back (size 1), expanded to the input's shape.
Value expandReduced(Rule &r, Value grad, Value input, ArrayRef<int64_t> dims,
                    bool keepdim) {
  SmallVector<int64_t> kept(shapeOf(input));
  for (int64_t d : dims)
    kept[d] = 1;
  Value g = keepdim ? grad : r.reshape(grad, kept);
  return r.expand(g, shapeOf(input));
}

LogicalResult binaryRule(Rule &r, Value lhs, Value rhs) {
  Operation *op = r.op;
  Value g = r.grad;
  if (auto add = dyn_cast<AddOp>(op)) {
    double alpha = add.getAlpha().convertToDouble();
    r.give(lhs, g);
    r.give(rhs, alpha == 1.0 ? g : r.mul(g, r.b.scalar(g, alpha)));
  } else if (auto sub = dyn_cast<SubOp>(op)) {
    double alpha = sub.getAlpha().convertToDouble();
    r.give(lhs, g);
    r.give(rhs, alpha == 1.0 ? r.neg(g) : r.mul(g, r.b.scalar(g, -alpha)));
  } else if (isa<MulOp>(op)) {
    r.give(lhs, r.mul(g, rhs));
    r.give(rhs, r.mul(g, lhs));
  } else {
    // div: d/da = g / b, d/db = -g * (a / b) / b.
    r.give(lhs, r.div(g, rhs));
    r.give(rhs, r.neg(r.div(r.mul(g, op->getResult(0)), rhs)));
  }
  return success();
}

LogicalResult unaryRule(Rule &r, Value x) {
  Operation *op = r.op;
  Value g = r.grad, y = op->getResult(0);
  Value dx =
      llvm::TypeSwitch<Operation *, Value>(op)
          .Case([&](NegOp) { return r.neg(g); })
          .Case([&](ExpOp) { return r.mul(g, y); })
          .Case([&](LogOp) { return r.div(g, x); })
          .Case([&](SqrtOp) { return r.div(r.mul(g, r.b.scalar(g, 0.5)), y); })
          .Case([&](SinOp) { return r.mul(g, r.make("tp.cos", x)); })
          .Case([&](CosOp) { return r.neg(r.mul(g, r.make("tp.sin", x))); })
          .Case([&](TanhOp) {
            // g * (1 - y^2)
            return r.mul(g, r.sub(r.b.scalar(y, 1.0), r.mul(y, y)));
          })
          .Case([&](SigmoidOp) {
            // g * y * (1 - y)
            return r.mul(r.mul(g, y), r.sub(r.b.scalar(y, 1.0), y));
          })
          .Case([&](ReluOp) {
            return r.make(
                "tp.threshold_backward", {g, x},
                {r.attr("threshold", r.b.builder.getF64FloatAttr(0))});
          })
          .Case([&](GeluOp gelu) {
            return r.make("tp.gelu_backward", {g, x},
                          {r.attr("approximate", GeluApproximationAttr::get(
                                                     gelu.getContext(),
                                                     gelu.getApproximate()))});
          })
          .Default([](Operation *) { return Value(); });
  r.give(x, dx);
  return success();
}

LogicalResult productRule(Rule &r) {
  Operation *op = r.op;
  Value g = r.grad;
  if (isa<MmOp>(op) || isa<MatmulOp>(op)) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (rankOf(a) != 2 || rankOf(b) != 2)
      return op->emitOpError("tp-autodiff: the backward of tp.matmul is "
                             "implemented for 2-d operands only so far, got "
                             "ranks ")
             << rankOf(a) << " and " << rankOf(b);
    r.give(a, r.make("tp.mm", {g, r.transpose(b)}));
    r.give(b, r.make("tp.mm", {r.transpose(a), g}));
    return success();
  }
  auto linear = cast<LinearOp>(op);
  Value x = linear.getInput(), w = linear.getWeight();
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t out = shapeOf(w)[0], in = shapeOf(w)[1];
  int64_t rows = 1;
  for (int64_t d : xs.drop_back())
    rows *= d;
  // y = x w^T + b over flattened rows: dx = g w, dw = g^T x, db = sum g.
  Value g2 = r.reshape(g, {rows, out});
  Value x2 = r.reshape(x, {rows, in});
  r.give(x, r.reshape(r.make("tp.mm", {g2, w}), xs));
  r.give(w, r.make("tp.mm", {r.transpose(g2), x2}));
  if (Value bias = linear.getBias())
    r.give(bias, r.sumAlong(g2, {0}, /*keepdim=*/false));
  return success();
}

LogicalResult reductionRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0);
  int64_t rank = rankOf(x);
  if (auto sum = dyn_cast<SumOp>(op)) {
    SmallVector<int64_t> dims = reductionDims(sum.getDim(), rank);
    r.give(x, expandReduced(r, r.grad, x, dims, sum.getKeepdim()));
    return success();
  }
  auto mean = cast<MeanOp>(op);
  SmallVector<int64_t> dims = reductionDims(mean.getDim(), rank);
  int64_t count = 1;
  for (int64_t d : dims)
    count *= shapeOf(x)[d];
  Value scaled = r.div(r.grad, r.b.scalar(r.grad, static_cast<double>(count)));
  r.give(x, expandReduced(r, scaled, x, dims, mean.getKeepdim()));
  return success();
}

LogicalResult layoutRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), g = r.grad;
  if (isa<ReshapeOp>(op)) {
    r.give(x, r.reshape(g, shapeOf(x)));
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    r.give(x, r.make("tp.transpose", g,
                     {r.attr("dim0", t.getDim0Attr()),
                      r.attr("dim1", t.getDim1Attr())}));
  } else {
    auto permute = cast<PermuteOp>(op);
    ArrayRef<int64_t> dims = permute.getDims();
    SmallVector<int64_t> inverse(dims.size());
    for (auto [i, d] : llvm::enumerate(dims))
      inverse[d < 0 ? d + dims.size() : d] = static_cast<int64_t>(i);
    r.give(x,
           r.make("tp.permute", g,
                  {r.attr("dims", r.b.builder.getDenseI64ArrayAttr(inverse))}));
  }
  return success();
}

LogicalResult softmaxRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), y = op->getResult(0), g = r.grad;
  int64_t dim = op->getAttrOfType<IntegerAttr>("dim").getInt();
  if (dim < 0)
    dim += rankOf(x);
  if (isa<SoftmaxOp>(op)) {
    // y * (g - sum(g * y, dim))
    Value s = r.sumAlong(r.mul(g, y), {dim}, /*keepdim=*/true);
    r.give(x, r.mul(y, r.sub(g, s)));
  } else {
    // g - exp(y) * sum(g, dim)
    Value s = r.sumAlong(g, {dim}, /*keepdim=*/true);
    r.give(x, r.sub(g, r.mul(r.make("tp.exp", y), s)));
  }
  return success();
}

LogicalResult mseRule(Rule &r) {
  auto mse = cast<MseLossOp>(r.op);
  Value x = mse.getInput(), t = mse.getTarget(), g = r.grad;
  // d/dx (x - t)^2 = 2 (x - t), scaled by the reduction.
  Value diff = r.sub(x, t);
  double scale = 2.0;
  if (mse.getReduction() == Reduction::Mean)
    scale /= static_cast<double>(numElementsOrDynamic(shapeOf(diff)));
  Value dx = r.mul(r.mul(diff, g), r.b.scalar(diff, scale));
  r.give(x, dx);
  r.give(t, r.neg(dx));
  return success();
}
/// binary_cross_entropy_with_logits: d/dx = w (sigmoid(x) (1 - t + p t) -
/// p t), which is w (sigmoid(x) - t) without pos_weight p, scaled by the
/// reduction. Autocast runs the op (fp32 list) and so this backward in f32.
LogicalResult bceWithLogitsRule(Rule &r) {
  auto bce = cast<BinaryCrossEntropyWithLogitsOp>(r.op);
  Value x = bce.getInput(), t = bce.getTarget(), w = bce.getWeight(),
        p = bce.getPosWeight(), g = r.grad;
  for (auto [value, name] : {std::pair<Value, StringRef>{t, "target"},
                             {w, "weight"},
                             {p, "pos_weight"}})
    if (value && r.b.isActive(value))
      return bce.emitOpError("tp-autodiff: the gradient of "
                             "binary_cross_entropy_with_logits with respect "
                             "to its ")
             << name << " is not implemented yet";
  Value sigmoid = r.make("tp.sigmoid", x);
  Value dx;
  if (p) {
    Value pt = r.mul(p, t);
    Value factor = r.make("tp.add", {r.sub(r.b.scalar(t, 1.0), t), pt});
    dx = r.sub(r.mul(sigmoid, factor), pt);
  } else {
    dx = r.sub(sigmoid, t);
  }
  if (w)
    dx = r.mul(dx, w);
  dx = r.mul(dx, g);
  if (bce.getReduction() == Reduction::Mean)
    dx = r.mul(dx, r.b.scalar(dx, 1.0 / static_cast<double>(
                                            numElementsOrDynamic(shapeOf(x)))));
  r.give(x, dx);
  return success();
}

/// nll_loss and cross_entropy of class-index targets (an (N, C) or (C)
/// input): nll_loss_backward, after log_softmax's backward for
/// cross_entropy, whose log-probabilities are recomputed (exact, and
/// cheaper than keeping them).
LogicalResult classIndexRule(Rule &r) {
  Operation *op = r.op;
  Value input = op->getOperand(0), target = op->getOperand(1);
  Value weight;
  int64_t ignoreIndex;
  Reduction reduction;
  bool crossEntropy = false;
  if (auto nll = dyn_cast<NllLossOp>(op)) {
    weight = nll.getWeight();
    ignoreIndex = nll.getIgnoreIndex();
    reduction = nll.getReduction();
  } else {
    auto ce = cast<CrossEntropyOp>(op);
    if (!isa<IntegerType>(elementTypeOf(target)))
      return op->emitOpError("tp-autodiff: the backward of cross_entropy is "
                             "implemented for class-index targets only so "
                             "far");
    if (!ce.getLabelSmoothing().isZero())
      return op->emitOpError("tp-autodiff: the backward of cross_entropy "
                             "with label_smoothing is not implemented yet");
    weight = ce.getWeight();
    ignoreIndex = ce.getIgnoreIndex();
    reduction = ce.getReduction();
    crossEntropy = true;
  }
  if (weight && r.b.isActive(weight))
    return op->emitOpError("tp-autodiff: the gradient with respect to the "
                           "class weights of '")
           << op->getName()
           << "' is not implemented (nor is it in PyTorch); pass them as a "
              "value no differentiated argument reaches";
  if (rankOf(input) > 2)
    return op->emitOpError("tp-autodiff: the backward of '")
           << op->getName() << "' is implemented for (N, C) and (C) inputs "
           << "only so far, got rank " << rankOf(input);
  int64_t classDim = rankOf(input) == 1 ? 0 : 1;
  Value logp = input;
  if (crossEntropy)
    logp = r.make("tp.log_softmax", input,
                  {r.attr("dim", r.b.builder.getI64IntegerAttr(classDim))});
  SmallVector<Value> operands = {r.grad, logp, target};
  if (weight)
    operands.push_back(weight);
  Value dlogp = r.make(
      "tp.nll_loss_backward", operands,
      {r.attr("operandSegmentSizes",
              r.b.builder.getDenseI32ArrayAttr({1, 1, 1, weight ? 1 : 0, 0})),
       r.attr("reduction", ReductionAttr::get(op->getContext(), reduction)),
       r.attr("ignore_index", r.b.builder.getI64IntegerAttr(ignoreIndex))});
  if (!crossEntropy) {
    r.give(input, dlogp);
    return success();
  }
  // log_softmax's backward: g - exp(logp) * sum(g, classDim).
  Value s = r.sumAlong(dlogp, {classDim}, /*keepdim=*/true);
  r.give(input, r.sub(dlogp, r.mul(r.make("tp.exp", logp), s)));
  return success();
}
} // namespace

LogicalResult mlir::tp::applyBackwardRule(Operation *op,
                                          ArrayRef<Value> resultGrads,
                                          BackwardBuilder &b) {
  if (isa<ConstantOp>(op))
    return success();
  if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
    if (compute.isInplaceOrOut())
      return op->emitOpError(
          "tp-autodiff: in-place and out= forms are not differentiated; use "
          "the plain form");
  }
  Rule r{op, resultGrads.empty() ? Value() : resultGrads[0], b};
  if (!r.grad)
    return success();
  if (auto cast = dyn_cast<CastOp>(op)) {
    // The cast is reversed: the gradient goes back to the source dtype.
    r.give(cast.getInput(), r.grad);
    return success();
  }
  if (auto div = dyn_cast<DivOp>(op); div && div.getRoundingMode())
    return op->emitOpError("tp-autodiff: tp.div with rounding_mode has no "
                           "gradient");
  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case<AddOp, SubOp, MulOp, DivOp>([&](Operation *) {
            return binaryRule(r, op->getOperand(0), op->getOperand(1));
          })
          .Case<NegOp, ExpOp, LogOp, SqrtOp, SinOp, CosOp, TanhOp, SigmoidOp,
                ReluOp, GeluOp>(
              [&](Operation *) { return unaryRule(r, op->getOperand(0)); })
          .Case<MmOp, MatmulOp, LinearOp>(
              [&](Operation *) { return productRule(r); })
          .Case<SumOp, MeanOp>([&](Operation *) { return reductionRule(r); })
          .Case<ReshapeOp, TransposeOp, PermuteOp>(
              [&](Operation *) { return layoutRule(r); })
          .Case<SoftmaxOp, LogSoftmaxOp>(
              [&](Operation *) { return softmaxRule(r); })
          .Case<MseLossOp>([&](Operation *) { return mseRule(r); })
          .Case<BinaryCrossEntropyWithLogitsOp>(
              [&](Operation *) { return bceWithLogitsRule(r); })
          .Case<NllLossOp, CrossEntropyOp>(
              [&](Operation *) { return classIndexRule(r); })
          .Default([&](Operation *) {
            return op->emitOpError("tp-autodiff: no backward rule for '")
                   << op->getName()
                   << "' yet (it is on the path from a differentiated "
                      "argument to the loss)";
          });
  // A backward op that could not be built was diagnosed where it failed.
  return success(succeeded(result) && !b.hadError);
}
