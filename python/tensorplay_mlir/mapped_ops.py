"""Operators with a tp op of their own that reach it through another
name or form: quantile and nanquantile (a scalar q as a 0-d tensor), the
grid samplers, max_unpool2d/3d, adaptive_max_pool3d, the fractional max
pools (their random samples are an input: deterministic),
binary_cross_entropy_with_logits, nll_loss_nd (tp.nll_loss
or tp.nll_loss2d by rank) and nll_loss2d_backward (tp.nll_loss_backward of
the pixels as rows), conv_tbc; and chain_matmul and linalg_multi_dot as
the mm's eager computes them with (tp.chain_matmul and tp.multi_dot are the
CUDA tables' ops; the CPU tables list only their mm's)."""

import math

from .composite import Composer
from .ops import (HANDLERS, Unsupported, _array, _meta_of_part, _reduction,
                  _result, _value, canonical_name, handles, operands_with)


@handles("binary_cross_entropy_with_logits")
def _bce_with_logits(tr, node, x, target, weight=None, size_average=None,
                     reduce=None, reduction="mean", pos_weight=None):
    """1.1's operator has no reduction argument: its loss is the mean."""
    if size_average is not None or reduce is not None:
        raise Unsupported("size_average/reduce (deprecated)")
    x, target = _value(tr, x), _value(tr, target)
    operands, text = operands_with(tr, [x, target], weight=weight,
                                   pos_weight=pos_weight)
    shape, elt = _result(node)
    return tr.emit("binary_cross_entropy_with_logits", operands, shape, elt,
                   _reduction(reduction), operand_format=text)


@handles("nll_loss_nd")
def _nll_loss_nd(tr, node, x, target, weight=None, reduction=1,
                 ignore_index=-100):
    x = _value(tr, x)
    if x.rank not in (1, 2, 4):
        raise Unsupported(f"nll_loss_nd of a rank-{x.rank} input")
    op = "nll_loss2d" if x.rank == 4 else "nll_loss"
    operands, text = operands_with(tr, [x, _value(tr, target)],
                                   weight=weight)
    shape, elt = _result(node)
    return tr.emit(op, operands, shape, elt,
                   f"ignore_index = {int(ignore_index)} : i64, "
                   f"{_reduction(reduction)}", operand_format=text)


@handles("nll_loss2d_backward")
def _nll_loss2d_backward(tr, node, grad, x, target, weight=None,
                         reduction=1, ignore_index=-100, total_weight=None):
    """The (N, C, H, W) input's pixels as (N H W, C) rows: nll_loss2d is
    nll_loss over them (the same total weight for 'mean')."""
    c = Composer(tr)
    grad, x, target = _value(tr, grad), _value(tr, x), _value(tr, target)
    if x.rank != 4:
        raise Unsupported(f"nll_loss2d_backward of a rank-{x.rank} input")
    n, ch, h, w = x.shape
    rows = c.reshape(c.permute(x, [0, 2, 3, 1]), (n * h * w, ch))
    flat_target = c.reshape(target, (n * h * w,))
    if grad.rank:
        grad = c.reshape(grad, (n * h * w,))
    operands, text = operands_with(tr, [grad, rows, flat_target],
                                   weight=weight)
    g = tr.emit("nll_loss_backward", operands, rows.shape, x.elt,
                f"ignore_index = {int(ignore_index)} : i64, "
                f"{_reduction(reduction)}", operand_format=text)
    return c.permute(c.reshape(g, (n, h, w, ch)), [0, 3, 1, 2])


def _chain_order(dims):
    """The split of each sub-chain of matrices (dims[i] x dims[i + 1]) that
    eager's multi_dot takes: for three, (AB)C unless it costs more than
    A(BC); for more, the matrix-chain order (the first cheapest split)."""
    n = len(dims) - 1
    cost, split = {}, {}
    for i in range(n):
        cost[i, i] = 0
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                q = cost[i, k] + cost[k + 1, j] + \
                    dims[i] * dims[k + 1] * dims[j + 1]
                if best is None or q < best:
                    best, split[i, j] = q, k
            cost[i, j] = best
    if n == 3:
        a, b, c, d = dims
        split[0, 2] = 0 if (a * c) * (b + d) > (b * d) * (a + c) else 1
    return split


