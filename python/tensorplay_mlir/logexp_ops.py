"""Log-domain and NaN-aware operators written with tp ops as eager's
kernels compute them: logaddexp (m + log1p(exp(-|a - b|)) with m the
larger, -inf where both are -inf; two +inf give NaN, as tensorplay's
kernel does), logaddexp2 (exp2(y) is exp(y ln 2), as
tensorplay's kernel), xlogy (0 where x is 0, NaN where y is), logit (of
the input clamped to [eps, 1 - eps] where eps is given), exp2, nansum and
nanmean (NaN counted as absent), trapezoid and cumulative_trapezoid (eager's
formulas, with a constant spacing or sample points).

Their parts (exp, log, log1p, sum, cumsum, div) are in no CPU autocast
table, and this backend compiles for CPU autocast only, so each part runs
in its inputs' types as eager runs the unlisted operator.
"""

import math

from . import dtypes
from .composite import Composer
from .ops import Unsupported, _dim, _is_value, _result, _value, handles


def _floats(tr, node, *values):
    """The tensors among `values` cast to the node's floating dtype (an
    integer input gives a float result, as eager)."""
    shape, elt = _result(node)
    if elt not in dtypes.FLOATING:
        raise Unsupported(f"a {elt} result")
    return [tr.cast(_value(tr, v), elt) if _is_value(v) else float(v)
            for v in values]


def _logaddexp(c, a, b, exp_of):
    m = c.binary("maximum", a, b)
    tail = c.unary("log1p", exp_of(c.unary("neg", c.unary("abs",
                                                        c.sub(a, b)))))
    return m, tail


def _log_zero(c, m, value):
    """-inf where the larger operand is -inf (both are), else value."""
    return c.where(c.binary("eq", m, float("-inf")), float("-inf"), value)


@handles("logaddexp")
def _logaddexp_handler(tr, node, x, other):
    c = Composer(tr)
    a, b = _floats(tr, node, x, other)
    m, tail = _logaddexp(c, a, b, lambda v: c.unary("exp", v))
    return _log_zero(c, m, c.add(m, tail))


def _exp2(c, v):
    return c.unary("exp", c.mul(v, math.log(2.0)))


@handles("logaddexp2")
def _logaddexp2(tr, node, x, other):
    c = Composer(tr)
    a, b = _floats(tr, node, x, other)
    m, tail = _logaddexp(c, a, b, lambda v: _exp2(c, v))
    return _log_zero(c, m, c.add(m, c.mul(tail, 1.0 / math.log(2.0))))


@handles("exp2")
def _exp2_handler(tr, node, x):
    return _exp2(Composer(tr), _floats(tr, node, x)[0])


@handles("xlogy")
def _xlogy(tr, node, x, other):
    """x log(y); 0 where x is 0 (also for y = 0); NaN where y is NaN."""
    c = Composer(tr)
    shape, elt = _result(node)
    a, b = _floats(tr, node, x, other)
    if not _is_value(b):
        b = tr.constant(b, elt)
    if not _is_value(a):
        a = tr.constant(a, elt)
    product = c.where(c.binary("eq", a, 0.0), 0.0,
                      c.mul(a, c.unary("log", b)))
    return c.where(c.binary("ne", b, b), float("nan"), product)


@handles("logit")
def _logit(tr, node, x, eps=None):
    c = Composer(tr)
    (z,) = _floats(tr, node, x)
    if eps is not None:
        z = c.clamp(z, float(eps), 1.0 - float(eps))
    return c.unary("log", c.div(z, c.sub(1.0, z)))


def _dims(dim, rank):
    if dim is None:
        return []
    dims = [dim] if isinstance(dim, int) else list(dim)
    return [_dim(d, max(rank, 1)) % max(rank, 1) for d in dims]


@handles("nansum")
def _nansum(tr, node, x, dim=(), keepdim=False, dtype=None):
    c = Composer(tr)
    x = _value(tr, x)
    shape, elt = _result(node)
    if x.elt in dtypes.FLOATING:
        x = c.where(c.binary("ne", x, x), 0.0, x)
    summed = c.reduce("sum", tr.cast(x, elt), _dims(dim, x.rank), keepdim)
    return c.reshape(summed, shape)


@handles("nanmean")
def _nanmean(tr, node, x, dim=None, keepdim=False, dtype=None):
    """The sum of the values that are not NaN over their count (NaN where
    every value is)."""
    c = Composer(tr)
    x = _value(tr, x)
    shape, elt = _result(node)
    if x.elt not in dtypes.FLOATING:
        raise Unsupported(f"nanmean of a {x.elt} tensor")
    x = tr.cast(x, elt)
    present = c.binary("eq", x, x)
    dims = _dims(dim, x.rank)
    total = c.reduce("sum", c.where(present, x, 0.0), dims, keepdim)
    count = c.reduce("sum", c.where(present, 1.0, 0.0, elt=elt), dims,
                     keepdim)
    return c.reshape(c.div(total, count), shape)


