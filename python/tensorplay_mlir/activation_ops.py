"""Element-wise operators: elu (selu, celu), mish and log_sigmoid as their
tp ops, and those without a tp op written with unlisted tp ops
(composite.py says why): relu6, hardtanh, hardsigmoid, hardshrink,
softshrink, tanhshrink, threshold, glu, sinc, deg2rad/rad2deg, square,
rsub, lerp, heaviside, fmax/fmin, sign/sgn, the float predicates (isnan,
isinf, isfinite, isposinf, isneginf), nan_to_num and the logical ops; and
the backward operators of 1.1's training graphs for activations
(hardtanh, hardsigmoid, hardswish, silu, leaky_relu, elu, softplus, glu,
mish, log_sigmoid) and mse_loss.

Each follows eager's kernel formula, its NaN and signed-zero cases
included (softshrink keeps -0.0 and NaN, sign(NaN) is 0 and sgn(NaN) NaN,
heaviside(NaN) is 1, as tensorplay's kernels give).
"""

import math

from . import dtypes
from .composite import Composer, broadcast
from .ops import (HANDLERS, Unsupported, _clamp_between, _dim, _is_value,
                  _operand, _result, _value, handles)


def _float(x, what):
    if x.elt not in dtypes.FLOATING:
        raise Unsupported(f"{what} of a {x.elt} tensor")
    return x


@handles("relu6")
def _relu6(tr, node, x, inplace=False):
    return _clamp_between(tr, node, x, 0, 6)


@handles("hardtanh")
def _hardtanh(tr, node, x, min_val=-1.0, max_val=1.0, inplace=False):
    return _clamp_between(tr, node, x, min_val, max_val)


def _elu_attrs(alpha, scale, input_scale):
    from .ops import f64_attr
    return ", ".join(f64_attr(n, v) for n, v in (
        ("alpha", alpha), ("scale", scale), ("input_scale", input_scale))
        if float(v) != 1.0)


def _emit_elu(tr, node, x, alpha=1.0, scale=1.0, input_scale=1.0):
    x = _float(_value(tr, x), "elu")
    shape, elt = _result(node)
    return tr.emit("elu", [x], shape, elt,
                   _elu_attrs(alpha, scale, input_scale))


@handles("elu")
def _elu(tr, node, x, alpha=1.0, scale=1.0, input_scale=1.0, inplace=False):
    return _emit_elu(tr, node, x, alpha, scale, input_scale)


# selu's constants, as tensorplay's (and PyTorch's) selu.
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@handles("selu")
def _selu(tr, node, x, inplace=False):
    return _emit_elu(tr, node, x, _SELU_ALPHA, _SELU_SCALE)


@handles("celu")
def _celu(tr, node, x, alpha=1.0, inplace=False):
    """elu with input_scale 1 / alpha."""
    if float(alpha) == 0.0:
        raise Unsupported("celu with alpha 0")
    return _emit_elu(tr, node, x, alpha, 1.0, 1.0 / float(alpha))


@handles("mish")
def _mish(tr, node, x, inplace=False):
    shape, elt = _result(node)
    return tr.emit("mish", [_float(_value(tr, x), "mish")], shape, elt)


@handles("log_sigmoid", "logsigmoid")
def _log_sigmoid(tr, node, x):
    shape, elt = _result(node)
    return tr.emit("log_sigmoid", [_float(_value(tr, x), "log_sigmoid")],
                   shape, elt)


@handles("log_sigmoid_forward")
def _log_sigmoid_forward(tr, node, x):
    """(output, buffer): the buffer eager's CPU backward does not read
    (zeros of its recorded shape)."""
    from .ops import _meta_of_part
    x = _float(_value(tr, x), "log_sigmoid")
    out = tr.emit("log_sigmoid", [x], x.shape, x.elt)
    meta = _meta_of_part(node, 1)
    return out, (tr.constant(0.0, meta[1], meta[0]) if meta else None)


@handles("hardsigmoid")
def _hardsigmoid(tr, node, x, inplace=False):
    """min(max(x + 3, 0), 6) / 6."""
    c = Composer(tr)
    x = _float(_value(tr, x), "hardsigmoid")
    return c.div(c.clamp(c.add(x, 3.0), 0.0, 6.0), 6.0)


@handles("hardshrink")
def _hardshrink(tr, node, x, lambd=0.5):
    c = Composer(tr)
    x = _float(_value(tr, x), "hardshrink")
    return c.where(c.binary("le", c.unary("abs", x), float(lambd)), 0.0, x)


