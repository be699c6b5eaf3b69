"""The 'linalg' family of tpcheck.py: the linear-algebra ops the CPU
pipeline computes through LAPACK (inverse, Cholesky, solves, LU, eigh, SVD,
QR), in f32 and f64, against NumPy's float64 linear algebra, a partial-
pivoting LU written here (LAPACK's getrf: the first largest pivot), and,
where a factorization is unique only up to signs (eigenvectors, singular
vectors), checks of its defining properties (orthonormal factors that
reconstruct the input, values against NumPy's)."""

import numpy as np

from tpcheck import RNG, as_input, op_case


def _dtypes(mode):
    """f32 and f64 cases; the bf16 / f16 modes run the same f32 cases (the
    ops have f32 and f64 kernels only; under autocast they run in f32)."""
    return ["f32", "f64"]


def _tol(dt):
    return (2e-4, 2e-4) if dt == "f32" else (1e-10, 1e-10)


def general(shape, dt):
    """Well-conditioned square (or not) matrices: uniform plus a dominant
    diagonal."""
    a = RNG.uniform(-1, 1, size=shape)
    n = min(shape[-2:])
    a[..., range(n), range(n)] += 2.0 * np.sign(a[..., range(n), range(n)] + 1e-3)
    return as_input(a, dt)


def spd(shape, dt):
    """Symmetric positive definite: B B^T + n I, rounded to the dtype and
    symmetrized after rounding."""
    b = RNG.uniform(-1, 1, size=shape)
    a = b @ np.swapaxes(b, -1, -2) + shape[-1] * np.eye(shape[-1])
    x, _ = as_input(a, dt)
    return (((x + np.swapaxes(x, -1, -2)) / 2).astype(x.dtype), dt)


def lu_ref(a):
    """getrf's partial pivoting: at step k the first row (from k) of the
    largest magnitude in column k; pivots 1-based, as LAPACK's."""
    a = np.array(a, dtype=np.float64)
    m, n = a.shape
    piv = np.zeros(min(m, n), dtype=np.int64)
    for k in range(min(m, n)):
        p = k + int(np.argmax(np.abs(a[k:, k])))
        piv[k] = p + 1
        a[[k, p]] = a[[p, k]]
        if a[k, k] != 0:
            a[k + 1:, k] /= a[k, k]
            a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, piv


def lu_product(lu, piv):
    """The matrix whose getrf is (lu, piv): P L U, with the row swaps
    undone in reverse order."""
    n = lu.shape[0]
    a = (np.tril(lu, -1) + np.eye(n)) @ np.triu(lu)
    for k in reversed(range(len(piv))):
        p = int(piv[k]) - 1
        a[[k, p]] = a[[p, k]]
    return a


def householder_q(h, tau):
    """The m x m product H_1 ... H_k of geqrf's reflectors: H_i = I -
    tau_i v v^T with v = (0, .., 0, 1, h[i+1:, i])."""
    m = h.shape[0]
    q = np.eye(m)
    for i in range(len(tau)):
        v = np.zeros(m)
        v[i] = 1.0
        v[i + 1:] = h[i + 1:, i]
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q


def orthonormal_columns(q, k, tol):
    qtq = np.swapaxes(q, -1, -2) @ q
    return np.abs(qtq - np.eye(k)).max() <= tol


