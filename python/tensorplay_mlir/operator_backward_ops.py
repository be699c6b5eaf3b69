"""Operators of tensorplay 1.1's operator graphs beyond the functional
forms: backward operators without a tp op of their own, written out with tp
ops from their definitions (tanh_backward, sigmoid_backward,
permute_backward, squeeze_backward, CPU flash attention
``_scaled_dot_product_flash_attention_for_cpu``, which also returns the
logsumexp of the scores its backward reads), group_norm and its backward,
and index.Tensor on the first dimension.

Attention's extra values and its gradients are computed in f32, as eager's
CPU kernel accumulates, and rounded once to the dtypes the graph records.
"""

import math

from .decomposed_ops import emit_attention
from .ops import (Unsupported, _array, _dim, _result, _value, cast_to_parts,
                  handles, operands_with)


def _times_derivative(tr, node, grad_output, output, derivative):
    """grad * derivative(y), in f32, rounded once to the node's dtype."""
    g, y = _value(tr, grad_output), _value(tr, output)
    shape, elt = _result(node)
    d = derivative(tr.cast(y, "f32"), tr.constant(1.0, "f32"))
    return tr.cast(tr.emit("mul", [tr.cast(g, "f32"), d], shape, "f32"), elt)


@handles("op.tanh_backward")
def _tanh_backward(tr, node, grad_output, output):
    """grad (1 - y^2)."""
    return _times_derivative(tr, node, grad_output, output, lambda y, one: (
        tr.emit("sub", [one, tr.emit("mul", [y, y], y.shape, "f32")],
                y.shape, "f32")))


@handles("op.sigmoid_backward")
def _sigmoid_backward(tr, node, grad_output, output):
    """grad y (1 - y)."""
    return _times_derivative(tr, node, grad_output, output, lambda y, one: (
        tr.emit("mul", [y, tr.emit("sub", [one, y], y.shape, "f32")],
                y.shape, "f32")))


@handles("op.permute_backward")
def _permute_backward(tr, node, grad_output, self, dims):
    """The gradient of permute(x, dims): grad permuted by the inverse."""
    g = _value(tr, grad_output)
    dims = [_dim(d, g.rank) % g.rank for d in dims]
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    shape, elt = _result(node)
    return tr.emit("permute", [g], shape, elt, f"dims = {_array(inverse)}")


@handles("op.squeeze_backward")
def _squeeze_backward(tr, node, grad_output, self):
    shape, elt = _result(node)
    return tr.emit("reshape", [_value(tr, grad_output)], shape, elt,
                   f"shape = {_array(shape)}")


# --- attention ----------------------------------------------------------------

def _transposed(tr, x):
    """x with its last two dimensions swapped."""
    shape = x.shape[:-2] + (x.shape[-1], x.shape[-2])
    return tr.emit("transpose", [x], shape, x.elt,
                   f"dim0 = {x.rank - 2} : i64, dim1 = {x.rank - 1} : i64")


