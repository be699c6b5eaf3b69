"""gradcheck.py's cases for the linear algebra rules (BackwardRulesLinalg):
inverses, solvers and factorizations of f64 matrix batches, each loss a
weighted sum of the results. Inputs are made well conditioned inside the
program (A + 3I, X X^T + 3I, X + X^T) so that every argument entry is
free; losses of singular vectors and eigenvectors use their squares (the
complex eigenvectors of linalg_eig their magnitudes), which
do not depend on the vectors' signs."""

import numpy as np


def cases(g):
    """The cases, built with gradcheck.py's module `g` (Case, t, weighted)."""
    t = g.t
    C = "complex<f64>"

    def types(shapes):
        return ", ".join(t(s) if not isinstance(s, tuple) or
                         not s or not isinstance(s[-1], str) else
                         t(s[0], s[1]) for s in shapes)

    def op(results, name, operands, shapes, outs, attrs=""):
        """`%r0, %r1 = tp.<name> %x, %y {attrs} : (..) -> (..)`."""
        res = ", ".join("%" + r for r in results)
        outs_text = types(outs)
        if len(outs) > 1:
            outs_text = "(%s)" % outs_text
        return "%s = tp.%s %s%s : (%s) -> %s" % (
            res, name, ", ".join("%" + o for o in operands),
            " {%s}" % attrs if attrs else "", types(shapes), outs_text)

    def eye(name, n, scale, batch=()):
        m = np.eye(n) * scale
        text = np.array2string(m, separator=", ", max_line_width=10**6)
        return ["%%%s = tp.constant dense<%s> : %s" % (name, text, t((n, n)))]

    def shifted(name, x, shape, scale=3.0):
        """%name = %x + scale I (the identity broadcast over the batch)."""
        n = shape[-1]
        return eye(name + "_i", n, scale) + [
            op([name], "add", [x, name + "_i"], [shape, (n, n)], [shape])]

    def gram(name, x, shape):
        """%name = %x %x^T + 3 I: symmetric positive definite."""
        r = len(shape)
        st = shape[:-2] + (shape[-1], shape[-2])
        sq = shape[:-1] + (shape[-2],)
        return [op([name + "_t"], "transpose", [x], [shape], [st],
                   "dim0 = %d : i64, dim1 = %d : i64" % (r - 2, r - 1)),
                op([name + "_g"], "matmul", [x, name + "_t"], [shape, st],
                   [sq])] + shifted(name, name + "_g", sq)

    def symmetric(name, x, shape):
        r = len(shape)
        return [op([name + "_t"], "transpose", [x], [shape], [shape],
                   "dim0 = %d : i64, dim1 = %d : i64" % (r - 2, r - 1)),
                op([name], "add", [x, name + "_t"], [shape, shape], [shape])]

    def square(name, x, shape):
        return [op([name], "mul", [x, x], [shape, shape], [shape])]

    return [
        # inverse, linalg_inv, linalg_inv_ex of a batch.
        g.Case("linalg_inverses", [(2, 3, 3), (3, 3)],
               shifted("m", "a0", (2, 3, 3)) + shifted("n", "a1", (3, 3)) + [
                   op(["i1"], "linalg_inv", ["m"], [(2, 3, 3)], [(2, 3, 3)]),
                   op(["i2"], "inverse", ["n"], [(3, 3)], [(3, 3)]),
                   op(["i3", "info"], "linalg_inv_ex", ["m"], [(2, 3, 3)],
                      [(2, 3, 3), ((2,), "i32")])] +
               g.weighted([("i1", (2, 3, 3)), ("i2", (3, 3)),
                           ("i3", (2, 3, 3))], 31)),
        # linalg_solve: left, right, a batched vector right-hand side and a
        # right-hand side broadcast over the batch.
        g.Case("linalg_solves", [(2, 3, 3), (2, 3, 2), (2, 2, 3), (2, 3),
                                 (3, 2)],
               shifted("m", "a0", (2, 3, 3)) + [
                   op(["x1"], "linalg_solve", ["m", "a1"],
                      [(2, 3, 3), (2, 3, 2)], [(2, 3, 2)]),
                   op(["x2"], "linalg_solve", ["m", "a2"],
                      [(2, 3, 3), (2, 2, 3)], [(2, 2, 3)], "left = false"),
                   op(["x3"], "linalg_solve", ["m", "a3"],
                      [(2, 3, 3), (2, 3)], [(2, 3)]),
                   op(["x4"], "linalg_solve", ["m", "a4"],
                      [(2, 3, 3), (3, 2)], [(2, 3, 2)])] +
               g.weighted([("x1", (2, 3, 2)), ("x2", (2, 2, 3)),
                           ("x3", (2, 3)), ("x4", (2, 3, 2))], 32)),
        # triangular_solve in its four forms; the coefficient's untouched
        # triangle gets no gradient, the cloned coefficient passes its own.
        g.Case("triangular_solves", [(3, 2), (3, 3), (2, 3, 2)],
               shifted("m", "a1", (3, 3)) + [
                   op(["x1", "c1"], "triangular_solve", ["a0", "m"],
                      [(3, 2), (3, 3)], [(3, 2), (3, 3)]),
                   op(["x2", "c2"], "triangular_solve", ["a0", "m"],
                      [(3, 2), (3, 3)], [(3, 2), (3, 3)],
                      "upper = false, transpose = true"),
                   op(["x3", "c3"], "triangular_solve", ["a2", "m"],
                      [(2, 3, 2), (3, 3)], [(2, 3, 2), (2, 3, 3)],
                      "upper = false, unitriangular = true"),
                   op(["x4", "c4"], "triangular_solve", ["a0", "m"],
                      [(3, 2), (3, 3)], [(3, 2), (3, 3)],
                      "transpose = true, unitriangular = true")] +
               g.weighted([("x1", (3, 2)), ("x2", (3, 2)), ("x3", (2, 3, 2)),
                           ("x4", (3, 2)), ("c2", (3, 3))], 33)),
        # The Cholesky family: the factor (lower, upper, _ex) of a Gram
        # matrix, solves and inverses with it and with a free factor whose
        # other triangle the routines never read.
        g.Case("cholesky_family", [(2, 3, 3), (3, 2), (3, 3)],
               gram("s", "a0", (2, 3, 3)) + shifted("f", "a2", (3, 3)) + [
                   op(["l"], "linalg_cholesky", ["s"], [(2, 3, 3)],
                      [(2, 3, 3)]),
                   op(["u"], "linalg_cholesky", ["s"], [(2, 3, 3)],
                      [(2, 3, 3)], "upper = true"),
                   op(["le", "info"], "linalg_cholesky_ex", ["s"],
                      [(2, 3, 3)], [(2, 3, 3), ((2,), "i32")]),
                   op(["y1"], "cholesky_solve", ["a1", "l"],
                      [(3, 2), (2, 3, 3)], [(2, 3, 2)]),
                   op(["y2"], "cholesky_solve", ["a1", "f"],
                      [(3, 2), (3, 3)], [(3, 2)], "upper = true"),
                   op(["y3"], "cholesky_inverse", ["f"], [(3, 3)], [(3, 3)]),
                   op(["y4"], "cholesky_inverse", ["u"], [(2, 3, 3)],
                      [(2, 3, 3)], "upper = true")] +
               g.weighted([("l", (2, 3, 3)), ("u", (2, 3, 3)),
                           ("le", (2, 3, 3)), ("y1", (2, 3, 2)),
                           ("y2", (3, 2)), ("y3", (3, 3)),
                           ("y4", (2, 3, 3))], 34)),
        # eigh (both triangles), eigvalsh; eigenvectors through their
        # squares.
        g.Case("eigh_family", [(2, 3, 3), (4, 4)],
               symmetric("s", "a0", (2, 3, 3)) +
               symmetric("h", "a1", (4, 4)) + [
                   op(["w", "q"], "linalg_eigh", ["s"], [(2, 3, 3)],
                      [(2, 3), (2, 3, 3)]),
                   op(["wu", "qu"], "linalg_eigh", ["h"], [(4, 4)],
                      [(4,), (4, 4)], 'UPLO = "U"'),
                   op(["wv"], "linalg_eigvalsh", ["h"], [(4, 4)], [(4,)])] +
               square("q2", "q", (2, 3, 3)) + square("qu2", "qu", (4, 4)) +
               g.weighted([("w", (2, 3)), ("q2", (2, 3, 3)), ("wu", (4,)),
                           ("qu2", (4, 4)), ("wv", (4,))], 35)),
        # linalg_eig of a matrix with real eigenvalues and of a batch with
        # a complex pair, eigvals: the eigenvalues' real pairs and the
        # eigenvectors' magnitudes (independent of their phases).
        g.Case("eig_family", [(3, 3), (2, 3, 3), (4, 4)], [
            op(["w1", "v1"], "linalg_eig", ["a0"], [(3, 3)],
               [((3,), C), ((3, 3), C)]),
            op(["w2", "v2"], "linalg_eig", ["a1"], [(2, 3, 3)],
               [((2, 3), C), ((2, 3, 3), C)]),
            op(["e"], "linalg_eigvals", ["a2"], [(4, 4)], [((4,), C)]),
            op(["w1r"], "view_as_real", ["w1"], [((3,), C)], [(3, 2)]),
            op(["w2r"], "view_as_real", ["w2"], [((2, 3), C)], [(2, 3, 2)]),
            op(["er"], "view_as_real", ["e"], [((4,), C)], [(4, 2)]),
            op(["m1"], "abs", ["v1"], [((3, 3), C)], [(3, 3)]),
            op(["m2"], "abs", ["v2"], [((2, 3, 3), C)], [(2, 3, 3)])] +
            g.weighted([("w1r", (3, 2)), ("w2r", (2, 3, 2)), ("er", (4, 2)),
                        ("m1", (3, 3)), ("m2", (2, 3, 3))], 139),
            inputs=lambda rng: [
                np.diag([1.0, 2.5, 4.0]) + rng.uniform(-0.3, 0.3, (3, 3)),
                np.array([[0.0, -2, 0], [2, 0, 0], [0, 0, 1]]) +
                rng.uniform(-0.3, 0.3, (2, 3, 3)),
                np.diag([-1.5, 0.0, 1.5, 3.0]) +
                rng.uniform(-0.5, 0.5, (4, 4))]),
        # linalg_svd (tall, wide; full matrices of a square batch), svd
        # (some; compute_uv = false), svdvals.
        g.Case("svd_family", [(4, 3), (3, 5), (2, 3, 3)], [
            op(["u1", "s1", "v1"], "linalg_svd", ["a0"], [(4, 3)],
               [(4, 3), (3,), (3, 3)], "full_matrices = false"),
            op(["u2", "s2", "v2"], "linalg_svd", ["a1"], [(3, 5)],
               [(3, 3), (3,), (3, 5)], "full_matrices = false"),
            op(["u3", "s3", "v3"], "linalg_svd", ["a2"], [(2, 3, 3)],
               [(2, 3, 3), (2, 3), (2, 3, 3)]),
            op(["u4", "s4", "v4"], "svd", ["a1"], [(3, 5)],
               [(3, 3), (3,), (5, 3)]),
            op(["u5", "s5", "v5"], "svd", ["a0"], [(4, 3)],
               [(4, 4), (3,), (3, 3)], "compute_uv = false"),
            op(["sv"], "linalg_svdvals", ["a2"], [(2, 3, 3)], [(2, 3)])] +
            square("p1", "u1", (4, 3)) + square("p2", "v1", (3, 3)) +
            square("p3", "u2", (3, 3)) + square("p4", "v2", (3, 5)) +
            square("p5", "u3", (2, 3, 3)) + square("p6", "v3", (2, 3, 3)) +
            square("p7", "u4", (3, 3)) + square("p8", "v4", (5, 3)) +
            g.weighted([("s1", (3,)), ("p1", (4, 3)), ("p2", (3, 3)),
                        ("s2", (3,)), ("p3", (3, 3)), ("p4", (3, 5)),
                        ("s3", (2, 3)), ("p5", (2, 3, 3)), ("p6", (2, 3, 3)),
                        ("s4", (3,)), ("p7", (3, 3)), ("p8", (5, 3)),
                        ("s5", (3,)), ("sv", (2, 3))], 36)),
        # linalg_qr: reduced tall, wide, complete square batch, mode r.
        g.Case("qr_family", [(4, 3), (3, 5), (2, 3, 3)], [
            op(["q1", "r1"], "linalg_qr", ["a0"], [(4, 3)],
               [(4, 3), (3, 3)]),
            op(["q2", "r2"], "linalg_qr", ["a1"], [(3, 5)],
               [(3, 3), (3, 5)]),
            op(["q3", "r3"], "linalg_qr", ["a2"], [(2, 3, 3)],
               [(2, 3, 3), (2, 3, 3)], 'mode = "complete"'),
            op(["q4", "r4"], "linalg_qr", ["a0"], [(4, 3)],
               [((0,), "f64"), (3, 3)], 'mode = "r"')] +
            g.weighted([("q1", (4, 3)), ("r1", (3, 3)), ("q2", (3, 3)),
                        ("r2", (3, 5)), ("q3", (2, 3, 3)), ("r3", (2, 3, 3)),
                        ("r4", (3, 3))], 37)),
        # lu_with_info (square batch, wide, tall) and
        # lu_solve with its factors.
        g.Case("lu_family", [(2, 3, 3), (3, 4), (4, 3), (3, 2), (3, 3)],
               shifted("m", "a4", (3, 3)) + [
                   op(["lu1", "p1", "i1"], "lu_with_info", ["a0"],
                      [(2, 3, 3)], [(2, 3, 3), ((2, 3), "i32"),
                                    ((2,), "i32")]),
                   op(["lu2", "p2", "i2"], "lu_with_info", ["a1"], [(3, 4)],
                      [(3, 4), ((3,), "i32"), ((), "i32")]),
                   op(["lu3", "p3", "i3"], "lu_with_info", ["a2"], [(4, 3)],
                      [(4, 3), ((3,), "i32"), ((), "i32")]),
                   op(["lu5", "p5", "i5"], "lu_with_info", ["m"], [(3, 3)],
                      [(3, 3), ((3,), "i32"), ((), "i32")]),
                   op(["x"], "lu_solve", ["a3", "lu5", "p5"],
                      [(3, 2), (3, 3), ((3,), "i32")], [(3, 2)])] +
               g.weighted([("lu1", (2, 3, 3)), ("lu2", (3, 4)),
                           ("lu3", (4, 3)), ("x", (3, 2))],
                          38),
               lambda rng: [rng.uniform(-1, 1, (2, 3, 3)),
                            rng.uniform(-1, 1, (3, 4)),
                            rng.uniform(-1, 1, (4, 3)),
                            rng.uniform(-1, 1, (3, 2)),
                            rng.uniform(-1, 1, (3, 3))]),
        # The ops decomposed into the ones above: pinverse (tall, wide),
        # cond (2-norm, its inverse, 1, inf), tensorinv, tensorsolve.
        g.Case("linalg_derived", [(4, 3), (2, 3, 5), (2, 3, 3), (2, 3, 6),
                                  (2, 3)], [
            op(["p1"], "pinverse", ["a0"], [(4, 3)], [(3, 4)]),
            op(["p2"], "pinverse", ["a1"], [(2, 3, 5)], [(2, 5, 3)])] +
            shifted("m", "a2", (2, 3, 3)) + [
            op(["c1"], "linalg_cond", ["m"], [(2, 3, 3)], [(2,)]),
            op(["c2"], "linalg_cond", ["m"], [(2, 3, 3)], [(2,)],
               "p = -2.0 : f64"),
            op(["c3"], "linalg_cond", ["m"], [(2, 3, 3)], [(2,)],
               "p = 1.0 : f64"),
            op(["c4"], "linalg_cond", ["m"], [(2, 3, 3)], [(2,)],
               "p = 0x7FF0000000000000 : f64"),
            op(["ti"], "linalg_tensorinv", ["a3"], [(2, 3, 6)], [(6, 2, 3)],
               "ind = 2 : i64"),
            op(["ts"], "linalg_tensorsolve", ["a3", "a4"], [(2, 3, 6), (2, 3)],
               [(6,)])] +
            g.weighted([("p1", (3, 4)), ("p2", (2, 5, 3)), ("c1", (2,)),
                        ("c2", (2,)), ("c3", (2,)), ("c4", (2,)),
                        ("ti", (6, 2, 3)), ("ts", (6,))], 40),
            lambda rng: [rng.uniform(-1, 1, (4, 3)),
                         rng.uniform(-1, 1, (2, 3, 5)),
                         rng.uniform(-1, 1, (2, 3, 3)),
                         (rng.uniform(-1, 1, (6, 6)) + 3 * np.eye(6))
                         .reshape(2, 3, 6),
                         rng.uniform(-1, 1, (2, 3))]),
        # linalg_lstsq of a matrix and of a batch (gelsd).
        # The Householder products of any reflectors and scales (their
        # decomposed form): orgqr, householder_product of a batch with
        # fewer reflectors than columns, ormqr on each side, transposed or
        # not, and of a batch.
        g.Case("householder_family", [(4, 3), (3,), (2, 4, 3), (2, 2),
                                      (4, 2), (2, 4), (2, 4, 2)], [
            op(["q1"], "orgqr", ["a0", "a1"], [(4, 3), (3,)], [(4, 3)]),
            op(["q2"], "linalg_householder_product", ["a2", "a3"],
               [(2, 4, 3), (2, 2)], [(2, 4, 3)]),
            op(["m1"], "ormqr", ["a0", "a1", "a4"], [(4, 3), (3,), (4, 2)],
               [(4, 2)]),
            op(["m2"], "ormqr", ["a0", "a1", "a4"], [(4, 3), (3,), (4, 2)],
               [(4, 2)], "transpose = true"),
            op(["m3"], "ormqr", ["a0", "a1", "a5"], [(4, 3), (3,), (2, 4)],
               [(2, 4)], "left = false"),
            op(["m4"], "ormqr", ["a0", "a1", "a5"], [(4, 3), (3,), (2, 4)],
               [(2, 4)], "left = false, transpose = true"),
            op(["m5"], "ormqr", ["a2", "a3", "a6"],
               [(2, 4, 3), (2, 2), (2, 4, 2)], [(2, 4, 2)])] +
            g.weighted([("q1", (4, 3)), ("q2", (2, 4, 3)), ("m1", (4, 2)),
                        ("m2", (4, 2)), ("m3", (2, 4)), ("m4", (2, 4)),
                        ("m5", (2, 4, 2))], 149)),
        g.Case("lstsq", [(5, 3), (5, 2), (2, 4, 3), (2, 4, 1)], [
            op(["x1", "r1", "k1", "s1"], "linalg_lstsq", ["a0", "a1"],
               [(5, 3), (5, 2)], [(3, 2), ((0,), "f64"), ((), "i64"),
                                  ((0,), "f64")]),
            op(["x2", "r2", "k2", "s2"], "linalg_lstsq", ["a2", "a3"],
               [(2, 4, 3), (2, 4, 1)], [(2, 3, 1), ((2, 1), "f64"),
                                        ((2,), "i64"), ((2, 3), "f64")],
               'driver = "gelsd"')] +
            g.weighted([("x1", (3, 2)), ("x2", (2, 3, 1))], 39)),
    ]
