"""The linear-algebra operators with a tp op of their own that 1.1's
inference graphs (and 1.0's) call by their public names: the solves and
inverses from factors (cholesky_solve, cholesky_inverse, lu_solve,
triangular_solve, orgqr, ormqr, householder products), the factorizations
(cholesky, linalg_qr, linalg_svd, svd, linalg_eigh, geqrf, linalg_lstsq),
linalg_cond, linalg_matrix_rank, linalg_tensorinv/tensorsolve and
linalg_vecdot. Each is its tp op, so autocast decides it as the tables say
(most run in f32 under CPU autocast). Real matrices only."""

import math

from .linalg_operator_ops import _flag, _join, _real, _results
from .ops import (HANDLERS, Unsupported, _array, _result, _value, f64_attr,
                  handles)


def _emit(tr, node, op, tensors, **attrs):
    """tp.`op` of `tensors` with the attributes that differ from tp's
    defaults: bools (name=(value, default)), i64, f64 and arrays."""
    operands = [_real(_value(tr, v), op) for v in tensors]
    text = []
    for name, (value, default) in attrs.items():
        if value is None or value == default:
            continue
        if isinstance(value, bool):
            text.append(_flag(name, value, default))
        elif isinstance(value, int):
            text.append(f"{name} = {int(value)} : i64")
        elif isinstance(value, float):
            text.append(f64_attr(name, value))
        elif isinstance(value, (list, tuple)):
            text.append(f"{name} = {_array([int(v) for v in value])}")
        else:
            raise Unsupported(f"{name}={value!r}")
    shape, elt = _result(node)
    return tr.emit(op, operands, shape, elt, _join(*text))


@handles("cholesky_inverse")
def _cholesky_inverse(tr, node, x, upper=False):
    return _emit(tr, node, "cholesky_inverse", [x], upper=(upper, False))


@handles("cholesky_solve")
def _cholesky_solve(tr, node, x, input2, upper=False):
    return _emit(tr, node, "cholesky_solve", [x, input2],
                 upper=(upper, False))


@handles("cholesky")
def _cholesky(tr, node, x, upper=False):
    return _emit(tr, node, "linalg_cholesky", [x], upper=(upper, False))


@handles("lu_solve")
def _lu_solve(tr, node, x, LU_data, LU_pivots):
    return _emit(tr, node, "lu_solve", [x, LU_data, LU_pivots])


@handles("linalg_householder_product", "orgqr")
def _householder_product(tr, node, x, tau):
    from .ops import canonical_name
    return _emit(tr, node, canonical_name(node), [x, tau])


@handles("ormqr")
def _ormqr(tr, node, x, input2, input3, left=True, transpose=False):
    """(tensorplay's eager ormqr of matrices returns a batch of one: the
    product is reshaped to the node's shape.)"""
    c = _value(tr, input3)
    shape, elt = _result(node)
    if math.prod(shape) != math.prod(c.shape):
        raise Unsupported("ormqr with a result of another size")
    product = tr.emit("ormqr", [_real(_value(tr, v), "ormqr") for v in
                                (x, input2, c)], c.shape, elt,
                      _join(_flag("left", left, True),
                            _flag("transpose", transpose, False)))
    if tuple(shape) == tuple(c.shape):
        return product
    return tr.emit("reshape", [product], shape, elt,
                   f"shape = {_array(shape)}")


@handles("linalg_tensorinv")
def _tensorinv(tr, node, x, ind=2):
    return _emit(tr, node, "linalg_tensorinv", [x], ind=(int(ind), 2))


@handles("linalg_tensorsolve")
def _tensorsolve(tr, node, x, other, dims=None):
    return _emit(tr, node, "linalg_tensorsolve", [x, other],
                 dims=(dims, None))


@handles("linalg_vecdot")
def _vecdot(tr, node, x, y, dim=-1):
    return _emit(tr, node, "linalg_vecdot", [x, y], dim=(int(dim), -1))


@handles("linalg_cond")
def _cond(tr, node, x, p=None):
    if isinstance(p, str):
        raise Unsupported(f"linalg_cond with p={p!r}")
    return _emit(tr, node, "linalg_cond", [x],
                 p=(None if p is None else float(p), None))


