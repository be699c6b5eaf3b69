//===- BackwardRulesLosses.cpp - Rules of the loss ops --------------------===//
//
// The backward of mse_loss, binary_cross_entropy_with_logits, nll_loss and
// cross_entropy of class-index targets (through the dialect's
// nll_loss_backward op).
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
LogicalResult mseRule(Rule &r) {
  auto mse = cast<MseLossOp>(r.op);
  Value x = mse.getInput(), t = mse.getTarget(), g = r.grad;
  // d/dx (x - t)^2 = 2 (x - t), scaled by the reduction.
  Value diff = r.sub(x, t);
  double scale = 2.0;
  if (mse.getReduction() == Reduction::Mean)
    scale /= static_cast<double>(numElementsOrDynamic(shapeOf(diff)));
  Value dx = r.mul(r.mul(diff, g), r.scalar(diff, scale));
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
    Value factor = r.make("tp.add", {r.sub(r.scalar(t, 1.0), t), pt});
    dx = r.sub(r.mul(sigmoid, factor), pt);
  } else {
    dx = r.sub(sigmoid, t);
  }
  if (w)
    dx = r.mul(dx, w);
  dx = r.mul(dx, g);
  if (bce.getReduction() == Reduction::Mean)
    dx = r.mul(dx, r.scalar(dx, 1.0 / static_cast<double>(
                                            numElementsOrDynamic(shapeOf(x)))));
  r.give(x, dx);
  return success();
}

/// cross_entropy of class probabilities t (any rank; classes along dim 1,
/// dim 0 of a 1-D input), with class weights w and label smoothing eps
/// (t' = (1 - eps) t + eps / C): d/dlogp = -g w t', scaled by the
/// reduction, then log_softmax's backward from recomputed log-probabilities;
/// the targets get -g w logp (1 - eps).
LogicalResult probabilityRule(Rule &r, CrossEntropyOp ce) {
  Value x = ce.getInput(), t = ce.getTarget(), w = ce.getWeight();
  if (w && r.active(w))
    return ce.emitOpError("tp-autodiff: the gradient with respect to the "
                          "class weights of 'tp.cross_entropy' is not "
                          "implemented (nor is it in PyTorch); pass them as a "
                          "value no differentiated argument reaches");
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = rankOf(x), classDim = rank == 1 ? 0 : 1;
  int64_t classes = shape[classDim];
  double eps = ce.getLabelSmoothing().convertToDouble();
  Value logp = r.make("tp.log_softmax", x,
                      {r.attr("dim", r.b.builder.getI64IntegerAttr(classDim))});
  // The loss's gradient with the class dim back (size 1).
  SmallVector<int64_t> kept(shape);
  kept[classDim] = 1;
  Value g = r.grad;
  if (ce.getReduction() == Reduction::None)
    g = r.reshape(g, kept);
  double scale = 1.0;
  if (ce.getReduction() == Reduction::Mean)
    scale = static_cast<double>(classes) /
            static_cast<double>(numElementsOrDynamic(shape));
  g = r.scale(g, -scale);
  Value wb = w;
  if (w && rank >= 2) {
    SmallVector<int64_t> wShape = {classes};
    wShape.append(rank - 2, 1);
    wb = r.reshape(w, wShape);
  }
  Value gw = wb ? r.mul(g, wb) : g;
  Value smoothed =
      eps == 0.0 ? t : r.add(r.scale(t, 1.0 - eps), r.scalar(t, eps / classes));
  if (r.active(x)) {
    Value dlogp = r.mul(gw, smoothed);
    Value s = r.sumAlong(dlogp, {classDim}, /*keepdim=*/true);
    r.give(x, r.sub(dlogp, r.mul(r.make("tp.exp", logp), s)));
  }
  if (r.active(t))
    r.give(t, r.scale(r.mul(gw, logp), 1.0 - eps));
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
      return probabilityRule(r, ce);
    if (!ce.getLabelSmoothing().isZero())
      return op->emitOpError("tp-autodiff: the backward of cross_entropy "
                             "of class indices with label_smoothing is not "
                             "implemented yet");
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

std::optional<LogicalResult> mlir::tp::applyLossRule(Rule &r) {
  Operation *op = r.op;
  if (isa<MseLossOp>(op))
    return mseRule(r);
  if (isa<BinaryCrossEntropyWithLogitsOp>(op))
    return bceWithLogitsRule(r);
  if (isa<NllLossOp, CrossEntropyOp>(op))
    return classIndexRule(r);
  return std::nullopt;
}
