"""Handlers for the pointwise losses beyond mse/l1 (smooth_l1, huber,
soft_margin, hinge_embedding, kl_div, binary_cross_entropy, margin_ranking,
cosine_embedding, poisson_nll, triplet_margin), the reflection and
replication paddings (and F.pad in those modes), the transposed
convolutions and aten's convolution, bilinear, and the LSTM and GRU cells:
one tp op each, in the functional form (1.0) and the operator form (1.1),
parameters named after the operators' schemas (binding.py).
"""

from .ops import (HANDLERS, Unsupported, _array, _pair, _reduction, _result,
                  _value, canonical_name, f64_attr, handles, operands_with)


def _no_legacy(size_average, reduce):
    if size_average is not None or reduce is not None:
        raise Unsupported("size_average/reduce (deprecated)")


def _loss(tr, node, operands, reduction, attrs=(), operand_format=None):
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), operands, shape, elt,
                   ", ".join(list(attrs) + [_reduction(reduction)]),
                   operand_format=operand_format)


def _smooth_l1_loss(tr, node, x, target, size_average=None, reduce=None,
                    reduction="mean", beta=1.0):
    _no_legacy(size_average, reduce)
    return _loss(tr, node, [_value(tr, x), _value(tr, target)], reduction,
                 [f64_attr("beta", beta)])


def _huber_loss(tr, node, x, target, reduction="mean", delta=1.0):
    return _loss(tr, node, [_value(tr, x), _value(tr, target)], reduction,
                 [f64_attr("delta", delta)])


def _soft_margin_loss(tr, node, x, target, size_average=None, reduce=None,
                      reduction="mean"):
    _no_legacy(size_average, reduce)
    return _loss(tr, node, [_value(tr, x), _value(tr, target)], reduction)


def _hinge_embedding_loss(tr, node, x, target, margin=1.0,
                          size_average=None, reduce=None, reduction="mean"):
    _no_legacy(size_average, reduce)
    return _loss(tr, node, [_value(tr, x), _value(tr, target)], reduction,
                 [f64_attr("margin", margin)])


def _kl_div(tr, node, x, target, size_average=None, reduce=None,
            reduction="mean", log_target=False):
    """reduction='batchmean' (the functional form's, the mathematically
    correct mean) is the sum divided by the batch size, as F.kl_div
    computes it."""
    _no_legacy(size_average, reduce)
    x, target = _value(tr, x), _value(tr, target)
    attrs = [f"log_target = {'true' if log_target else 'false'}"]
    if reduction != "batchmean":
        return _loss(tr, node, [x, target], reduction, attrs)
    shape, elt = _result(node)
    total = tr.emit("kl_div", [x, target], shape, elt,
                    ", ".join(attrs + [_reduction("sum")]))
    batch = x.shape[0] if x.rank else 1
    return tr.emit("div", [total, tr.constant(float(batch), elt)], shape, elt)


def _binary_cross_entropy(tr, node, x, target, weight=None,
                          size_average=None, reduce=None, reduction="mean"):
    _no_legacy(size_average, reduce)
    operands, text = operands_with(tr, [_value(tr, x), _value(tr, target)],
                                   weight=weight)
    return _loss(tr, node, operands, reduction, operand_format=text)


def _margin_ranking_loss(tr, node, input1, input2, target, margin=0.0,
                         size_average=None, reduce=None, reduction="mean"):
    _no_legacy(size_average, reduce)
    return _loss(tr, node, [_value(tr, input1), _value(tr, input2),
                            _value(tr, target)], reduction,
                 [f64_attr("margin", margin)])


HANDLERS["smooth_l1_loss"] = _smooth_l1_loss
HANDLERS["huber_loss"] = _huber_loss
HANDLERS["soft_margin_loss"] = _soft_margin_loss
HANDLERS["hinge_embedding_loss"] = _hinge_embedding_loss
HANDLERS["kl_div"] = _kl_div
HANDLERS["binary_cross_entropy"] = _binary_cross_entropy
HANDLERS["margin_ranking_loss"] = _margin_ranking_loss


def _pad(tr, node, x, padding):
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), [x], shape, elt,
                   f"padding = {_array([int(p) for p in padding])}")


