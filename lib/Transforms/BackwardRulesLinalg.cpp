//===- BackwardRulesLinalg.cpp - Rules of the linear algebra ops ----------===//
//
// The backward of the inverses, solvers and factorizations on real matrix
// batches, as PyTorch's FunctionsManual gives them, written with the
// dialect's own matrix ops (matmul, triangular_solve, linalg_solve,
// cholesky_solve, lu_solve) and triangle masks. A factorization's several
// results each bring their gradient (Rule::gradOf). Inputs a LAPACK routine
// reads only one triangle of (a Cholesky factor, the packed LU) get
// gradients in that triangle only, the derivative of what is computed;
// symmetric inputs (cholesky, eigh) get the symmetric gradient PyTorch
// gives.
//
//===----------------------------------------------------------------------===//

#include "BackwardRule.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
/// The matrix helpers of the rules: each returns null on a null operand.
struct Matrices {
  Rule &r;

  Value mm(Value x, Value y) { return r.make<MatmulOp>({x, y}); }
  Value t(Value x) { return r.transposeLast(x); }
  /// The n x n identity in x's element type.
  Value identity(Value like, int64_t n) {
    SmallVector<double> values(n * n, 0.0);
    for (int64_t i = 0; i < n; ++i)
      values[i * n + i] = 1.0;
    return r.constant({n, n}, elementTypeOf(like), values);
  }
  /// `x` with the entries outside a triangle zeroed: lower keeps j - i <=
  /// diag, upper keeps j - i >= diag.
  Value triangle(Value x, bool lower, int64_t diag) {
    if (!x)
      return {};
    ArrayRef<int64_t> s = shapeOf(x);
    int64_t m = s[s.size() - 2], n = s.back();
    SmallVector<double> values;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        values.push_back((lower ? j - i <= diag : j - i >= diag) ? 1.0 : 0.0);
    return r.mul(x, r.constant({m, n}, elementTypeOf(x), values));
  }
  /// The batch of diagonal matrices of the vectors `v` (..., k).
  Value diagEmbed(Value v) {
    if (!v)
      return {};
    SmallVector<int64_t> column(shapeOf(v));
    int64_t k = column.back();
    column.push_back(1);
    return r.mul(r.reshape(v, column), identity(v, k));
  }
  /// `v` (..., k) times each column: x * v.unsqueeze(-2).
  Value scaleColumns(Value x, Value v) {
    if (!v)
      return {};
    SmallVector<int64_t> row(shapeOf(v));
    row.insert(row.end() - 1, 1);
    return r.mul(x, r.reshape(v, row));
  }
  /// `v` (..., k) times each row: x * v.unsqueeze(-1).
  Value scaleRows(Value x, Value v) {
    if (!v)
      return {};
    SmallVector<int64_t> column(shapeOf(v));
    column.push_back(1);
    return r.mul(x, r.reshape(v, column));
  }
  /// op(a)^-1 b for the triangle of `a` (tp.triangular_solve).
  Value solveTri(Value b, Value a, bool upper, bool transpose,
                 bool unit = false) {
    Operation *solve = r.makeOp<TriangularSolveOp>(
        {b, a}, {r.attr("upper", r.b.builder.getBoolAttr(upper)),
                 r.attr("transpose", r.b.builder.getBoolAttr(transpose)),
                 r.attr("unitriangular", r.b.builder.getBoolAttr(unit))});
    return solve ? solve->getResult(0) : Value();
  }
  /// b op(a)^-1: (op(a)^-T b^T)^T.
  Value solveTriRight(Value b, Value a, bool upper, bool transpose,
                      bool unit = false) {
    return t(solveTri(t(b), a, upper, !transpose, unit));
  }
  /// x - x^T.
  Value skew(Value x) { return r.sub(x, t(x)); }
  /// e with e_ij = v_j - v_i off the diagonal and 1 on it (the divisor
  /// of the eigenvector and singular-vector terms).
  Value gapsOf(Value v) {
    if (!v)
      return {};
    SmallVector<int64_t> row(shapeOf(v)), column(shapeOf(v));
    row.insert(row.end() - 1, 1);
    column.push_back(1);
    Value e = r.sub(r.reshape(v, row), r.reshape(v, column));
    return r.add(e, identity(v, shapeOf(v).back()));
  }
};

