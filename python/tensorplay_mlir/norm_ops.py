"""The normalization operators of tensorplay 1.1's registry that spell a tp
op another way: native_batch_norm and its variants
(_native_batch_norm_legit_no_training, _batch_norm_with_update,
_batch_norm_no_update; _native_batch_norm_legit has no CPU kernel in
tensorplay 1.1) are tp.batch_norm with the
statistics eager saves; native_group_norm and its backward are
tp.group_norm and tp.group_norm_backward with the same statistics;
instance_norm is tp.batch_norm in training mode of the input seen as one
batch of N*C channels; layer_norm_backward is tp.layer_norm_backward.

The saved statistics are computed in f32 from their definitions (the batch
mean and 1/sqrt(biased variance + eps), per channel or per group), as
eager's kernels compute them; evaluation mode saves empty tensors, as eager
does. None of these operators is in the autocast tables.
"""

import math

from .ops import (Unsupported, _array, _value, cast_to_parts,
                  handles, operands_with)
from .selection_ops import batch_norm, batch_statistics


def _empty(tr, meta):
    """An empty saved statistic (evaluation mode), or None when unused."""
    if meta is None:
        return None
    if meta[0] != (0,):
        raise Unsupported(f"a saved statistic of shape {meta[0]} in "
                          "evaluation mode")
    return tr.dense([], meta[1], (0,))


def _saved(tr, node, x, eps, training, first=1):
    """The saved mean and inverse standard deviation (results `first`,
    `first` + 1) of a batch norm of x."""
    metas = [tr.meta_of(node, first), tr.meta_of(node, first + 1)]
    if not training:
        return [_empty(tr, m) for m in metas]
    if metas == [None, None]:
        return [None, None]
    mean, squares, n = batch_statistics(tr, x)
    channels = mean.shape
    var = tr.emit("div", [squares, tr.constant(n, "f32")], channels, "f32")
    invstd = tr.emit("rsqrt", [tr.emit("add", [var, tr.constant(eps, "f32")],
                                       channels, "f32")], channels, "f32")
    return [tr.cast(v, m[1]) if m else None
            for v, m in zip((mean, invstd), metas)]


def _native(tr, node, input, weight, bias, running_mean, running_var,
            training, momentum, eps, reserve=False):
    x = _value(tr, input)
    shape, elt = tr.meta_of(node, 0)
    out = batch_norm(tr, shape, elt, x, running_mean, running_var, weight,
                     bias, bool(training), momentum, eps)
    parts = [out] + _saved(tr, node, x, eps, bool(training))
    if reserve:
        parts.append(_empty(tr, tr.meta_of(node, 3)))
    return tuple(parts)


@handles("native_batch_norm")
def _native_batch_norm(tr, node, input, weight, bias, running_mean,
                       running_var, training, momentum, eps):
    """(out, save_mean, save_invstd), the running statistics updated in
    place in training."""
    return _native(tr, node, input, weight, bias, running_mean, running_var,
                   training, momentum, eps)


@handles("_native_batch_norm_legit_no_training")
def _native_batch_norm_legit_no_training(tr, node, input, weight, bias,
                                         running_mean, running_var, momentum,
                                         eps):
    return _native(tr, node, input, weight, bias, running_mean, running_var,
                   False, momentum, eps)


@handles("_batch_norm_with_update")
def _batch_norm_with_update(tr, node, input, weight, bias, running_mean,
                            running_var, momentum, eps):
    """(out, save_mean, save_invstd, reserve): training, the running
    statistics updated in place; reserve is empty (eager's is)."""
    return _native(tr, node, input, weight, bias, running_mean, running_var,
                   True, momentum, eps, reserve=True)


@handles("_batch_norm_no_update")
def _batch_norm_no_update(tr, node, input, weight, bias, running_mean,
                          running_var, momentum, eps):
    """Evaluation with the running statistics when both are given, else
    the batch's (training without an update), as eager does."""
    training = running_mean is None or running_var is None
    return _native(tr, node, input, weight, bias,
                   None if training else running_mean,
                   None if training else running_var, training, momentum,
                   eps, reserve=True)


def _instance_input(tr, input, use_input_stats, running_mean, running_var):
    """The input of an instance norm normalized by its own statistics (N,
    C, at least one more dimension)."""
    x = _value(tr, input)
    if not use_input_stats or running_mean is not None or \
            running_var is not None:
        raise Unsupported("instance_norm with running statistics")
    if x.rank < 3:
        raise Unsupported(f"instance_norm of a rank-{x.rank} input")
    return x


