"""Handlers of the ops the compiler rewrites into other tp ops
(tp-decompose-composite-ops): scaled_dot_product_attention (also
grouped-query), cross, cdist, pdist, renorm, multi_margin_loss and
multilabel_margin_loss. Each becomes its one tp op, so that autocast decides
it as one op (the tables list cdist, renorm and the margin losses, not
their parts) and the report names it.
"""

from .ops import (Unsupported, _dim, _reduction, _result, _value, handles,
                  operands_with)


def _f64(value):
    from .translate import format_float
    return f"{format_float(float(value))} : f64"


@handles("scaled_dot_product_attention")
def _sdpa(tr, node, q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False,
          scale=None, enable_gqa=False, backend=None):
    shape, elt = _result(node)
    return emit_attention(tr, q, k, v, attn_mask, dropout_p, is_causal, scale,
                          enable_gqa, shape, elt)


def emit_attention(tr, q, k, v, attn_mask, dropout_p, is_causal, scale,
                   enable_gqa, shape, elt):
    """tp.scaled_dot_product_attention with result `shape` and `elt`."""
    if dropout_p:
        raise Unsupported("attention dropout (its random mask would differ "
                          "from eager's)")
    q, k, v = _value(tr, q), _value(tr, k), _value(tr, v)
    operands, text = operands_with(tr, [q, k, v], mask=attn_mask)
    attrs = []
    if is_causal:
        attrs.append("is_causal = true")
    if scale is not None:
        attrs.append(f"scale = {_f64(scale)}")
    if enable_gqa:
        attrs.append("enable_gqa = true")
    return tr.emit("scaled_dot_product_attention", operands, shape, elt,
                   ", ".join(attrs), operand_format=text)


@handles("cross")
def _cross(tr, node, x, other, dim=None):
    x, other = _value(tr, x), _value(tr, other)
    shape, elt = _result(node)
    attrs = f"dim = {_dim(dim, len(shape))} : i64" if dim is not None else ""
    return tr.emit("cross", [x, other], shape, elt, attrs)


@handles("cdist")
def _cdist(tr, node, x1, x2, p=2.0, compute_mode=None):
    """compute_mode only chooses eager's route for p = 2 (the x1 x2^T
    expansion for many rows); the compiled cdist always takes the exact
    difference form."""
    shape, elt = _result(node)
    return tr.emit("cdist", [_value(tr, x1), _value(tr, x2)], shape, elt,
                   f"p = {_f64(p)}")


@handles("pdist")
def _pdist(tr, node, x, p=2.0):
    shape, elt = _result(node)
    return tr.emit("pdist", [_value(tr, x)], shape, elt, f"p = {_f64(p)}")


@handles("renorm")
def _renorm(tr, node, x, p, dim, maxnorm):
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit("renorm", [x], shape, elt,
                   f"dim = {_dim(dim, x.rank)} : i64, maxnorm = "
                   f"{_f64(maxnorm)}, p = {_f64(p)}")


def _legacy_reduction(rest, reduction, size_average, reduce):
    """The reduction of a loss called as tensorplay.functional's form
    (`reduction` an enum, positional after the op's own arguments) or
    nn.functional's (size_average, reduce, reduction)."""
    if len(rest) == 1:
        reduction = rest[0]
    elif len(rest) == 3:
        size_average, reduce, reduction = rest
    elif rest:
        raise Unsupported("unexpected positional arguments")
    if size_average is not None or reduce is not None:
        raise Unsupported("size_average/reduce (deprecated)")
    return _reduction(reduction)


@handles("multi_margin_loss")
def _multi_margin(tr, node, x, target, p=1, margin=1.0, weight=None, *rest,
                  reduction="mean", size_average=None, reduce=None):
    attrs = _legacy_reduction(rest, reduction, size_average, reduce)
    x, target = _value(tr, x), _value(tr, target)
    shape, elt = _result(node)
    operands, text = [x, target], f"{x.ssa}, {target.ssa}"
    if weight is not None:
        weight = _value(tr, weight)
        operands.append(weight)
        text += f" weight({weight.ssa})"
    attrs = f"p = {int(p)} : i64, margin = {_f64(margin)}, {attrs}"
    return tr.emit("multi_margin_loss", operands, shape, elt, attrs,
                   operand_format=text)


@handles("multilabel_margin_loss")
def _multilabel_margin(tr, node, x, target, *rest, reduction="mean",
                       size_average=None, reduce=None):
    attrs = _legacy_reduction(rest, reduction, size_average, reduce)
    shape, elt = _result(node)
    return tr.emit("multilabel_margin_loss", [_value(tr, x), _value(tr, target)],
                   shape, elt, attrs)