Value gradOf(Rule &r, unsigned i) {
  return i < r.grads.size() ? r.grads[i] : Value();
}

bool anyGrad(Rule &r, ArrayRef<unsigned> results) {
  return llvm::any_of(results, [&](unsigned i) { return gradOf(r, i); });
}

/// Refuses a gradient through results a rule does not differentiate.
LogicalResult refuseGrads(Rule &r, ArrayRef<unsigned> results, StringRef why) {
  for (unsigned i : results)
    if (gradOf(r, i))
      return r.op->emitOpError("tp-autodiff: the gradient through result #")
             << i << " of '" << r.op->getName() << "' is not implemented ("
             << why << ")";
  return success();
}

// inverse, linalg_inv, linalg_inv_ex: dA = -Y^T g Y^T.
LogicalResult inverseRule(Rule &r) {
  Matrices m{r};
  Value y = r.op->getResult(0), g = gradOf(r, 0);
  if (g)
    r.give(r.op->getOperand(0), r.neg(m.mm(m.mm(m.t(y), g), m.t(y))));
  return success();
}

/// The right-hand side and solution of a linalg_solve as matrices: a
/// vector right-hand side (..., n) gets a trailing unit dim.
bool isVectorSolve(Value a, Value b) {
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
  return bs.size() == 1 ||
         (bs.size() == as.size() - 1 && bs.drop_back() == as.drop_back(2));
}

Value asColumn(Rule &r, Value v) {
  if (!v)
    return {};
  SmallVector<int64_t> shape(shapeOf(v));
  shape.push_back(1);
  return r.reshape(v, shape);
}

// linalg_solve: X = A^-1 B (left) or B A^-1. Left: dB = A^-T g, dA = -dB
// X^T; right: dB = g A^-T, dA = -X^T dB.
LogicalResult solveRule(Rule &r, LinalgSolveOp solve) {
  Matrices m{r};
  Value a = solve.getA(), b = solve.getB(), x = solve.getResult(), g = r.grad;
  bool vector = isVectorSolve(a, b);
  if (vector && rankOf(b) == 1 && rankOf(a) > 2)
    return solve.emitOpError("tp-autodiff: the backward of linalg_solve with "
                             "a 1-D right-hand side and a batch of matrices "
                             "is not implemented");
  if (vector) {
    x = asColumn(r, x);
    g = asColumn(r, g);
  }
  bool left = solve.getLeft();
  Value at = m.t(a);
  Operation *gbOp = r.makeOp<LinalgSolveOp>(
      {at, g}, {r.attr("left", r.b.builder.getBoolAttr(left))});
  Value gb = gbOp ? gbOp->getResult(0) : Value();
  if (r.active(a))
    r.give(a, r.neg(left ? m.mm(gb, m.t(x)) : m.mm(m.t(x), gb)));
  if (r.active(b))
    r.give(b, vector && gb ? r.reshape(gb, shapeOf(b)) : gb);
  return success();
}

// triangular_solve(b, A): X = op(A)^-1 b. db = op(A)^-T g; dop(A) = -db
// X^T, transposed back for `transpose`, in A's triangle (without the
// diagonal when unit); the cloned coefficient passes its gradient to A.
LogicalResult triangularSolveRule(Rule &r, TriangularSolveOp solve) {
  Matrices m{r};
  bool upper = solve.getUpper(), transpose = solve.getTranspose(),
       unit = solve.getUnitriangular();
  Value b = solve.getInput(), a = solve.getA();
  if (Value g = gradOf(r, 0)) {
    Value gb = m.solveTri(g, a, upper, !transpose, unit);
    r.give(b, gb);
    if (r.active(a)) {
      Value gm = r.neg(m.mm(gb, m.t(solve.getSolution())));
      Value ga = transpose ? m.t(gm) : gm;
      r.give(a,
             m.triangle(ga, !upper, upper ? (unit ? 1 : 0) : (unit ? -1 : 0)));
    }
  }
  if (Value gc = gradOf(r, 1))
    r.give(a, gc);
  return success();
}

