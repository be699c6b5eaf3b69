"""Handlers of the ops that select, place or create values: topk, argmax,
gather, scatter_add, index_copy, clamp with tensor bounds, batch_norm in
inference form, the placements (slice_scatter, select_scatter, tril, triu,
diag_embed) and the factories (zeros, ones, full, arange and their _like /
new_ forms) as tp.constant.

The factories become constants at translation: every shape is static here
(a dynamic batch would need tp ops for them; see docs/Python.md).
"""

import math

from . import dtypes
from .ops import (Unsupported, _array, _dim, _is_value, _meta_of_part, _result,
                  _scalar_bound, _value, canonical_name, handles,
                  operands_with)


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


@handles("max")
def _max(tr, node, x, dim=None, keepdim=False):
    """max(x): tp.max; max(x, dim[, keepdim]): (values, indices) as
    tp.max_dim; max(x, other): the element-wise maximum."""
    x = _value(tr, x)
    if _is_value(dim):
        shape, elt = _result(node)
        return tr.emit("maximum", [x, dim], shape, elt)
    if dim is None:
        shape, elt = _result(node)
        return tr.emit("max", [x], shape, elt)
    meta = _meta_of_part(node, 0) or _meta_of_part(node, 1)
    if meta is None:
        raise Unsupported("max over a dimension whose results are not used")
    attrs = f"dim = {_dim(dim, x.rank)} : i64"
    if keepdim:
        attrs += ", keepdim = true"
    return tuple(tr.emit_multi("max_dim", [x], [(meta[0], x.elt),
                                                (meta[0], "i64")], attrs))


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
            from .composite import broadcast, promote
            value = tr.emit(op, [value, bound],
                            broadcast(value.shape, bound.shape),
                            promote(value.elt, bound.elt, elt))
        else:
            attr = _scalar_bound(value, bound, f"{what} bound")
            value = tr.emit("clamp", [value], value.shape, value.elt,
                            f"{what} = {attr} : f64")
    return value


@handles("batch_norm")
def _batch_norm(tr, node, x, running_mean=None, running_var=None,
                weight=None, bias=None, training=False, momentum=0.1,
                eps=1e-5, *rest):
    shape, elt = _result(node)
    return batch_norm(tr, shape, elt, _value(tr, x), running_mean,
                      running_var, weight, bias, training, momentum, eps)


def batch_norm(tr, shape, elt, x, running_mean, running_var, weight, bias,
               training, momentum, eps):
    """tp.batch_norm. Training with running statistics normalizes with the
    batch's and updates the running ones in place, as eager does: mean <-
    (1 - momentum) mean + momentum batch_mean, var <- (1 - momentum) var +
    momentum n/(n-1) batch_var (Translator.write_back)."""
    from .translate import format_float
    stats = [_value(tr, v) if v is not None else None
             for v in (running_mean, running_var)]
    # (Training normalizes with the batch's statistics: the running ones
    # are only updated.)
    running = (None, None) if training else stats
    operands, text = operands_with(tr, [x], weight=weight, bias=bias,
                                   running_mean=running[0],
                                   running_var=running[1])
    attrs = f"eps = {format_float(eps)} : f64"
    if training:
        attrs += ", training = true"
    out = tr.emit("batch_norm", operands, shape, elt, attrs,
                  operand_format=text)
    if training and any(v is not None for v in stats):
        _update_running_stats(tr, x, stats, momentum)
    return out


def batch_statistics(tr, x):
    """(mean, sum of squared deviations, n) per channel (dim 1) of x, in
    f32 (two passes, as eager's kernel)."""
    dims = [0] + list(range(2, x.rank))
    n = 1
    for d in dims:
        n *= x.shape[d]
    channels = (x.shape[1],)
    keep = (1, x.shape[1]) + (1,) * (x.rank - 2)
    xf = tr.cast(x, "f32")
    mean = tr.emit("mean", [xf], keep, "f32",
                   f"dim = {_array(dims)}, keepdim = true")
    centered = tr.emit("sub", [xf, mean], x.shape, "f32")
    squares = tr.emit("sum", [tr.emit("mul", [centered, centered], x.shape,
                                      "f32")], channels, "f32",
                      f"dim = {_array(dims)}")
    return (tr.emit("reshape", [mean], channels, "f32",
                    f"shape = {_array(channels)}"), squares, n)


