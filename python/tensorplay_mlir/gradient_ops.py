"""Backward operators of tensorplay 1.1's registry that its training graphs
may hold beside the ones operator_backward_ops.py translates: the gradients
of linear and matmul (products with the other operand, summed down to each
operand's shape where it was broadcast), of the reductions (mean and sum
over dims: the gradient spread back), of the selections (select,
index_select, gather, the value-selecting reductions: the gradient
scattered into zeros at the positions the forward read) and of embedding.
Backward operators only occur in graphs that carry their casts, so these
compositions use any tp op (composite.py).
"""

import math

from .composite import Composer
from .layout_ops import index_add
from .ops import (HANDLERS, Unsupported, _dim, _result, _value, cast_to_parts,
                  handles)


def _sum_to(c, x, shape):
    """x summed down to `shape` (broadcasting's adjoint)."""
    shape = tuple(shape)
    lead = x.rank - len(shape)
    dims = list(range(lead)) + [lead + i for i, d in enumerate(shape)
                                if d == 1 and x.shape[lead + i] != 1]
    if dims:
        x = c.reduce("sum", x, dims, False)
    return c.reshape(x, shape)


def _swap(c, x):
    return c.permute(x, list(range(x.rank - 2)) + [x.rank - 1, x.rank - 2])


def _batched_matmul(tr, a, b, elt):
    from .composite import broadcast
    shape = broadcast(a.shape[:-2], b.shape[:-2]) + (a.shape[-2],
                                                     b.shape[-1])
    return tr.emit("matmul", [a, b], shape, elt)


def matmul_gradients(tr, grad, x, other, want):
    """(d x, d other) of matmul(x, other) for its cotangent grad; 1-d
    operands are made matrices (a row, a column) and back."""
    c = Composer(tr)
    a = c.reshape(x, (1,) + x.shape) if x.rank == 1 else x
    b = c.reshape(other, other.shape + (1,)) if other.rank == 1 else other
    g_shape = list(grad.shape)
    if x.rank == 1:
        g_shape.insert(len(g_shape) - (0 if other.rank == 1 else 1), 1)
    if other.rank == 1:
        g_shape.append(1)
    g = c.reshape(grad, tuple(g_shape))
    out = [None, None]
    if want[0]:
        da = _batched_matmul(tr, g, _swap(c, b), grad.elt)
        out[0] = _sum_to(c, da, x.shape if x.rank > 1 else a.shape)
        out[0] = c.reshape(out[0], x.shape)
    if want[1]:
        db = _batched_matmul(tr, _swap(c, a), g, grad.elt)
        out[1] = _sum_to(c, db, other.shape if other.rank > 1 else b.shape)
        out[1] = c.reshape(out[1], other.shape)
    return out


@handles("matmul_backward")
def _matmul_backward(tr, node, grad, x, other, mask):
    grad, x, other = _value(tr, grad), _value(tr, x), _value(tr, other)
    if x.rank == 0 or other.rank == 0:
        raise Unsupported("matmul of a 0-d operand")
    return cast_to_parts(tr, node, matmul_gradients(
        tr, grad, x, other, [bool(m) for m in mask]))


@handles("matmul_backward_self")
def _matmul_backward_self(tr, node, grad, x, other):
    grad, x, other = _value(tr, grad), _value(tr, x), _value(tr, other)
    part = matmul_gradients(tr, grad, x, other, [True, False])[0]
    return tr.cast(part, _result(node)[1])


@handles("matmul_backward_other")
def _matmul_backward_other(tr, node, grad, x, other):
    grad, x, other = _value(tr, grad), _value(tr, x), _value(tr, other)
    part = matmul_gradients(tr, grad, x, other, [False, True])[1]
    return tr.cast(part, _result(node)[1])


@handles("linear_backward")
def _linear_backward(tr, node, x, grad_output, weight, output_mask):
    """(grad @ weight, grad^T @ x over all leading dims, grad summed)."""
    c = Composer(tr)
    x, g, w = _value(tr, x), _value(tr, grad_output), _value(tr, weight)
    if x.rank == 0 or w.rank != 2:
        raise Unsupported("linear of a 0-d input or a weight not 2-d")
    mask = [bool(m) for m in output_mask]
    parts = [None, None, None]
    if mask[0]:
        parts[0] = c.reshape(_batched_matmul(
            tr, c.reshape(g, (_rows(g), g.shape[-1])), w, g.elt), x.shape)
    if mask[1]:
        g2 = c.reshape(g, (_rows(g), g.shape[-1]))
        x2 = c.reshape(x, (_rows(x), x.shape[-1]))
        parts[1] = _batched_matmul(tr, _swap(c, g2), x2, g.elt)
    if mask[2]:
        parts[2] = c.reshape(g, (_rows(g), g.shape[-1])) if g.rank != 1 \
            else c.reshape(g, (1, g.shape[0]))
        parts[2] = c.reduce("sum", parts[2], [0], False)
    return cast_to_parts(tr, node, parts)