// linalg_cholesky(_ex): with L the lower factor (U^T for upper), P =
// tril(L^T gL), dA = L^-T (P + tril(P, -1)^T) / 2 L^-1 (symmetric).
LogicalResult choleskyRule(Rule &r, Value factor, bool upper) {
  Matrices m{r};
  Value g = gradOf(r, 0);
  if (!g)
    return success();
  Value l = upper ? m.t(factor) : factor;
  Value gl = upper ? m.t(g) : g;
  Value p = m.triangle(m.mm(m.t(l), gl), /*lower=*/true, 0);
  Value s = r.scale(r.add(p, m.t(m.triangle(p, true, -1))), 0.5);
  Value left = m.solveTri(s, l, /*upper=*/false, /*transpose=*/true);
  r.give(r.op->getOperand(0),
         m.solveTriRight(left, l, /*upper=*/false, /*transpose=*/false));
  return success();
}

/// The gradient of a Cholesky factor `l` (upper: U) from that of A = L L^T
/// (U^T U) taken as `sym` = G + G^T: -sym L (-U sym), in its triangle.
Value factorGradient(Matrices &m, Value sym, Value l, bool upper) {
  // The routines read the factor's triangle only.
  l = m.triangle(l, !upper, 0);
  Value gl = m.r.neg(upper ? m.mm(l, sym) : m.mm(sym, l));
  return m.triangle(gl, !upper, 0);
}

// cholesky_solve(B, L): X = A^-1 B, A = L L^T. dB = cholesky_solve(g, L);
// dA = -dB X^T, reaching L as above.
LogicalResult choleskySolveRule(Rule &r, CholeskySolveOp solve) {
  Matrices m{r};
  bool upper = solve.getUpper();
  Value b = solve.getInput(), l = solve.getInput2(), g = r.grad;
  Value gb = r.make<CholeskySolveOp>(
      {g, l}, {r.attr("upper", r.b.builder.getBoolAttr(upper))});
  r.give(b, gb);
  if (r.active(l)) {
    Value c = m.mm(gb, m.t(solve.getResult()));
    r.give(l, factorGradient(m, r.add(c, m.t(c)), l, upper));
  }
  return success();
}

// cholesky_inverse(L): Y = (L L^T)^-1; dA = -Y g Y, reaching L as above.
LogicalResult choleskyInverseRule(Rule &r, CholeskyInverseOp inv) {
  Matrices m{r};
  Value y = inv.getResult(), g = r.grad;
  Value sym = m.mm(m.mm(y, r.add(g, m.t(g))), y);
  r.give(inv.getInput(),
         factorGradient(m, sym, inv.getInput(), inv.getUpper()));
  return success();
}

// linalg_eigh (and eigvalsh, from a recomputed decomposition): dA = Q (diag
// gL + skew(Q^T gQ) / 2 / E) Q^T with E_ij = L_j - L_i.
LogicalResult eighRule(Rule &r, Value values, Value vectors, Value gValues,
                       Value gVectors) {
  Matrices m{r};
  if (!gValues && !gVectors)
    return success();
  Value inner;
  if (gVectors)
    inner = r.div(r.scale(m.skew(m.mm(m.t(vectors), gVectors)), 0.5),
                  m.gapsOf(values));
  if (gValues) {
    Value d = m.diagEmbed(gValues);
    inner = inner ? r.add(inner, d) : d;
  }
  r.give(r.op->getOperand(0), m.mm(m.mm(vectors, inner), m.t(vectors)));
  return success();
}