@handles("linalg_matrix_rank")
def _matrix_rank(tr, node, x, tol=None, atol=None, rtol=None,
                 hermitian=False):
    """tol is an absolute tolerance (and no relative one)."""
    if tol is not None:
        atol, rtol = tol, 0.0
    if any(hasattr(v, "ssa") for v in (atol, rtol)):
        raise Unsupported("matrix_rank with tensor tolerances")
    return _emit(tr, node, "linalg_matrix_rank", [x],
                 atol=(None if atol is None else float(atol), None),
                 rtol=(None if rtol is None else float(rtol), None),
                 hermitian=(hermitian, False))


@handles("linalg_qr")
def _qr(tr, node, x, mode="reduced"):
    a = _real(_value(tr, x), "linalg_qr")
    m, n = a.shape[-2:]
    batch, k = a.shape[:-2], min(m, n)
    shapes = {"reduced": ((m, k), (k, n)), "complete": ((m, m), (m, n)),
              "r": ((0,), (k, n))}
    if mode not in shapes:
        raise Unsupported(f"linalg_qr mode={mode!r}")
    q, r = shapes[mode]
    metas = _results(tr, node, [((batch + q) if mode != "r" else q, a.elt),
                                (batch + r, a.elt)])
    attrs = "" if mode == "reduced" else f'mode = "{mode}"'
    return tuple(tr.emit_multi("linalg_qr", [a], metas, attrs))


@handles("linalg_svd")
def _linalg_svd(tr, node, x, full_matrices=True, driver=None):
    return HANDLERS["op._linalg_svd"](tr, node, x, full_matrices, True,
                                      driver)


@handles("svd")
def _svd(tr, node, x, some=True, compute_uv=True):
    a = _real(_value(tr, x), "svd")
    if not compute_uv:
        raise Unsupported("svd without U and V (compute_uv=False)")
    m, n = a.shape[-2:]
    batch, k = a.shape[:-2], min(m, n)
    metas = _results(tr, node, [(batch + (m, k if some else m), a.elt),
                                (batch + (k,), a.elt),
                                (batch + (n, k if some else n), a.elt)])
    return tuple(tr.emit_multi("svd", [a], metas,
                               _flag("some", some, True)))


@handles("linalg_eigh")
def _linalg_eigh(tr, node, x, UPLO="L"):
    return HANDLERS["op._linalg_eigh"](tr, node, x, UPLO, True)


@handles("geqrf")
def _geqrf(tr, node, x):
    a = _real(_value(tr, x), "geqrf")
    k = min(a.shape[-2:])
    metas = _results(tr, node, [(a.shape, a.elt),
                                (a.shape[:-2] + (k,), a.elt)])
    return tuple(tr.emit_multi("geqrf", [a], metas))


@handles("triangular_solve")
def _triangular_solve(tr, node, x, A, upper=True, transpose=False,
                      unitriangular=False):
    b, a = _real(_value(tr, x), "triangular_solve"), _value(tr, A)
    metas = _results(tr, node, [(b.shape, b.elt), (a.shape, a.elt)])
    attrs = _join(_flag("upper", upper, True),
                  _flag("transpose", transpose, False),
                  _flag("unitriangular", unitriangular, False))
    return tuple(tr.emit_multi("triangular_solve", [b, a], metas, attrs))


@handles("linalg_lstsq")
def _lstsq(tr, node, x, B, rcond=None, driver=None):
    a, b = _real(_value(tr, x), "linalg_lstsq"), _value(tr, B)
    if driver not in (None, "gelsy"):
        raise Unsupported(f"linalg_lstsq driver={driver!r} (gelsy only)")
    n = a.shape[-1]
    vector = b.rank == a.rank - 1
    solution = a.shape[:-2] + ((n,) if vector else (n, b.shape[-1]))
    metas = _results(tr, node, [(solution, a.elt), ((0,), a.elt),
                                (a.shape[:-2], "i64"), ((0,), a.elt)])
    attrs = f64_attr("rcond", rcond) if rcond is not None else ""
    return tuple(tr.emit_multi("linalg_lstsq", [a, b], metas, attrs))
