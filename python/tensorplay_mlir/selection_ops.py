"""Handlers of the ops that select, place or create values: topk, argmax,
gather, scatter_add, index_copy, clamp with tensor bounds, batch_norm in
inference form, and the factories (zeros, ones, full, arange and their
_like / new_ forms) as tp.constant.

The factories become constants at translation: every shape is static here
(a dynamic batch would need tp ops for them; see docs/Python.md).
"""

from . import dtypes
from .ops import (Unsupported, _dim, _is_value, _meta_of_part, _result,
                  _scalar_bound, _value, canonical_name, handles)


@handles("topk")
def _topk(tr, node, x, k, dim=-1, largest=True, sorted=True, impl=0):
    x = _value(tr, x)
    meta = _meta_of_part(node, 0) or _meta_of_part(node, 1)
    if meta is None:
        raise Unsupported("topk whose results are not used")
    attrs = f"k = {int(k)} : i64, dim = {_dim(dim, x.rank)} : i64"
    if not largest:
        attrs += ", largest = false"
    if not sorted:
        attrs += ", sorted = false"
    return tuple(tr.emit_multi("topk", [x], [(meta[0], x.elt),
                                             (meta[0], "i64")], attrs))


@handles("argmax")
def _argmax(tr, node, x, dim=None, keepdim=False):
    x = _value(tr, x)
    shape, elt = _result(node)
    attrs = []
    if dim is not None:
        attrs.append(f"dim = {_dim(dim, x.rank)} : i64")
    if keepdim:
        attrs.append("keepdim = true")
    return tr.emit("argmax", [x], shape, elt, ", ".join(attrs))


@handles("gather")
def _gather(tr, node, x, dim, index, sparse_grad=False):
    x, index = _value(tr, x), _value(tr, index)
    shape, elt = _result(node)
    return tr.emit("gather", [x, index], shape, elt,
                   f"dim = {_dim(dim, x.rank)} : i64")


@handles("scatter_add", "index_copy")
def _scatter(tr, node, x, dim, index, src):
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), [x, _value(tr, index),
                                          _value(tr, src)],
                   shape, elt, f"dim = {_dim(dim, x.rank)} : i64")


def _broadcast(a, b):
    """numpy's broadcast of two static shapes."""
    a, b = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    return tuple(max(x, y) if 1 in (x, y) else x for x, y in zip(a, b))


def _promote(a, b, fallback):
    """Eager's promotion of two tensors' dtypes, for the float cases a
    clamp meets (f64 over f32 over bf16 / f16; bf16 with f16 is f32; a
    float over an integer); `fallback` (the graph's dtype) elsewhere."""
    floats = [e for e in (a, b) if e in dtypes.FLOATING]
    if a == b:
        return a
    if len(floats) == 1:
        return floats[0]
    if len(floats) == 2:
        return "f64" if "f64" in floats else "f32"
    return fallback


def clamp_with_tensors(tr, node, x, lo, hi):
    """clamp with a tensor bound: maximum with the lower bound, then
    minimum with the upper (NaN propagates, min > max gives max, as eager's
    clamp), each promoting its operands as eager's clamp promotes all
    three. No cast is written for floats, so that under autocast the dtypes
    follow the operands' (a bf16 value clamped by bf16 bounds stays bf16);
    an integer tensor with float bounds is cast to the result's dtype
    first. A scalar bound beside a tensor one is a tp.clamp."""
    shape, elt = _result(node)
    value = x if x.elt in dtypes.FLOATING else tr.cast(x, elt)
    for bound, op, what in ((lo, "maximum", "min"), (hi, "minimum", "max")):
        if bound is None:
            continue
        if _is_value(bound):
            if bound.elt not in dtypes.FLOATING:
                bound = tr.cast(bound, elt)
            value = tr.emit(op, [value, bound],
                            _broadcast(value.shape, bound.shape),
                            _promote(value.elt, bound.elt, elt))
        else:
            attr = _scalar_bound(value, bound, f"{what} bound")
            value = tr.emit("clamp", [value], value.shape, value.elt,
                            f"{what} = {attr} : f64")
    return value


