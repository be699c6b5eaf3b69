//===- BackwardRulesLosses.cpp - Rules of the loss ops --------------------===//
//
// The backward of mse_loss, binary_cross_entropy_with_logits, nll_loss and
// cross_entropy of class-index targets (through the dialect's
// nll_loss_backward op), the elementwise losses, and the row-wise
// margin_ranking_loss, cosine_embedding_loss and triplet_margin_loss.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

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

/// binary_cross_entropy_with_logits, l = -w (p t log s(x) + (1 - t) log
/// s(-x)) with s the sigmoid: d/dx = w (s(x) (1 - t + p t) - p t), which
/// is w (s(x) - t) without pos_weight p; d/dt = w (p softplus(-x) -
/// softplus(x)), which is -w x without p; d/dw = p t softplus(-x) + (1 - t)
/// softplus(x); d/dp = w t softplus(-x); each scaled by the reduction.
/// Autocast runs the op (fp32 list) and so this backward in f32.
LogicalResult bceWithLogitsRule(Rule &r) {
  auto bce = cast<BinaryCrossEntropyWithLogitsOp>(r.op);
  Value x = bce.getInput(), t = bce.getTarget(), w = bce.getWeight(),
        p = bce.getPosWeight(), g = r.grad;
  auto finish = [&](Value v) {
    v = r.mul(v, g);
    if (bce.getReduction() == Reduction::Mean)
      v = r.mul(v, r.scalar(v, 1.0 / static_cast<double>(
                                         numElementsOrDynamic(shapeOf(x)))));
    return v;
  };
  auto weighted = [&](Value v) { return w ? r.mul(v, w) : v; };
  Value sigmoid = r.make<SigmoidOp>(x);
  Value dx;
  if (p) {
    Value pt = r.mul(p, t);
    Value factor = r.make<AddOp>({r.sub(r.scalar(t, 1.0), t), pt});
    dx = r.sub(r.mul(sigmoid, factor), pt);
  } else {
    dx = r.sub(sigmoid, t);
  }
  r.give(x, finish(weighted(dx)));
  bool needT = r.active(t), needW = w && r.active(w), needP = p && r.active(p);
  if (!needT && !needW && !needP)
    return success();
  Value softPos = r.make<SoftplusOp>(x);        // -log s(-x)
  Value softNeg = r.make<SoftplusOp>(r.neg(x)); // -log s(x)
  if (needT)
    r.give(t,
           finish(weighted(p ? r.sub(r.mul(p, softNeg), softPos) : r.neg(x))));
  if (needW) {
    Value ones = r.sub(r.scalar(t, 1.0), t);
    Value positive = r.mul(t, softNeg);
    r.give(w, finish(r.add(p ? r.mul(p, positive) : positive,
                           r.mul(ones, softPos))));
  }
  if (needP)
    r.give(p, finish(weighted(r.mul(t, softNeg))));
  return success();
}

/// cross_entropy of class probabilities t (any rank; classes along dim 1,
/// dim 0 of a 1-D input), with class weights w and label smoothing eps
/// (t' = (1 - eps) t + eps / C): d/dlogp = -g w t', scaled by the
/// reduction, then log_softmax's backward from recomputed log-probabilities;
/// the targets get -g w logp (1 - eps).
LogicalResult probabilityRule(Rule &r, Value x, Value t, Value w,
                              Reduction reduction, double eps) {
  if (w && r.active(w))
    return r.op->emitOpError(
        "tp-autodiff: the gradient with respect to the "
        "class weights of 'tp.cross_entropy' is not "
        "implemented (nor is it in PyTorch); pass them as a "
        "value no differentiated argument reaches");
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = rankOf(x), classDim = rank == 1 ? 0 : 1;
  int64_t classes = shape[classDim];
  Value logp = r.make<LogSoftmaxOp>(
      x, {r.attr("dim", r.b.builder.getI64IntegerAttr(classDim))});
  // The loss's gradient with the class dim back (size 1).
  SmallVector<int64_t> kept(shape);
  kept[classDim] = 1;
  Value g = r.grad;
  if (reduction == Reduction::None)
    g = r.reshape(g, kept);
  double scale = 1.0;
  if (reduction == Reduction::Mean)
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
  if (r.active(x))
    r.give(x, r.softmaxBackward(r.mul(gw, smoothed), logp, classDim,
                                /*log=*/true));
  if (r.active(t))
    r.give(t, r.scale(r.mul(gw, logp), 1.0 - eps));
  return success();
}

