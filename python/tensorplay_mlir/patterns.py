"""Recomposition of the frontend's decompositions.

tensorplay's Decompose pass hands gelu over as primitives:
``x * (((x * 0.7071...).erf() + 1) * 0.5)`` (or ``(x * 0.5) * (erf(x *
0.7071...) + 1)``). Translated literally, that is five ops that autocast
decides one by one and the CPU code runs as five loops; as ``tp.gelu`` it is
one op, which autocast treats as the table says and the lowering fuses into
its producer. The match is exact: the constants must be 1/sqrt(2) (or a
division by sqrt(2)), 0.5 and 1, and the intermediate values must have no
other users.
"""

import math

from .ops import canonical_name

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_SQRT2 = math.sqrt(2.0)


def _is_node(x):
    return hasattr(x, "op") and hasattr(x, "meta")


def _call(node, *names):
    return _is_node(node) and node.op in ("call_function", "call_method") \
        and canonical_name(node) in names and not node.kwargs


def _close(value, expected):
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and abs(float(value) - expected) <= 1e-12 * abs(expected)


def _split(node, predicate):
    """(node argument, other argument) of a commutative binary `node` where
    the other argument satisfies `predicate`, else None."""
    if len(node.args) != 2:
        return None
    a, b = node.args
    if _is_node(a) and predicate(b):
        return a, b
    if _is_node(b) and predicate(a):
        return b, a
    return None


def _single_use(*nodes):
    return all(len(n.users) == 1 for n in nodes)


def _scaled_erf(node, x):
    """Whether `node` is erf(x * 1/sqrt(2)) (or erf(x / sqrt(2))) + 1; the
    intermediate nodes when it is."""
    if not _call(node, "add"):
        return None
    split = _split(node, lambda c: _close(c, 1.0))
    if split is None or not _call(split[0], "erf") or len(split[0].args) != 1:
        return None
    erf = split[0]
    scaled = erf.args[0]
    if _call(scaled, "mul"):
        inner = _split(scaled, lambda c: _close(c, _INV_SQRT2))
    elif _call(scaled, "truediv", "div") and len(scaled.args) == 2 and \
            _close(scaled.args[1], _SQRT2):
        inner = (scaled.args[0], scaled.args[1])
    else:
        return None
    if inner is None or inner[0] is not x:
        return None
    return [node, erf, scaled]


def _match(root):
    """(x, absorbed nodes) when `root` computes gelu(x) exactly."""
    if not _call(root, "mul") or len(root.args) != 2:
        return None
    for x, other in (root.args, root.args[::-1]):
        if not _is_node(x) or not _is_node(other) or not _call(other, "mul"):
            continue
        # x * ((erf(x / sqrt2) + 1) * 0.5)
        half = _split(other, lambda c: _close(c, 0.5))
        if half is not None:
            inner = _scaled_erf(half[0], x)
            if inner is not None and _single_use(other, *inner):
                return x, [other] + inner
        # (x * 0.5) * (erf(x / sqrt2) + 1)
        half = _split(x, lambda c: _close(c, 0.5)) if _call(x, "mul") else None
        if half is not None:
            inner = _scaled_erf(other, half[0])
            if inner is not None and _single_use(x, *inner):
                return half[0], [x] + inner
    return None


def find_gelus(graph):
    """({root node: x node}, set of absorbed nodes) for every exact gelu."""
    roots, absorbed = {}, set()
    for node in graph.nodes:
        if node in absorbed:
            continue
        match = _match(node)
        if match is not None:
            x, inner = match
            roots[node] = x
            absorbed.update(inner)
    return roots, absorbed