def _spacing(tr, c, y, x, d):
    """The spacing between samples along d: x's differences (x 1-d along
    d, or of y's shape), or None for a constant spacing."""
    return _spacing_along(tr, c, x, d, y.rank, y.shape[d], y.elt)


def _pairs(c, y, d):
    n = y.shape[d]
    return c.add(c.slice(y, d, 1, n), c.slice(y, d, 0, n - 1))


def _samples(tr, node, y, x, dim, what):
    """(composer, result shape and dtype, y, the dimension, the spacing
    or None) of a trapezoid rule over dim."""
    c = Composer(tr)
    shape, elt = _result(node)
    (y,) = _floats(tr, node, y)
    if y.rank == 0:
        raise Unsupported(f"{what} of a 0-d tensor")
    d = _dim(dim, y.rank) % y.rank
    if y.shape[d] < 2:
        raise Unsupported(f"{what} over fewer than two samples")
    return c, shape, elt, y, d, _spacing(tr, c, y, x, d)


@handles("trapezoid", "trapz")
def _trapezoid(tr, node, y, x=None, dx=1, dim=-1):
    c, shape, elt, y, d, spacing = _samples(tr, node, y, x, dim, "trapezoid")
    if spacing is None:
        ends = c.add(c.slice(y, d, 0, 1), c.slice(y, d, y.shape[d] - 1,
                                                  y.shape[d]))
        inner = c.sub(c.reduce("sum", y, [d], True), c.mul(ends, 0.5))
        return c.reshape(c.mul(inner, float(dx)), shape)
    total = c.reduce("sum", c.mul(spacing, _pairs(c, y, d)), [d], False)
    return c.reshape(c.div(total, 2.0), shape)


@handles("cumulative_trapezoid")
def _cumulative_trapezoid(tr, node, y, x=None, dx=1, dim=-1):
    c, shape, elt, y, d, spacing = _samples(tr, node, y, x, dim,
                                            "cumulative_trapezoid")
    if spacing is None:
        terms = c.mul(_pairs(c, y, d), float(dx) / 2.0)
        return tr.emit("cumsum", [terms], shape, elt, f"dim = {d} : i64")
    terms = c.mul(spacing, _pairs(c, y, d))
    return c.div(tr.emit("cumsum", [terms], shape, elt, f"dim = {d} : i64"),
                 2.0)


def _backward_setup(tr, node, grad_output, dim):
    """(composer, gradient, y's shape and dtype, the dimension, its size)
    of a trapezoid rule's backward."""
    shape, elt = _result(node)
    d = _dim(dim, len(shape)) % len(shape)
    return Composer(tr), _value(tr, grad_output), shape, elt, d, shape[d]


@handles("_trapezoid_backward")
def _trapezoid_backward(tr, node, grad_output, x, ysizes, dx, dim):
    """y's gradient: grad times dx/2 at the ends and dx inside (constant
    spacing), or (dx_(i-1) + dx_i) / 2 with sample points."""
    c, g, shape, elt, d, n = _backward_setup(tr, node, grad_output, dim)
    rank = len(shape)
    kept = tuple(1 if i == d else s for i, s in enumerate(shape))
    grad = c.expand(c.reshape(tr.cast(g, elt), kept), tuple(shape))
    spacing = _spacing_along(tr, c, x, d, rank, n, elt)
    if spacing is None:
        ends = [0.5 if i in (0, n - 1) else 1.0 for i in range(n)]
        along = tuple(n if i == d else 1 for i in range(rank))
        return c.mul(grad, c.mul(tr.dense(ends, elt, along), float(dx)))
    zero = tr.constant(0.0, elt, spacing.shape[:d] + (1,)
                       + spacing.shape[d + 1:])
    before = c.cat([zero, spacing], d)
    after = c.cat([spacing, zero], d)
    return c.mul(grad, c.div(c.add(before, after), 2.0))


def _spacing_along(tr, c, x, d, rank, n, elt):
    """x's differences along dimension d of a rank-`rank` y (x 1-d, or
    broadcasting to y), or None."""
    if x is None:
        return None
    x = tr.cast(_value(tr, x), elt)
    if x.rank == 1:
        x = c.reshape(x, tuple(n if i == d else 1 for i in range(rank)))
    axis = d - (rank - x.rank)
    return c.sub(c.slice(x, axis, 1, n), c.slice(x, axis, 0, n - 1))