/// The class-index losses' attributes.
struct ClassLoss {
  Value input, target, weight;
  int64_t ignoreIndex;
  Reduction reduction;
  double smoothing;
  bool crossEntropy;
};

/// nll_loss_backward of `logp` ((M, C)) against `target` ((M)).
Value nllBackward(Rule &r, Value grad, Value logp, Value target, Value weight,
                  Reduction reduction, int64_t ignoreIndex) {
  SmallVector<Value> operands = {grad, logp, target};
  if (weight)
    operands.push_back(weight);
  OpBuilder &builder = r.b.builder;
  return r.make<NllLossBackwardOp>(
      operands,
      {r.attr("operandSegmentSizes",
              builder.getDenseI32ArrayAttr({1, 1, 1, weight ? 1 : 0, 0})),
       r.attr("reduction", ReductionAttr::get(builder.getContext(), reduction)),
       r.attr("ignore_index", builder.getI64IntegerAttr(ignoreIndex))});
}

/// The gradient of the (M, C) log-probabilities of a class-index loss.
/// Label smoothing adds -(eps / C) w_c m_i s_i, m_i = 1 for the
/// non-ignored targets, s_i the loss gradient (divided by the total weight
/// of the non-ignored targets for mean), as PyTorch's smoothed loss.
Value classLogpGrad(Rule &r, const ClassLoss &l, Value logp, Value target,
                    Value grad) {
  Value dlogp =
      nllBackward(r, grad, logp, target, l.weight, l.reduction, l.ignoreIndex);
  if (l.smoothing == 0.0)
    return dlogp;
  int64_t classes = shapeOf(logp)[1], rows = shapeOf(logp)[0];
  Value one = r.scalar(logp, 1.0);
  // -nll_loss_backward(1, sum) has 1 at the target class of each kept row.
  Value rowsKept = r.neg(r.sumAlong(
      nllBackward(r, one, logp, target, {}, Reduction::Sum, l.ignoreIndex), {1},
      /*keepdim=*/true));
  Value s = l.reduction == Reduction::None ? r.reshape(grad, {rows, 1}) : grad;
  if (l.reduction == Reduction::Mean) {
    Value total =
        l.weight ? r.neg(r.sumAlong(nllBackward(r, one, logp, target, l.weight,
                                                Reduction::Sum, l.ignoreIndex),
                                    {0, 1}, /*keepdim=*/false))
                 : r.sumAlong(rowsKept, {0, 1}, /*keepdim=*/false);
    s = r.div(s, total);
  }
  Value smooth = r.scale(r.mul(rowsKept, s), -l.smoothing / classes);
  if (l.weight)
    smooth = r.mul(smooth, r.reshape(l.weight, {1, classes}));
  return r.add(r.scale(dlogp, 1.0 - l.smoothing), smooth);
}

/// nll_loss / nll_loss2d and cross_entropy / cross_entropy_loss of
/// class-index targets, of any rank: the classes are moved last and the
/// rest flattened to (M, C) rows, then nll_loss_backward (with label
/// smoothing's term), after log_softmax's backward for cross_entropy,
/// whose log-probabilities are recomputed (exact, and cheaper than keeping
/// them).
LogicalResult classIndexRule(Rule &r, const ClassLoss &l) {
  Operation *op = r.op;
  if (l.weight && r.active(l.weight))
    return op->emitOpError("tp-autodiff: the gradient with respect to the "
                           "class weights of '")
           << op->getName()
           << "' is not implemented (nor is it in PyTorch); pass them as a "
              "value no differentiated argument reaches";
  Value x = l.input;
  int64_t rank = rankOf(x);
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t classDim = rank == 1 ? 0 : 1, classes = shape[classDim];
  // The classes last: (N, d..., C), then (M, C).
  SmallVector<int64_t> perm = {0};
  for (int64_t d = 2; d < rank; ++d)
    perm.push_back(d);
  perm.push_back(1);
  SmallVector<int64_t> inverse = invertPermutationVector(perm);
  Value last = rank > 2 ? r.permute(x, perm) : x;
  int64_t rows = numElementsOrDynamic(shape) / classes;
  Value rowsIn = r.reshape(last, {rows, classes});
  Value target = r.reshape(l.target, {rows});
  Value grad =
      l.reduction == Reduction::None ? r.reshape(r.grad, {rows}) : r.grad;
  Value logp = rowsIn;
  if (l.crossEntropy)
    logp = r.make<LogSoftmaxOp>(
        rowsIn, {r.attr("dim", r.b.builder.getI64IntegerAttr(1))});
  Value d = classLogpGrad(r, l, logp, target, grad);
  if (l.crossEntropy)
    d = r.softmaxBackward(d, logp, 1, /*log=*/true);
  if (rank > 2) {
    SmallVector<int64_t> lastShape(shapeOf(last));
    d = r.permute(r.reshape(d, lastShape), inverse);
  }
  r.give(x, r.reshape(d, shape));
  return success();
}

