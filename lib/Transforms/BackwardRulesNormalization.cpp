//===- BackwardRulesNormalization.cpp - Rules of the normalizations -------===//
//
// The backward of layer_norm (tp.layer_norm_backward), group_norm
// (tp.group_norm_backward) and batch_norm (training form with batch
// statistics: tp.batch_norm_backward; inference form with running
// statistics: composite). The
// statistics are recomputed from the saved input (exact: the forward's
// own formula); f16 and bf16 normalizations compute their backward in f32,
// as PyTorch's kernels accumulate, and hand back gradients that the
// accumulation casts to each operand's dtype.
//
//   xhat = (x - mean) * rstd
//   dx   = rstd * (gw - mean(gw) - xhat * mean(gw * xhat))   (batch stats)
//   dx   = gw * rstd                                          (fixed stats)
//   dw   = sum(g * xhat), db = sum(g) over all but the normalized channels
//
// where gw = g * weight and the means run over what the forward normalized.
//
// normalize: y = x / max(n, eps), n = ||x||_p along dim, so dx =
// g / max(n, eps) - sum(g x) / n^2 dn/dx where n > eps; cosine_similarity is
// sum(normalize(x1) normalize(x2)) along dim, as tensorplay computes it.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// The type the backward of a normalization of `element` computes in.
Type computeType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

/// `values` summed over `dims`, or itself when there are none.
Value sumOver(Rule &r, Value values, ArrayRef<int64_t> dims) {
  return dims.empty() ? values : r.sumAlong(values, dims, /*keepdim=*/false);
}

SmallVector<int64_t> range(int64_t begin, int64_t end) {
  SmallVector<int64_t> dims;
  for (int64_t d = begin; d < end; ++d)
    dims.push_back(d);
  return dims;
}

/// A per-channel vector (C) shaped to broadcast against an (N, C, ...)
/// tensor of `rank`.
Value perChannel(Rule &r, Value v, int64_t rank) {
  if (!v)
    return {};
  SmallVector<int64_t> shape = {shapeOf(v)[0]};
  shape.append(rank - 2, 1);
  return r.reshape(v, shape);
}

/// The weight and bias gradients of a per-element affine step y = xhat * w
/// + b, summed over `dims` (those the parameters broadcast over).
void giveAffine(Rule &r, Value weight, Value bias, Value g, Value xhat,
                ArrayRef<int64_t> dims) {
  if (r.active(weight))
    r.give(weight, sumOver(r, r.mul(g, xhat), dims));
  if (r.active(bias))
    r.give(bias, sumOver(r, g, dims));
}

/// The gradients of a normalization from its backward op `name` on
/// (g, x[, weight]) with `attrs`: one op, which recomputes the statistics
/// and computes in f32 for f16/bf16 itself.
LogicalResult normalizationBackward(Rule &r, StringRef name, Value x,
                                    Value weight, Value bias,
                                    SmallVector<NamedAttribute> attrs) {
  SmallVector<Value> operands = {r.grad, x};
  if (weight)
    operands.push_back(weight);
  attrs.push_back(
      r.attr("operandSegmentSizes",
             r.b.builder.getDenseI32ArrayAttr({1, 1, weight ? 1 : 0, 0})));
  Operation *bwd = r.makeNamedOp(name, operands, attrs);
  if (!bwd)
    return success(); // diagnosed by the builder
  if (r.active(x))
    r.give(x, bwd->getResult(0));
  if (r.active(weight))
    r.give(weight, bwd->getResult(1));
  if (r.active(bias))
    r.give(bias, bwd->getResult(2));
  return success();
}

LogicalResult layerNormRule(Rule &r, LayerNormOp ln) {
  return normalizationBackward(
      r, LayerNormBackwardOp::getOperationName(), ln.getInput(), ln.getWeight(),
      ln.getBias(),
      {r.attr("normalized_shape", ln.getNormalizedShapeAttr()),
       r.attr("eps", ln.getEpsAttr())});
}

LogicalResult groupNormRule(Rule &r, GroupNormOp gn) {
  return normalizationBackward(r, GroupNormBackwardOp::getOperationName(),
                               gn.getInput(), gn.getWeight(), gn.getBias(),
                               {r.attr("num_groups", gn.getNumGroupsAttr()),
                                r.attr("eps", gn.getEpsAttr())});
}

