"""Handlers of tensorplay 1.1's dispatcher-level linear-algebra operators:
the forms its AOT autograd writes into training graphs.

Forward graphs call the factorizations with every result the backward
saves: ``linalg_inv_ex`` and ``linalg_cholesky_ex`` (result, info),
``_linalg_solve_ex`` (result, LU, pivots, info), ``_linalg_eigh``
(eigenvalues, eigenvectors), ``_linalg_svd`` (U, S, Vh). Each is its tp
op; ``_linalg_solve_ex``'s LU and pivots are ``tp.lu_with_info`` of A,
LAPACK's getrf as in eager, and its result ``tp.linalg_solve``.

Backward graphs solve with those factors: ``linalg_lu_solve`` (also with
``adjoint``, A^T X = B = P L^-T U^-T B, written as two triangular solves
and the pivots' permutation) and ``linalg_solve_triangular``. Real
matrices only: the backend has no complex values.
"""

from .ops import Unsupported, _result, _value, handles


def _results(tr, node, defaults):
    """The (shape, elt) of each result of a multi-result node: its getitem
    users' metadata, `defaults[i]` for a result nobody reads."""
    return [tr.meta_of(node, i) or d for i, d in enumerate(defaults)]


def _real(x, what):
    if x.elt.startswith("complex"):
        raise Unsupported(f"{what} of a complex tensor")
    return x


def _flag(name, value, default):
    return "" if bool(value) == default else \
        f"{name} = {'true' if value else 'false'}"


def _join(*attrs):
    return ", ".join(a for a in attrs if a)


@handles("op.linalg_inv_ex")
def _inv_ex(tr, node, a, check_errors=False):
    a = _real(_value(tr, a), "linalg_inv_ex")
    metas = _results(tr, node, [(a.shape, a.elt), (a.shape[:-2], "i32")])
    return tuple(tr.emit_multi("linalg_inv_ex", [a], metas,
                               _flag("check_errors", check_errors, False)))


@handles("op.linalg_cholesky_ex")
def _cholesky_ex(tr, node, a, upper=False, check_errors=False):
    a = _real(_value(tr, a), "linalg_cholesky_ex")
    metas = _results(tr, node, [(a.shape, a.elt), (a.shape[:-2], "i32")])
    return tuple(tr.emit_multi(
        "linalg_cholesky_ex", [a], metas,
        _join(_flag("upper", upper, False),
              _flag("check_errors", check_errors, False))))


@handles("op._linalg_solve_ex")
def _solve_ex(tr, node, a, b, left=True, check_errors=False):
    """(result, LU, pivots, info): LAPACK's factorization of A, which the
    backward's adjoint solve reuses, and the solution."""
    a, b = (_real(_value(tr, v), "linalg_solve") for v in (a, b))
    if check_errors:
        raise Unsupported("_linalg_solve_ex with check_errors=True")
    batch = a.shape[:-2]
    lu, pivots, info = tr.emit_multi(
        "lu_with_info", [a],
        [(a.shape, a.elt), (a.shape[:-1], "i32"), (batch, "i32")],
        "check_errors = false")
    result_meta = tr.meta_of(node, 0)
    if result_meta is None:
        return (None, lu, pivots, info)
    result = tr.emit("linalg_solve", [a, b], result_meta[0], result_meta[1],
                     _flag("left", left, True))
    return (result, lu, pivots, info)


@handles("op._linalg_eigh")
def _eigh(tr, node, a, UPLO="L", compute_v=True):
    a = _real(_value(tr, a), "linalg_eigh")
    if UPLO not in ("L", "U"):
        raise Unsupported(f"eigh with UPLO={UPLO!r}")
    values_meta = (a.shape[:-1], a.elt)
    if not compute_v:
        values = tr.emit("linalg_eigvalsh", [a], *values_meta,
                         f'UPLO = "{UPLO}"')
        return (values, tr.constant(0, a.elt, (0,)))
    metas = _results(tr, node, [values_meta, (a.shape, a.elt)])
    return tuple(tr.emit_multi("linalg_eigh", [a], metas, f'UPLO = "{UPLO}"'))


