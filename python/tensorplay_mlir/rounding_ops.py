"""Rounding without a tp op of its own: trunc is tp.div by 1 with
rounding_mode "trunc" (math.trunc of the exact quotient), and floor, ceil,
round (half to even, with decimals), frac, floor_divide and div's rounding
modes are written from it with comparisons and selects (composite.py says
why). Each keeps eager's special values: infinities and NaN pass through,
the sign of a zero result is the input's (floor(-0.0) and ceil(-0.3) are
-0.0), and the gradient is zero everywhere (the rounded quotient's rule).

floor_divide and div(rounding_mode="floor") are floor(a / b) of the rounded
quotient, as tensorplay's kernels compute them (1 // 0.1 is 10.0 in f32).
Integer operands are refused for the divisions: tp's integer division has
no check for a zero divisor.
"""

from . import dtypes
from .composite import Composer
from .ops import HANDLERS, Unsupported, _is_value, _operand, _value, handles


def trunc(c, x):
    return c.tr.emit("div", [x, c.tr.constant(1.0, x.elt)], x.shape, x.elt,
                     'rounding_mode = "trunc"')


def floor(c, x):
    t = trunc(c, x)
    return c.where(c.binary("gt", t, x), c.sub(t, 1.0), t)


def ceil(c, x):
    t = trunc(c, x)
    return c.where(c.binary("lt", t, x), c.add(t, 1.0), t)


def round_half_even(c, x):
    """t = trunc(x) moved one step away from zero where |x - t| > 1/2, or
    = 1/2 with t odd."""
    t = trunc(c, x)
    distance = c.unary("abs", c.sub(x, t))
    odd = c.binary("ne", c.sub(t, c.mul(trunc(c, c.div(t, 2.0)), 2.0)), 0.0)
    up = c.either(c.binary("gt", distance, 0.5),
                  c.both(c.binary("eq", distance, 0.5), odd))
    step = c.where(c.binary("lt", x, 0.0), -1.0, 1.0, elt=x.elt)
    return c.where(up, c.add(t, step), t)


def _rounding(fn):
    def handler(tr, node, x):
        x = _value(tr, x)
        if x.elt not in dtypes.FLOATING:
            return x  # integers are their own rounding
        return fn(Composer(tr), x)
    return handler


HANDLERS["trunc"] = HANDLERS["fix"] = _rounding(trunc)
HANDLERS["floor"] = _rounding(floor)
HANDLERS["ceil"] = _rounding(ceil)


@handles("frac")
def _frac(tr, node, x):
    c = Composer(tr)
    x = _value(tr, x)
    if x.elt not in dtypes.FLOATING:
        raise Unsupported(f"frac of a {x.elt} tensor")
    return c.sub(x, trunc(c, x))


@handles("round", "special_round")
def _round(tr, node, x, decimals=0):
    """Half to even; with decimals, of x * 10^d (over 10^-d for d < 0) and
    scaled back, as eager does."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.elt not in dtypes.FLOATING:
        return x
    if type(decimals) is object:
        decimals = 0  # 1.0's functional round: a sentinel for "absent"
    decimals = int(decimals)
    if decimals == 0:
        return round_half_even(c, x)
    scale = 10.0 ** abs(decimals)
    if decimals > 0:
        return c.div(round_half_even(c, c.mul(x, scale)), scale)
    return c.mul(round_half_even(c, c.div(x, scale)), scale)


def rounded_division(tr, a, b, mode):
    """a / b rounded by `mode` ('trunc' or 'floor') for floating operands."""
    c = Composer(tr)
    if any(_is_value(v) and v.elt not in dtypes.FLOATING for v in (a, b)):
        raise Unsupported("a rounded division of integers (tp's integer "
                          "division has no check for a zero divisor)")
    q = c.div(a, b)
    if mode == "trunc":
        return trunc(c, q)
    if mode == "floor":
        return floor(c, q)
    raise Unsupported(f"rounding_mode={mode!r}")


@handles("floor_divide")
def _floor_divide(tr, node, x, other):
    x = _value(tr, x)
    return rounded_division(tr, x, _operand(tr, other, x), "floor")


@handles("float_power")
def _float_power(tr, node, x, exponent):
    """pow in f64 (operands cast to f64: autocast leaves f64 ops alone),
    cast to the node's dtype (f64 on 1.1; 1.0's eager returns the input's
    dtype)."""
    from .ops import _result
    if not _is_value(x):
        raise Unsupported("float_power of a scalar base")
    x = tr.cast(_value(tr, x), "f64")
    shape, elt = _result(node)
    if _is_value(exponent):
        power = tr.emit("pow", [x, tr.cast(exponent, "f64")], shape, "f64")
    elif isinstance(exponent, (int, float)) and not isinstance(exponent,
                                                               bool):
        from .translate import format_float
        power = tr.emit("pow", [x], shape, "f64", "scalar_exponent = "
                        f"{format_float(float(exponent))} : f64")
    else:
        raise Unsupported(f"an exponent of type {type(exponent).__name__}")
    return tr.cast(power, elt)