/// Recomputes a factorization of the forward's input in the backward.
Operation *recompute(Rule &r, StringRef name, ArrayRef<NamedAttribute> attrs) {
  return r.makeNamedOp(name, r.op->getOperand(0), attrs);
}

// The SVD A = U diag(S) Vh (k = min(m, n) columns of U and rows of Vh):
// PyTorch's svd_backward.
LogicalResult svdRule(Rule &r, Value u, Value s, Value vh, Value gU, Value gS,
                      Value gVh) {
  Matrices m{r};
  ArrayRef<int64_t> as = shapeOf(r.op->getOperand(0));
  int64_t rows = as[as.size() - 2], cols = as.back();
  int64_t k = shapeOf(s).back();
  int64_t rank = static_cast<int64_t>(as.size());
  // Full matrices: only the first k singular vectors carry a gradient.
  u = r.sliceAlong(u, rank - 1, 0, k);
  vh = r.sliceAlong(vh, rank - 2, 0, k);
  gU = gU ? r.sliceAlong(gU, rank - 1, 0, k) : gU;
  gVh = gVh ? r.sliceAlong(gVh, rank - 2, 0, k) : gVh;
  Value ga;
  if (!gU && !gVh) {
    ga = rows >= cols ? m.mm(u, m.scaleRows(vh, gS))
                      : m.mm(m.scaleColumns(u, gS), vh);
    r.give(r.op->getOperand(0), ga);
    return success();
  }
  Value v = m.t(vh), gV = gVh ? m.t(gVh) : Value();
  Value e = m.gapsOf(r.mul(s, s));
  Value uhgu = gU ? m.skew(m.mm(m.t(u), gU)) : Value();
  Value vhgv = gV ? m.skew(m.mm(vh, gV)) : Value();
  if (uhgu && vhgv)
    ga = r.div(r.add(m.scaleColumns(uhgu, s), m.scaleRows(vhgv, s)), e);
  else if (uhgu)
    ga = m.scaleColumns(r.div(uhgu, e), s);
  else
    ga = m.scaleRows(r.div(vhgv, e), s);
  if (gS)
    ga = r.add(ga, m.diagEmbed(gS));
  if (rows > cols && gU) {
    // [U gA + (I - U U^T) gU S^-1] Vh
    ga = m.mm(u, ga);
    Value gus = m.scaleColumns(gU, r.div(r.scalar(s, 1.0), s));
    ga = r.add(ga, r.sub(gus, m.mm(u, m.mm(m.t(u), gus))));
    ga = m.mm(ga, vh);
  } else if (rows < cols && gV) {
    // U [gA Vh + S^-1 gVh (I - V Vh)]
    ga = m.mm(ga, vh);
    Value sgvh = m.scaleRows(gVh, r.div(r.scalar(s, 1.0), s));
    ga = r.add(ga, r.sub(sgvh, m.mm(m.mm(sgvh, v), vh)));
    ga = m.mm(u, ga);
  } else {
    ga = m.mm(u, m.mm(ga, vh));
  }
  r.give(r.op->getOperand(0), ga);
  return success();
}

/// The gradient of A = Q R (Q m x n, R n x n upper, m >= n): M = R gR^T -
/// gQ^T Q, dA = (gQ + Q copyltu(M)) R^-T, copyltu the lower triangle
/// mirrored to the upper.
Value qrTallGradient(Matrices &m, Value q, Value rr, Value gQ, Value gR) {
  Rule &r = m.r;
  Value mm;
  if (gR)
    mm = m.mm(rr, m.t(gR));
  if (gQ) {
    Value qq = m.mm(m.t(gQ), q);
    mm = mm ? r.sub(mm, qq) : r.neg(qq);
  }
  Value sym = r.add(m.triangle(mm, true, 0), m.t(m.triangle(mm, true, -1)));
  Value left = m.mm(q, sym);
  if (gQ)
    left = r.add(left, gQ);
  return m.solveTriRight(left, rr, /*upper=*/true, /*transpose=*/true);
}