def _rows(x):
    return math.prod(x.shape[:-1])


def _spread(c, grad, shape, dims):
    """grad of a reduction over `dims` of a tensor of `shape`, expanded
    back to it (whether the reduction kept its dimensions or not: the
    gradient is reshaped to them)."""
    rank = len(shape)
    dims = sorted(_dim(d, rank) % max(rank, 1) for d in dims) or \
        list(range(rank))
    kept = tuple(1 if i in dims else n for i, n in enumerate(shape))
    return c.expand(c.reshape(grad, kept), tuple(shape)), dims


@handles("mean_dim_backward")
def _mean_dim_backward(tr, node, grad_output, x, dim, keepdim=False):
    c = Composer(tr)
    g, x = _value(tr, grad_output), _value(tr, x)
    spread, dims = _spread(c, g, x.shape, list(dim))
    count = math.prod(x.shape[d] for d in dims)
    return tr.cast(c.div(spread, float(count)), _result(node)[1])


@handles("_sum_dim_backward")
def _sum_dim_backward(tr, node, grad_output, x, dim, keepdim=False):
    c = Composer(tr)
    g, x = _value(tr, grad_output), _value(tr, x)
    return tr.cast(_spread(c, g, x.shape, list(dim))[0],
                   _result(node)[1])


@handles("select_backward")
def _select_backward(tr, node, grad_output, x, dim, index):
    """Zeros of x's shape with grad at `index` along dim."""
    c = Composer(tr)
    g, x = _value(tr, grad_output), _value(tr, x)
    d = _dim(dim, x.rank) % x.rank
    n = x.shape[d]
    i = int(index) % n
    shape, elt = _result(node)
    row = c.reshape(tr.cast(g, elt), x.shape[:d] + (1,) + x.shape[d + 1:])
    parts = []
    for size in (i, None, n - i - 1):
        if size is None:
            parts.append(row)
        elif size:
            zeros_shape = x.shape[:d] + (size,) + x.shape[d + 1:]
            parts.append(tr.constant(0.0, elt, zeros_shape))
    return c.cat(parts, d) if len(parts) > 1 else row


@handles("index_select_backward")
def _index_select_backward(tr, node, grad, self_sizes, dim, index):
    c = Composer(tr)
    g, index = _value(tr, grad), _value(tr, index)
    shape, elt = _result(node)
    d = _dim(dim, len(shape)) % max(len(shape), 1)
    return index_add(c, tr.constant(0.0, elt, shape), d, index,
                     tr.cast(g, elt))


@handles("gather_backward")
def _gather_backward(tr, node, grad, x, dim, index, sparse_grad=False):
    """Zeros of x's shape with grad added where gather read."""
    if sparse_grad:
        raise Unsupported("sparse_grad=True (a sparse gradient)")
    g, x, index = _value(tr, grad), _value(tr, x), _value(tr, index)
    shape, elt = _result(node)
    return _scattered(tr, g, index, _dim(dim, x.rank) % max(x.rank, 1),
                      shape, elt)


def _scattered(tr, grad, index, d, shape, elt):
    """Zeros of `shape` with grad added at index along d."""
    return tr.emit("scatter_add", [tr.constant(0.0, elt, shape), index,
                                   tr.cast(grad, elt)], shape, elt,
                   f"dim = {d} : i64")


@handles("value_selecting_reduction_backward")
def _value_selecting_reduction_backward(tr, node, grad, dim, indices, sizes,
                                        keepdim):
    """The gradient of max/min/mode over dim: grad at each slice's chosen
    index, zeros elsewhere."""
    c = Composer(tr)
    g, indices = _value(tr, grad), _value(tr, indices)
    shape, elt = _result(node)
    d = _dim(dim, len(shape)) % max(len(shape), 1)
    if not keepdim:
        kept = shape[:d] + (1,) + shape[d + 1:]
        g, indices = c.reshape(g, kept), c.reshape(indices, kept)
    return _scattered(tr, g, indices, d, shape, elt)


