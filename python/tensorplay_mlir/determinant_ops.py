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