// linalg_qr: reduced (or complete with m <= n) from the tall formula; a
// wide A = Q [R1 R2] differentiates X = Q R1 with gQ + Y gR2^T and gives Y
// = A[:, m:] the gradient Q gR2. mode 'r' recomputes Q.
LogicalResult qrRule(Rule &r, LinalgQrOp qr) {
  Matrices m{r};
  Value gQ = gradOf(r, 0), gR = gradOf(r, 1);
  if (!gQ && !gR)
    return success();
  Value a = qr.getInput();
  ArrayRef<int64_t> as = shapeOf(a);
  int64_t rank = static_cast<int64_t>(as.size());
  int64_t rows = as[rank - 2], cols = as[rank - 1];
  StringRef mode = qr.getMode();
  if (mode == "complete" && rows > cols)
    return qr.emitOpError("tp-autodiff: the backward of linalg_qr with "
                          "mode='complete' and more rows than columns is not "
                          "defined (the extra columns of Q are arbitrary; "
                          "PyTorch refuses it too); use mode='reduced'");
  Value q = qr.getQ(), rr = qr.getR();
  if (mode == "r") {
    Operation *again =
        recompute(r, LinalgQrOp::getOperationName(),
                  {r.attr("mode", r.b.builder.getStringAttr("reduced"))});
    if (!again)
      return success();
    q = again->getResult(0);
    gQ = Value();
  }
  if (rows >= cols) {
    r.give(a, qrTallGradient(m, q, rr, gQ, gR));
    return success();
  }
  Value r1 = r.sliceAlong(rr, rank - 1, 0, rows);
  Value gR1 = gR ? r.sliceAlong(gR, rank - 1, 0, rows) : Value();
  Value gR2 = gR ? r.sliceAlong(gR, rank - 1, rows, cols - rows) : Value();
  Value y = r.sliceAlong(a, rank - 1, rows, cols - rows);
  Value gQx = gQ;
  if (gR2) {
    Value extra = m.mm(y, m.t(gR2));
    gQx = gQx ? r.add(gQx, extra) : extra;
  }
  Value gx = qrTallGradient(m, q, r1, gQx, gR1);
  Value gy = gR2 ? m.mm(q, gR2) : r.mul(y, r.scalar(y, 0.0));
  r.give(a, r.cat({gx, gy}, rank - 1));
  return success();
}

/// P (the permutation of pivots, with A = P L U) applied to `x`: P^T is
/// lu_solve(I, I, pivots), the solve with unit factors.
Value permuteRows(Matrices &m, Value x, Value pivots) {
  Rule &r = m.r;
  if (!x)
    return {};
  int64_t n = shapeOf(x)[rankOf(x) - 2];
  SmallVector<int64_t> batch(shapeOf(pivots).drop_back());
  // A tall factorization has k < n pivots: the rows after them stay.
  int64_t k = shapeOf(pivots).back();
  if (k < n) {
    SmallVector<double> rest;
    for (int64_t i = k; i < n; ++i)
      rest.push_back(static_cast<double>(i + 1)); // LAPACK's 1-based rows
    SmallVector<int64_t> restShape(batch);
    restShape.push_back(n - k);
    Value stay =
        r.expand(r.constant({n - k}, elementTypeOf(pivots), rest), restShape);
    pivots = r.cat({pivots, stay}, rankOf(pivots) - 1);
  }
  batch.append({n, n});
  Value eye = r.expand(m.identity(x, n), batch);
  Value pt = r.make<LuSolveOp>({eye, eye, pivots});
  return m.mm(m.t(pt), x);
}

