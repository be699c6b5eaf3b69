"""Handlers of the linear-algebra ops the CPU pipeline computes through
LAPACK (inverse, Cholesky, solve, eigvalsh, svdvals) or builds on them
(pinverse): each becomes its tp op. The multi-result factorizations (qr,
svd, eigh, ...) do not trace in tensorplay 1.0 (its Python wrappers unpack
the result tuple during capture), and matrix_rank / cond arrive already
written in terms of svdvals."""

from .ops import HANDLERS, Unsupported, _result, _value, handles


def _f64(value):
    from .translate import format_float
    return f"{format_float(float(value))} : f64"


def _inverse(op):
    def handler(tr, node, x):
        shape, elt = _result(node)
        return tr.emit(op, [_value(tr, x)], shape, elt)
    return handler


HANDLERS["linalg_inv"] = _inverse("linalg_inv")
HANDLERS["inverse"] = _inverse("inverse")


@handles("linalg_cholesky")
def _cholesky(tr, node, x, upper=False):
    shape, elt = _result(node)
    return tr.emit("linalg_cholesky", [_value(tr, x)], shape, elt,
                   "upper = true" if upper else "")


@handles("linalg_solve")
def _solve(tr, node, a, b, left=True):
    shape, elt = _result(node)
    return tr.emit("linalg_solve", [_value(tr, a), _value(tr, b)], shape, elt,
                   "" if left else "left = false")


@handles("linalg_eigvalsh")
def _eigvalsh(tr, node, x, UPLO="L"):
    if UPLO not in ("L", "U"):
        raise Unsupported(f"eigvalsh with UPLO={UPLO!r}")
    shape, elt = _result(node)
    return tr.emit("linalg_eigvalsh", [_value(tr, x)], shape, elt,
                   f'UPLO = "{UPLO}"')


@handles("linalg_svdvals")
def _svdvals(tr, node, x, driver=None):
    if driver is not None:
        raise Unsupported("svdvals with a driver (CUDA only)")
    shape, elt = _result(node)
    return tr.emit("linalg_svdvals", [_value(tr, x)], shape, elt)


@handles("pinverse")
def _pinverse(tr, node, x, rcond=1e-15):
    shape, elt = _result(node)
    return tr.emit("pinverse", [_value(tr, x)], shape, elt,
                   f"rcond = {_f64(rcond)}")
