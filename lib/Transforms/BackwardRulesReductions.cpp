//===- BackwardRulesReductions.cpp - Rules of reductions and layouts ------===//
//
// The backward of sum and mean (the gradient expanded back over the reduced
// dimensions), prod (from exclusive cumulative products, exact with
// zeros), cumprod (exact with zeros too), the p-norms and dist, cumsum, the
// layout ops (the inverse layout change, or the sum over what expand
// broadcast), and softmax / log_softmax / softmin from their saved outputs
// (tp.softmax_backward and tp.log_softmax_backward).
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tp;

// Declared in BackwardRule.h.
Value mlir::tp::pnormGradient(Rule &r, Value x, Value y, Value grad, double p,
                              ArrayRef<int64_t> dims, bool keepdim) {
  Value g = expandReduced(r, grad, x, dims, keepdim);
  if (p == 0.0)
    return Value();
  if (p == 1.0)
    return r.mul(r.sign(x), g);
  Value n = expandReduced(r, y, x, dims, keepdim);
  if (std::isinf(p)) {
    // The entries of the largest (p = inf) or smallest (p = -inf)
    // magnitude share g evenly.
    return r.mul(r.sign(x), shareAmongTies(r, r.make<AbsOp>(x), n, g, dims));
  }
  if (p < 1.0) {
    // PyTorch's: sign(x) |x|^(p-1) n^(1-p) g, 0 where x = 0 (|x|^(p-1) is
    // infinite there).
    Value magnitude = r.make<AbsOp>(x);
    Value scaled = r.passAbove(r.power(magnitude, p - 1.0), magnitude, 0.0);
    return r.mul(r.mul(r.sign(x), scaled), r.mul(g, r.power(n, 1.0 - p)));
  }
  // n + (n == 0): the quotient is 0 there, as x is.
  Value safe = r.add(n, r.isZero(n));
  if (p == 2.0)
    return r.mul(x, r.div(g, safe));
  Value magnitude = r.power(r.make<AbsOp>(x), p - 1.0);
  return r.mul(r.mul(r.sign(x), magnitude), r.div(g, r.power(safe, p - 1.0)));
}

namespace {
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
  Value scaled = r.div(r.grad, r.scalar(r.grad, static_cast<double>(count)));
  r.give(x, expandReduced(r, scaled, x, dims, mean.getKeepdim()));
  return success();
}

/// cumprod([1, v_0, ..., v_{n-2}]) along dim: at each position the product
/// of the entries before it (n = v's size along dim, at least 2).
Value exclusiveCumprod(Rule &r, Value v, int64_t dim) {
  SmallVector<int64_t> oneShape(shapeOf(v));
  int64_t size = oneShape[dim];
  oneShape[dim] = 1;
  ++r.b.numCreated;
  Value ones =
      createFloatSplat(r.b.builder, r.b.loc,
                       RankedTensorType::get(oneShape, elementTypeOf(v)), 1.0);
  Value shifted = r.cat({ones, r.sliceAlong(v, dim, 0, size - 1)}, dim);
  return r.make<CumprodOp>(shifted,
                           {r.attr("dim", r.b.builder.getI64IntegerAttr(dim))});
}

/// prod: dx_i = g prod_{j != i} x_j, the product of the exclusive
/// cumulative products from the left and from the right (exact where x
/// has zeros, unlike y / x).
LogicalResult prodRule(Rule &r, ProdOp prod) {
  Value x = prod.getInput();
  ArrayRef<int64_t> shape = shapeOf(x);
  std::optional<uint64_t> attrDim = prod.getDim();
  Value v = x;
  int64_t dim = 0;
  SmallVector<int64_t> dims;
  if (attrDim) {
    dim = normalizeDim(static_cast<int64_t>(*attrDim), rankOf(x));
    dims = {dim};
  } else {
    v = r.reshape(x, {numElementsOrDynamic(shape)});
    dims = reductionDims(std::nullopt, rankOf(x));
  }
  int64_t size = shapeOf(v)[dim];
  Value g = expandReduced(r, r.grad, x, dims, prod.getKeepdim());
  if (size == 1) {
    r.give(x, g);
    return success();
  }
  SmallVector<int64_t> reversed;
  for (int64_t i = size - 1; i >= 0; --i)
    reversed.push_back(i);
  Value before = exclusiveCumprod(r, v, dim);
  Value after = r.gatherAlong(
      exclusiveCumprod(r, r.gatherAlong(v, dim, reversed), dim), dim, reversed);
  r.give(x, r.mul(r.reshape(r.mul(before, after), shape), g));
  return success();
}

LogicalResult normRule(Rule &r, NormOp norm) {
  Value x = norm.getInput();
  if (isa<ComplexType>(elementTypeOf(x)))
    return norm.emitOpError("tp-autodiff: the backward of tp.norm of "
                            "complex input is not implemented");
  double p = norm.getP() ? norm.getP()->convertToDouble() : 2.0;
  SmallVector<int64_t> dims = reductionDims(norm.getDim(), rankOf(x));
  r.give(x, pnormGradient(r, x, norm.getResult(), r.grad, p, dims,
                          norm.getKeepdim()));
  return success();
}

/// dist: the p-norm of x - y over all elements (broadcast together).
LogicalResult distRule(Rule &r, DistOp dist) {
  Value x = dist.getInput(), y = dist.getOther();
  Value d = r.sub(x, y);
  if (!d)
    return failure();
  Value dd = pnormGradient(r, d, dist.getResult(), r.grad,
                           dist.getP().convertToDouble(),
                           reductionDims(std::nullopt, rankOf(d)),
                           /*keepdim=*/false);
  if (dd) {
    r.give(x, dd);
    r.give(y, r.neg(dd));
  }
  return success();
}

