"""Handlers for tensorplay 1.1's operator graphs (OpOverload targets).

1.1 routes training regions through its AOT autograd, which hands the
backend dispatcher-level graphs: forward graphs whose ops return the extra
values the backward saves (``nll_loss`` -> (loss, total_weight),
``native_layer_norm`` -> (out, mean, rstd)) and backward graphs of
``*_backward`` operators. Registered as 'op.<name>' where the operator's
signature differs from the functional form's (ops.py has the others).

The extra forward values are computed exactly from their definitions with
tp ops, and the backward operators that take them use them as eager does:
``native_layer_norm_backward`` is written out from the saved mean and rstd
(f32 arithmetic, like eager's CPU kernel), so no epsilon has to be guessed.
"""

from .ops import (HANDLERS, Unsupported, _array, _dim, _result, _value,
                  cast_to_parts, handles, operands_with)

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _reduction_attr(code):
    if code not in _REDUCTIONS:
        raise Unsupported(f"reduction code {code}")
    return f"reduction = #tp.reduction<{_REDUCTIONS[code]}>"


@handles("op.nll_loss", "op.nll_loss_forward", "op.nll_loss2d",
         "op.nll_loss2d_forward")
def _nll_loss(tr, node, x, target, weight=None, reduction=1,
              ignore_index=-100):
    """(loss, total_weight), of tp.nll_loss or, for the 2d operators,
    tp.nll_loss2d. total_weight, the sum of the weights of the targets not
    ignored, is itself such a loss: of an input of -1s, summed."""
    from .ops import canonical_name
    op = "nll_loss2d" if "2d" in canonical_name(node) else "nll_loss"
    x, target = _value(tr, x), _value(tr, target)
    operands, text = operands_with(tr, [x, target], weight=weight)
    loss_meta = tr.meta_of(node, 0)
    attrs = f"ignore_index = {int(ignore_index)} : i64"
    loss = tr.emit(op, operands, loss_meta[0], loss_meta[1],
                   f"{attrs}, {_reduction_attr(reduction)}",
                   operand_format=text)
    total_meta = tr.meta_of(node, 1)
    if total_meta is None:
        return (loss, None)
    ones = tr.constant(-1.0, total_meta[1], x.shape)
    operands, text = operands_with(tr, [ones, target], weight=weight)
    total = tr.emit(op, operands, total_meta[0], total_meta[1],
                    f"{attrs}, reduction = #tp.reduction<sum>",
                    operand_format=text)
    return (loss, total)


@handles("op.nll_loss_backward")
def _nll_loss_backward(tr, node, grad, x, target, weight, reduction,
                       ignore_index, total_weight=None):
    # tp.nll_loss_backward derives the total weight from target and weight
    # as the forward did.
    grad, x, target = _value(tr, grad), _value(tr, x), _value(tr, target)
    operands, text = operands_with(tr, [grad, x, target], weight=weight)
    shape, elt = _result(node)
    return tr.emit("nll_loss_backward", operands, shape, elt,
                   f"ignore_index = {int(ignore_index)} : i64, "
                   f"{_reduction_attr(reduction)}", operand_format=text)


def _softmax_backward(op):
    def handler(tr, node, grad, output, dim, input_dtype=None):
        grad, output = _value(tr, grad), _value(tr, output)
        shape, elt = _result(node)
        return tr.emit(op, [grad, output], shape, elt,
                       f"dim = {_dim(dim, output.rank)} : i64")
    return handler


HANDLERS["op._log_softmax_backward_data"] = _softmax_backward(
    "log_softmax_backward")
HANDLERS["op._softmax_backward_data"] = _softmax_backward("softmax_backward")