/// The gradient of square A = P L U from gL (strictly lower) and gU
/// (upper): P L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T, with L and U
/// read from the packed `lu`.
Value luSquareGradient(Matrices &m, Value lu, Value l, Value u, Value gL,
                       Value gU) {
  Rule &r = m.r;
  Value inner;
  if (gL)
    inner = m.triangle(m.mm(m.t(l), gL), true, -1);
  if (gU) {
    Value up = m.triangle(m.mm(gU, m.t(u)), false, 0);
    inner = inner ? r.add(inner, up) : up;
  }
  inner = m.solveTriRight(inner, lu, /*upper=*/true, /*transpose=*/true);
  return m.solveTri(inner, lu, /*upper=*/false, /*transpose=*/true,
                    /*unit=*/true);
}

// lu_with_info: the packed LU's gradient split into gL (strictly lower) and
// gU (upper). Wide A = P L [U1 U2]: U2 = L^-1 P^T A2 adds -L^-T gU2 U2^T
// to gL; tall P^T A = [L1; L2] U: L2 = B2 U^-1 adds -L2^T gL2 U^-T to gU.
LogicalResult luRule(Rule &r, LuWithInfoOp lu) {
  Matrices m{r};
  Value g = gradOf(r, 0);
  if (!g)
    return success();
  Value packed = lu.getLU(), pivots = lu.getPivots();
  ArrayRef<int64_t> as = shapeOf(packed);
  int64_t rank = static_cast<int64_t>(as.size());
  int64_t rows = as[rank - 2], cols = as[rank - 1], k = std::min(rows, cols);
  Value gL = m.triangle(g, true, -1), gU = m.triangle(g, false, 0);
  // The square k x k factors.
  Value lu1 =
      r.sliceAlong(r.sliceAlong(packed, rank - 2, 0, k), rank - 1, 0, k);
  Value l1 = r.add(m.triangle(lu1, true, -1), m.identity(lu1, k));
  Value u1 = m.triangle(lu1, false, 0);
  Value gL1 = r.sliceAlong(r.sliceAlong(gL, rank - 2, 0, k), rank - 1, 0, k);
  Value gU1 = r.sliceAlong(r.sliceAlong(gU, rank - 2, 0, k), rank - 1, 0, k);
  Value ga;
  if (rows == cols) {
    ga = luSquareGradient(m, lu1, l1, u1, gL1, gU1);
  } else if (rows < cols) {
    Value u2 = r.sliceAlong(packed, rank - 1, k, cols - k);
    Value gU2 = r.sliceAlong(gU, rank - 1, k, cols - k);
    Value lgu2 = m.solveTri(gU2, lu1, false, /*transpose=*/true, true);
    gL1 = r.sub(gL1, m.triangle(m.mm(lgu2, m.t(u2)), true, -1));
    ga = r.cat({luSquareGradient(m, lu1, l1, u1, gL1, gU1), lgu2}, rank - 1);
  } else {
    Value l2 = r.sliceAlong(packed, rank - 2, k, rows - k);
    Value gL2 = r.sliceAlong(gL, rank - 2, k, rows - k);
    Value gb2 = m.solveTriRight(gL2, lu1, /*upper=*/true, /*transpose=*/true);
    gU1 = r.sub(gU1, m.triangle(m.mm(m.t(l2), gb2), false, 0));
    ga = r.cat({luSquareGradient(m, lu1, l1, u1, gL1, gU1), gb2}, rank - 2);
  }
  if (lu.getPivot())
    ga = permuteRows(m, ga, pivots);
  r.give(lu.getInput(), ga);
  return success();
}