template <typename Op>
LogicalResult crossEntropyRule(Rule &r, Op ce) {
  if (!isa<IntegerType>(elementTypeOf(ce.getTarget())))
    return probabilityRule(r, ce.getInput(), ce.getTarget(), ce.getWeight(),
                           ce.getReduction(),
                           ce.getLabelSmoothing().convertToDouble());
  return classIndexRule(r, {ce.getInput(), ce.getTarget(), ce.getWeight(),
                            static_cast<int64_t>(ce.getIgnoreIndex()),
                            ce.getReduction(),
                            ce.getLabelSmoothing().convertToDouble(), true});
}

template <typename Op>
LogicalResult nllRule(Rule &r, Op nll) {
  return classIndexRule(r, {nll.getInput(), nll.getTarget(), nll.getWeight(),
                            static_cast<int64_t>(nll.getIgnoreIndex()),
                            nll.getReduction(), 0.0, false});
}

/// The gradient of a loss with `reduction` per element of `elementwise`
/// (the unreduced loss's shape): g, or g / numel for mean.
Value perElement(Rule &r, Reduction reduction, Value elementwise) {
  if (reduction != Reduction::Mean || !elementwise)
    return r.grad;
  return r.scale(r.grad, 1.0 / static_cast<double>(
                                   numElementsOrDynamic(shapeOf(elementwise))));
}