for _name in ("reflection_pad1d", "reflection_pad2d", "replication_pad1d",
              "replication_pad2d", "replication_pad3d"):
    HANDLERS[_name] = _pad

_PAD_OPS = {("reflect", 1): "reflection_pad1d", ("reflect", 2):
            "reflection_pad2d", ("replicate", 1): "replication_pad1d",
            ("replicate", 2): "replication_pad2d", ("replicate", 3):
            "replication_pad3d"}


@handles("pad")
def _functional_pad(tr, node, x, pad, mode="constant", value=None):
    """F.pad (and 1.1's pad operator): the constant and circular modes as
    resize_ops writes them, the reflect and replicate modes as their tp
    ops."""
    if mode == "constant":
        from .resize_ops import constant_pad
        return constant_pad(tr, _value(tr, x), pad,
                            0 if value is None else value)
    if mode == "circular":
        from .resize_ops import circular_pad
        return circular_pad(tr, _value(tr, x), pad)
    op = _PAD_OPS.get((mode, len(pad) // 2))
    if op is None or len(pad) % 2:
        raise Unsupported(f"F.pad mode='{mode}' over {len(pad) // 2} "
                          "dimensions")
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit(op, [x], shape, elt,
                   f"padding = {_array([int(p) for p in pad])}")


def _conv_transpose(tr, node, x, weight, bias=None, stride=1, padding=0,
                    output_padding=0, groups=1, dilation=1):
    x, weight = _value(tr, x), _value(tr, weight)
    n = weight.rank - 2
    operands, text = operands_with(tr, [x, weight], bias=bias)
    if isinstance(padding, str):
        raise Unsupported(f"padding='{padding}'")
    attrs = [f"stride = {_array(_pair(stride, n))}",
             f"padding = {_array(_pair(padding, n))}",
             f"output_padding = {_array(_pair(output_padding, n))}",
             f"groups = {int(groups)} : i64",
             f"dilation = {_array(_pair(dilation, n))}"]
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), operands, shape, elt,
                   ", ".join(attrs), operand_format=text)


for _name in ("conv_transpose1d", "conv_transpose2d", "conv_transpose3d"):
    HANDLERS[_name] = _conv_transpose


def _reflection_pad_nd(tr, node, x, pad):
    return _functional_pad(tr, node, x, pad, "reflect")


def _replication_pad_nd(tr, node, x, pad):
    return _functional_pad(tr, node, x, pad, "replicate")


# 1.1's F.pad in the reflect and replicate modes.
HANDLERS["reflection_pad_nd"] = _reflection_pad_nd
HANDLERS["replication_pad_nd"] = _replication_pad_nd


def _poisson_nll_loss(tr, node, x, target, log_input=True, full=False,
                      size_average=None, eps=1e-8, reduce=None,
                      reduction="mean"):
    _no_legacy(size_average, reduce)
    return _loss(tr, node, [_value(tr, x), _value(tr, target)], reduction,
                 [f"log_input = {'true' if log_input else 'false'}",
                  f"full = {'true' if full else 'false'}", f64_attr("eps", eps)])


# The same arguments as margin_ranking_loss's: (input1, input2, target,
# margin, ..., reduction).
HANDLERS["cosine_embedding_loss"] = _margin_ranking_loss
HANDLERS["poisson_nll_loss"] = _poisson_nll_loss


def _triplet_margin_loss(tr, node, anchor, positive, negative, margin=1.0,
                         p=2, eps=1e-6, swap=False, size_average=None,
                         reduce=None, reduction="mean"):
    _no_legacy(size_average, reduce)
    return _loss(tr, node, [_value(tr, anchor), _value(tr, positive),
                            _value(tr, negative)], reduction,
                 [f64_attr("margin", margin), f64_attr("p", p), f64_attr("eps", eps),
                  f"swap = {'true' if swap else 'false'}"])


HANDLERS["triplet_margin_loss"] = _triplet_margin_loss


def _bilinear(tr, node, input1, input2, weight, bias=None):
    operands, text = operands_with(
        tr, [_value(tr, input1), _value(tr, input2), _value(tr, weight)],
        bias=bias)
    shape, elt = _result(node)
    return tr.emit("bilinear", operands, shape, elt, operand_format=text)