@handles("instance_norm")
def _instance_norm(tr, node, input, weight=None, bias=None,
                   running_mean=None, running_var=None, use_input_stats=True,
                   momentum=0.1, eps=1e-5, cudnn_enabled=False):
    """Each (sample, channel) normalized over its own values: tp.batch_norm
    in training mode of x reshaped to (1, N*C, ...), then weight and bias
    per channel."""
    from .translate import format_float
    x = _instance_input(tr, input, use_input_stats, running_mean,
                        running_var)
    n, c = x.shape[0], x.shape[1]
    folded = tr.emit("reshape", [x], (1, n * c) + x.shape[2:], x.elt,
                     f"shape = {_array((1, n * c) + x.shape[2:])}")
    normed = tr.emit("batch_norm", [folded], folded.shape, x.elt,
                     f"eps = {format_float(eps)} : f64, training = true")
    out = tr.emit("reshape", [normed], x.shape, x.elt,
                  f"shape = {_array(x.shape)}")
    keep = (1, c) + (1,) * (x.rank - 2)
    for param, op in ((weight, "mul"), (bias, "add")):
        if param is None:
            continue
        p = _value(tr, param)
        p = tr.emit("reshape", [p], keep, p.elt, f"shape = {_array(keep)}")
        from .composite import promote
        out = tr.emit(op, [out, p], x.shape, promote(out.elt, p.elt))
    return out