def _update_running_stats(tr, x, stats, momentum):
    if momentum is None:
        raise Unsupported("momentum=None (a cumulative average)")
    mean, squares, n = batch_statistics(tr, x)
    if n == 1:
        raise Unsupported("a running variance from one value per channel")
    channels = mean.shape
    batch = [mean, tr.emit("div", [squares, tr.constant(n - 1, "f32")],
                           channels, "f32")]
    for running, new in zip(stats, batch):
        if running is None:
            continue
        old = tr.cast(running, "f32")
        blended = tr.emit("add", [
            tr.emit("mul", [old, tr.constant(1.0 - momentum, "f32")],
                    channels, "f32"),
            tr.emit("mul", [new, tr.constant(momentum, "f32")], channels,
                    "f32")], channels, "f32")
        tr.write_back(running, blended)


# (The empty forms are uninitialized memory in eager, where any value is a
# valid result: zeros. zero is zero_'s out-of-place form.)
_FILL = {"zeros": 0, "ones": 1, "zeros_like": 0, "ones_like": 1,
         "new_zeros": 0, "new_ones": 1, "zero": 0, "empty": 0,
         "empty_like": 0, "new_empty": 0, "empty_strided": 0,
         "new_empty_strided": 0, "empty_permuted": 0,
         "_efficientzerotensor": 0}


@handles(*_FILL, "full", "full_like", "new_full")
def _fill(tr, node, *args, **kwargs):
    name = canonical_name(node)
    shape, elt = _result(node)
    if name in _FILL:
        value = _FILL[name]
    else:
        # full(size, fill_value, ...), full_like(input, fill_value, ...),
        # new_full(self, size, fill_value, ...): dtype and device may follow
        # positionally (1.1's operator form).
        at = 2 if name == "new_full" else 1
        value = kwargs.get("fill_value",
                           args[at] if len(args) > at else None)
        if _is_value(value) and not value.shape and name == "full":
            # A 0-d tensor fill (1.1's x[mask] = c): broadcast.
            from .translate import array_attr
            return tr.emit("expand", [tr.cast(value, elt)], shape, elt,
                           f"size = {array_attr(shape)}")
        if not isinstance(value, (bool, int, float)):
            raise Unsupported("a fill value that is not a Python number")
    source = args[0] if args and _is_value(args[0]) else None
    if source is not None and kwargs.get("dtype") is None and \
            source.elt == elt:
        return _fill_in_dtype_of(tr, source, shape, value)
    result = tr.constant(value, elt, shape)
    if value == 0:
        tr.memo.setdefault("zeros", set()).add(result.ssa)
    return result


def _fill_in_dtype_of(tr, x, shape, value):
    """A `_like` / `new_` fill without a dtype: it has x's dtype as x has
    it when the program runs, which autocast may lower (zeros_like of a
    linear's output is bf16 under cpu bf16), so it is x (or one element of
    x, broadcast to `shape`) with every element replaced: tp.masked_fill
    under an all-true mask, whose dtype follows x's."""
    from .translate import array_attr, format_float
    if tuple(shape) != tuple(x.shape):
        numel = math.prod(x.shape)
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


@handles("fill")
def _fill_value(tr, node, x, value):
    """x's shape and dtype filled with a number or a 0-d tensor."""
    x = _value(tr, x)
    if not _is_value(value):
        return _fill_in_dtype_of(tr, x, x.shape, value)
    return tr.emit("expand", [tr.cast(value, x.elt)], x.shape, x.elt,
                   f"size = {_array(x.shape)}") if value.shape != x.shape \
        else tr.cast(value, x.elt)


@handles("copy")
def _copy(tr, node, x, src, non_blocking=False):
    """src in x's dtype and shape (copy_'s out-of-place form)."""
    x, src = _value(tr, x), _value(tr, src)
    src = tr.cast(src, x.elt)
    if src.shape == x.shape:
        return src
    return tr.emit("expand", [src], x.shape, x.elt,
                   f"size = {_array(x.shape)}")


@handles("scalar_tensor")
def _scalar_tensor(tr, node, s, dtype=None, layout=None, device=None,
                   pin_memory=False):
    shape, elt = _result(node)
    return tr.constant(s, elt, shape)


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
def _arange(tr, node, *args, dtype=None, device=None, **kwargs):
    """arange(end), arange(start, end[, step]): its values, computed as
    eager does (start + i * step), rounded once to the result's dtype (the
    node's: `dtype` is read off it)."""
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