@handles("op.gelu_backward")
def _gelu_backward(tr, node, grad, x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise Unsupported(f"approximate='{approximate}'")
    shape, elt = _result(node)
    attrs = "" if approximate == "none" else "approximate = #tp.approximate<tanh>"
    return tr.emit("gelu_backward", [_value(tr, grad), _value(tr, x)], shape,
                   elt, attrs)


@handles("op.threshold_backward")
def _threshold_backward(tr, node, grad, x, threshold):
    from .translate import format_float
    shape, elt = _result(node)
    attrs = "" if threshold == 0 else \
        f"threshold = {format_float(threshold)} : f64"
    return tr.emit("threshold_backward", [_value(tr, grad), _value(tr, x)],
                   shape, elt, attrs)


def _convolution_gradient(tr, node, index, grad, x, weight, stride, padding,
                          dilation, groups, output_padding=None):
    """Result `index` of one tp.convolution_backward per (grad, input,
    weight, geometry), shared by the input, weight and bias gradients; a
    transposed convolution's when `output_padding` is given."""
    value = convolution_gradients(tr, grad, x, weight, stride, padding,
                                  dilation, groups, output_padding)[index]
    shape, elt = _result(node)
    if tuple(shape) != value.shape:
        raise Unsupported(f"gradient shape {shape}")
    return tr.cast(value, elt)


def convolution_gradients(tr, grad, x, weight, stride, padding, dilation,
                          groups, output_padding=None):
    """(grad_input, grad_weight, grad_bias) of one tp.convolution_backward
    per (grad, input, weight, geometry)."""
    grad, x, weight = _value(tr, grad), _value(tr, x), _value(tr, weight)
    n = x.rank - 2
    transposed = output_padding is not None
    output_padding = _list(output_padding if transposed else 0, n)
    key = ("convolution_backward", grad.ssa, x.ssa, weight.ssa,
           tuple(_list(stride, n)), tuple(_list(padding, n)),
           tuple(_list(dilation, n)), int(groups), tuple(output_padding),
           transposed)
    memo = tr.memo
    if key not in memo:
        # The bias has the output's channels: C_out = weight.shape[0], or
        # weight.shape[1] * groups transposed.
        channels = weight.shape[1] * int(groups) if transposed else \
            weight.shape[0]
        bias = ((channels,), grad.elt)
        attrs = (f"dilation = {_array(_list(dilation, n))}, groups = "
                 f"{int(groups)} : i64, output_padding = "
                 f"{_array(output_padding)}, padding = "
                 f"{_array(_list(padding, n))}, stride = "
                 f"{_array(_list(stride, n))}, transposed = "
                 f"{'true' if transposed else 'false'}")
        memo[key] = tr.emit_multi(
            "convolution_backward", [grad, x, weight],
            [(x.shape, x.elt), (weight.shape, weight.elt), bias], attrs)
    return memo[key]


@handles("_slow_conv2d_backward")
def _slow_conv2d_backward(tr, node, grad_output, self, weight, kernel_size,
                          stride, padding, output_mask):
    """thnn_conv2d's backward (output_mask form): tp.convolution_backward."""
    parts = convolution_gradients(tr, grad_output, self, weight, stride,
                                  padding, 1, 1)
    return cast_to_parts(tr, node, [p if m else None for p, m in
                                    zip(parts, output_mask)])


@handles("convolution_backward")
def _convolution_backward(tr, node, grad_output, input, weight, bias_sizes,
                          stride, padding, dilation, transposed,
                          output_padding, groups, output_mask):
    """aten's convolution_backward: the parts output_mask asks for."""
    parts = convolution_gradients(
        tr, grad_output, input, weight, stride, padding, dilation, groups,
        output_padding if transposed else None)
    wanted = list(output_mask)
    if bias_sizes is None:
        wanted[2] = False
    return cast_to_parts(tr, node, [p if m else None for p, m in
                                    zip(parts, wanted)])


def _conv_grad(index):
    """conv{1,2,3}d_grad_input/weight/bias."""
    def handler(tr, node, grad, x, weight, stride, padding, dilation, groups):
        return _convolution_gradient(tr, node, index, grad, x, weight, stride,
                                     padding, dilation, groups)
    return handler


def _conv_transpose_grad(index):
    """conv_transpose{1,2,3}d_grad_input/weight/bias (1.1's backward of
    F.conv_transpose*d)."""
    def handler(tr, node, grad_output, input, weight, stride, padding,
                output_padding, groups, dilation):
        return _convolution_gradient(tr, node, index, grad_output, input,
                                     weight, stride, padding, dilation,
                                     groups, output_padding)
    return handler


def _list(v, n):
    return [int(i) for i in v] if isinstance(v, (list, tuple)) else [int(v)] * n


for _n in (1, 2, 3):
    for _i, _what in enumerate(("input", "weight", "bias")):
        HANDLERS[f"op.conv{_n}d_grad_{_what}"] = _conv_grad(_i)
        HANDLERS[f"op.conv_transpose{_n}d_grad_{_what}"] = \
            _conv_transpose_grad(_i)


def _normalized(tr, x, normalized_shape):
    k = len(normalized_shape)
    if tuple(x.shape[-k:]) != tuple(normalized_shape):
        raise Unsupported(f"normalized_shape {list(normalized_shape)}")
    dims = list(range(x.rank - k, x.rank))
    stat_shape = tuple(x.shape[:x.rank - k]) + (1,) * k
    return dims, stat_shape


def _mean(tr, x, dims, shape):
    return tr.emit("mean", [x], shape, x.elt,
                   f"dim = {_array(dims)}, keepdim = true")


def _bin(tr, op, a, b):
    """Binary `op` of a and b, the operand of higher rank first in shape."""
    return tr.emit(op, [a, b], a.shape if a.rank >= b.rank else b.shape,
                   a.elt)


@handles("op.native_layer_norm")
def _native_layer_norm(tr, node, x, normalized_shape, weight, bias, eps):
    """(out, mean, rstd): tp.layer_norm, and the statistics eager saves,
    computed in f32 from their definitions."""
    from .translate import format_float
    x = _value(tr, x)
    out_meta = tr.meta_of(node, 0)
    operands, text = operands_with(tr, [x], weight=weight, bias=bias)
    out = tr.emit("layer_norm", operands, out_meta[0], out_meta[1],
                  f"normalized_shape = {_array(list(normalized_shape))}, "
                  f"eps = {format_float(eps)} : f64", operand_format=text)
    mean_meta, rstd_meta = tr.meta_of(node, 1), tr.meta_of(node, 2)
    if mean_meta is None and rstd_meta is None:
        return (out, None, None)
    dims, stat_shape = _normalized(tr, x, normalized_shape)
    xf = tr.cast(x, "f32")
    mean = _mean(tr, xf, dims, stat_shape)
    centered = _bin(tr, "sub", xf, mean)
    var = _mean(tr, _bin(tr, "mul", centered, centered), dims, stat_shape)
    rstd = tr.emit("rsqrt", [_bin(tr, "add", var, tr.constant(eps, "f32"))],
                   stat_shape, "f32")
    return (out,
            tr.cast(mean, mean_meta[1]) if mean_meta else None,
            tr.cast(rstd, rstd_meta[1]) if rstd_meta else None)


@handles("op.native_layer_norm_backward")
def _native_layer_norm_backward(tr, node, grad, x, normalized_shape, mean,
                                rstd, weight, bias, output_mask):
    """(grad_input, grad_weight, grad_bias) from the saved mean and rstd:
    xhat = (x - mean) rstd, gw = sum(g xhat), gb = sum(g), and
    dx = rstd (g w - mean(g w) - xhat mean(g w xhat)), in f32."""
    grad, x = _value(tr, grad), _value(tr, x)
    mean, rstd = _value(tr, mean), _value(tr, rstd)
    dims, stat_shape = _normalized(tr, x, normalized_shape)
    outer = list(range(x.rank - len(dims)))
    g, xf = tr.cast(grad, "f32"), tr.cast(x, "f32")
    xhat = _bin(tr, "mul", _bin(tr, "sub", xf, tr.cast(mean, "f32")),
                tr.cast(rstd, "f32"))
    results = []
    mask = list(output_mask) if output_mask is not None else [True] * 3
    gw_in = g
    if weight is not None:
        gw_in = _bin(tr, "mul", g, tr.cast(_value(tr, weight), "f32"))
    if mask[0]:
        a = _mean(tr, gw_in, dims, stat_shape)
        b = _mean(tr, _bin(tr, "mul", gw_in, xhat), dims, stat_shape)
        inner = _bin(tr, "sub", _bin(tr, "sub", gw_in, a),
                     _bin(tr, "mul", xhat, b))
        dx = _bin(tr, "mul", inner, tr.cast(rstd, "f32"))
        results.append(tr.cast(dx, tr.meta_of(node, 0)[1]))
    else:
        results.append(None)
    for i, (param, term) in enumerate(((weight, _bin(tr, "mul", g, xhat)),
                                       (bias, g)), start=1):
        meta = tr.meta_of(node, i)
        if param is None or not mask[i] or meta is None:
            results.append(None)
            continue
        summed = tr.emit("sum", [term], meta[0], "f32",
                         f"dim = {_array(outer)}") if outer else term
        results.append(tr.cast(summed, meta[1]))
    return tuple(results)


@handles("op.embedding")
def _embedding(tr, node, weight, indices, padding_idx=-1,
               scale_grad_by_freq=False, sparse=False):
    """aten::embedding: padding_idx -1 is 'none' here (F.embedding's -1,
    the last row, arrives already made non-negative)."""
    if sparse:
        raise Unsupported("sparse=True (a sparse gradient)")
    shape, elt = _result(node)
    attrs = [f"padding_idx = {int(padding_idx)} : i64"] \
        if int(padding_idx) != -1 else []
    if scale_grad_by_freq:
        attrs.append("scale_grad_by_freq = true")
    return tr.emit("embedding", [_value(tr, weight), _value(tr, indices)],
                   shape, elt, ", ".join(attrs))


@handles("op.embedding_dense_backward")
def _embedding_dense_backward(tr, node, grad_output, indices, num_weights,
                              padding_idx, scale_grad_by_freq):
    shape, elt = _result(node)
    attrs = [f"num_weights = {int(num_weights)} : i64"]
    if int(padding_idx) != -1:
        attrs.append(f"padding_idx = {int(padding_idx)} : i64")
    if scale_grad_by_freq:
        attrs.append("scale_grad_by_freq = true")
    return tr.emit("embedding_dense_backward",
                   [_value(tr, grad_output), _value(tr, indices)], shape, elt,
                   ", ".join(attrs))


@handles("op.copy_")
def _copy_(tr, node, self, src, non_blocking=False):
    """x.copy_(src): src broadcast and cast into x's memory (an in-place
    update of an argument: the running-statistics counter)."""
    return tr.write_back(_value(tr, self), _value(tr, src))


@handles("op.batch_norm_backward", "op.native_batch_norm_backward")
def _batch_norm_backward(tr, node, grad_output, input, weight=None,
                         running_mean=None, running_var=None, training=True,
                         eps=1e-5, *rest):
    """(grad_input, grad_weight, grad_bias). Training: tp.batch_norm_backward
    (batch statistics recomputed from the input). Evaluation: the running
    statistics are constants, so grad_input = g w rstd, grad_weight =
    sum(g (x - mean) rstd), grad_bias = sum(g), in f32."""
    g, x = _value(tr, grad_output), _value(tr, input)
    c = (x.shape[1],)
    if training or running_mean is None or running_var is None:
        from .translate import format_float
        operands, text = operands_with(tr, [g, x], weight=weight)
        param_elt = operands[-1].elt if weight is not None else x.elt
        return cast_to_parts(tr, node, tr.emit_multi(
            "batch_norm_backward", operands,
            [(x.shape, x.elt), (c, param_elt), (c, param_elt)],
            f"eps = {format_float(eps)} : f64", operand_format=text))
    keep = (1, x.shape[1]) + (1,) * (x.rank - 2)
    dims = [0] + list(range(2, x.rank))

    def per_channel(v):
        return tr.emit("reshape", [tr.cast(_value(tr, v), "f32")], keep,
                       "f32", f"shape = {_array(keep)}")
    gf, xf = tr.cast(g, "f32"), tr.cast(x, "f32")
    var = per_channel(running_var)
    rstd = tr.emit("rsqrt", [tr.emit("add", [var, tr.constant(eps, "f32")],
                                     keep, "f32")], keep, "f32")
    scale = rstd if weight is None else \
        tr.emit("mul", [rstd, per_channel(weight)], keep, "f32")
    xhat = tr.emit("mul", [tr.emit("sub", [xf, per_channel(running_mean)],
                                   x.shape, "f32"), rstd], x.shape, "f32")
    parts = [tr.emit("mul", [gf, scale], x.shape, "f32"),
             tr.emit("sum", [tr.emit("mul", [gf, xhat], x.shape, "f32")], c,
                     "f32", f"dim = {_array(dims)}"),
             tr.emit("sum", [gf], c, "f32", f"dim = {_array(dims)}")]
    return cast_to_parts(tr, node, parts)