/// cumsum: each input element reaches every later output, so its gradient
/// is the reversed cumulative sum of g: sum(g) - cumsum(g) + g.
LogicalResult cumsumRule(Rule &r, CumsumOp cumsum) {
  Value x = cumsum.getInput(), g = r.grad;
  // (I64Attr getters return unsigned values.)
  auto dim = static_cast<int64_t>(cumsum.getDim());
  if (dim < 0)
    dim += rankOf(x);
  Value total = r.expand(r.sumAlong(g, {dim}, /*keepdim=*/true), shapeOf(g));
  Value running =
      r.make<CumsumOp>(g, {r.attr("dim", r.b.builder.getI64IntegerAttr(dim))});
  r.give(x, r.add(r.sub(total, running), g));
  return success();
}

/// cumprod along a dim of size n: y_i = prod_{k <= i} x_k, so dx_j =
/// prod_{k < j} x_k * sum_{i >= j} g_i prod_{j < k <= i} x_k. The inner
/// products are one cumprod of an n x n spread of x (ones at and below the
/// diagonal), so the gradient is exact where x has zeros (y / x is not),
/// at O(n^2) per row.
LogicalResult cumprodRule(Rule &r, CumprodOp cumprod) {
  Value x = cumprod.getInput(), g = r.grad;
  int64_t rank = rankOf(x);
  Type element = elementTypeOf(g);
  Value v = r.castTo(x, element);
  if (rank == 0) {
    r.give(x, g);
    return success();
  }
  int64_t dim = normalizeDim(static_cast<int64_t>(cumprod.getDim()), rank);
  int64_t last = rank - 1, n = shapeOf(x)[dim];
  if (ShapedType::isDynamic(n))
    return cumprod.emitOpError("tp-autodiff: the backward of tp.cumprod "
                               "needs a static size along dim");
  if (n == 1) {
    r.give(x, g);
    return success();
  }
  if (dim != last) {
    v = r.transpose(v, dim, last);
    g = r.transpose(g, dim, last);
  }
  // [..., 1, n]: x and g along the rows of the spread.
  SmallVector<int64_t> row(shapeOf(v));
  row.insert(row.end() - 1, 1);
  SmallVector<double> after(n * n), from(n * n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      after[j * n + i] = i > j;
      from[j * n + i] = i >= j;
    }
  Type i1 = r.b.builder.getI1Type();
  Value one = r.scalar(v, 1.0), zero = r.scalar(v, 0.0);
  // spread[..., j, i] = x_i for i > j, else 1; its cumprod along i is
  // prod_{j < k <= i} x_k for i >= j.
  Value spread =
      r.make<WhereOp>({r.constant({n, n}, i1, after), r.reshape(v, row), one});
  Value running = r.make<CumprodOp>(
      spread, {r.attr("dim", r.b.builder.getI64IntegerAttr(rank))});
  Value terms = r.make<WhereOp>(
      {r.constant({n, n}, i1, from), r.mul(running, r.reshape(g, row)), zero});
  Value later = r.sumAlong(terms, {rank}, /*keepdim=*/false);
  Value dx = r.mul(exclusiveCumprod(r, v, last), later);
  r.give(x, dim == last ? dx : r.transpose(dx, dim, last));
  return success();
}

LogicalResult layoutRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0), g = r.grad;
  if (isa<ReshapeOp, UnsqueezeOp, SqueezeOp, FlattenOp>(op)) {
    r.give(x, r.reshape(g, shapeOf(x)));
  } else if (isa<ExpandOp>(op)) {
    // give() sums over the broadcast dimensions.
    r.give(x, g);
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    r.give(x, r.transpose(g, t.getDim0(), t.getDim1()));
  } else {
    auto permute = cast<PermuteOp>(op);
    ArrayRef<int64_t> dims = permute.getDims();
    SmallVector<int64_t> inverse(dims.size());
    for (auto [i, d] : llvm::enumerate(dims))
      inverse[d < 0 ? d + dims.size() : d] = static_cast<int64_t>(i);
    r.give(x, r.permute(g, inverse));
  }
  return success();
}

LogicalResult softmaxRule(Rule &r) {
  Operation *op = r.op;
  Value x = op->getOperand(0);
  int64_t dim =
      normalizeDim(op->getAttrOfType<IntegerAttr>("dim").getInt(), rankOf(x));
  // softmin is softmax(-x).
  Value dx =
      r.softmaxBackward(r.grad, op->getResult(0), dim, isa<LogSoftmaxOp>(op));
  r.give(x, isa<SoftminOp>(op) ? r.neg(dx) : dx);
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyReductionRule(Rule &r) {
  Operation *op = r.op;
  if (isa<SumOp, MeanOp>(op))
    return reductionRule(r);
  if (auto cumsum = dyn_cast<CumsumOp>(op))
    return cumsumRule(r, cumsum);
  if (auto prod = dyn_cast<ProdOp>(op))
    return prodRule(r, prod);
  if (auto cumprod = dyn_cast<CumprodOp>(op))
    return cumprodRule(r, cumprod);
  if (auto norm = dyn_cast<NormOp>(op))
    return normRule(r, norm);
  if (auto dist = dyn_cast<DistOp>(op))
    return distRule(r, dist);
  if (isa<ReshapeOp, UnsqueezeOp, SqueezeOp, FlattenOp, ExpandOp, TransposeOp,
          PermuteOp>(op))
    return layoutRule(r);
  if (isa<SoftmaxOp, LogSoftmaxOp, SoftminOp>(op))
    return softmaxRule(r);
  return std::nullopt;
}