@handles("embedding_backward")
def _embedding_backward(tr, node, grad, indices, num_weights, padding_idx,
                        scale_grad_by_freq, sparse):
    from .operator_ops import _embedding_dense_backward
    if sparse:
        raise Unsupported("sparse=True (a sparse gradient)")
    return _embedding_dense_backward(tr, node, grad, indices, num_weights,
                                     padding_idx, scale_grad_by_freq)


@handles("unfold_backward")
def _unfold_backward(tr, node, grad_output, input_sizes, dim, size, step):
    """The adjoint of Tensor.unfold: each window's gradient (the windows'
    dimension at `dim`, the window last) added back at its offset."""
    c = Composer(tr)
    g = _value(tr, grad_output)
    shape, elt = _result(node)
    rank = len(shape)
    d = _dim(dim, max(rank, 1)) % max(rank, 1)
    size, step = int(size), int(step)
    count = g.shape[d]
    # (A window: the other dimensions, then its own last: moved to d.)
    order = list(range(d)) + [rank - 1] + list(range(d, rank - 1))
    total = None
    for w in range(count):
        window = c.permute(c.reshape(c.slice(g, d, w, w + 1),
                                     g.shape[:d] + g.shape[d + 1:]), order)
        parts = []
        for n in (w * step, None, shape[d] - w * step - size):
            if n is None:
                parts.append(tr.cast(window, elt))
            elif n:
                parts.append(tr.constant(0.0, elt, shape[:d] + (n,)
                                         + shape[d + 1:]))
        placed = c.cat(parts, d) if len(parts) > 1 else parts[0]
        total = placed if total is None else c.add(total, placed)
    return total


@handles("infinitely_differentiable_gelu_backward")
def _gelu_backward_erf(tr, node, grad, x):
    """grad (Phi(x) + x phi(x)): tp.gelu_backward (the erf form)."""
    shape, elt = _result(node)
    return tr.emit("gelu_backward", [_value(tr, grad), _value(tr, x)], shape,
                   elt)


@handles("_prelu_kernel_backward")
def _prelu_kernel_backward(tr, node, grad_output, x, weight):
    """(grad where x > 0 else weight grad, x grad where x <= 0 else 0): both
    of the broadcast shape, as eager's kernel returns them (prelu's
    backward sums the second down to the weight; the kernel's weight
    broadcasts to x, as prelu reshapes it)."""
    c = Composer(tr)
    g, x, w = _value(tr, grad_output), _value(tr, x), _value(tr, weight)
    positive = c.binary("gt", x, 0.0)
    grad_input = c.where(positive, g, c.mul(g, w))
    grad_weight = c.where(positive, 0.0, c.mul(x, g))
    return cast_to_parts(tr, node, (grad_input, grad_weight))


def _max_pool_backward_recomputed(n):
    def handler(tr, node, grad_output, x, kernel_size, stride=(),
                padding=0, dilation=1, ceil_mode=False):
        """The indices recomputed by the forward pool, then its backward."""
        from .ops import _max_pool_attrs
        g, x = _value(tr, grad_output), _value(tr, x)
        attrs = _max_pool_attrs(n, kernel_size, stride or None,
                                padding or 0, dilation or 1, ceil_mode)
        _, indices = tr.emit_multi(f"max_pool{n}d_with_indices", [x],
                                   [(g.shape, x.elt), (g.shape, "i64")],
                                   attrs)
        shape, elt = _result(node)
        return tr.emit(f"max_pool{n}d_with_indices_backward",
                       [g, x, indices], shape, elt, attrs)
    return handler


HANDLERS["max_pool2d_backward"] = _max_pool_backward_recomputed(2)
HANDLERS["max_pool3d_backward"] = _max_pool_backward_recomputed(3)


@handles("adaptive_max_pool2d_backward")
def _adaptive_max_pool2d_backward(tr, node, grad_output, input):
    """The pool's indices recomputed (the 2-d pool as the 3-d one over a
    depth of 1: the same flat indices), then its backward."""
    c = Composer(tr)
    g, x = _value(tr, grad_output), _value(tr, input)
    if x.rank != 4:
        raise Unsupported(f"adaptive_max_pool2d_backward of rank {x.rank}")
    from .translate import array_attr
    x3 = c.reshape(x, x.shape[:2] + (1,) + x.shape[2:])
    g3 = c.reshape(g, g.shape[:2] + (1,) + g.shape[2:])
    _, indices = tr.emit_multi(
        "adaptive_max_pool3d", [x3], [(g3.shape, x.elt), (g3.shape, "i64")],
        "output_size = " + array_attr([1] + list(g.shape[2:])))
    grad = tr.emit("adaptive_max_pool3d_backward", [g3, x3, indices],
                   x3.shape, g.elt)
    return tr.cast(c.reshape(grad, x.shape), _result(node)[1])