@handles("_cumulative_trapezoid_backward")
def _cumulative_trapezoid_backward(tr, node, grad_output, x, dx, dim):
    """out_i = sum_(j <= i) (y_j + y_(j+1)) h_j / 2: y_k's gradient is
    (R_(k-1) h_(k-1) + R_k h_k) / 2, R_j the gradient summed from j on."""
    c, g, shape, elt, d, n = _backward_setup(tr, node, grad_output, dim)
    rank = len(shape)
    g = tr.cast(g, elt)
    total = c.reduce("sum", g, [d], True)
    before = tr.emit("cumsum", [g], g.shape, elt, f"dim = {d} : i64")
    rest = c.add(c.sub(total, before), g)  # R_j, j = 0 .. n - 2
    spacing = _spacing_along(tr, c, x, d, rank, n, elt)
    terms = c.mul(rest, float(dx) if spacing is None else spacing)
    zero = tr.constant(0.0, elt, terms.shape[:d] + (1,)
                       + terms.shape[d + 1:])
    result = c.div(c.add(c.cat([zero, terms], d), c.cat([terms, zero], d)),
                   2.0)
    return c.expand(result, tuple(shape)) if result.shape != tuple(shape) \
        else result


def _difference(c, f, d, spacing, edge_order):
    """torch.gradient along d: central differences inside, one-sided (first
    or second order) at the ends; `spacing` a number or a 1-d tensor of
    the sample coordinates."""
    n = f.shape[d]
    if n < edge_order + 1:
        raise Unsupported(f"gradient over {n} samples with edge_order "
                          f"{edge_order}")

    def at(i, j=None):
        return c.slice(f, d, i, i + 1 if j is None else j)
    if not _is_value(spacing):
        h = float(spacing)
        inner = c.div(c.sub(at(2, n), at(0, n - 2)), 2.0 * h)
        if edge_order == 1:
            first = c.div(c.sub(at(1), at(0)), h)
            last = c.div(c.sub(at(n - 1), at(n - 2)), h)
        else:
            first = c.div(c.add(c.add(c.mul(at(0), -1.5), c.mul(at(1), 2.0)),
                                c.mul(at(2), -0.5)), h)
            last = c.div(c.add(c.add(c.mul(at(n - 3), 0.5),
                                     c.mul(at(n - 2), -2.0)),
                               c.mul(at(n - 1), 1.5)), h)
        return c.cat([first, inner, last], d)
    if edge_order != 1:
        raise Unsupported("gradient with coordinates and edge_order 2")
    x = c.reshape(c.tr.cast(spacing, f.elt), tuple(
        n if i == d else 1 for i in range(f.rank)))
    steps = c.sub(c.slice(x, d, 1, n), c.slice(x, d, 0, n - 1))
    left, right = c.slice(steps, d, 0, n - 2), c.slice(steps, d, 1, n - 1)
    total = c.add(left, right)
    a = c.div(c.unary("neg", right), c.mul(left, total))
    b = c.div(c.sub(right, left), c.mul(left, right))
    z = c.div(left, c.mul(right, total))
    inner = c.add(c.add(c.mul(a, at(0, n - 2)), c.mul(b, at(1, n - 1))),
                  c.mul(z, at(2, n)))
    first = c.div(c.sub(at(1), at(0)), c.slice(steps, d, 0, 1))
    last = c.div(c.sub(at(n - 1), at(n - 2)), c.slice(steps, d, n - 2,
                                                      n - 1))
    return c.cat([first, inner, last], d)


@handles("gradient")
def _gradient(tr, node, x, spacing=None, dim=None, edge_order=1):
    """torch.gradient in every overload: spacing absent (1), one number,
    one per dimension, or coordinate tensors; dim one, several or all."""
    c = Composer(tr)
    f = _value(tr, x)
    if f.elt not in dtypes.FLOATING:
        raise Unsupported(f"gradient of a {f.elt} tensor")
    overload = getattr(node.target, "_overloadname", "")
    if dim is None and overload.endswith("int"):
        # (tensorplay's int-dim overloads take the last dimension when dim
        # is absent; the others, and the functional form, every one.)
        dim = f.rank - 1
    dims = list(range(f.rank)) if dim is None or dim == [] else (
        [dim] if isinstance(dim, int) else list(dim))
    dims = [_dim(d, f.rank) % f.rank for d in dims]
    if spacing is None or (isinstance(spacing, (list, tuple))
                           and not spacing):
        spacings = [1.0] * len(dims)
    elif isinstance(spacing, (list, tuple)):
        spacings = list(spacing)
        if len(spacings) == 1 and len(dims) > 1 and not _is_value(
                spacings[0]):
            spacings = spacings * len(dims)
    else:
        spacings = [spacing] * len(dims)
    if len(spacings) != len(dims) or int(edge_order) not in (1, 2):
        raise Unsupported(f"gradient of {len(spacings)} spacings over "
                          f"{len(dims)} dimensions, edge_order {edge_order}")
    return tuple(_difference(c, f, d, h, int(edge_order))
                 for d, h in zip(dims, spacings))