@handles("op._linalg_svd")
def _svd(tr, node, a, full_matrices=False, compute_uv=True, driver=None):
    a = _real(_value(tr, a), "linalg_svd")
    if driver is not None:
        raise Unsupported("svd with a driver (CUDA only)")
    m, n = a.shape[-2:]
    batch, k = a.shape[:-2], min(m, n)
    s_meta = (batch + (k,), a.elt)
    if not compute_uv:
        s = tr.emit("linalg_svdvals", [a], *s_meta)
        empty = tr.constant(0, a.elt, (0,))
        return (empty, s, empty)
    rows, cols = (m, n) if full_matrices else (k, k)
    metas = _results(tr, node, [(batch + (m, rows), a.elt), s_meta,
                                (batch + (cols, n), a.elt)])
    return tuple(tr.emit_multi("linalg_svd", [a], metas,
                               _flag("full_matrices", full_matrices, True)))


def _mT(tr, x):
    """x with its last two dimensions swapped."""
    shape = x.shape[:-2] + (x.shape[-1], x.shape[-2])
    return tr.emit("transpose", [x], shape, x.elt,
                   f"dim0 = {x.rank - 2} : i64, dim1 = {x.rank - 1} : i64")


def _triangular(tr, b, a, upper, transpose=False, unit=False):
    """triangular_solve's solution of op(A) X = B, op(A) = A or A^T, with
    A's other triangle (and its diagonal where `unit`) never read."""
    attrs = _join(_flag("upper", upper, True),
                  _flag("transpose", transpose, False),
                  _flag("unitriangular", unit, False))
    x, _ = tr.emit_multi("triangular_solve", [b, a],
                         [(b.shape, b.elt), (a.shape, a.elt)], attrs)
    return x


def _lu_adjoint_solve(tr, lu, pivots, b):
    """A^T X = B for A = P L U packed in `lu`: X = P L^-T U^-T B. P is
    lu_solve of the identity with the pivots (P^T), transposed."""
    y = _triangular(tr, b, lu, upper=True, transpose=True)
    z = _triangular(tr, y, lu, upper=False, transpose=True, unit=True)
    n = lu.shape[-1]
    eye = tr.dense([1 if i // n == i % n else 0 for i in range(n * n)],
                   lu.elt, (n * n,))
    from .translate import array_attr
    eye = tr.emit("reshape", [eye], (n, n), lu.elt,
                  f"shape = {array_attr([n, n])}")
    shape = lu.shape
    if shape != (n, n):
        eye = tr.emit("expand", [eye], shape, lu.elt,
                      f"size = {array_attr(list(shape))}")
    pt = tr.emit("lu_solve", [eye, eye, pivots], shape, lu.elt)
    return tr.emit("matmul", [_mT(tr, pt), z], z.shape, z.elt)


@handles("op.linalg_lu_solve")
def _linalg_lu_solve(tr, node, lu, pivots, b, left=True, adjoint=False):
    """A X = B, A^T X = B (adjoint), X A = B or X A^T = B (not left: the
    transposed system with `adjoint` negated)."""
    lu, b = (_real(_value(tr, v), "linalg_lu_solve") for v in (lu, b))
    pivots = _value(tr, pivots)
    if b.rank < 2:
        raise Unsupported("linalg_lu_solve of a vector")
    shape, elt = _result(node)
    if lu.shape[:-2] != b.shape[:-2]:
        raise Unsupported("linalg_lu_solve with broadcast batch dimensions")
    rhs = b if left else _mT(tr, b)
    if adjoint == left:  # A^T X = B, or X A = B as A^T X^T = B^T
        x = _lu_adjoint_solve(tr, lu, pivots, rhs)
    else:
        x = tr.emit("lu_solve", [rhs, lu, pivots], rhs.shape, elt)
    return x if left else _mT(tr, x)


@handles("op.linalg_solve_triangular")
def _solve_triangular(tr, node, a, b, upper, left=True, unitriangular=False):
    """A X = B, or X A = B as A^T X^T = B^T."""
    a, b = (_real(_value(tr, v), "linalg_solve_triangular") for v in (a, b))
    if b.rank < 2 or a.shape[:-2] != b.shape[:-2]:
        raise Unsupported("linalg_solve_triangular with broadcast batch "
                          "dimensions")
    if left:
        return _triangular(tr, b, a, upper, unit=unitriangular)
    x = _triangular(tr, _mT(tr, b), a, upper, transpose=True,
                    unit=unitriangular)
    return _mT(tr, x)


@handles("op.conj", "op.resolve_conj", "op.resolve_neg")
def _conj(tr, node, x):
    """The identity on real tensors."""
    return _real(_value(tr, x), "conj")


@handles("op.mH", "op.mT", "op.adjoint")
def _adjoint(tr, node, x):
    x = _real(_value(tr, x), "mH")
    if x.rank < 2:
        raise Unsupported("mH of a tensor of rank < 2")
    return _mT(tr, x)