// lu_solve(B, LU, pivots): X = U^-1 L^-1 P^T B. dB = P L^-T U^-T g; with
// gR = -U^-T g X^T, dLU = tril(L^-T gR U^T, -1) + triu(gR).
LogicalResult luSolveRule(Rule &r, LuSolveOp solve) {
  Matrices m{r};
  Value b = solve.getInput(), lu = solve.getLUData(),
        pivots = solve.getLUPivots(), g = r.grad;
  if (r.active(b)) {
    Value z = m.solveTri(g, lu, /*upper=*/true, /*transpose=*/true);
    z = m.solveTri(z, lu, /*upper=*/false, /*transpose=*/true, /*unit=*/true);
    r.give(b, permuteRows(m, z, pivots));
  }
  if (r.active(lu)) {
    Value gr = r.neg(m.solveTri(m.mm(g, m.t(solve.getResult())), lu,
                                /*upper=*/true, /*transpose=*/true));
    Value u = m.triangle(lu, false, 0);
    Value gl = m.solveTri(m.mm(gr, m.t(u)), lu, /*upper=*/false,
                          /*transpose=*/true, /*unit=*/true);
    r.give(lu, r.add(m.triangle(gl, true, -1), m.triangle(gr, false, 0)));
  }
  return success();
}

/// PyTorch's pinv_backward: the gradient of A from that (`g`) of its
/// pseudo-inverse `p`.
Value pinvGradient(Matrices &m, Value g, Value p, Value a) {
  Rule &r = m.r;
  ArrayRef<int64_t> as = shapeOf(a);
  int64_t rows = as[as.size() - 2], cols = as.back();
  Value ph = m.t(p), gh = m.t(g);
  if (rows <= cols) {
    Value k = m.mm(gh, p);
    Value kph = m.mm(k, ph);
    Value out = r.add(r.neg(m.t(m.mm(p, k))), kph);
    out = r.sub(out, m.mm(m.mm(a, p), kph));
    return r.add(out, m.mm(m.mm(ph, p), r.sub(gh, m.mm(k, a))));
  }
  Value k = m.mm(p, gh);
  Value phk = m.mm(ph, k);
  Value out = r.neg(m.t(m.mm(k, p)));
  out = r.add(out, m.mm(m.mm(r.sub(gh, m.mm(a, k)), p), ph));
  out = r.add(out, phk);
  return r.sub(out, m.mm(m.mm(phk, p), a));
}

// linalg_lstsq: X = pinv(A) B. dA = pinv_backward(g B^T), dB = pinv(A)^T g
// (PyTorch's rule, exact for full-rank A).
LogicalResult lstsqRule(Rule &r, LinalgLstsqOp lstsq) {
  Matrices m{r};
  if (failed(refuseGrads(r, {1, 3},
                         "PyTorch does not differentiate linalg_lstsq's "
                         "residuals and singular values either")))
    return failure();
  Value g = gradOf(r, 0);
  if (!g)
    return success();
  Value a = lstsq.getInput(), b = lstsq.getOther();
  bool vector = isVectorSolve(a, b);
  Value b2 = vector ? asColumn(r, b) : b;
  Value g2 = vector ? asColumn(r, g) : g;
  Value p = r.make<PinverseOp>(a);
  if (r.active(a))
    r.give(a, pinvGradient(m, m.mm(g2, m.t(b2)), p, a));
  if (r.active(b)) {
    Value gb = m.mm(m.t(p), g2);
    r.give(b, vector && gb ? r.reshape(gb, shapeOf(b)) : gb);
  }
  return success();
}

NamedAttribute reducedSvd(Rule &r) {
  return r.attr("full_matrices", r.b.builder.getBoolAttr(false));
}
} // namespace