def _mask_slots(c, mask, shape):
    """(the mask broadcast with `shape` and flattened, each position's
    slot: how many true positions come before it, row-major, in f32), the
    mapping of masked_select and masked_scatter."""
    from .composite import broadcast
    shape = broadcast(shape, mask.shape)
    flat = c.reshape(c.expand(mask, shape), (math.prod(shape),))
    counts = c.tr.emit("cumsum", [c.where(flat, 1.0, 0.0, elt="f32")],
                       flat.shape, "f32", "dim = 0 : i64")
    return flat, c.sub(counts, 1.0)


@handles("masked_select_backward")
def _masked_select_backward(tr, node, grad, input, mask):
    """Zeros of the input's shape with grad's k-th value at the k-th true
    position of the (broadcast) mask, in row-major order."""
    c = Composer(tr)
    g, x, mask = _value(tr, grad), _value(tr, input), _value(tr, mask)
    flat, slots = _mask_slots(c, mask, x.shape)
    total = flat.shape[0]
    slot = tr.cast(c.clamp(slots, 0.0, max(g.shape[0] - 1, 0)), "i64")
    picked = tr.emit("gather", [g, slot], (total,), g.elt, "dim = 0 : i64")
    result = c.where(flat, picked, 0.0)
    out_shape, elt = _result(node)
    return tr.cast(c.reshape(result, out_shape), elt)


def _weight_norm_backward(tr, node, grad_w, saved_v, saved_g, saved_norms,
                          dim):
    """(grad_v, grad_g) of w = v g / ||v||: s = sum(grad_w v) over every
    dimension but dim, grad_v = g / n (grad_w - v s / n^2), grad_g = s / n,
    as eager's formula."""
    c = Composer(tr)
    gw, v = _value(tr, grad_w), _value(tr, saved_v)
    g, norms = _value(tr, saved_g), _value(tr, saved_norms)
    d = _dim(dim, v.rank) % v.rank if int(dim) != -1 else None
    dims = [i for i in range(v.rank) if i != d]
    sums = c.reduce("sum", c.mul(gw, v), dims, True) if dims else \
        c.mul(gw, v)
    sums = c.reshape(sums, norms.shape)
    grad_v = c.mul(c.div(g, norms), c.sub(gw, c.mul(v, c.div(
        sums, c.mul(norms, norms)))))
    return cast_to_parts(tr, node, (grad_v, c.div(sums, norms)))


HANDLERS["_weight_norm_interface_backward"] = _weight_norm_backward
HANDLERS["_weight_norm_differentiable_backward"] = _weight_norm_backward


@handles("_masked_softmax_backward")
def _masked_softmax_backward(tr, node, grad_output, output, mask, dim=None):
    """softmax's backward, y (g - sum(g y)), 0 where masked."""
    c = Composer(tr)
    g, y = _value(tr, grad_output), _value(tr, output)
    m = _value(tr, mask)
    d = y.rank - 1 if dim is None else _dim(dim, y.rank) % y.rank
    g = c.where(m, 0.0, g)
    inner = c.reduce("sum", c.mul(g, y), [d], True)
    result = c.where(m, 0.0, c.mul(y, c.sub(g, inner)))
    return tr.cast(result, _result(node)[1])


@handles("masked_scatter_backward")
def _masked_scatter_backward(tr, node, grad_output, mask, sizes):
    """The source's gradient: the gradient at the mask's k-th true
    position (row-major) for k < the source's size, 0 beyond."""
    c = Composer(tr)
    g, mask = _value(tr, grad_output), _value(tr, mask)
    flat, slots = _mask_slots(c, mask, g.shape)
    from .composite import broadcast
    grad = c.reshape(c.expand(g, broadcast(g.shape, mask.shape)),
                     flat.shape)
    count = math.prod(int(n) for n in sizes)
    kept = c.both(flat, c.binary("lt", slots, float(count)))
    index = tr.cast(c.clamp(slots, 0.0, float(max(count - 1, 0))), "i64")
    source = tr.emit("scatter_add", [tr.constant(0.0, g.elt, (count,)),
                                     index, c.where(kept, grad, 0.0)],
                     (count,), g.elt, "dim = 0 : i64")
    out_shape, elt = _result(node)
    return tr.cast(c.reshape(source, out_shape), elt)