def _group_statistics(tr, node, x, group, eps):
    """The per-(sample, group) mean and rstd, (N, group) in f32, where
    results 1 and 2 of `node` are used."""
    metas = [tr.meta_of(node, 1), tr.meta_of(node, 2)]
    if metas == [None, None]:
        return [None, None]
    n = x.shape[0]
    size = math.prod(x.shape[1:])
    grouped = (n, group, size // group)
    xf = tr.emit("reshape", [tr.cast(x, "f32")], grouped, "f32",
                 f"shape = {_array(grouped)}")
    mean = tr.emit("mean", [xf], (n, group, 1), "f32",
                   "dim = array<i64: 2>, keepdim = true")
    centered = tr.emit("sub", [xf, mean], grouped, "f32")
    var = tr.emit("mean", [tr.emit("mul", [centered, centered], grouped,
                                   "f32")], (n, group), "f32",
                  "dim = array<i64: 2>")
    rstd = tr.emit("rsqrt", [tr.emit("add", [var, tr.constant(eps, "f32")],
                                     (n, group), "f32")], (n, group), "f32")
    mean = tr.emit("reshape", [mean], (n, group), "f32",
                   f"shape = {_array((n, group))}")
    return [tr.cast(v, m[1]) if m else None
            for v, m in zip((mean, rstd), metas)]


@handles("native_group_norm")
def _native_group_norm(tr, node, input, weight, bias, N, C, HxW, group,
                       eps):
    """(out, mean, rstd): tp.group_norm and the statistics eager saves."""
    from .operator_backward_ops import group_norm
    x = _value(tr, input)
    if x.rank < 2 or x.shape[1] % int(group):
        raise Unsupported(f"{x.shape[1] if x.rank > 1 else 0} channels in "
                          f"{int(group)} groups")
    shape, elt = tr.meta_of(node, 0)
    out = group_norm(tr, shape, elt, x, int(group), weight, bias, eps)
    return tuple([out] + _group_statistics(tr, node, x, int(group), eps))


@handles("native_group_norm_backward")
def _native_group_norm_backward(tr, node, grad_out, input, mean, rstd,
                                weight, N, C, HxW, group, output_mask):
    """(grad_input, grad_weight, grad_bias) from the saved mean and rstd, in
    f32 over x seen as (N, group, C/group, HxW): xhat = (x - mean) rstd,
    gw = g weight, grad_input = rstd (gw - mean(gw) - xhat mean(gw xhat))
    with the means over each (sample, group), grad_weight = sum(g xhat) and
    grad_bias = sum(g) per channel."""
    g, x = _value(tr, grad_out), _value(tr, input)
    group = int(group)
    n, c = x.shape[0], x.shape[1]
    if c % group:
        raise Unsupported(f"{c} channels in {group} groups")
    size = math.prod(x.shape[2:])
    view = (n, group, c // group, size)
    stat = (n, group, 1, 1)

    def f32(v, shape):
        return tr.emit("reshape", [tr.cast(_value(tr, v), "f32")], shape,
                       "f32", f"shape = {_array(shape)}")
    gf, xf = f32(g, view), f32(x, view)
    xhat = tr.emit("mul", [tr.emit("sub", [xf, f32(mean, stat)], view,
                                   "f32"), f32(rstd, stat)], view, "f32")
    mask = list(output_mask) if output_mask is not None else [True] * 3
    parts = [None, None, None]
    if mask[0]:
        gw = gf if weight is None else tr.emit(
            "mul", [gf, f32(weight, (1, group, c // group, 1))], view, "f32")

        def group_mean(v):
            return tr.emit("mean", [v], stat, "f32",
                           "dim = array<i64: 2, 3>, keepdim = true")
        a = group_mean(gw)
        b = group_mean(tr.emit("mul", [gw, xhat], view, "f32"))
        inner = tr.emit("sub", [tr.emit("sub", [gw, a], view, "f32"),
                                tr.emit("mul", [xhat, b], view, "f32")],
                        view, "f32")
        dx = tr.emit("mul", [inner, f32(rstd, stat)], view, "f32")
        parts[0] = tr.emit("reshape", [dx], x.shape, "f32",
                           f"shape = {_array(x.shape)}")
    for i, term in ((1, "xhat"), (2, "g")):
        if not mask[i] or (i == 1 and weight is None):
            continue
        v = tr.emit("mul", [gf, xhat], view, "f32") if term == "xhat" else gf
        summed = tr.emit("sum", [v], (group, c // group), "f32",
                         "dim = array<i64: 0, 3>")
        parts[i] = tr.emit("reshape", [summed], (c,), "f32",
                           f"shape = {_array((c,))}")
    return cast_to_parts(tr, node, parts)


@handles("layer_norm_backward")
def _layer_norm_backward(tr, node, grad_output, input, normalized_shape,
                         weight=None, bias=None, eps=1e-5):
    """(grad_input, grad_weight, grad_bias): tp.layer_norm_backward."""
    from .translate import format_float
    g, x = _value(tr, grad_output), _value(tr, input)
    operands, text = operands_with(tr, [g, x], weight=weight)
    params = tuple(int(d) for d in normalized_shape)
    param_elt = operands[-1].elt if weight is not None else x.elt
    parts = tr.emit_multi(
        "layer_norm_backward", operands,
        [(x.shape, x.elt), (params, param_elt), (params, param_elt)],
        f"normalized_shape = {_array(list(params))}, eps = "
        f"{format_float(eps)} : f64", operand_format=text)
    if bias is None:
        parts[2] = None
    if weight is None:
        parts[1] = None
    return cast_to_parts(tr, node, parts)



@handles("instance_norm_backward")
def _instance_norm_backward(tr, node, grad_output, input, weight=None,
                            bias=None, running_mean=None, running_var=None,
                            use_input_stats=True, eps=1e-5):
    """(grad_input, grad_weight, grad_bias): tp.batch_norm_backward of the
    input folded to one batch of N*C channels (the weight repeated per
    sample), its parameter gradients summed over the samples."""
    from .composite import Composer
    from .translate import format_float
    c = Composer(tr)
    g = _value(tr, grad_output)
    x = _instance_input(tr, input, use_input_stats, running_mean,
                        running_var)
    n, ch = x.shape[0], x.shape[1]
    folded = (1, n * ch) + x.shape[2:]
    operands = [c.reshape(g, folded), c.reshape(x, folded)]
    text = None
    if weight is not None:
        w = _value(tr, weight)
        repeated = c.reshape(c.expand(c.reshape(w, (1, ch)), (n, ch)),
                             (n * ch,))
        operands.append(repeated)
        text = ", ".join(v.ssa for v in operands[:2]) + \
            f" weight({repeated.ssa})"
    param_elt = operands[-1].elt if weight is not None else x.elt
    parts = tr.emit_multi(
        "batch_norm_backward", operands,
        [(folded, x.elt), ((n * ch,), param_elt), ((n * ch,), param_elt)],
        f"eps = {format_float(eps)} : f64", operand_format=text)
    grad_input = c.reshape(parts[0], x.shape)
    sums = [c.reduce("sum", c.reshape(p, (n, ch)), [0], False)
            for p in parts[1:]]
    return cast_to_parts(tr, node, (grad_input,
                                    sums[0] if weight is not None else None,
                                    sums[1] if bias is not None else None))
