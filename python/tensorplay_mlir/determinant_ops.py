"""Determinants and LU factors from LAPACK's getrf (tp.lu_with_info), as
tensorplay's kernels compute them: det = the product of U's diagonal times
the pivots' sign ((-1)^(rows swapped)); slogdet = (that sign times the
signs of U's diagonal, the sum of log |U_ii|); logdet = log det (NaN for
a negative determinant, -inf for zero). The LU forms (_lu_with_info,
linalg_lu_factor(_ex)) are the factorization itself; the LU and pivots
_linalg_det and _linalg_slogdet save for their backward are those of A^T,
as tensorplay's kernels factor it. Also _cdist_forward (tp.cdist).
tp.prod is in the CPU fp32 table: with f32 inputs (LAPACK has no bf16)
nothing changes, as for eager's kernels.
"""

from .composite import Composer
from .ops import HANDLERS, Unsupported, _value, handles


def _square(tr, a, what):
    a = _value(tr, a)
    if a.rank < 2 or a.shape[-1] != a.shape[-2] or a.shape[-1] == 0:
        raise Unsupported(f"{what} of a non-square or empty {a.shape}")
    return a


def lu_factors(tr, a):
    """(LU, pivots (1-based, i32), info) of getrf, without raising."""
    return tr.emit_multi(
        "lu_with_info", [a],
        [(a.shape, a.elt), (a.shape[:-1], "i32"), (a.shape[:-2], "i32")],
        "check_errors = false")


def _diagonal(c, lu):
    n = lu.shape[-1]
    eye = c.tr.dense([i == j for i in range(n) for j in range(n)], "i1",
                     (n, n))
    return c.reduce("sum", c.where(eye, lu, 0.0), [lu.rank - 1], False)


def _pivot_sign(c, pivots, elt):
    """(-1)^(the rows getrf swapped): +-1 in elt."""
    n = pivots.shape[-1]
    rows = c.tr.dense(list(range(1, n + 1)), "i32", (n,))
    swaps = c.reduce("sum", c.where(c.binary("ne", pivots, rows), 1.0, 0.0,
                                    elt=elt), [pivots.rank - 1], False)
    from .rounding_ops import trunc
    odd = c.sub(swaps, c.mul(trunc(c, c.div(swaps, 2.0)), 2.0))
    return c.sub(1.0, c.mul(odd, 2.0))


def _transposed_factors(tr, c, a):
    """getrf of A^T: what tensorplay's det kernels factor (LAPACK reading
    the row-major A column by column), so that the LU and pivots they save
    are eager's; det(A^T) = det(A)."""
    return lu_factors(tr, c.permute(a, list(range(a.rank - 2))
                                    + [a.rank - 1, a.rank - 2]))


def determinant(tr, a):
    """(det, LU, pivots)."""
    c = Composer(tr)
    lu, pivots, _ = _transposed_factors(tr, c, a)
    diagonal = _diagonal(c, lu)
    product = tr.emit("prod", [diagonal], diagonal.shape[:-1], a.elt,
                      f"dim = {diagonal.rank - 1} : i64, keepdim = false")
    return c.mul(product, _pivot_sign(c, pivots, a.elt)), lu, pivots


def log_determinant(tr, a):
    """(sign, log |det|, LU, pivots)."""
    c = Composer(tr)
    lu, pivots, _ = _transposed_factors(tr, c, a)
    diagonal = _diagonal(c, lu)
    signs = c.where(c.binary("gt", diagonal, 0.0), 1.0,
                    c.where(c.binary("lt", diagonal, 0.0), -1.0, 0.0,
                            elt=a.elt))
    sign = tr.emit("prod", [signs], signs.shape[:-1], a.elt,
                   f"dim = {signs.rank - 1} : i64, keepdim = false")
    sign = c.mul(sign, _pivot_sign(c, pivots, a.elt))
    logabs = c.reduce("sum", c.unary("log", c.unary("abs", diagonal)),
                      [diagonal.rank - 1], False)
    return sign, logabs, lu, pivots


@handles("linalg_det", "det")
def _det(tr, node, a):
    return determinant(tr, _square(tr, a, "det"))[0]


@handles("_linalg_det")
def _linalg_det(tr, node, a):
    return tuple(determinant(tr, _square(tr, a, "det")))


@handles("linalg_slogdet", "slogdet")
def _slogdet(tr, node, a):
    return tuple(log_determinant(tr, _square(tr, a, "slogdet"))[:2])


@handles("_linalg_slogdet")
def _linalg_slogdet(tr, node, a):
    return tuple(log_determinant(tr, _square(tr, a, "slogdet")))