@handles("batch_norm")
def _batch_norm(tr, node, x, running_mean=None, running_var=None,
                weight=None, bias=None, training=False, momentum=0.1,
                eps=1e-5, *rest):
    """Inference form (running statistics), or training form without
    them; training with running statistics updates them in place, which a
    compiled function cannot do for the module."""
    from .translate import format_float
    if training and (running_mean is not None or running_var is not None):
        raise Unsupported("batch_norm in training mode with running "
                          "statistics (their update is an effect on the "
                          "module)")
    x = _value(tr, x)
    shape, elt = _result(node)
    operands, text = [x], x.ssa
    for name, v in (("weight", weight), ("bias", bias),
                    ("running_mean", running_mean),
                    ("running_var", running_var)):
        if v is not None:
            v = _value(tr, v)
            operands.append(v)
            text += f" {name}({v.ssa})"
    attrs = f"eps = {format_float(eps)} : f64"
    if training:
        attrs += ", training = true"
    return tr.emit("batch_norm", operands, shape, elt, attrs,
                   operand_format=text)


_FILL = {"zeros": 0, "ones": 1, "zeros_like": 0, "ones_like": 1,
         "new_zeros": 0, "new_ones": 1}


@handles(*_FILL, "full", "full_like", "new_full")
def _fill(tr, node, *args, **kwargs):
    name = canonical_name(node)
    shape, elt = _result(node)
    if name in _FILL:
        value = _FILL[name]
    else:
        value = kwargs.get("fill_value", args[-1] if len(args) > 1 else None)
        if name == "full" and len(args) == 2:
            value = args[1]
        if not isinstance(value, (bool, int, float)):
            raise Unsupported("a fill value that is not a Python number")
    source = args[0] if args and _is_value(args[0]) else None
    if source is not None and kwargs.get("dtype") is None and \
            source.elt == elt:
        return _fill_in_dtype_of(tr, source, shape, value)
    return tr.constant(value, elt, shape)


def _fill_in_dtype_of(tr, x, shape, value):
    """A `_like` / `new_` fill without a dtype: it has x's dtype as x has
    it when the program runs, which autocast may lower (zeros_like of a
    linear's output is bf16 under cpu bf16), so it is x (or one element of
    x, broadcast to `shape`) with every element replaced: tp.masked_fill
    under an all-true mask, whose dtype follows x's."""
    from .translate import array_attr, format_float
    if tuple(shape) != tuple(x.shape):
        numel = 1
        for d in x.shape:
            numel *= d
        if numel == 0:
            raise Unsupported("a new_* fill from an empty tensor")
        flat = tr.emit("reshape", [x], (numel,), x.elt,
                       f"shape = {array_attr([numel])}")
        first = tr.emit("slice", [flat], (1,), x.elt,
                        "dim = 0 : i64, start = 0 : i64, end = 1 : i64")
        ones = (1,) * len(shape)
        first = tr.emit("reshape", [first], ones, x.elt,
                        f"shape = {array_attr(ones)}")
        x = tr.emit("expand", [first], shape, x.elt,
                    f"size = {array_attr(shape)}")
    mask = tr.constant(True, "i1")
    return tr.emit("masked_fill", [x, mask], shape, x.elt,
                   f"value = {format_float(float(value))} : f64")


@handles("eye")
def _eye(tr, node, *args, **kwargs):
    """eye(n[, m]): ones on the diagonal, a constant of the node's shape
    and dtype (tensorplay 1.1 hands it over unfolded)."""
    from .translate import array_attr
    shape, elt = _result(node)
    if len(shape) != 2:
        raise Unsupported("eye of a shape that is not 2-D")
    n, m = shape
    flat = tr.dense([1 if i // m == i % m else 0 for i in range(n * m)], elt,
                    (n * m,))
    return tr.emit("reshape", [flat], shape, elt,
                   f"shape = {array_attr(list(shape))}")


@handles("arange")
def _arange(tr, node, *args, **kwargs):
    """arange(end), arange(start, end[, step]): its values, computed as
    eager does (start + i * step), rounded once to the result's dtype."""
    numbers = [a for a in args if isinstance(a, (int, float))]
    if len(numbers) != len(args) or not 1 <= len(numbers) <= 3:
        raise Unsupported("arange bounds that are not Python numbers")
    start, step = 0, 1
    if len(numbers) == 1:
        (end,) = numbers
    else:
        start, end = numbers[:2]
        step = numbers[2] if len(numbers) == 3 else kwargs.get("step", 1)
    shape, elt = _result(node)
    values = [start + i * step for i in range(shape[0])]
    return tr.dense(values, elt, shape)