/// The elementwise losses of (input, target), as tensorplay computes them:
/// the derivative in x of each (d = x - t), times the loss's gradient.
LogicalResult elementwiseLossRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), t = op->getOperand(1);
  auto reduction = op->getAttrOfType<ReductionAttr>("reduction").getValue();
  Value d = r.sub(x, t);
  Value dx, dt;
  if (isa<L1LossOp>(op)) {
    dx = r.sign(d);
  } else if (auto l = dyn_cast<SmoothL1LossOp>(op)) {
    double beta = l.getBeta().convertToDouble();
    dx = beta == 0.0 ? r.sign(d) : r.clamp(r.scale(d, 1.0 / beta), -1, 1);
  } else if (auto l = dyn_cast<HuberLossOp>(op)) {
    double delta = l.getDelta().convertToDouble();
    dx = r.clamp(d, -delta, delta);
  } else if (isa<SoftMarginLossOp>(op)) {
    // log(1 + exp(-t x)): -t sigmoid(-t x), and -x sigmoid(-t x) for t.
    Value s = r.make<SigmoidOp>(r.neg(r.mul(t, x)));
    dx = r.neg(r.mul(t, s));
    dt = r.neg(r.mul(x, s));
  } else if (auto l = dyn_cast<HingeEmbeddingLossOp>(op)) {
    // x where t != -1, plus max(0, margin - x) where t != 1.
    double margin = l.getMargin().convertToDouble();
    Value one = r.scalar(x, 1.0);
    Value notOne = r.sub(one, r.isZero(r.sub(t, one)));
    Value notMinusOne = r.sub(one, r.isZero(r.add(t, one)));
    Value hinge = r.passAbove(notOne, r.sub(r.scalar(x, margin), x), 0.0);
    dx = r.sub(notMinusOne, hinge);
    // The target only selects: no gradient.
    dt = {};
  } else if (auto l = dyn_cast<KlDivOp>(op)) {
    if (l.getLogTarget()) {
      // exp(t) (t - x)
      Value e = r.make<ExpOp>(t);
      dx = r.neg(e);
      dt = r.mul(e, r.add(r.neg(d), r.scalar(t, 1.0)));
    } else {
      // t (log(t) - x), 0 where t = 0: -t, and log(t) + 1 - x where t > 0
      // (PyTorch's masks t = 0; a negative target makes the loss NaN).
      dx = r.neg(t);
      if (r.active(t))
        dt = r.passAbove(r.sub(r.add(r.make<LogOp>(t), r.scalar(t, 1.0)), x), t,
                         0.0);
    }
  } else if (auto l = dyn_cast<PoissonNllLossOp>(op)) {
    if (l.getLogInput()) {
      // exp(x) - t x
      dx = r.sub(r.make<ExpOp>(x), t);
      dt = r.neg(x);
    } else {
      // x - t log(x + eps)
      Value shifted = r.add(x, r.scalar(x, l.getEps().convertToDouble()));
      dx = r.sub(r.scalar(x, 1.0), r.div(t, shifted));
      dt = r.neg(r.make<LogOp>(shifted));
    }
    if (l.getFull() && r.active(t)) {
      // Stirling's t log t - t + 0.5 log(2 pi t) for t > 1: log t + 1/(2t).
      Value stirling = r.add(r.make<LogOp>(t), r.div(r.scalar(t, 0.5), t));
      dt = r.add(dt, r.passAbove(stirling, t, 1.0));
    }
  } else {
    auto bce = cast<BinaryCrossEntropyOp>(op);
    Value w = bce.getWeight();
    // PyTorch's: w (x - t) / max((1 - x) x, eps), eps its float 1e-12; for t, w
    // (log(1 - x) - log(x)) with both logs clamped at -100 as the forward's.
    Value one = r.scalar(x, 1.0);
    Value oneMinus = r.sub(one, x);
    Value denominator = r.make<MaximumOp>(
        {r.mul(oneMinus, x), r.scalar(x, static_cast<double>(1e-12f))});
    dx = r.div(d, denominator);
    auto clampedLog = [&](Value v) {
      return r.make<MaximumOp>({r.make<LogOp>(v), r.scalar(v, -100.0)});
    };
    if (r.active(t))
      dt = r.sub(clampedLog(oneMinus), clampedLog(x));
    if (w) {
      // The weight's: the unweighted loss -(t log x + (1 - t) log(1 - x)).
      if (r.active(w)) {
        Value loss = r.neg(
            r.add(r.mul(t, clampedLog(x)),
                  r.mul(r.sub(r.scalar(t, 1.0), t), clampedLog(oneMinus))));
        r.give(w, r.mul(loss, perElement(r, reduction, loss)));
      }
      dx = r.mul(dx, w);
      dt = dt ? r.mul(dt, w) : dt;
    }
  }
  if (!dx)
    return success(!r.b.hadError);
  Value g = perElement(r, reduction, dx);
  r.give(x, r.mul(dx, g));
  if (isa<L1LossOp, SmoothL1LossOp, HuberLossOp>(op))
    dt = r.neg(dx);
  if (dt)
    r.give(t, r.mul(dt, g));
  return success();
}

/// margin_ranking_loss: max(0, z), z = -t (x1 - x2) + margin.
LogicalResult marginRankingRule(Rule &r, MarginRankingLossOp l) {
  Value x1 = l.getInput1(), x2 = l.getInput2(), t = l.getTarget();
  Value d = r.sub(x1, x2);
  Value z =
      r.add(r.neg(r.mul(t, d)), r.scalar(d, l.getMargin().convertToDouble()));
  Value g = perElement(r, l.getReduction(), z);
  Value pass = r.passAbove(g, z, 0.0);
  Value dx1 = r.neg(r.mul(t, pass));
  r.give(x1, dx1);
  r.give(x2, r.neg(dx1));
  r.give(t, r.neg(r.mul(d, pass)));
  return success();
}
/// The gradient of each row's loss, shaped `rows` (the unreduced loss's
/// shape): g, or g / rows for mean.
Value perRow(Rule &r, Reduction reduction, Value rowValues,
             ArrayRef<int64_t> rows) {
  if (reduction == Reduction::None)
    return r.reshape(r.grad, rows);
  return r.expand(perElement(r, reduction, rowValues), rows);
}

