"""Recomposition of the frontend's decompositions.

tensorplay's Decompose pass hands activations over as primitives: gelu as
``x * ((erf(x * 0.7071...) + 1) * 0.5)``, silu as ``x * (1 / (exp(-x) +
1))``, softplus as ``log(exp(x) + 1)``. Translated literally, gelu is five
ops that autocast decides one by one and the CPU code runs as five loops
(and softplus overflows to inf above x = 88, where eager's kernel returns
x); recomposed, it is one tp op, which autocast treats as the table says,
the lowering fuses into its producer and which computes what the user
wrote. A match is exact: the constants must be the decomposition's (to
1e-12 relative), both operand orders of commutative ops are accepted, and
every intermediate value must have no other user.

Each recomposition is (tp op, attributes) for a root node and its input x.
"""

import math

from .ops import canonical_name

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_SQRT2 = math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _is_node(x):
    return hasattr(x, "op") and hasattr(x, "meta")


def _call(node, *names):
    return _is_node(node) and node.op in ("call_function", "call_method") \
        and canonical_name(node) in names and not node.kwargs


def _const(expected):
    def predicate(value):
        return isinstance(value, (int, float)) and not isinstance(
            value, bool) and abs(float(value) - expected) <= \
            1e-12 * abs(expected)
    return predicate


def _unary(node, *names):
    """The argument of a one-argument call of `names`, else None."""
    if _call(node, *names) and len(node.args) == 1:
        return node.args[0]
    return None


def _with_const(node, name, expected):
    """The node operand of commutative binary `name`(operand, constant)."""
    if not _call(node, name) or len(node.args) != 2:
        return None
    a, b = node.args
    is_c = _const(expected)
    if _is_node(a) and is_c(b):
        return a
    if _is_node(b) and is_c(a):
        return b
    return None


def _pairs(node, name):
    """(p, q) and (q, p) for a commutative binary `name`(p, q) of nodes."""
    if not _call(node, name) or len(node.args) != 2:
        return []
    a, b = node.args
    if not (_is_node(a) and _is_node(b)):
        return []
    return [(a, b), (b, a)]


def _scaled(node, x, factor):
    """Whether `node` is x * factor (or x / (1 / factor))."""
    if _with_const(node, "mul", factor) is x:
        return True
    return _call(node, "truediv") and len(node.args) == 2 and \
        node.args[0] is x and _const(1.0 / factor)(node.args[1])


def _sigmoid(node):
    """(x, intermediates) when `node` is 1 / (exp(-x) + 1)."""
    if _call(node, "truediv") and len(node.args) == 2 and \
            _const(1.0)(node.args[0]):
        denominator = node.args[1]
    else:
        denominator = _unary(node, "reciprocal")
    shifted = _with_const(denominator, "add", 1.0)
    exp = _unary(shifted, "exp")
    x = _unary(exp, "neg")
    if x is None:
        return None
    return x, [node, denominator, shifted, exp]


def _silu(node):
    for x, other in _pairs(node, "mul"):
        match = _sigmoid(other)
        if match is not None and match[0] is x:
            return x, match[1], ("silu", "")
    return None


def _softplus(node):
    inner = _unary(node, "log")
    if inner is not None:
        exp = _with_const(inner, "add", 1.0)
        x = _unary(exp, "exp")
        if x is not None:
            return x, [inner, exp], ("softplus", "")
    exp = _unary(node, "log1p")
    x = _unary(exp, "exp")
    if x is not None:
        return x, [exp], ("softplus", "")
    return None


def _gelu_erf_plus_one(node, x):
    """[intermediates] when `node` is erf(x / sqrt(2)) + 1."""
    erf = _with_const(node, "add", 1.0)
    scaled = _unary(erf, "erf")
    if scaled is None or not _scaled(scaled, x, _INV_SQRT2):
        return None
    return [node, erf, scaled]


def _gelu_tanh_plus_one(node, x):
    """[intermediates] when `node` is tanh(sqrt(2/pi) (x + 0.044715 x^3)) + 1."""
    tanh = _with_const(node, "add", 1.0)
    scaled = _unary(tanh, "tanh")
    inner = _with_const(scaled, "mul", _SQRT_2_OVER_PI)
    for a, cubic_term in _pairs(inner, "add"):
        if a is not x:
            continue
        cube = _with_const(cubic_term, "mul", 0.044715)
        for p, square in _pairs(cube, "mul"):
            if p is x and any(u is x and v is x for u, v in _pairs(square, "mul")):
                return [node, tanh, scaled, inner, cubic_term, cube, square]
    return None


_GELU_FORMS = ((_gelu_erf_plus_one, ""),
               (_gelu_tanh_plus_one, "approximate = #tp.approximate<tanh>"))


def _gelu(node):
    for x, other in _pairs(node, "mul"):
        half = _with_const(other, "mul", 0.5)  # x * (plus_one * 0.5)
        base = _with_const(x, "mul", 0.5)  # (x * 0.5) * plus_one
        for plus_one, attrs in _GELU_FORMS:
            if half is not None:
                inner = plus_one(half, x)
                if inner is not None:
                    return x, [other] + inner, ("gelu", attrs)
            if base is not None:
                inner = plus_one(other, base)
                if inner is not None:
                    return base, [x] + inner, ("gelu", attrs)
    return None


def _sigmoid_root(node):
    match = _sigmoid(node)
    if match is None:
        return None
    x, inner = match
    return x, inner[1:], ("sigmoid", "")


_MATCHERS = [_gelu, _silu, _softplus, _sigmoid_root]


def find_recompositions(graph):
    """({root node: (x node, tp op, attributes)}, set of absorbed nodes)."""
    roots, absorbed = {}, set()
    for node in reversed(list(graph.nodes)):
        if node in absorbed:
            continue
        for matcher in _MATCHERS:
            match = matcher(node)
            if match is None:
                continue
            x, inner, (op, attrs) = match
            inner = [n for n in inner if n is not node]
            if all(len(n.users) == 1 for n in inner) and \
                    not any(n in roots for n in inner):
                roots[node] = (x, op, attrs)
                absorbed.update(inner)
                break
    return roots, absorbed