def linalg(mode):
    cases = []
    for dt in _dtypes(mode):
        tol = _tol(dt)
        chk = tol[0] * 10
        sfx = "_" + dt

        def case(name, inputs, op, operands, attrs, results, ref, check=None):
            cases.append(op_case(name + sfx, inputs, op, operands, attrs,
                                 [(s, d if d else dt) for s, d in results],
                                 ref, tol, check))

        # --- inverses
        case("inverse", [general((3, 3), dt)], "inverse", "%a0", "",
             [((3, 3), None)], lambda a: [np.linalg.inv(a)])
        case("linalg_inv_batched", [general((2, 4, 4), dt)], "linalg_inv",
             "%a0", "", [((2, 4, 4), None)], lambda a: [np.linalg.inv(a)])
        # The second matrix is singular: getrf's third pivot is zero.
        sing = general((2, 3, 3), dt)[0]
        sing[1] = [[1, 2, 3], [2, 4, 6], [1, 0, 1]]
        cases.append(op_case(
            "linalg_inv_ex" + sfx, [(sing, dt)], "linalg_inv_ex", "%a0", "",
            [((2, 3, 3), dt), ((2,), "i32")], None, tol,
            check=lambda outs, ins, t=tol: _inv_ex_check(outs, ins, t)))

        # --- Cholesky
        p = spd((2, 4, 4), dt)
        case("cholesky", [p], "linalg_cholesky", "%a0", "",
             [((2, 4, 4), None)], lambda a: [np.linalg.cholesky(a)])
        case("cholesky_upper", [p], "linalg_cholesky", "%a0", "upper = true",
             [((2, 4, 4), None)],
             lambda a: [np.swapaxes(np.linalg.cholesky(a), -1, -2)])
        notpd = spd((2, 4, 4), dt)[0]
        notpd[1] = np.diag([1.0, 2.0, -1.0, 3.0])
        cases.append(op_case(
            "cholesky_ex" + sfx, [(notpd, dt)], "linalg_cholesky_ex", "%a0",
            "", [((2, 4, 4), dt), ((2,), "i32")], None, tol,
            check=lambda outs, ins, t=tol: _cholesky_ex_check(outs, ins, t)))
        factor, _ = p
        lower = np.linalg.cholesky(factor.astype(np.float64))
        lo = as_input(lower, dt)
        b = as_input(RNG.uniform(-1, 1, size=(2, 4, 3)), dt)
        case("cholesky_solve", [b, lo], "cholesky_solve", "%a0, %a1", "",
             [((2, 4, 3), None)],
             lambda b, l: [np.linalg.solve(l @ np.swapaxes(l, -1, -2), b)])
        up = (np.swapaxes(lo[0], -1, -2).copy(), dt)
        case("cholesky_solve_upper", [b, up], "cholesky_solve", "%a0, %a1",
             "upper = true", [((2, 4, 3), None)],
             lambda b, u: [np.linalg.solve(np.swapaxes(u, -1, -2) @ u, b)])
        case("cholesky_inverse", [lo], "cholesky_inverse", "%a0", "",
             [((2, 4, 4), None)],
             lambda l: [np.linalg.inv(l @ np.swapaxes(l, -1, -2))])
        case("cholesky_inverse_upper", [up], "cholesky_inverse", "%a0",
             "upper = true", [((2, 4, 4), None)],
             lambda u: [np.linalg.inv(np.swapaxes(u, -1, -2) @ u)])

        # --- solves
        a3 = general((3, 3), dt)
        case("solve", [a3, as_input(RNG.uniform(-1, 1, (3, 2)), dt)],
             "linalg_solve", "%a0, %a1", "", [((3, 2), None)],
             lambda a, b: [np.linalg.solve(a, b)])
        case("solve_vector", [a3, as_input(RNG.uniform(-1, 1, (3,)), dt)],
             "linalg_solve", "%a0, %a1", "", [((3,), None)],
             lambda a, b: [np.linalg.solve(a, b[:, None])[:, 0]])
        case("solve_broadcast", [general((2, 3, 3), dt),
                                 as_input(RNG.uniform(-1, 1, (3, 4)), dt)],
             "linalg_solve", "%a0, %a1", "", [((2, 3, 4), None)],
             lambda a, b: [np.linalg.solve(a, np.broadcast_to(b, (2, 3, 4)))])
        case("solve_right", [a3, as_input(RNG.uniform(-1, 1, (2, 3)), dt)],
             "linalg_solve", "%a0, %a1", "left = false", [((2, 3), None)],
             lambda a, b: [np.linalg.solve(a.T, b.T).T])
        t4 = general((4, 4), dt)
        rhs = as_input(RNG.uniform(-1, 1, (4, 2)), dt)
        case("triangular_solve", [rhs, t4], "triangular_solve", "%a0, %a1",
             "", [((4, 2), None), ((4, 4), None)],
             lambda b, a: [np.linalg.solve(np.triu(a), b), a])
        case("triangular_solve_lower_t_unit", [rhs, t4], "triangular_solve",
             "%a0, %a1", "upper = false, transpose = true, "
             "unitriangular = true", [((4, 2), None), ((4, 4), None)],
             lambda b, a: [np.linalg.solve(
                 (np.tril(a, -1) + np.eye(4)).T, b), a])

        # --- LU
        g = general((2, 4, 4), dt)
        g[0][1] = g[0][1] * 3  # pivoting that moves rows
        wide = general((3, 5), dt)

        def lu_case(name, x):
            shape = x[0].shape
            k = min(shape[-2:])
            batch = shape[:-2]

            def ref(a):
                flat = a.reshape((-1,) + shape[-2:])
                parts = [lu_ref(m) for m in flat]
                return [np.stack([p[0] for p in parts]).reshape(shape),
                        np.stack([p[1] for p in parts]).reshape(batch + (k,)),
                        np.zeros(batch)]
            case(name, [x], "lu_with_info", "%a0", "",
                 [(shape, None), (batch + (k,), "i32"), (batch, "i32")], ref)
        lu_case("lu", g)
        lu_case("lu_wide", wide)
        lu, piv = lu_ref(g[0][0].astype(np.float64))
        case("lu_solve", [as_input(RNG.uniform(-1, 1, (4, 3)), dt),
                          as_input(lu, dt), (piv.astype(np.int32), "i32")],
             "lu_solve", "%a0, %a1, %a2", "", [((4, 3), None)],
             lambda b, lu_, p: [np.linalg.solve(lu_product(lu_, p), b)])

        # --- eigh
        sym = spd((2, 4, 4), dt)
        case("eigvalsh", [sym], "linalg_eigvalsh", "%a0", "",
             [((2, 4), None)], lambda a: [np.linalg.eigvalsh(a)])
        raw = as_input(RNG.uniform(-1, 1, (4, 4)), dt)
        case("eigvalsh_upper", [raw], "linalg_eigvalsh", "%a0",
             'UPLO = "U"', [((4,), None)],
             lambda a: [np.linalg.eigvalsh(np.triu(a) + np.triu(a, 1).T)])
        cases.append(op_case(
            "eigh" + sfx, [sym], "linalg_eigh", "%a0", "",
            [((2, 4), dt), ((2, 4, 4), dt)], None, tol,
            check=lambda outs, ins, c=chk: _eigh_check(outs, ins[0], c)))

        # --- eig (geev): complex eigenvalues and vectors of general
        # matrices (a batch with conjugate pairs; a triangular-dominant
        # one with real eigenvalues).
        cdt = {"f32": "c64", "f64": "c128"}[dt]
        general_pair = as_input(RNG.uniform(-1, 1, (2, 4, 4)), dt)
        real_spectrum = as_input(np.triu(RNG.uniform(-1, 1, (5, 5))) +
                                 np.diag(np.arange(1.0, 6.0)) +
                                 0.05 * RNG.uniform(-1, 1, (5, 5)), dt)
        for name, a in (("eig_pairs", general_pair),
                        ("eig_real", real_spectrum)):
            n = a[0].shape[-1]
            cases.append(op_case(
                name + sfx, [a], "linalg_eig", "%a0", "",
                [(a[0].shape[:-1], cdt), (a[0].shape, cdt)], None, tol,
                check=lambda outs, ins, c=chk, pairs=name == "eig_pairs":
                _eig_check(outs, ins[0], c, pairs)))
            case(name.replace("eig", "eigvals"), [a], "linalg_eigvals", "%a0",
                 "", [(a[0].shape[:-1], cdt)], None,
                 check=lambda outs, ins, c=chk: _eigvals_check(
                     outs[0], ins[0], c))

        # --- SVD
        for name, shape, full in [("svd_tall", (5, 3), False),
                                  ("svd_wide_full", (2, 3, 5), True),
                                  ("svd_tall_full", (4, 3), True)]:
            m, n = shape[-2:]
            k = min(m, n)
            batch = shape[:-2]
            us = batch + ((m, m) if full else (m, k))
            vs = batch + ((n, n) if full else (k, n))
            cases.append(op_case(
                name + sfx, [as_input(RNG.uniform(-1, 1, shape), dt)],
                "linalg_svd", "%a0", "" if full else "full_matrices = false",
                [(us, dt), (batch + (k,), dt), (vs, dt)], None, tol,
                check=lambda outs, ins, k=k, c=chk: _svd_check(
                    outs[0], outs[1], outs[2], ins[0], k, c)))
        x = as_input(RNG.uniform(-1, 1, (4, 6)), dt)
        case("svdvals", [x], "linalg_svdvals", "%a0", "", [((4,), None)],
             lambda a: [np.linalg.svd(a, compute_uv=False)])
        cases.append(op_case(
            "torch_svd" + sfx, [x], "svd", "%a0", "",
            [((4, 4), dt), ((4,), dt), ((6, 4), dt)], None, tol,
            check=lambda outs, ins, c=chk: _svd_check(
                outs[0], outs[1], np.swapaxes(outs[2], -1, -2), ins[0], 4,
                c)))
        case("torch_svd_no_uv", [x], "svd", "%a0", "compute_uv = false",
             [((4, 4), None), ((4,), None), ((6, 6), None)],
             lambda a: [np.zeros((4, 4)), np.linalg.svd(a, compute_uv=False),
                        np.zeros((6, 6))])

        # --- QR (Householder with LAPACK's signs: NumPy's qr is geqrf +
        # orgqr too)
        tall = as_input(RNG.uniform(-1, 1, (2, 5, 3)), dt)
        case("qr", [tall], "linalg_qr", "%a0", "",
             [((2, 5, 3), None), ((2, 3, 3), None)],
             lambda a: list(np.linalg.qr(a)))
        case("qr_complete", [tall], "linalg_qr", "%a0", 'mode = "complete"',
             [((2, 5, 5), None), ((2, 5, 3), None)],
             lambda a: list(np.linalg.qr(a, mode="complete")))
        case("qr_r", [tall], "linalg_qr", "%a0", 'mode = "r"',
             [((0,), None), ((2, 3, 3), None)],
             lambda a: [np.zeros((0,)), np.linalg.qr(a, mode="r")])
        w35 = as_input(RNG.uniform(-1, 1, (3, 5)), dt)
        case("qr_wide", [w35], "linalg_qr", "%a0", "",
             [((3, 3), None), ((3, 5), None)],
             lambda a: list(np.linalg.qr(a)))
        a53 = as_input(RNG.uniform(-1, 1, (5, 3)), dt)
        case("geqrf", [a53], "geqrf", "%a0", "",
             [((5, 3), None), ((3,), None)],
             lambda a: (lambda h, t: [h.T, t])(*np.linalg.qr(a, mode="raw")))
        # The reflectors of a geqrf (NumPy's), their product formed here.
        h, tau = np.linalg.qr(a53[0].astype(np.float64), mode="raw")
        hh, tt = as_input(h.T, dt), as_input(tau, dt)
        case("orgqr", [hh, tt], "orgqr", "%a0, %a1", "", [((5, 3), None)],
             lambda h_, t_: [householder_q(h_, t_)[:, :3]])
        case("householder_product", [hh, tt], "linalg_householder_product",
             "%a0, %a1", "", [((5, 3), None)],
             lambda h_, t_: [householder_q(h_, t_)[:, :3]])
        c5 = as_input(RNG.uniform(-1, 1, (5, 2)), dt)
        case("ormqr", [hh, tt, c5], "ormqr", "%a0, %a1, %a2", "",
             [((5, 2), None)], lambda h_, t_, c: [householder_q(h_, t_) @ c])
        case("ormqr_transposed", [hh, tt, c5], "ormqr", "%a0, %a1, %a2",
             "transpose = true", [((5, 2), None)],
             lambda h_, t_, c: [householder_q(h_, t_).T @ c])
        c25 = as_input(RNG.uniform(-1, 1, (2, 5)), dt)
        case("ormqr_right", [hh, tt, c25], "ormqr", "%a0, %a1, %a2",
             "left = false", [((2, 5), None)],
             lambda h_, t_, c: [c @ householder_q(h_, t_)])

        # --- built on the factorizations (tp-decompose-composite-ops)
        x43 = as_input(RNG.uniform(-1, 1, (2, 4, 3)), dt)
        case("pinverse", [x43], "pinverse", "%a0", "", [((2, 3, 4), None)],
             lambda a: [np.linalg.pinv(a, rcond=1e-15)])
        # A rank-2 4 x 3 matrix (and a full-rank one): a large rcond drops
        # its smallest nonzero singular value too.
        low = RNG.uniform(-1, 1, (4, 2)) @ RNG.uniform(-1, 1, (2, 3))
        lowr = as_input(np.stack([low, RNG.uniform(-1, 1, (4, 3))]), dt)
        case("pinverse_rcond", [lowr], "pinverse", "%a0",
             "rcond = 1.000000e-01 : f64", [((2, 3, 4), None)],
             lambda a: [np.linalg.pinv(a, rcond=0.1)])
        # Singular values (|eigenvalues|) 3, 1, 0.3, 1e-3 and 0: the
        # tolerances fall between them, far from the rounding noise of the
        # zero one.
        eps = np.finfo(np.float32 if dt == "f32" else np.float64).eps
        graded = as_input(np.stack([
            with_singular_values((4, 3), [3.0, 1.0, 1e-3]),
            with_singular_values((4, 3), [3.0, 0.3, 0.0])]), dt)
        # (The zero value, rounded to f32, is ~1e-8: above f64's default
        # tolerance, below f32's.)
        case("matrix_rank", [graded], "linalg_matrix_rank", "%a0", "",
             [((2,), "i64")], lambda a, e=eps: [rank_ref(a, 0.0, 4 * e)])
        case("matrix_rank_atol", [graded], "linalg_matrix_rank", "%a0",
             "atol = 5.000000e-01 : f64", [((2,), "i64")],
             lambda a: [np.array([2, 1])])
        case("matrix_rank_rtol", [graded], "linalg_matrix_rank", "%a0",
             "atol = 1.000000e-02 : f64, rtol = 2.000000e-01 : f64",
             [((2,), "i64")], lambda a: [np.array([2, 1])])
        q, _ = np.linalg.qr(RNG.uniform(-1, 1, (4, 4)))
        herm = as_input(np.stack([q @ np.diag([3.0, -1.0, 1e-3, 0.0]) @ q.T,
                                  -np.eye(4)]), dt)
        herm = (((herm[0] + np.swapaxes(herm[0], -1, -2)) / 2).astype(
            herm[0].dtype), dt)
        case("matrix_rank_hermitian", [herm], "linalg_matrix_rank", "%a0",
             "hermitian = true", [((2,), "i64")],
             lambda a, e=eps: [rank_ref(a, 0.0, 4 * e, hermitian=True)])
        sq = general((2, 3, 3), dt)
        for p, attr in [(None, ""), (-2, "p = -2.000000e+00 : f64"),
                        (1, "p = 1.000000e+00 : f64"),
                        (-1, "p = -1.000000e+00 : f64"),
                        (np.inf, "p = 0x7FF0000000000000 : f64"),
                        (-np.inf, "p = 0xFFF0000000000000 : f64")]:
            case("cond_%s" % str(p).replace("-", "m"), [sq], "linalg_cond",
                 "%a0", attr, [((2,), None)],
                 lambda a, p=p: [np.linalg.cond(a, p)])
        singular = as_input(np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]]),
                            dt)
        case("cond_1_singular", [singular], "linalg_cond", "%a0",
             "p = 1.000000e+00 : f64", [((2,), None)],
             lambda a: [np.array([1.0, np.inf])])
        t = general((6, 6), dt)
        t4d = (t[0].reshape(2, 3, 6), dt)
        case("tensorinv", [t4d], "linalg_tensorinv", "%a0",
             "ind = 2 : i64", [((6, 2, 3), None)],
             lambda a: [np.linalg.tensorinv(a, ind=2)])
        rhs6 = as_input(RNG.uniform(-1, 1, (2, 3)), dt)
        case("tensorsolve", [t4d, rhs6], "linalg_tensorsolve", "%a0, %a1", "",
             [((6,), None)], lambda a, b: [np.linalg.tensorsolve(a, b)])
        # dims: the solution's dimension first, moved to the end.
        t_moved = (np.ascontiguousarray(np.moveaxis(t4d[0], 2, 0)), dt)
        case("tensorsolve_dims", [t_moved, rhs6], "linalg_tensorsolve",
             "%a0, %a1", "dims = array<i64: 0>", [((6,), None)],
             lambda a, b: [np.linalg.tensorsolve(a, b, axes=(0,))])

        # --- least squares: NumPy's lstsq (gelsd) for full-rank systems,
        # whose solution is unique; the ranks, singular values and squared
        # residuals each driver returns.
        tall = as_input(RNG.uniform(-1, 1, (2, 5, 3)), dt)
        rhs52 = as_input(RNG.uniform(-1, 1, (2, 5, 2)), dt)

        def lstsq_ref(a, b, driver):
            x = np.stack([np.linalg.lstsq(a[i], b[i], rcond=None)[0]
                          for i in range(a.shape[0])])
            res = ((a @ x - b) ** 2).sum(axis=-2)
            s = np.linalg.svd(a, compute_uv=False)
            outs = [x, res if driver in ("gels", "gelsd", "gelss")
                    else np.zeros((0,))]
            if driver != "gels":
                outs.append(np.full((2,), 3))
            else:
                outs.append(np.zeros((0,)))
            outs.append(s if driver in ("gelsd", "gelss") else np.zeros((0,)))
            return outs
        for driver in ("gelsy", "gels", "gelsd", "gelss"):
            res = (2, 2) if driver != "gelsy" else (0,)
            rank = (2,) if driver != "gels" else (0,)
            sv = (2, 3) if driver in ("gelsd", "gelss") else (0,)
            case("lstsq_" + driver, [tall, rhs52], "linalg_lstsq", "%a0, %a1",
                 'driver = "%s"' % driver if driver != "gelsy" else "",
                 [((2, 3, 2), None), (res, None), (rank, "i64"), (sv, None)],
                 lambda a, b, d=driver: lstsq_ref(a, b, d))
        # An underdetermined system (m < n): gelsd's minimum-norm solution.
        wide = as_input(RNG.uniform(-1, 1, (3, 5)), dt)
        rhs3 = as_input(RNG.uniform(-1, 1, (3, 2)), dt)
        case("lstsq_wide", [wide, rhs3], "linalg_lstsq", "%a0, %a1",
             'driver = "gelsd"', [((5, 2), None), ((0,), None), ((), "i64"),
                                  ((3,), None)],
             lambda a, b: [np.linalg.lstsq(a, b, rcond=None)[0], np.zeros((0,)),
                           np.array(3), np.linalg.svd(a, compute_uv=False)])
    return cases