/// cosine_embedding_loss, as tensorplay computes it along the last dim:
/// cos = s / sqrt(m1 m2), s = sum(x1 x2), mi = sum(xi xi) + 1e-12; the loss
/// is 1 - cos where t = 1 and max(0, cos - margin) where t = -1. So
/// dcos/dx1 = x2 / sqrt(m1 m2) - cos x1 / m1 (and symmetrically); the
/// target only selects.
LogicalResult cosineEmbeddingRule(Rule &r, CosineEmbeddingLossOp l) {
  Value x1 = l.getInput1(), x2 = l.getInput2();
  int64_t dim = rankOf(x1) - 1;
  auto rowSum = [&](Value v) { return r.sumAlong(v, {dim}, /*keepdim=*/true); };
  Value m1 = r.add(rowSum(r.mul(x1, x1)), r.scalar(x1, 1e-12));
  Value m2 = r.add(rowSum(r.mul(x2, x2)), r.scalar(x2, 1e-12));
  Value root = r.make<SqrtOp>(r.mul(m1, m2));
  Value cos = r.div(rowSum(r.mul(x1, x2)), root);
  // The rows with the reduced dim kept: the target, then dL/dcos.
  SmallVector<int64_t> kept(shapeOf(cos));
  Value t = r.reshape(r.castTo(l.getTarget(), elementTypeOf(cos)), kept);
  Value one = r.scalar(cos, 1.0);
  Value isPositive = r.isZero(r.sub(t, one));
  Value isNegative = r.isZero(r.add(t, one));
  Value above = r.sub(cos, r.scalar(cos, l.getMargin().convertToDouble()));
  Value dcos = r.sub(r.passAbove(isNegative, above, 0.0), isPositive);
  Value c = r.mul(dcos, perRow(r, l.getReduction(), t, kept));
  if (r.active(x1))
    r.give(x1, r.mul(c, r.sub(r.div(x2, root), r.div(r.mul(cos, x1), m1))));
  if (r.active(x2))
    r.give(x2, r.mul(c, r.sub(r.div(x1, root), r.div(r.mul(cos, x2), m2))));
  return success();
}