# --- placements -------------------------------------------------------------

def _mask(tr, shape, keep):
    """An i1 constant of `shape`, true where keep(index)."""
    import itertools
    values = [bool(keep(i)) for i in
              itertools.product(*(range(d) for d in shape))]
    flat = tr.dense(values, "i1", (len(values),))
    return flat if len(shape) == 1 else _reshaped(tr, flat, shape)


def _reshaped(tr, x, shape):
    from .translate import array_attr
    return tr.emit("reshape", [x], shape, x.elt,
                   f"shape = {array_attr(list(shape))}")


def _masked(tr, node, mask, x, other):
    """where(mask, x, other) in the node's shape and dtype; `other` 0 when
    it is None."""
    shape, elt = _result(node)
    if other is None:
        other = tr.constant(0, elt)
    return tr.emit("where", [mask, x, other], shape, elt)


@handles("tril", "triu")
def _triangle(tr, node, x, diagonal=0):
    """x where the column minus the row is at most (tril) or at least
    (triu) `diagonal`, zeros elsewhere: a where under a constant mask."""
    x = _value(tr, x)
    if x.rank < 2:
        raise Unsupported(f"{canonical_name(node)} of a tensor of rank < 2")
    k = int(diagonal)
    lower = canonical_name(node) == "tril"
    mask = _mask(tr, x.shape[-2:], lambda i: (i[1] - i[0] <= k) if lower
                 else (i[1] - i[0] >= k))
    return _masked(tr, node, mask, x, None)


@handles("diag_embed")
def _diag_embed(tr, node, x, offset=0, dim1=-2, dim2=-1):
    """x's last dimension on the diagonal of two new last dimensions:
    where(eye, x as a column, 0)."""
    x = _value(tr, x)
    rank = x.rank + 1
    if int(offset) != 0 or sorted((_dim(dim1, rank) % rank,
                                   _dim(dim2, rank) % rank)) != \
            [rank - 2, rank - 1]:
        raise Unsupported("diag_embed off the main diagonal or into other "
                          "than the last two dimensions")
    n = x.shape[-1]
    column = _reshaped(tr, x, x.shape + (1,))
    return _masked(tr, node, _mask(tr, (n, n), lambda i: i[0] == i[1]),
                   column, None)


@handles("diagonal")
def _diagonal(tr, node, x, offset=0, dim1=0, dim2=1):
    """The diagonal `offset` of the matrices in dims (dim1, dim2), as a new
    last dimension: those two moved last (permute), flattened, and the
    diagonal's positions gathered (exact, unlike a masked sum)."""
    x = _value(tr, x)
    if x.rank < 2:
        raise Unsupported("diagonal of a tensor of rank < 2")
    d1, d2 = (_dim(d, x.rank) % x.rank for d in (dim1, dim2))
    if d1 == d2:
        raise Unsupported("diagonal with dim1 == dim2")
    shape, elt = _result(node)
    rest = [d for d in range(x.rank) if d not in (d1, d2)]
    order = rest + [d1, d2]
    if order != list(range(x.rank)):
        from .translate import array_attr
        x = tr.emit("permute", [x], tuple(x.shape[d] for d in order), x.elt,
                    f"dims = {array_attr(order)}")
    n, m = x.shape[-2:]
    k, off = shape[-1], int(offset)
    batch = x.shape[:-2]
    if k == 0:
        return tr.constant(0, elt, shape)
    flat = _reshaped(tr, x, batch + (n * m,))
    positions = [(i - min(off, 0)) * m + i + max(off, 0) for i in range(k)]
    index = tr.dense(positions, "i64", (k,))
    if batch:
        index = _reshaped(tr, index, (1,) * len(batch) + (k,))
        from .translate import array_attr
        index = tr.emit("expand", [index], batch + (k,), "i64",
                        f"size = {array_attr(list(batch) + [k])}")
    return tr.emit("gather", [flat, index], shape, elt,
                   f"dim = {len(batch)} : i64")


def _scatter_slice(tr, node, base, src, dim, indices, start, end, step):
    """base with src where the slice (dim, start, end, step) took its
    elements: src padded with zeros by slice_backward, and base kept
    elsewhere under a constant mask (nothing to keep from a zeros
    factory)."""
    from .translate import array_attr
    d = _dim(dim, base.rank) % base.rank
    padded = tr.emit("slice_backward", [src], base.shape, src.elt,
                     f"input_sizes = {array_attr(list(base.shape))}, "
                     f"dim = {d} : i64, start = {start} : i64, "
                     f"end = {end} : i64, step = {step} : i64")
    if base.ssa in tr.memo.get("zeros", ()) and base.elt == src.elt:
        return padded
    along = tuple(base.shape[d] if i == d else 1 for i in range(base.rank))
    chosen = set(indices)
    mask = _mask(tr, along, lambda i: i[d] in chosen)
    return _masked(tr, node, mask, padded, base)