def rank_ref(a, atol, rtol, hermitian=False):
    """NumPy's singular values (|eigenvalues|) above max(atol, rtol *
    the largest), per matrix."""
    s = np.abs(np.linalg.eigvalsh(a)) if hermitian else \
        np.linalg.svd(a, compute_uv=False)
    tol = np.maximum(atol, rtol * s.max(axis=-1, keepdims=True))
    return (s > tol).sum(axis=-1)


def with_singular_values(shape, values):
    """A matrix of `shape` with the given singular values: U diag(s) V^T
    for random orthonormal U, V."""
    m, n = shape
    u, _ = np.linalg.qr(RNG.uniform(-1, 1, (m, m)))
    v, _ = np.linalg.qr(RNG.uniform(-1, 1, (n, n)))
    k = len(values)
    return u[:, :k] @ np.diag(values) @ v[:, :k].T


def _inv_ex_check(outs, ins, tol):
    inv, info = outs
    a = ins[0]
    if list(info) != [0, 3]:
        return False, "info %s, expected [0, 3]" % list(info)
    err = np.abs(inv[0] - np.linalg.inv(a[0])).max()
    return err <= 10 * tol[0] * max(1, np.abs(inv[0]).max()), \
        "inverse of the regular matrix: max |err| %.3g; info %s" % (err, list(info))