@handles("softshrink")
def _softshrink(tr, node, x, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, x * 0 between (which
    keeps -0.0 and NaN, as eager does)."""
    c = Composer(tr)
    x = _float(_value(tr, x), "softshrink")
    lambd = float(lambd)
    return c.where(c.binary("gt", x, lambd), c.sub(x, lambd),
                   c.where(c.binary("lt", x, -lambd), c.add(x, lambd),
                           c.mul(x, 0.0)))


@handles("tanhshrink")
def _tanhshrink(tr, node, x):
    c = Composer(tr)
    x = _float(_value(tr, x), "tanhshrink")
    return c.sub(x, c.unary("tanh", x))


@handles("threshold")
def _threshold(tr, node, x, threshold, value, inplace=False):
    """value where x <= threshold, else x (NaN stays)."""
    c = Composer(tr)
    x = _value(tr, x)
    shape, elt = _result(node)
    return c.where(c.binary("le", x, threshold), tr.constant(value, elt), x)


def _halves(c, x, dim):
    d = _dim(dim, x.rank) % x.rank
    n = x.shape[d]
    if n % 2:
        raise Unsupported(f"glu over a dimension of odd size {n}")
    return c.slice(x, d, 0, n // 2), c.slice(x, d, n // 2, n), d


@handles("glu")
def _glu(tr, node, x, dim=-1):
    c = Composer(tr)
    a, b, _ = _halves(c, _float(_value(tr, x), "glu"), dim)
    return c.mul(a, c.unary("sigmoid", b))


@handles("sinc")
def _sinc(tr, node, x):
    """sin(pi x) / (pi x), 1 at 0."""
    c = Composer(tr)
    x = _float(_value(tr, x), "sinc")
    px = c.mul(x, math.pi)
    return c.where(c.binary("eq", x, 0.0), 1.0,
                   c.div(c.unary("sin", px), px))


def _scaled(factor):
    def handler(tr, node, x):
        return Composer(tr).mul(_float(_value(tr, x), "a conversion"),
                                factor)
    return handler


HANDLERS["deg2rad"] = _scaled(math.pi / 180.0)
HANDLERS["rad2deg"] = _scaled(180.0 / math.pi)


@handles("square")
def _square(tr, node, x):
    x = _value(tr, x)
    if x.elt == "i1":
        raise Unsupported("square of a bool tensor")
    return Composer(tr).mul(x, x)


@handles("positive")
def _positive(tr, node, x):
    return _value(tr, x)


@handles("rsub")
def _rsub(tr, node, x, other, alpha=1):
    """other - alpha * x."""
    return HANDLERS["sub"](tr, node, other, x, alpha=alpha)


@handles("lerp")
def _lerp(tr, node, x, end, weight):
    """Eager's two-sided formula: x + w (end - x) for w < 0.5, else
    end - (end - x)(1 - w)."""
    c = Composer(tr)
    x, end = _float(_value(tr, x), "lerp"), _value(tr, end)
    diff = c.sub(end, x)
    if not isinstance(weight, (int, float)):
        w = _value(tr, weight)
        return c.where(c.binary("lt", c.unary("abs", w), 0.5),
                       c.add(x, c.mul(w, diff)),
                       c.sub(end, c.mul(diff, c.sub(1.0, w))))
    weight = float(weight)
    if abs(weight) < 0.5:
        return c.add(x, c.mul(diff, weight))
    return c.sub(end, c.mul(diff, 1.0 - weight))


@handles("heaviside")
def _heaviside(tr, node, x, values):
    """values at 0, 0 below, 1 above (and at NaN, as tensorplay gives)."""
    c = Composer(tr)
    x, values = _value(tr, x), _value(tr, values)
    if x.elt != values.elt:
        raise Unsupported("heaviside of two dtypes")
    return c.where(c.binary("eq", x, 0), values,
                   c.where(c.binary("lt", x, 0), 0, 1, elt=x.elt))


def _nan_ignoring(op):
    def handler(tr, node, x, other):
        c = Composer(tr)
        x, other = _value(tr, x), _value(tr, other)
        best = c.binary(op, x, other)
        if best.elt not in dtypes.FLOATING:
            return best
        return c.where(c.binary("ne", other, other), x,
                       c.where(c.binary("ne", x, x), other, best))
    return handler


HANDLERS["fmax"] = _nan_ignoring("maximum")
HANDLERS["fmin"] = _nan_ignoring("minimum")


@handles("sign", "sgn")
def _sign(tr, node, x):
    """(x > 0) - (x < 0): 0 for NaN in sign, NaN kept in sgn."""
    from .ops import canonical_name
    c = Composer(tr)
    x = _value(tr, x)
    if x.elt == "i1":
        return x
    if x.elt.startswith("complex"):
        raise Unsupported("sign of a complex tensor")
    s = c.sub(c.cast(c.binary("gt", x, 0), x.elt),
              c.cast(c.binary("lt", x, 0), x.elt))
    if canonical_name(node) == "sgn" and x.elt in dtypes.FLOATING:
        s = c.where(c.binary("ne", x, x), x, s)
    return s


# --- tensorplay's fused element-wise operators --------------------------------

@handles("silu_mul", "fused_swiglu")
def _silu_mul(tr, node, gate, up):
    """silu(gate) * up."""
    c = Composer(tr)
    gate = _float(_value(tr, gate), "silu_mul")
    return c.mul(c.unary("silu", gate), _value(tr, up))


@handles("silu_and_mul")
def _silu_and_mul(tr, node, x):
    """silu of the last dimension's first half times its second half."""
    c = Composer(tr)
    a, b, _ = _halves(c, _float(_value(tr, x), "silu_and_mul"), -1)
    return c.mul(c.unary("silu", a), b)


@handles("squared_difference")
def _squared_difference(tr, node, x, other):
    c = Composer(tr)
    d = c.sub(_value(tr, x), _value(tr, other))
    return c.mul(d, d)


@handles("fused_mul_add")
def _fused_mul_add(tr, node, x, other, addend):
    c = Composer(tr)
    return c.add(c.mul(_value(tr, x), other), addend)


@handles("_add_relu", "add_relu")
def _add_relu(tr, node, x, other, alpha=1):
    """relu(x + alpha * other)."""
    total = HANDLERS["add"](tr, node, x, other, alpha=alpha)
    return Composer(tr).unary("relu", total)


# --- predicates and nan_to_num ----------------------------------------------

def _predicate(test):
    def handler(tr, node, x):
        c = Composer(tr)
        x = _value(tr, x)
        if x.elt.startswith("complex"):
            raise Unsupported("a predicate of a complex tensor")
        return test(c, x, x.elt in dtypes.FLOATING)
    return handler


HANDLERS["isnan"] = _predicate(lambda c, x, f: c.binary("ne", x, x))
HANDLERS["isinf"] = _predicate(
    lambda c, x, f: c.binary("eq", c.unary("abs", x), math.inf) if f
    else c.binary("ne", x, x))
HANDLERS["isposinf"] = _predicate(
    lambda c, x, f: c.binary("eq", x, math.inf) if f
    else c.binary("ne", x, x))
HANDLERS["isneginf"] = _predicate(
    lambda c, x, f: c.binary("eq", x, -math.inf) if f
    else c.binary("ne", x, x))
# x - x is 0 exactly for finite x, NaN for inf and NaN.
HANDLERS["isfinite"] = _predicate(
    lambda c, x, f: c.binary("eq", c.sub(x, x), 0.0) if f
    else c.binary("eq", x, x))
# True everywhere for a real tensor (NaN included).
HANDLERS["isreal"] = _predicate(
    lambda c, x, f: c.either(c.binary("eq", x, x), c.binary("ne", x, x)))


@handles("isclose")
def _isclose(tr, node, x, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """x == other, or both finite with |x - other| <= atol + rtol |other|;
    with equal_nan, NaN beside NaN too."""
    c = Composer(tr)
    x, other = _value(tr, x), _value(tr, other)
    if x.elt != other.elt:
        raise Unsupported("isclose of two dtypes")
    same = c.binary("eq", x, other)
    if x.elt not in dtypes.FLOATING:
        return same
    gap = c.unary("abs", c.sub(x, other))
    bound = c.add(c.mul(c.unary("abs", other), float(rtol)), float(atol))
    finite = c.binary("eq", c.sub(gap, gap), 0.0)
    close = c.either(same, c.both(finite, c.binary("le", gap, bound)))
    if equal_nan:
        close = c.either(close, c.both(c.binary("ne", x, x),
                                       c.binary("ne", other, other)))
    return close


@handles("isin")
def _isin(tr, node, elements, test_elements, assume_unique=False,
          invert=False):
    """Whether each element equals any test element."""
    c = Composer(tr)
    values = [_operand(tr, v, elements if _is_value(elements) else
                       test_elements) for v in (elements, test_elements)]
    e, t = values
    flat = c.reshape(t, (max(1, math.prod(t.shape)),))
    wide = c.reshape(e, e.shape + (1,))
    hits = c.cast(c.binary("eq", wide, flat), "f32")
    found = c.binary("gt", c.reduce("amax", hits, [e.rank], False), 0.0)
    return c.binary("eq", found, False) if invert else found


@handles("nan_to_num")
def _nan_to_num(tr, node, x, nan=0.0, posinf=None, neginf=None):
    c = Composer(tr)
    x = _value(tr, x)
    if x.elt not in dtypes.FLOATING:
        return x
    top = dtypes.finfo_max(x.elt)
    posinf = top if posinf is None else float(posinf)
    neginf = -top if neginf is None else float(neginf)
    fill = lambda v: tr.constant(v, x.elt)  # noqa: E731  (exact in x's type)
    out = c.where(c.binary("eq", x, math.inf), fill(posinf), x)
    out = c.where(c.binary("eq", x, -math.inf), fill(neginf), out)
    return c.where(c.binary("ne", x, x), fill(0.0 if nan is None else nan),
                   out)


def _logical(combine):
    def handler(tr, node, x, other):
        c = Composer(tr)
        return combine(c, c.truth(_value(tr, x)), c.truth(_value(tr, other)))
    return handler


HANDLERS["logical_and"] = _logical(lambda c, a, b: c.both(a, b))
HANDLERS["logical_or"] = _logical(lambda c, a, b: c.either(a, b))
HANDLERS["logical_xor"] = _logical(lambda c, a, b: c.binary("ne", a, b))


def _bitwise(logical):
    """The bitwise ops of booleans are the logical ones (tp has no bitwise
    ops of integers)."""
    def handler(tr, node, x, other):
        values = [v for v in (x, other) if _is_value(v)]
        if any(v.elt != "i1" for v in values) or any(
                not isinstance(v, bool) for v in (x, other)
                if not _is_value(v)):
            raise Unsupported("a bitwise op of integers (tp has none)")
        c = Composer(tr)
        return logical(c, _operand(tr, x, other), _operand(tr, other, x))
    return handler


for _names, _logic in ((("bitwise_and", "__and__"), lambda c, a, b:
                        c.both(a, b)),
                       (("bitwise_or", "__or__"), lambda c, a, b:
                        c.either(a, b)),
                       (("bitwise_xor", "__xor__"), lambda c, a, b:
                        c.binary("ne", a, b))):
    for _name in _names:
        HANDLERS[_name] = _bitwise(_logic)


@handles("bitwise_not")
def _bitwise_not(tr, node, x):
    x = _value(tr, x)
    if x.elt != "i1":
        raise Unsupported("bitwise_not of integers (tp has no bitwise ops)")
    return Composer(tr).binary("eq", x, False)


# --- backward operators (1.1's training graphs) ------------------------------

@handles("hardtanh_backward")
def _hardtanh_backward(tr, node, grad, x, min_val, max_val):
    """0 at and beyond the bounds, grad between."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    outside = c.either(c.binary("le", x, min_val), c.binary("ge", x, max_val))
    return c.where(outside, 0.0, grad)


@handles("hardsigmoid_backward")
def _hardsigmoid_backward(tr, node, grad, x):
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    inside = c.both(c.binary("gt", x, -3.0), c.binary("lt", x, 3.0))
    return c.where(inside, c.div(grad, 6.0), 0.0)


@handles("hardswish_backward")
def _hardswish_backward(tr, node, grad, x):
    """0 below -3, grad (x / 3 + 1/2) up to 3, grad above."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    middle = c.mul(grad, c.add(c.div(x, 3.0), 0.5))
    return c.where(c.binary("lt", x, -3.0), 0.0,
                   c.where(c.binary("le", x, 3.0), middle, grad))


@handles("silu_backward")
def _silu_backward(tr, node, grad, x):
    """grad s (1 + x (1 - s)), s = sigmoid(x)."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    s = c.unary("sigmoid", x)
    return c.mul(c.mul(grad, s), c.add(1.0, c.mul(x, c.sub(1.0, s))))


@handles("leaky_relu_backward")
def _leaky_relu_backward(tr, node, grad, x, negative_slope, self_is_result):
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    return c.where(c.binary("gt", x, 0.0), grad,
                   c.mul(grad, float(negative_slope)))


@handles("elu_backward")
def _elu_backward(tr, node, grad, alpha, scale, input_scale, is_result,
                  self_or_result):
    """Eager's two forms: from the result y (y <= 0: grad input_scale
    (y + alpha scale)) or from the input x (x <= 0: grad input_scale alpha
    scale exp(x input_scale)); grad scale above 0."""
    c = Composer(tr)
    grad, v = _value(tr, grad), _value(tr, self_or_result)
    alpha, scale, input_scale = float(alpha), float(scale), float(input_scale)
    if is_result:
        negative = c.mul(c.mul(grad, input_scale), c.add(v, alpha * scale))
    else:
        negative = c.mul(c.mul(grad, input_scale * alpha * scale),
                         c.unary("exp", c.mul(v, input_scale)))
    return c.where(c.binary("le", v, 0.0), negative, c.mul(grad, scale))


@handles("softplus_backward")
def _softplus_backward(tr, node, grad, x, beta, threshold):
    """grad above the threshold (of x beta), else grad z / (z + 1) with
    z = exp(x beta)."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    xb = c.mul(x, float(beta))
    z = c.unary("exp", xb)
    return c.where(c.binary("gt", xb, float(threshold)), grad,
                   c.div(c.mul(grad, z), c.add(z, 1.0)))


@handles("mish_backward")
def _mish_backward(tr, node, grad, x):
    """grad (tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2)), sp = softplus(x)."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    t = c.unary("tanh", c.unary("softplus", x))
    slope = c.mul(c.mul(x, c.unary("sigmoid", x)), c.sub(1.0, c.mul(t, t)))
    return c.mul(grad, c.add(t, slope))


@handles("log_sigmoid_backward")
def _log_sigmoid_backward(tr, node, grad, x, buffer=None):
    """grad sigmoid(-x)."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    return c.mul(grad, c.unary("sigmoid", c.unary("neg", x)))


@handles("glu_backward")
def _glu_backward(tr, node, grad, x, dim):
    """(grad sigmoid(b), grad a sigmoid(b) (1 - sigmoid(b))) joined."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    a, b, d = _halves(c, x, dim)
    s = c.unary("sigmoid", b)
    return c.cat([c.mul(grad, s),
                  c.mul(c.mul(c.mul(grad, a), s), c.sub(1.0, s))], d)


@handles("mse_loss_backward")
def _mse_loss_backward(tr, node, grad, x, target, reduction):
    """2 (x - target) grad, over the element count for 'mean'."""
    c = Composer(tr)
    grad, x, target = _value(tr, grad), _value(tr, x), _value(tr, target)
    if reduction not in (0, 1, 2):
        raise Unsupported(f"reduction code {reduction}")
    shape, elt = _result(node)
    factor = 2.0
    if reduction == 1:
        factor /= max(math.prod(broadcast(x.shape, target.shape)), 1)
    out = c.mul(c.mul(c.sub(x, target), factor), grad)
    return out if out.elt == elt else tr.cast(out, elt)


@handles("hardshrink_backward", "softshrink_backward")
def _shrink_backward(tr, node, grad, x, lambd):
    """0 where -lambd <= x <= lambd, grad elsewhere."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    inside = c.both(c.binary("ge", x, -float(lambd)),
                    c.binary("le", x, float(lambd)))
    return c.where(inside, 0.0, grad)


@handles("clamp_backward")
def _clamp_backward(tr, node, grad, x, min=None, max=None):
    """grad where min <= x <= max (each bound where given), else 0."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    keep = None
    for bound, op in ((min, "ge"), (max, "le")):
        if bound is None:
            continue
        test = c.binary(op, x, float(bound))
        keep = test if keep is None else c.both(keep, test)
    return grad if keep is None else c.where(keep, grad, 0.0)


@handles("logit_backward")
def _logit_backward(tr, node, grad, x, eps=None):
    """grad / (x (1 - x)); with eps, 0 outside [eps, 1 - eps]; without,
    NaN outside [0, 1] (as eager)."""
    c = Composer(tr)
    grad, x = _value(tr, grad), _value(tr, x)
    slope = c.div(grad, c.mul(x, c.sub(1.0, x)))
    if eps is None:
        outside = c.either(c.binary("lt", x, 0.0), c.binary("gt", x, 1.0))
        return c.where(outside, float("nan"), slope)
    outside = c.either(c.binary("lt", x, float(eps)),
                       c.binary("gt", x, 1.0 - float(eps)))
    return c.where(outside, 0.0, slope)