@handles("slice_scatter")
def _slice_scatter(tr, node, base, src, dim=0, start=None, end=None, step=1):
    base, src = _value(tr, base), _value(tr, src)
    d = _dim(dim, base.rank) % base.rank
    if int(step) < 1:
        raise Unsupported("slice_scatter with a step below 1")
    first, last, step = slice(start, end, int(step)).indices(base.shape[d])
    indices = range(first, last, step)
    return _scatter_slice(tr, node, base, src, d, indices, first,
                          max(last, first), step)


@handles("select_scatter")
def _select_scatter(tr, node, base, src, dim, index):
    base, src = _value(tr, base), _value(tr, src)
    d = _dim(dim, base.rank) % base.rank
    size = base.shape[d]
    i = int(index)
    if not -size <= i < size:
        raise Unsupported(f"select_scatter index {i} out of range")
    i %= size
    src = _reshaped(tr, src, src.shape[:d] + (1,) + src.shape[d:])
    return _scatter_slice(tr, node, base, src, d, [i], i, i + 1, 1)


# --- writes through an index --------------------------------------------------

def _index_put_value(tr, x, indices, values, accumulate):
    """x with `values` written (added, with `accumulate`) at `indices`: a
    list of leading integer index tensors (tp.index_put), or one boolean
    mask of x's leading shape with a single value (a where)."""
    from .ops import _is_value, _operand, _value
    if not isinstance(indices, (list, tuple)):
        indices = [indices]
    if any(not _is_value(i) for i in indices) or not indices:
        raise Unsupported("an index other than tensors (slices, ints or None "
                          "mixed with index tensors)")
    values = tr.cast(values if _is_value(values) else
                     _operand(tr, values, x), x.elt)
    if len(indices) == 1 and indices[0].elt == "i1":
        mask = indices[0]
        k = mask.rank
        if tuple(mask.shape) != tuple(x.shape[:k]):
            raise Unsupported(f"a mask of shape {list(mask.shape)} for a "
                              f"tensor of shape {list(x.shape)}")
        if values.shape and math.prod(values.shape) != 1:
            raise Unsupported("a mask with more than one value (the number "
                              "of places is known only at run time)")
        if values.shape:
            values = tr.emit("reshape", [values], (), values.elt,
                             "shape = array<i64>")
        if k < x.rank:
            shape = tuple(mask.shape) + (1,) * (x.rank - k)
            mask = tr.emit("reshape", [mask], shape, "i1",
                           f"shape = {_array(shape)}")
        if accumulate:
            zero = tr.constant(0, x.elt)
            added = tr.emit("where", [mask, values, zero],
                            tuple(mask.shape), x.elt)
            return tr.emit("add", [x, added], x.shape, x.elt)
        return tr.emit("where", [mask, values, x], x.shape, x.elt)
    if any(i.elt not in ("i64", "i32") for i in indices):
        raise Unsupported("index tensors other than integers, or a mask "
                          "with others")
    text = (f"{x.ssa}[{', '.join(i.ssa for i in indices)}], {values.ssa}")
    return tr.emit("index_put", [x] + list(indices) + [values], x.shape, x.elt,
                   "accumulate = true" if accumulate else "",
                   operand_format=text)


@handles("setitem")
def _setitem(tr, node, target, index, value):
    """`x[index] = value` (1.0's graphs): the index_put (or where) written
    back into x (a graph that reads a view of x after the write runs on
    its executor: aliasing.py)."""
    from .ops import _value
    x = _value(tr, target)
    tr.write_back(x, _index_put_value(tr, x, index, value, False))
    return None


@handles("index_put")
def _index_put(tr, node, x, indices, values, accumulate=False):
    """index_put (1.1's functional form; index_put_ writes it back)."""
    from .ops import _value
    x = _value(tr, x)
    if any(i is None for i in indices):
        raise Unsupported("index_put with a None index")
    return _index_put_value(tr, x, list(indices), values, bool(accumulate))