def _cholesky_ex_check(outs, ins, tol):
    l, info = outs
    a = ins[0]
    if list(info) != [0, 3]:
        return False, "info %s, expected [0, 3] (the third leading minor)" % list(info)
    err = np.abs(l[0] - np.linalg.cholesky(a[0])).max()
    return err <= 10 * tol[0] * max(1, np.abs(l[0]).max()), \
        "L of the definite matrix: max |err| %.3g; info %s" % (err, list(info))


def _eigh_check(outs, a, tol):
    w, v = [o.astype(np.float64) for o in outs]
    ref = np.linalg.eigvalsh(a)
    werr = np.abs(w - ref).max()
    resid = np.abs(a @ v - v * w[..., None, :]).max()
    ok = werr <= tol * max(1, np.abs(ref).max()) and \
        resid <= tol * max(1, np.abs(ref).max()) and \
        orthonormal_columns(v, v.shape[-1], tol)
    return ok, "eigenvalues max |err| %.3g, |A V - V diag(w)| %.3g" % (werr, resid)


def _same_spectrum(w, a, tol):
    """Each eigenvalue of `w` (one per matrix of the batch) close to one of
    NumPy's and the other way round: the same multiset when they are
    distinct."""
    ref = np.linalg.eigvals(a)
    d = np.abs(w[..., :, None] - ref[..., None, :])
    err = max(d.min(-1).max(), d.min(-2).max())
    return err <= tol * max(1, np.abs(ref).max()), err