@handles("logdet")
def _logdet(tr, node, a):
    c = Composer(tr)
    sign, logabs, _, _ = log_determinant(tr, _square(tr, a, "logdet"))
    return c.where(c.binary("lt", sign, 0.0), float("nan"), logabs)


def _lu(what, parts):
    def handler(tr, node, a, pivot=True, check_errors=False):
        if not pivot:
            raise Unsupported(f"{what} without pivoting (tensorplay's CPU "
                              "refuses it too)")
        if check_errors:
            raise Unsupported(f"{what} with check_errors (a run-time error "
                              "on singular input)")
        return tuple(lu_factors(tr, _square(tr, a, what))[:parts])
    return handler


HANDLERS["linalg_lu_factor"] = _lu("linalg_lu_factor", 2)
HANDLERS["linalg_lu_factor_ex"] = _lu("linalg_lu_factor_ex", 3)
HANDLERS["_lu_with_info"] = _lu("_lu_with_info", 3)


@handles("_cdist_forward")
def _cdist_forward(tr, node, x1, x2, p, compute_mode=None):
    return HANDLERS["cdist"](tr, node, x1, x2, p, compute_mode)


@handles("linalg_solve_ex")
def _linalg_solve_ex(tr, node, A, B, left=True, check_errors=False):
    """(tp.linalg_solve, info 0): a singular matrix is a run-time error
    (tensorplay's words), never a result with info set, so info is 0
    whenever a result is returned."""
    a, b = _value(tr, A), _value(tr, B)
    result_meta = tr.meta_of(node, 0)
    shape, elt = result_meta if result_meta else (b.shape, b.elt)
    attrs = "" if left else "left = false"
    result = tr.emit("linalg_solve", [a, b], shape, elt, attrs)
    return (result, tr.constant(0, "i32", a.shape[:-2]))


def unpack(tr, lu, pivots, want_data=True, want_pivots=True):
    """(P, L, U) of A = P L U from getrf's packed factors: L unit lower,
    U upper, P the permutation the pivots' row swaps make (applied in
    order to the identity's rows, as eager's lu_unpack)."""
    c = Composer(tr)
    m, n = lu.shape[-2:]
    k = min(m, n)
    batch = lu.shape[:-2]
    parts = [None, None, None]
    if want_data:
        below = tr.dense([i > j for i in range(m) for j in range(k)], "i1",
                         (m, k))
        eye = tr.dense([i == j for i in range(m) for j in range(k)], "i1",
                       (m, k))
        left = c.slice(lu, lu.rank - 1, 0, k)
        parts[1] = c.where(below, left, c.where(eye, 1.0, 0.0, elt=lu.elt))
        above = tr.dense([i <= j for i in range(k) for j in range(n)], "i1",
                         (k, n))
        parts[2] = c.where(above, c.slice(lu, lu.rank - 2, 0, k), 0.0)
    if want_pivots:
        rows = tr.dense(list(range(m)), "i64", (m,))
        perm = c.expand(rows, batch + (m,))
        swaps = c.sub(tr.cast(pivots, "i64"), 1)
        for i in range(k):
            j = c.slice(swaps, swaps.rank - 1, i, i + 1)  # batch + (1,)
            at_i = c.slice(perm, perm.rank - 1, i, i + 1)
            at_j = tr.emit("gather", [perm, j], j.shape, "i64",
                           f"dim = {perm.rank - 1} : i64")
            is_i = c.binary("eq", rows, i)
            is_j = c.binary("eq", rows, j)
            perm = c.where(is_i, at_j, c.where(is_j, at_i, perm))
        # P[r, q] = 1 where row q of A went to position r: A = P L U with
        # P^T A = L U, so P[perm[r], r] = 1.
        one_hot = c.binary("eq", c.reshape(perm, batch + (1, m)),
                           c.reshape(rows, (m, 1)))
        parts[0] = c.where(one_hot, 1.0, 0.0, elt=lu.elt)
    return tuple(parts)


@handles("lu_unpack")
def _lu_unpack(tr, node, LU_data, LU_pivots, unpack_data=True,
               unpack_pivots=True):
    return unpack(tr, _value(tr, LU_data), _value(tr, LU_pivots),
                  bool(unpack_data), bool(unpack_pivots))


@handles("linalg_lu")
def _linalg_lu(tr, node, A, pivot=True):
    if not pivot:
        raise Unsupported("linalg_lu without pivoting (tensorplay's CPU "
                          "refuses it too)")
    a = _value(tr, A)
    if a.rank < 2 or a.shape[-1] != a.shape[-2]:
        raise Unsupported(f"linalg_lu of a non-square {a.shape}")
    lu, pivots, _ = lu_factors(tr, a)
    return unpack(tr, lu, pivots)