/// triplet_margin_loss: max(0, d(a, p) - d(a, n) + margin) per row, d(u,
/// v) = ||u - v + eps||_p along the last dim of the common shape, d(a, n)
/// replaced by min(d(a, n), d(p, n)) with swap.
LogicalResult tripletMarginRule(Rule &r, TripletMarginLossOp l) {
  double p = l.getP().convertToDouble(), eps = l.getEps().convertToDouble();
  if (p == 0.0)
    return success(); // distances that count: no gradient
  Value a = l.getAnchor(), pos = l.getPositive(), neg = l.getNegative();
  SmallVector<int64_t> full;
  if (failed(broadcastShapes({shapeOf(a), shapeOf(pos), shapeOf(neg)}, full)))
    return l.emitOpError("tp-autodiff: operands do not broadcast");
  int64_t dim = static_cast<int64_t>(full.size()) - 1;
  OpBuilder &builder = r.b.builder;
  // (u - v + eps) over the common shape, and its p-norm along dim.
  auto difference = [&](Value u, Value v) {
    return r.expand(r.add(r.sub(u, v), r.scalar(u, eps)), full);
  };
  auto distance = [&](Value d) {
    return r.make<NormOp>(d,
                          {r.attr("p", builder.getF64FloatAttr(p)),
                           r.attr("dim", builder.getDenseI64ArrayAttr({dim})),
                           r.attr("keepdim", builder.getBoolAttr(false))});
  };
  Value ap = difference(a, pos), an = difference(a, neg);
  Value dap = distance(ap), dan = distance(an);
  Value pn, dpn, closest = dan;
  if (l.getSwap()) {
    pn = difference(pos, neg);
    dpn = distance(pn);
    closest = r.make<MinimumOp>({dan, dpn});
  }
  Value z = r.add(r.sub(dap, closest),
                  r.scalar(dap, l.getMargin().convertToDouble()));
  SmallVector<int64_t> rows(shapeOf(z));
  Value pass = r.passAbove(perRow(r, l.getReduction(), z, rows), z, 0.0);
  // d/d(ap) and d/d(an), d/d(pn) through the min.
  Value gap = pnormGradient(r, ap, dap, pass, p, {dim}, /*keepdim=*/false);
  Value gdan = r.neg(pass), gdpn;
  if (pn)
    std::tie(gdan, gdpn) =
        extremumGradients(r, dan, dpn, gdan, /*isMaximum=*/false);
  Value gan = pnormGradient(r, an, dan, gdan, p, {dim}, /*keepdim=*/false);
  r.give(a, r.add(gap, gan));
  if (pn) {
    Value gpn = pnormGradient(r, pn, dpn, gdpn, p, {dim}, /*keepdim=*/false);
    r.give(pos, r.sub(gpn, gap));
    r.give(neg, r.neg(r.add(gan, gpn)));
  } else {
    r.give(pos, r.neg(gap));
    r.give(neg, r.neg(gan));
  }
  return success();
}
/// ctc_loss: tp.ctc_loss_backward of each sample's gradient (g; g shared
/// by the samples for sum; g / (N max(target_length, 1)) for mean, as the
/// forward's reduction), the samples zero_infinity zeroed getting nothing.
LogicalResult ctcRule(Rule &r, CtcLossOp ctc) {
  Value lp = ctc.getLogProbs();
  if (!r.active(lp))
    return success();
  ArrayRef<int64_t> x = shapeOf(lp);
  int64_t batch = x.size() == 3 ? x[1] : 1;
  Value perSample = r.grad;
  if (ctc.getReduction() != Reduction::None) {
    perSample = r.expand(r.reshape(r.grad, {1}), {batch});
    if (ctc.getReduction() == Reduction::Mean) {
      Value lengths = r.reshape(
          r.castTo(ctc.getTargetLengths(), elementTypeOf(lp)), {batch});
      lengths = r.make<MaximumOp>({lengths, r.scalar(lp, 1.0)});
      perSample =
          r.div(r.scale(perSample, 1.0 / static_cast<double>(batch)), lengths);
    }
  }
  r.give(lp, r.make<CtcLossBackwardOp>(
                 {perSample, lp, ctc.getTargets(), ctc.getInputLengths(),
                  ctc.getTargetLengths()},
                 {r.attr("blank", r.b.builder.getI64IntegerAttr(
                                      static_cast<int64_t>(ctc.getBlank()))),
                  r.attr("zero_infinity",
                         r.b.builder.getBoolAttr(ctc.getZeroInfinity()))}));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyLossRule(Rule &r) {
  Operation *op = r.op;
  if (isa<MseLossOp>(op))
    return mseRule(r);
  if (isa<BinaryCrossEntropyWithLogitsOp>(op))
    return bceWithLogitsRule(r);
  if (auto ctc = dyn_cast<CtcLossOp>(op))
    return ctcRule(r, ctc);
  if (auto nll = dyn_cast<NllLossOp>(op))
    return nllRule(r, nll);
  if (auto nll = dyn_cast<NllLoss2dOp>(op))
    return nllRule(r, nll);
  if (auto ce = dyn_cast<CrossEntropyOp>(op))
    return crossEntropyRule(r, ce);
  if (auto ce = dyn_cast<CrossEntropyLossOp>(op))
    return crossEntropyRule(r, ce);
  if (isa<L1LossOp, SmoothL1LossOp, HuberLossOp, SoftMarginLossOp,
          HingeEmbeddingLossOp, KlDivOp, PoissonNllLossOp,
          BinaryCrossEntropyOp>(op))
    return elementwiseLossRule(r);
  if (auto l = dyn_cast<MarginRankingLossOp>(op))
    return marginRankingRule(r, l);
  if (auto l = dyn_cast<CosineEmbeddingLossOp>(op))
    return cosineEmbeddingRule(r, l);
  if (auto l = dyn_cast<TripletMarginLossOp>(op))
    return tripletMarginRule(r, l);
  return std::nullopt;
}
