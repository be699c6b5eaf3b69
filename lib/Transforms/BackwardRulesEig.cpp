//===- BackwardRulesEig.cpp - Rules of the general eigendecomposition -----===//
//
// linalg_eig and linalg_eigvals of real matrix batches A = V diag(L) V^-1,
// with complex L and V: PyTorch's linalg_eig_backward,
//
//   gA = Re(V^-H (diag(gL) + offdiag(W / conj(E))) V^H),
//   W  = V^H gV - V^H V diag(Re(diag(V^H gV))),   E_ij = L_j - L_i,
//
// written in real arithmetic on the real and imaginary parts (a complex
// product is four real ones, the solve with V^H is the real 2n x 2n system
// [[Re, -Im], [Im, Re]]), so that it lowers through the real matmul and
// linalg_solve. The eigenvectors are LAPACK's, of unit norm; the gradient is
// that of a loss invariant to each eigenvector's phase (PyTorch raises for
// other losses, this rule gives the gradient of the phase-invariant part).
// eigvals recomputes the decomposition, as PyTorch.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// A complex tensor as its real and imaginary parts (real tensors).
struct Parts {
  Value re, im;
};

/// Complex algebra on Parts, written with real tp ops.
struct PartsAlgebra {
  Rule &r;

  Parts split(Value z) {
    Value pairs = r.make<ViewAsRealOp>(z);
    int64_t last = rankOf(z);
    auto part = [&](int64_t which) {
      return r.reshape(r.sliceAlong(pairs, last, which, 1), shapeOf(z));
    };
    return {part(0), part(1)};
  }
  Value mm(Value x, Value y) { return r.make<MatmulOp>({x, y}); }
  Parts mm(Parts x, Parts y) {
    return {r.sub(mm(x.re, y.re), mm(x.im, y.im)),
            r.add(mm(x.re, y.im), mm(x.im, y.re))};
  }
  Parts adjoint(Parts x) {
    return {r.transposeLast(x.re), r.neg(r.transposeLast(x.im))};
  }
  Parts add(Parts x, Parts y) { return {r.add(x.re, y.re), r.add(x.im, y.im)}; }
  Parts sub(Parts x, Parts y) { return {r.sub(x.re, y.re), r.sub(x.im, y.im)}; }
  Parts mulReal(Parts x, Value v) { return {r.mul(x.re, v), r.mul(x.im, v)}; }
  /// x / y elementwise.
  Parts div(Parts x, Parts y) {
    Value norm = r.add(r.mul(y.re, y.re), r.mul(y.im, y.im));
    return {r.div(r.add(r.mul(x.re, y.re), r.mul(x.im, y.im)), norm),
            r.div(r.sub(r.mul(x.im, y.re), r.mul(x.re, y.im)), norm)};
  }
  /// m^-1 y for square m (..., n, n): the real system of twice the size.
  Parts solve(Parts m, Parts y) {
    int64_t rank = rankOf(m.re), n = shapeOf(m.re).back();
    Value top = r.cat({m.re, r.neg(m.im)}, rank - 1);
    Value bottom = r.cat({m.im, m.re}, rank - 1);
    Value big = r.cat({top, bottom}, rank - 2);
    Value x = r.make<LinalgSolveOp>({big, r.cat({y.re, y.im}, rank - 2)});
    return {r.sliceAlong(x, rank - 2, 0, n), r.sliceAlong(x, rank - 2, n, n)};
  }
  /// The n x n identity, and 1 - identity, in v's element type.
  Value eye(Value like, int64_t n, bool off = false) {
    SmallVector<double> values(n * n, off ? 1.0 : 0.0);
    for (int64_t i = 0; i < n; ++i)
      values[i * n + i] = off ? 0.0 : 1.0;
    return r.constant({n, n}, elementTypeOf(like), values);
  }
  /// v (..., n) as the rows (..., 1, n) or the columns (..., n, 1).
  Value asRows(Value v) {
    SmallVector<int64_t> shape(shapeOf(v));
    shape.insert(shape.end() - 1, 1);
    return r.reshape(v, shape);
  }
  Value asColumns(Value v) {
    SmallVector<int64_t> shape(shapeOf(v));
    shape.push_back(1);
    return r.reshape(v, shape);
  }
};

LogicalResult eigRule(Rule &r, Value values, Value vectors, Value gValues,
                      Value gVectors) {
  Value a = r.op->getOperand(0);
  if (!r.active(a) || (!gValues && !gVectors))
    return success();
  if (!isa<FloatType>(elementTypeOf(a)))
    return r.op->emitOpError("tp-autodiff: the backward of '")
           << r.op->getName() << "' takes real matrices, got " << a.getType();
  PartsAlgebra c{r};
  int64_t n = shapeOf(a).back(), rank = rankOf(a);
  Parts v = c.split(vectors), vh = c.adjoint(v);
  Value eye = c.eye(a, n);
  std::optional<Parts> inner;
  if (gVectors) {
    Parts w = c.mm(vh, c.split(gVectors));
    Value diag = r.sumAlong(r.mul(w.re, eye), {rank - 1}, false);
    w = c.sub(w, c.mm(vh, c.mulReal(v, c.asRows(diag))));
    Parts l = c.split(values);
    // conj(E) with 1 on the diagonal, which the mask then clears.
    Parts gaps = {r.add(r.sub(c.asRows(l.re), c.asColumns(l.re)), eye),
                  r.sub(c.asColumns(l.im), c.asRows(l.im))};
    inner = c.mulReal(c.div(w, gaps), c.eye(a, n, /*off=*/true));
  }
  if (gValues) {
    Parts g = c.split(gValues);
    Parts d = {r.mul(c.asRows(g.re), eye), r.mul(c.asRows(g.im), eye)};
    inner = inner ? c.add(*inner, d) : d;
  }
  Parts ga = c.solve(vh, c.mm(*inner, vh));
  r.give(a, ga.re);
  return success();
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyEigRule(Rule &r) {
  auto grad = [&](unsigned i) {
    return i < r.grads.size() ? r.grads[i] : Value();
  };
  if (auto eig = dyn_cast<LinalgEigOp>(r.op))
    return eigRule(r, eig.getEigenvalues(), eig.getEigenvectors(), grad(0),
                   grad(1));
  if (isa<LinalgEigvalsOp>(r.op)) {
    if (!r.grad || !r.active(r.op->getOperand(0)))
      return success();
    Operation *again = r.makeOp<LinalgEigOp>(r.op->getOperand(0), {});
    if (!again)
      return success();
    return eigRule(r, again->getResult(0), again->getResult(1), r.grad,
                   Value());
  }
  return std::nullopt;
}