def _batch(a, b):
    """The broadcast of two batch shapes."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(max(x, y) for x, y in zip(a, b))


def _matmul(tr, a, b):
    shape = _batch(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    return tr.emit("matmul", [a, b], shape, "f32")


def _scores(tr, q, k, attn_mask, is_causal, scale):
    """Q K^T scale with the mask applied, in f32 (masked entries -inf)."""
    q, k = tr.cast(q, "f32"), tr.cast(k, "f32")
    if q.rank < 2 or k.rank != q.rank or q.shape[:-3] != k.shape[:-3] or \
            (q.rank > 2 and q.shape[-3] != k.shape[-3]):
        raise Unsupported("query and key with different batch or head "
                          "dimensions (grouped-query attention)")
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else float(scale)
    s = _matmul(tr, q, _transposed(tr, k))
    s = tr.emit("mul", [s, tr.constant(scale, "f32")], s.shape, "f32")
    length, source = s.shape[-2], s.shape[-1]
    if is_causal:
        rows = tr.dense(range(length), "i64", (length, 1))
        cols = tr.dense(range(source), "i64", (1, source))
        above = tr.emit("gt", [cols, rows], (length, source), "i1")
        s = tr.emit("where", [above, tr.constant(float("-inf"), "f32"), s],
                    s.shape, "f32")
    if attn_mask is not None:
        mask = _value(tr, attn_mask)
        if mask.elt == "i1":
            s = tr.emit("where", [mask, s, tr.constant(float("-inf"), "f32")],
                        s.shape, "f32")
        else:
            s = tr.emit("add", [s, tr.cast(mask, "f32")], s.shape, "f32")
    return s, scale


@handles("op._scaled_dot_product_flash_attention_for_cpu")
def _flash_attention(tr, node, query, key, value, dropout_p=0.0,
                     is_causal=False, attn_mask=None, scale=None):
    """(output, logsumexp): tp.scaled_dot_product_attention, and the
    logsumexp over the keys of the masked, scaled scores (f32)."""
    q, k, v = _value(tr, query), _value(tr, key), _value(tr, value)
    out_meta, lse_meta = tr.meta_of(node, 0), tr.meta_of(node, 1)
    shape, elt = out_meta if out_meta else (q.shape[:-1] + (v.shape[-1],),
                                            q.elt)
    out = emit_attention(tr, q, k, v, attn_mask, dropout_p, is_causal, scale,
                         False, shape, elt)
    if lse_meta is None:
        return (out, None)
    s, _ = _scores(tr, q, k, attn_mask, is_causal, scale)
    keep = s.shape[:-1] + (1,)
    m = tr.emit("amax", [s], keep, "f32", f"dim = {_array([s.rank - 1])}, "
                "keepdim = true")
    e = tr.emit("exp", [tr.emit("sub", [s, m], s.shape, "f32")], s.shape,
                "f32")
    total = tr.emit("sum", [e], keep, "f32",
                    f"dim = {_array([s.rank - 1])}, keepdim = true")
    lse = tr.emit("add", [m, tr.emit("log", [total], keep, "f32")], keep,
                  "f32")
    lse = tr.emit("reshape", [lse], lse_meta[0], "f32",
                  f"shape = {_array(lse_meta[0])}")
    return cast_to_parts(tr, node, (out, lse))


@handles("op._scaled_dot_product_flash_attention_for_cpu_backward")
def _flash_attention_backward(tr, node, grad_out, query, key, value, out,
                              logsumexp, dropout_p, is_causal, attn_mask=None,
                              scale=None):
    """The gradients from the saved logsumexp: P = exp(S - lse)."""
    if dropout_p:
        raise Unsupported("attention dropout")
    s, scale = _scores(tr, _value(tr, query), _value(tr, key), attn_mask,
                       is_causal, scale)
    keep = s.shape[:-1] + (1,)
    lse = tr.emit("reshape", [tr.cast(_value(tr, logsumexp), "f32")], keep,
                  "f32", f"shape = {_array(keep)}")
    p = tr.emit("exp", [tr.emit("sub", [s, lse], s.shape, "f32")], s.shape,
                "f32")
    return _attention_grads(tr, node, grad_out, query, key, value, p, scale)


@handles("op.scaled_dot_product_attention_backward")
def _attention_backward(tr, node, grad_output, query, key, value,
                        attn_mask=None, dropout_p=0.0, is_causal=False,
                        scale=None, enable_gqa=False):
    """The gradients with the probabilities recomputed: P = softmax(S)."""
    if dropout_p:
        raise Unsupported("attention dropout")
    s, scale = _scores(tr, _value(tr, query), _value(tr, key), attn_mask,
                       is_causal, scale)
    p = tr.emit("softmax", [s], s.shape, "f32", f"dim = {s.rank - 1} : i64")
    return _attention_grads(tr, node, grad_output, query, key, value, p,
                            scale)


def _attention_grads(tr, node, grad_out, query, key, value, p, scale):
    """(grad_query, grad_key, grad_value) of softmax(S) V with S = Q K^T
    scale, given P: dV = P^T dO, dS = P (dP - rowsum(P dP)) with dP = dO
    V^T, dQ = dS K scale, dK = dS^T Q scale (f32, rounded once)."""
    q, k, v = (tr.cast(_value(tr, t), "f32") for t in (query, key, value))
    g = tr.cast(_value(tr, grad_out), "f32")
    dv = _matmul(tr, _transposed(tr, p), g)
    dp = _matmul(tr, g, _transposed(tr, v))
    keep = dp.shape[:-1] + (1,)
    d = tr.emit("sum", [tr.emit("mul", [p, dp], p.shape, "f32")], keep, "f32",
                f"dim = {_array([dp.rank - 1])}, keepdim = true")
    ds = tr.emit("mul", [p, tr.emit("sub", [dp, d], dp.shape, "f32")],
                 p.shape, "f32")
    c = tr.constant(scale, "f32")
    dq = tr.emit("mul", [_matmul(tr, ds, k), c], q.shape, "f32")
    dk = tr.emit("mul", [_matmul(tr, _transposed(tr, ds), q), c], k.shape,
                 "f32")
    return cast_to_parts(tr, node, (dq, dk, dv))


@handles("op.sum_to_size")
def _sum_to_size(tr, node, self, size):
    """x summed down to `size` (broadcasting's adjoint): over the leading
    dimensions x has beyond it and where size is 1 and x is not."""
    x = _value(tr, self)
    size = [int(d) for d in size]
    lead = x.rank - len(size)
    if lead < 0:
        raise Unsupported(f"size {size} longer than the input's rank")
    dims = list(range(lead)) + [lead + i for i, d in enumerate(size)
                                if d == 1 and x.shape[lead + i] != 1]
    shape, elt = _result(node)
    if not dims:
        return x
    summed = tr.emit("sum", [x], [d for i, d in enumerate(x.shape)
                                  if i not in dims], x.elt,
                     f"dim = {_array(dims)}")
    return tr.emit("reshape", [summed], shape, elt,
                   f"shape = {_array(shape)}")


# --- group normalization ------------------------------------------------------

@handles("group_norm")
def _group_norm(tr, node, input, num_groups, weight=None, bias=None,
                eps=1e-5, cudnn_enabled=True):
    """F.group_norm and 1.1's group_norm.default: tp.group_norm."""
    x = _value(tr, input)
    if x.rank < 2 or x.shape[1] % int(num_groups):
        raise Unsupported(f"{x.shape[1] if x.rank > 1 else 0} channels in "
                          f"{int(num_groups)} groups")
    shape, elt = _result(node)
    return group_norm(tr, shape, elt, x, int(num_groups), weight, bias, eps)


def group_norm(tr, shape, elt, x, num_groups, weight, bias, eps):
    from .translate import format_float
    operands, text = operands_with(tr, [x], weight=weight, bias=bias)
    return tr.emit("group_norm", operands, shape, elt,
                   f"num_groups = {num_groups} : i64, eps = "
                   f"{format_float(eps)} : f64", operand_format=text)


@handles("op.group_norm_backward")
def _group_norm_backward(tr, node, grad_output, input, num_groups,
                         weight=None, bias=None, eps=1e-5):
    """(grad_input, grad_weight, grad_bias): tp.group_norm_backward (the
    statistics recomputed from the input)."""
    from .translate import format_float
    g, x = _value(tr, grad_output), _value(tr, input)
    operands, text = operands_with(tr, [g, x], weight=weight)
    param_elt = operands[-1].elt if weight is not None else x.elt
    c = (x.shape[1],)
    return cast_to_parts(tr, node, tr.emit_multi(
        "group_norm_backward", operands,
        [(x.shape, x.elt), (c, param_elt), (c, param_elt)],
        f"num_groups = {int(num_groups)} : i64, eps = "
        f"{format_float(eps)} : f64", operand_format=text))


# --- indexing -----------------------------------------------------------------

@handles("op.index")
def _index(tr, node, self, indices):
    """x[idx] with one integer index tensor on the first dimension (the
    others None or absent): the rows of x, negative indices counted from
    the end as eager does; other index patterns are refused."""
    x = _value(tr, self)
    indices = list(indices)
    if not indices or indices[0] is None or any(
            i is not None for i in indices[1:]):
        raise Unsupported("an index other than one tensor on the first "
                          "dimension")
    return index_rows(tr, node, x, _value(tr, indices[0]))


def index_rows(tr, node, x, idx):
    """x[idx] for an integer index tensor: rows of x's first dimension."""
    if idx.elt not in ("i64", "i32"):
        raise Unsupported(f"an index tensor of {idx.elt} (masks are refused)")
    n = x.shape[0]
    negative = tr.emit("lt", [idx, tr.constant(0, idx.elt)], idx.shape, "i1")
    wrapped = tr.emit("where", [negative, tr.emit(
        "add", [idx, tr.constant(n, idx.elt)], idx.shape, idx.elt), idx],
        idx.shape, idx.elt)
    rest = x.shape[1:]
    flat = 1
    for d in rest:
        flat *= d
    rows = tr.emit("reshape", [x], (n, flat), x.elt,
                   f"shape = {_array((n, flat))}")
    picked = tr.emit("embedding", [rows, wrapped], idx.shape + (flat,),
                     x.elt)
    shape, elt = _result(node)
    return tr.emit("reshape", [picked], shape, elt,
                   f"shape = {_array(shape)}")
