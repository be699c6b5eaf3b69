"""logsumexp (its tp op), and reductions without a tp op, written with
unlisted tp ops (composite.py says why): the minima as maxima of a decreasing map (amin, min, argmin),
all/any/count_nonzero from x != 0, and var/std (with their _mean forms)
as means of squared deviations.

The decreasing map is -x for floats (NaN stays NaN, so minima propagate it
as maxima do) and -1 - x for integers (~x in two's complement: no value
overflows, INT_MIN included).
"""

from . import dtypes
from .composite import Composer
from .ops import HANDLERS, Unsupported, _is_value, _result, _value, handles


def _flipped(c, x):
    if x.elt == "i1":
        raise Unsupported("a minimum of a bool tensor")
    if x.elt.startswith("complex"):
        raise Unsupported("a minimum of a complex tensor")
    if x.elt in dtypes.FLOATING:
        return c.unary("neg", x)
    return c.sub(-1, x)


def _dims(dim):
    if dim is None:
        return []
    return [int(dim)] if isinstance(dim, int) else [int(d) for d in dim]


@handles("amin")
def _amin(tr, node, x, dim=(), keepdim=False):
    c = Composer(tr)
    x = _value(tr, x)
    return _flipped(c, c.reduce("amax", _flipped(c, x), _dims(dim),
                                keepdim))


@handles("min")
def _min(tr, node, x, other=None, dim=None, keepdim=False):
    """min(x): the minimum; min(x, dim): (values, indices); min(x, other):
    the element-wise minimum."""
    c = Composer(tr)
    x = _value(tr, x)
    if _is_value(other):
        return HANDLERS["minimum"](tr, node, x, other)
    if other is not None:
        raise Unsupported(f"min with a {type(other).__name__} operand")
    flipped = _flipped(c, x)
    if dim is None:
        shape, elt = _result(node)
        return _flipped(c, tr.emit("max", [flipped], shape, elt))
    values, indices = HANDLERS["max"](tr, node, flipped, dim, keepdim)
    return _flipped(c, values), indices


@handles("argmin")
def _argmin(tr, node, x, dim=None, keepdim=False):
    c = Composer(tr)
    return HANDLERS["argmax"](tr, node, _flipped(c, _value(tr, x)), dim,
                              keepdim)


def _any_of(c, truth, dims, keepdim):
    ones = c.cast(truth, "f32")
    return c.binary("gt", c.reduce("amax", ones, dims, keepdim), 0.0)


@handles("any")
def _any(tr, node, x, dim=None, keepdim=False):
    c = Composer(tr)
    x = _value(tr, x)
    shape, elt = _result(node)
    return c.cast(_any_of(c, c.truth(x), _dims(dim), keepdim), elt)


@handles("all")
def _all(tr, node, x, dim=None, keepdim=False):
    """Not any x == 0."""
    c = Composer(tr)
    x = _value(tr, x)
    shape, elt = _result(node)
    zero = c.binary("eq", x, False if x.elt == "i1" else 0)
    return c.cast(c.binary("eq", _any_of(c, zero, _dims(dim), keepdim),
                           False), elt)


@handles("count_nonzero")
def _count_nonzero(tr, node, x, dim=()):
    c = Composer(tr)
    x = _value(tr, x)
    return c.reduce("sum", c.cast(c.truth(x), "i64"), _dims(dim), False)


def _variance(tr, x, dim, correction, keepdim, unbiased):
    """(variance, mean): mean((x - mean)^2) * n / max(n - correction, 0)."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.elt not in dtypes.FLOATING:
        raise Unsupported(f"the variance of a {x.elt} tensor")
    dims = [d % max(x.rank, 1) for d in _dims(dim)] or list(range(x.rank))
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    n = 1
    for d in dims:
        n *= x.shape[d]
    mean = c.reduce("mean", x, dims, True)
    deviation = c.sub(x, mean)
    variance = c.reduce("mean", c.mul(deviation, deviation), dims, keepdim)
    denominator = max(n - float(correction), 0.0)
    factor = n / denominator if denominator else float("inf")
    if factor != 1.0:
        variance = c.mul(variance, factor)
    if not keepdim:
        mean = c.reshape(mean, variance.shape)
    return variance, mean


def _variance_handler(root, with_mean):
    def handler(tr, node, x, dim=None, correction=None, keepdim=False,
                unbiased=None):
        variance, mean = _variance(tr, x, dim, correction, keepdim, unbiased)
        if root:
            variance = Composer(tr).unary("sqrt", variance)
        return (variance, mean) if with_mean else variance
    return handler


HANDLERS["var"] = _variance_handler(False, False)
HANDLERS["std"] = _variance_handler(True, False)
HANDLERS["var_mean"] = _variance_handler(False, True)
HANDLERS["std_mean"] = _variance_handler(True, True)


@handles("rms_norm")
def _rms_norm(tr, node, x, normalized_shape, weight=None, eps=None):
    """x / sqrt(mean(x^2 over the normalized dimensions) + eps), times the
    weight; eps defaults to the input dtype's machine epsilon."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.elt not in dtypes.FLOATING:
        raise Unsupported(f"rms_norm of a {x.elt} tensor")
    k = len(normalized_shape)
    if tuple(x.shape[x.rank - k:]) != tuple(int(n) for n in normalized_shape):
        raise Unsupported("rms_norm over a shape that is not x's last")
    eps = dtypes.finfo_eps(x.elt) if eps is None else float(eps)
    dims = list(range(x.rank - k, x.rank))
    mean_square = c.reduce("mean", c.mul(x, x), dims, True)
    out = c.div(x, c.unary("sqrt", c.add(mean_square, eps)))
    if weight is not None:
        out = c.mul(out, _value(tr, weight))
    return out


@handles("logsumexp", "special_logsumexp")
def _logsumexp(tr, node, x, dim=(), keepdim=False):
    """tp.logsumexp (its own op: autocast leaves it in its input's type, as
    eager does; its parts, exp and sum, are in the tables)."""
    from .ops import _array
    x = _value(tr, x)
    dims = [d % max(x.rank, 1) for d in _dims(dim)] or list(range(x.rank))
    shape, elt = _result(node)
    return tr.emit("logsumexp", [x], shape, elt, f"dim = {_array(dims)}" + (
        ", keepdim = true" if keepdim else ""))