HANDLERS["bilinear"] = _bilinear


def _cell_operands(tr, x, states, w_ih, w_hh, b_ih, b_hh):
    leading = [_value(tr, x)] + [_value(tr, s) for s in states] + \
        [_value(tr, w_ih), _value(tr, w_hh)]
    return operands_with(tr, leading, b_ih=b_ih, b_hh=b_hh)


def _lstm_cell(tr, node, input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """(h, c) of one LSTM step (hx: [h, c], the functional form)."""
    if not isinstance(hx, (list, tuple)) or len(hx) != 2:
        raise Unsupported("lstm_cell without an (h, c) state")
    return _lstm_step(tr, node, input, hx, w_ih, w_hh, b_ih, b_hh)


def _lstm_cell_operator(tr, node, input, hx, cx, w_ih, w_hh, b_ih=None,
                        b_hh=None):
    """1.1's operator form: the states as two tensors."""
    return _lstm_step(tr, node, input, [hx, cx], w_ih, w_hh, b_ih, b_hh)


def _lstm_step(tr, node, input, hx, w_ih, w_hh, b_ih, b_hh):
    operands, text = _cell_operands(tr, input, hx, w_ih, w_hh, b_ih, b_hh)
    h = _value(tr, hx[0])
    h_meta = tr.meta_of(node, 0) or (h.shape, h.elt)
    c_meta = tr.meta_of(node, 1) or (h.shape, h.elt)
    return tuple(tr.emit_multi("lstm_cell", operands, [h_meta, c_meta],
                               operand_format=text))


def _gru_cell(tr, node, input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    operands, text = _cell_operands(tr, input, [hx], w_ih, w_hh, b_ih, b_hh)
    shape, elt = _result(node)
    return tr.emit("gru_cell", operands, shape, elt, operand_format=text)


def _rnn_cell(nonlinearity):
    def handler(tr, node, input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
        """act(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh)): eager's
        rnn_*_cell calls linear (which cpu autocast puts in bf16), not an
        RNN cell kernel (tp.rnn_cell is RNNCell's, which it does not)."""
        x, h = _value(tr, input), _value(tr, hx)
        shape, elt = _result(node)

        def linear(v, w, b):
            operands, text = operands_with(tr, [v, _value(tr, w)], bias=b)
            return tr.emit("linear", operands, v.shape[:-1] + (
                _value(tr, w).shape[0],), elt, operand_format=text)
        total = tr.emit("add", [linear(x, w_ih, b_ih), linear(h, w_hh, b_hh)],
                        shape, elt)
        return tr.emit(nonlinearity, [total], shape, elt)
    return handler


HANDLERS["rnn_tanh_cell"] = _rnn_cell("tanh")
HANDLERS["rnn_relu_cell"] = _rnn_cell("relu")
HANDLERS["lstm_cell"] = _lstm_cell
HANDLERS["op.lstm_cell"] = _lstm_cell_operator
HANDLERS["gru_cell"] = _gru_cell


def _convolution(tr, node, input, weight, bias, stride, padding, dilation,
                 transposed, output_padding, groups, benchmark=False,
                 deterministic=False, cudnn_enabled=True, allow_tf32=True):
    """aten's convolution and _convolution (1.1 operator graphs; the
    latter's flags choose eager's CUDA algorithms, nothing on the CPU)."""
    x, weight = _value(tr, input), _value(tr, weight)
    n = weight.rank - 2
    operands, text = operands_with(tr, [x, weight], bias=bias)
    attrs = [f"stride = {_array(_pair(stride, n))}",
             f"padding = {_array(_pair(padding, n))}",
             f"dilation = {_array(_pair(dilation, n))}",
             f"transposed = {'true' if transposed else 'false'}",
             f"output_padding = {_array(_pair(output_padding, n))}",
             f"groups = {int(groups)} : i64"]
    shape, elt = _result(node)
    return tr.emit("convolution", operands, shape, elt, ", ".join(attrs),
                   operand_format=text)


HANDLERS["convolution"] = HANDLERS["_convolution"] = _convolution