def chain_product(tr, values):
    """mm's in eager's multi_dot order: autocast decides each product as
    eager's (the CPU tables list mm, not chain_matmul or multi_dot, which
    eager computes from mm's). A 1-d first (last) operand is a row
    (column), dropped from the result."""
    c = Composer(tr)
    first_vector, last_vector = values[0].rank == 1, values[-1].rank == 1
    if first_vector:
        values[0] = c.reshape(values[0], (1,) + values[0].shape)
    if last_vector:
        values[-1] = c.reshape(values[-1], values[-1].shape + (1,))
    if any(v.rank != 2 for v in values):
        raise Unsupported("a chain product of tensors that are not matrices")
    if len({v.elt for v in values}) > 1:
        raise Unsupported("a chain product of several dtypes")
    dims = [values[0].shape[0]] + [v.shape[1] for v in values]
    split = _chain_order(dims)

    def product(i, j):
        if i == j:
            return values[i]
        k = split[i, j]
        a, b = product(i, k), product(k + 1, j)
        return tr.emit("mm", [a, b], (a.shape[0], b.shape[1]), a.elt)
    out = product(0, len(values) - 1)
    shape = out.shape[1:] if first_vector else out.shape
    shape = shape[:-1] if last_vector else shape
    return c.reshape(out, shape)


def _chain(tr, node, *tensors, out=None):
    if out is not None:
        raise Unsupported("an out= tensor")
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    values = [_value(tr, t) for t in tensors]
    if not values:
        raise Unsupported("a chain product of no tensors")
    if len(values) == 1:
        return values[0]
    return chain_product(tr, values)


HANDLERS["chain_matmul"] = HANDLERS["linalg_multi_dot"] = _chain


@handles("conv_tbc")
def _conv_tbc(tr, node, x, weight, bias, pad=0):
    shape, elt = _result(node)
    attrs = f"pad = {int(pad)} : i64" if pad else ""
    return tr.emit("conv_tbc", [_value(tr, x), _value(tr, weight),
                                _value(tr, bias)], shape, elt, attrs)


@handles("quantile", "nanquantile")
def _quantile(tr, node, x, q, dim=None, keepdim=False,
              interpolation="linear"):
    """A scalar q as a 0-d tensor of x's type."""
    x = _value(tr, x)
    if not hasattr(q, "ssa"):
        q = tr.constant(float(q), x.elt)
    attrs = []
    if dim is not None:
        attrs.append(f"dim = {int(dim)} : i64")
    if keepdim:
        attrs.append("keepdim = true")
    if interpolation != "linear":
        attrs.append(f'interpolation = "{interpolation}"')
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), [x, _value(tr, q)], shape, elt,
                   ", ".join(attrs))


@handles("grid_sampler", "grid_sampler_2d", "grid_sampler_3d",
         "_grid_sampler_2d_cpu_fallback")
def _grid_sampler(tr, node, input, grid, interpolation_mode, padding_mode,
                  align_corners):
    op = canonical_name(node).lstrip("_")
    shape, elt = _result(node)
    return tr.emit(op, [_value(tr, input), _value(tr, grid)], shape, elt,
                   f"align_corners = {'true' if align_corners else 'false'}"
                   f", interpolation_mode = {int(interpolation_mode)} : i64, "
                   f"padding_mode = {int(padding_mode)} : i64")


@handles("max_unpool2d", "max_unpool3d")
def _max_unpool(tr, node, x, indices, output_size, stride=None,
                padding=None):
    op = canonical_name(node)
    attrs = [f"output_size = {_array([int(s) for s in output_size])}"]
    if op == "max_unpool3d":
        attrs += [f"padding = {_array([int(p) for p in padding])}",
                  f"stride = {_array([int(s) for s in stride])}"]
    shape, elt = _result(node)
    return tr.emit(op, [_value(tr, x), _value(tr, indices)], shape, elt,
                   ", ".join(attrs))


def _pool_with_indices(tr, node, op, operands, attrs):
    """(values, indices); the values alone where the node returns one
    tensor (F.adaptive_max_pool3d without return_indices)."""
    single = node.meta.get("tensor_meta")
    if hasattr(single, "shape"):
        shape, elt = _result(node)
        return tr.emit_multi(op, operands, [(shape, elt), (shape, "i64")],
                             attrs)[0]
    values = _meta_of_part(node, 0) or _meta_of_part(node, 1)
    if values is None:
        raise Unsupported(f"{op} whose results are not used")
    return tuple(tr.emit_multi(op, operands, [(values[0], operands[0].elt),
                                              (values[0], "i64")], attrs))


@handles("adaptive_max_pool3d")
def _adaptive_max_pool3d(tr, node, x, output_size):
    return _pool_with_indices(tr, node, "adaptive_max_pool3d",
                              [_value(tr, x)], "output_size = " + _array(
                                  [int(s) for s in output_size]))


@handles("fractional_max_pool2d", "fractional_max_pool3d")
def _fractional_max_pool(tr, node, x, kernel_size, output_size,
                         random_samples):
    return _pool_with_indices(
        tr, node, canonical_name(node),
        [_value(tr, x), _value(tr, random_samples)],
        f"kernel_size = {_array([int(k) for k in kernel_size])}, "
        f"output_size = {_array([int(s) for s in output_size])}")