LogicalResult batchNormRule(Rule &r, BatchNormOp bn) {
  Value x = bn.getInput();
  Value weight = bn.getWeight();
  Value runningMean = bn.getRunningMean(), runningVar = bn.getRunningVar();
  if (bn.getTraining() || !runningMean || !runningVar) {
    // Batch statistics (the running ones are only updated, and get no
    // gradient): one tp.batch_norm_backward.
    return normalizationBackward(r, BatchNormBackwardOp::getOperationName(), x,
                                 weight, bn.getBias(),
                                 {r.attr("eps", bn.getEpsAttr())});
  }
  // Inference: y = (x - rm) * rsqrt(rv + eps) * w + b.
  Type ct = computeType(elementTypeOf(x));
  int64_t rank = rankOf(x);
  double eps = bn.getEps().convertToDouble();
  SmallVector<int64_t> dims = {0};
  dims.append(range(2, rank));
  Value xc = r.castTo(x, ct), g = r.castTo(r.grad, ct);
  Value gw = weight ? r.mul(g, perChannel(r, r.castTo(weight, ct), rank)) : g;
  Value rm = perChannel(r, r.castTo(runningMean, ct), rank);
  Value rv = perChannel(r, r.castTo(runningVar, ct), rank);
  Value rstd = r.make<RsqrtOp>(r.add(rv, r.scalar(rv, eps)));
  Value centered = r.sub(xc, rm);
  Value dx = r.mul(gw, rstd);
  r.give(x, dx);
  giveAffine(r, weight, bn.getBias(), g, r.mul(centered, rstd), dims);
  if (r.active(runningMean))
    r.give(runningMean, r.neg(sumOver(r, dx, dims)));
  if (r.active(runningVar)) {
    // d/drv of rsqrt(rv + eps) is -rstd^3 / 2.
    Value rstd3 = r.mul(rstd, r.mul(rstd, rstd));
    r.give(runningVar,
           sumOver(r, r.mul(r.scale(r.mul(gw, centered), -0.5), rstd3), dims));
  }
  return success();
}
/// The gradient of x from that of y = x / max(||x||_p, eps) along dim:
/// gy / max(n, eps) - (sum(gy x) / n^2) dn/dx where n > eps (for p = 2,
/// x sum(gy x) / n^3).
Value normalizeGradient(Rule &r, Value x, Value gy, double p, int64_t dim,
                        double eps) {
  OpBuilder &builder = r.b.builder;
  Value n =
      r.make<NormOp>(x, {r.attr("p", builder.getF64FloatAttr(p)),
                         r.attr("dim", builder.getDenseI64ArrayAttr({dim})),
                         r.attr("keepdim", builder.getBoolAttr(true))});
  Value d = r.make<MaximumOp>({n, r.scalar(n, eps)});
  Value direct = r.div(gy, d);
  Value s = r.sumAlong(r.mul(gy, x), {dim}, /*keepdim=*/true);
  Value term = pnormGradient(r, x, n, r.div(s, r.mul(n, n)), p, {dim},
                             /*keepdim=*/true);
  // (p = 0 counts: its norm has no gradient.)
  return term ? r.sub(direct, r.passAbove(term, n, eps)) : direct;
}

LogicalResult normalizeRule(Rule &r, NormalizeOp normalize) {
  Value x = normalize.getInput();
  int64_t dim =
      normalizeDim(static_cast<int64_t>(normalize.getDim()), rankOf(x));
  r.give(x, normalizeGradient(r, x, r.grad, normalize.getP().convertToDouble(),
                              dim, normalize.getEps().convertToDouble()));
  return success();
}

/// cosine_similarity = sum(u v) along dim with u, v the operands
/// normalized with eps (broadcast together first): du = g v, dv = g u,
/// then normalize's backward.
LogicalResult cosineSimilarityRule(Rule &r, CosineSimilarityOp cos) {
  Value x1 = cos.getX1(), x2 = cos.getX2();
  int64_t rank = std::max(rankOf(x1), rankOf(x2));
  int64_t dim = normalizeDim(static_cast<int64_t>(cos.getDim()), rank);
  // Each operand with leading 1s to the common rank, then the full shape.
  auto ranked = [&](Value v) {
    SmallVector<int64_t> shape(rank - rankOf(v), 1);
    llvm::append_range(shape, shapeOf(v));
    return shape;
  };
  SmallVector<int64_t> s1 = ranked(x1), s2 = ranked(x2), full;
  for (int64_t d = 0; d < rank; ++d)
    full.push_back(std::max(s1[d], s2[d]));
  Value a = r.expand(r.reshape(x1, s1), full);
  Value b = r.expand(r.reshape(x2, s2), full);
  SmallVector<int64_t> kept(full);
  kept[dim] = 1;
  Value g = r.reshape(r.grad, kept);
  double eps = cos.getEps().convertToDouble();
  OpBuilder &builder = r.b.builder;
  auto normalized = [&](Value v) {
    return r.make<NormalizeOp>(v,
                               {r.attr("p", builder.getF64FloatAttr(2.0)),
                                r.attr("dim", builder.getI64IntegerAttr(dim)),
                                r.attr("eps", builder.getF64FloatAttr(eps))});
  };
  if (r.active(x1))
    r.give(x1, normalizeGradient(r, a, r.mul(g, normalized(b)), 2.0, dim, eps));
  if (r.active(x2))
    r.give(x2, normalizeGradient(r, b, r.mul(g, normalized(a)), 2.0, dim, eps));
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyNormalizationRule(Rule &r) {
  if (auto ln = dyn_cast<LayerNormOp>(r.op))
    return layerNormRule(r, ln);
  if (auto gn = dyn_cast<GroupNormOp>(r.op))
    return groupNormRule(r, gn);
  if (auto bn = dyn_cast<BatchNormOp>(r.op))
    return batchNormRule(r, bn);
  if (auto normalize = dyn_cast<NormalizeOp>(r.op))
    return normalizeRule(r, normalize);
  if (auto cos = dyn_cast<CosineSimilarityOp>(r.op))
    return cosineSimilarityRule(r, cos);
  return std::nullopt;
}