def _eigvals_check(w, a, tol):
    ok, err = _same_spectrum(w.astype(np.complex128), a, tol)
    return ok, "eigenvalues vs NumPy's max |err| %.3g" % err


def _eig_check(outs, a, tol, pairs):
    """`pairs`: the batch must hold conjugate pairs (so that the complex
    eigenvectors built from LAPACK's two real columns are checked)."""
    w, v = [o.astype(np.complex128) for o in outs]
    ok, err = _same_spectrum(w, a, tol)
    if pairs and np.abs(w.imag).max() < 0.1:
        return False, "the batch holds no conjugate pair"
    resid = np.abs(a @ v - v * w[..., None, :]).max()
    norms = np.abs(np.linalg.norm(v, axis=-2) - 1).max()
    ok = ok and resid <= tol * max(1, np.abs(w).max()) and norms <= tol
    return ok, ("eigenvalues max |err| %.3g, |A V - V diag(w)| %.3g, "
                "unit columns within %.3g" % (err, resid, norms))


def _svd_check(u, s, vh, a, k, tol):
    u, s, vh = [x.astype(np.float64) for x in (u, s, vh)]
    ref = np.linalg.svd(a, compute_uv=False)
    serr = np.abs(s - ref).max()
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    rerr = np.abs(rec - a).max()
    ok = serr <= tol and rerr <= tol and \
        orthonormal_columns(u, u.shape[-1], tol) and \
        orthonormal_columns(np.swapaxes(vh, -1, -2), vh.shape[-2], tol)
    return ok, "S max |err| %.3g, |U S Vh - A| %.3g" % (serr, rerr)