std::optional<LogicalResult> mlir::tp::applyLinalgRule(Rule &r) {
  Operation *op = r.op;
  if (std::optional<LogicalResult> eig = applyEigRule(r))
    return eig;
  if (isa<InverseOp, LinalgInvOp, LinalgInvExOp>(op))
    return inverseRule(r);
  if (auto solve = dyn_cast<LinalgSolveOp>(op))
    return r.grad ? solveRule(r, solve) : success();
  if (auto solve = dyn_cast<TriangularSolveOp>(op))
    return triangularSolveRule(r, solve);
  if (auto chol = dyn_cast<LinalgCholeskyOp>(op))
    return choleskyRule(r, chol.getResult(), chol.getUpper());
  if (auto chol = dyn_cast<LinalgCholeskyExOp>(op))
    return choleskyRule(r, chol.getL(), chol.getUpper());
  if (auto solve = dyn_cast<CholeskySolveOp>(op))
    return r.grad ? choleskySolveRule(r, solve) : success();
  if (auto inv = dyn_cast<CholeskyInverseOp>(op))
    return r.grad ? choleskyInverseRule(r, inv) : success();
  if (auto eigh = dyn_cast<LinalgEighOp>(op))
    return eighRule(r, eigh.getEigenvalues(), eigh.getEigenvectors(),
                    gradOf(r, 0), gradOf(r, 1));
  if (auto eigvalsh = dyn_cast<LinalgEigvalshOp>(op)) {
    if (!r.grad)
      return success();
    Operation *again = recompute(r, LinalgEighOp::getOperationName(),
                                 {r.attr("UPLO", eigvalsh.getUPLOAttr())});
    if (!again)
      return success();
    return eighRule(r, again->getResult(0), again->getResult(1), r.grad,
                    Value());
  }
  if (auto svd = dyn_cast<LinalgSvdOp>(op)) {
    if (!anyGrad(r, {0, 1, 2}))
      return success();
    return svdRule(r, svd.getU(), svd.getS(), svd.getVh(), gradOf(r, 0),
                   gradOf(r, 1), gradOf(r, 2));
  }
  if (auto svd = dyn_cast<SvdOp>(op)) {
    if (!anyGrad(r, {0, 1, 2}))
      return success();
    if (!svd.getComputeUv()) {
      // U and V are zeros: only S is differentiated, from a recomputed SVD.
      if (failed(refuseGrads(r, {0, 2},
                             "compute_uv = false returns zeros for U and V")))
        return failure();
      Operation *again =
          recompute(r, LinalgSvdOp::getOperationName(), reducedSvd(r));
      if (!again)
        return success();
      return svdRule(r, again->getResult(0), again->getResult(1),
                     again->getResult(2), Value(), gradOf(r, 1), Value());
    }
    Value gV = gradOf(r, 2);
    return svdRule(r, svd.getU(), svd.getS(), r.transposeLast(svd.getV()),
                   gradOf(r, 0), gradOf(r, 1),
                   gV ? r.transposeLast(gV) : Value());
  }
  if (isa<LinalgSvdvalsOp>(op)) {
    if (!r.grad)
      return success();
    Operation *again =
        recompute(r, LinalgSvdOp::getOperationName(), reducedSvd(r));
    if (!again)
      return success();
    return svdRule(r, again->getResult(0), again->getResult(1),
                   again->getResult(2), Value(), r.grad, Value());
  }
  if (auto qr = dyn_cast<LinalgQrOp>(op))
    return qrRule(r, qr);
  if (auto lu = dyn_cast<LuWithInfoOp>(op))
    return luRule(r, lu);
  if (auto solve = dyn_cast<LuSolveOp>(op))
    return r.grad ? luSolveRule(r, solve) : success();
  if (auto lstsq = dyn_cast<LinalgLstsqOp>(op))
    return lstsqRule(r, lstsq);
  if (isa<GeqrfOp>(op))
    return op->emitOpError("tp-autodiff: geqrf has no derivative (none in "
                           "tensorplay either); differentiate linalg_qr "
                           "instead");
  // Differentiated in their decomposed form (DecomposeHouseholder.cpp),
  // which takes real matrices of static shape.
  if (isa<OrgqrOp, OrmqrOp, LinalgHouseholderProductOp>(op))
    return op->emitOpError("tp-autodiff: '")
           << op->getName()
           << "' is differentiated for f32 and f64 operands of one element "
              "type and static shapes only, got "
           << op->getOperandTypes();
  return std::nullopt;
}