@handles("adaptive_max_pool3d_backward")
def _adaptive_max_pool3d_backward(tr, node, grad, x, indices):
    shape, elt = _result(node)
    return tr.emit("adaptive_max_pool3d_backward",
                   [_value(tr, grad), _value(tr, x), _value(tr, indices)],
                   shape, elt)


def _planes(c, v):
    """(N, C, *spatial) as (N, C, prod(spatial))."""
    return c.reshape(v, v.shape[:2] + (math.prod(v.shape[2:]),))


@handles("fractional_max_pool2d_backward", "fractional_max_pool3d_backward")
def _fractional_max_pool_backward(tr, node, grad, x, kernel_size,
                                  output_size, indices):
    """grad added at each window's flat index in its (N, C) plane."""
    c = Composer(tr)
    grad, x, indices = _value(tr, grad), _value(tr, x), _value(tr, indices)
    if x.rank not in (4, 5):
        raise Unsupported(f"{canonical_name(node)} of a rank-{x.rank} "
                          "input")
    zeros = tr.constant(0.0, grad.elt, _planes(c, x).shape)
    summed = tr.emit("scatter_add", [zeros, _planes(c, indices),
                                     _planes(c, grad)], zeros.shape,
                     grad.elt, "dim = 2 : i64")
    return c.reshape(summed, x.shape)


@handles("max_unpool2d_backward", "max_unpool3d_backward")
def _max_unpool_backward(tr, node, grad, indices, output_size, stride=None,
                         padding=None):
    """The unpooled gradient read back at the indices."""
    c = Composer(tr)
    grad, indices = _value(tr, grad), _value(tr, indices)
    flat = _planes(c, grad)
    picked = tr.emit("gather", [flat, _planes(c, indices)],
                     _planes(c, indices).shape, grad.elt, "dim = 2 : i64")
    return c.reshape(picked, indices.shape)


@handles("multilabel_soft_margin_loss")
def _multilabel_soft_margin_loss(tr, node, input, target, weight=None,
                                 size_average=None, reduce=None,
                                 reduction="mean"):
    """-(y log_sigmoid(x) + (1 - y) log_sigmoid(-x)), weighted, averaged
    over the classes (the last dimension), then reduced over the batch."""
    if size_average is not None or reduce is not None:
        raise Unsupported("size_average/reduce (use reduction)")
    c = Composer(tr)
    x, y = _value(tr, input), _value(tr, target)
    if x.rank not in (1, 2):
        raise Unsupported(f"multilabel_soft_margin_loss of rank {x.rank}")
    loss = c.unary("neg", c.add(
        c.mul(y, c.unary("log_sigmoid", x)),
        c.mul(c.sub(1.0, y), c.unary("log_sigmoid", c.unary("neg", x)))))
    if weight is not None:
        loss = c.mul(loss, _value(tr, weight))
    loss = c.reduce("mean", loss, [x.rank - 1], False)
    if reduction == "none":
        return loss
    if reduction in ("mean", "sum"):
        return c.reduce(reduction, loss, [], False)
    raise Unsupported(f"reduction='{reduction}'")


@handles("multilabel_margin_loss_forward")
def _multilabel_margin_loss_forward(tr, node, x, target, reduction):
    """(tp.multilabel_margin_loss, is_target): is_target[b, j] is 1 where j
    is one of row b's targets before its first -1."""
    c = Composer(tr)
    x, target = _value(tr, x), _value(tr, target)
    loss_meta, mask_meta = tr.meta_of(node, 0), tr.meta_of(node, 1)
    loss = None if loss_meta is None else tr.emit(
        "multilabel_margin_loss", [x, target], loss_meta[0], loss_meta[1],
        _reduction(reduction))
    if mask_meta is None:
        return (loss, None)
    classes = x.shape[-1]
    rows = c.reshape(target, (math.prod(target.shape[:-1]) or 1, classes))
    valid = c.binary("ne", rows, -1)
    # Valid up to the first -1: the running minimum of the flags, as a
    # cumulative product of 0/1.
    flags = c.where(valid, 1.0, 0.0, elt="f32")
    prefix = tr.emit("cumprod", [flags], flags.shape, "f32",
                     "dim = 1 : i64")
    labels = c.reshape(tr.dense(list(range(classes)), target.elt,
                                (classes,)), (1, 1, classes))
    hits = c.both(c.binary("eq", c.reshape(rows, rows.shape + (1,)), labels),
                  c.binary("gt", c.reshape(prefix, prefix.shape + (1,)),
                           0.0))
    found = c.reduce("amax", c.where(hits, 1.0, 0.0, elt="f32"), [1], False)
    return (loss, tr.cast(c.reshape(found, mask_meta[0]), mask_meta[1]))
