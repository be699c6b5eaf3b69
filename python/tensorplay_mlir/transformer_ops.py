"""The fused attention operators of tensorplay 1.1's registry:
_native_multi_head_attention (nn.MultiheadAttention's fast path in
evaluation) is tp.native_multi_head_attention (both in the CPU autocast
table: bf16 as eager's; tensorplay 1.1 has no CPU kernel of
_transformer_encoder_layer_fwd, the encoder layer's fast path);
rotary_embedding and fused_rope are tensorplay's interleaved rotary
embedding written with slices, products and sums in f32;
_scaled_dot_product_attention_math (the math path of
scaled_dot_product_attention, also returning the attention weights) is
tp.scaled_dot_product_attention and the weights' softmax.
"""

from .ops import (Unsupported, _value, cast_to_parts, handles,
                  operands_with)


def multi_head_attention(tr, query, key, value, embed_dim, num_head,
                         qkv_weight, qkv_bias, proj_weight, proj_bias, mask,
                         need_weights, average_attn_weights, mask_type,
                         metas):
    q, k, v = _value(tr, query), _value(tr, key), _value(tr, value)
    operands, text = operands_with(
        tr, [q, k, v] + [_value(tr, t) for t in (qkv_weight, qkv_bias,
                                                 proj_weight, proj_bias)],
        mask=mask)
    attrs = [f"embed_dim = {int(embed_dim)} : i64",
             f"num_head = {int(num_head)} : i64",
             f"need_weights = {'true' if need_weights else 'false'}",
             "average_attn_weights = "
             f"{'true' if average_attn_weights else 'false'}"]
    if mask_type is not None:
        attrs.append(f"mask_type = {int(mask_type)} : i64")
    return tr.emit_multi("native_multi_head_attention", operands, metas,
                         ", ".join(attrs), operand_format=text)


@handles("_native_multi_head_attention")
def _native_multi_head_attention(tr, node, query, key, value, embed_dim,
                                 num_head, qkv_weight, qkv_bias, proj_weight,
                                 proj_bias, mask=None, need_weights=True,
                                 average_attn_weights=True, mask_type=None):
    """(output, weights); the weights are empty without need_weights."""
    out_meta, weights_meta = tr.meta_of(node, 0), tr.meta_of(node, 1)
    q = _value(tr, query)
    if out_meta is None:
        out_meta = (q.shape, q.elt)
    if not need_weights:
        if weights_meta is not None and weights_meta[0] != (0,):
            raise Unsupported(f"weights of shape {weights_meta[0]} without "
                              "need_weights")
        # (The op's second result is then a placeholder of the output's
        # shape; the node's is eager's empty tensor.)
        parts = multi_head_attention(
            tr, query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
            proj_weight, proj_bias, mask, False, average_attn_weights,
            mask_type, [out_meta, out_meta])
        empty = tr.dense([], weights_meta[1], (0,)) if weights_meta else None
        return (parts[0], empty)
    if weights_meta is None:
        raise Unsupported("attention weights of unknown shape")
    return tuple(multi_head_attention(
        tr, query, key, value, embed_dim, num_head, qkv_weight, qkv_bias,
        proj_weight, proj_bias, mask, True, average_attn_weights, mask_type,
        [out_meta, weights_meta]))


@handles("_scaled_dot_product_attention_math")
def _sdpa_math(tr, node, query, key, value, attn_mask=None, dropout_p=0.0,
               is_causal=False, dropout_mask=None, scale=None,
               enable_gqa=False):
    """(output, attention weights): tp.scaled_dot_product_attention, and the
    softmax of the masked, scaled scores where the weights are used."""
    from .decomposed_ops import emit_attention
    from .operator_backward_ops import _scores
    if dropout_mask is not None:
        raise Unsupported("attention with a dropout mask")
    q, k, v = _value(tr, query), _value(tr, key), _value(tr, value)
    out_meta, weights_meta = tr.meta_of(node, 0), tr.meta_of(node, 1)
    shape, elt = out_meta or (q.shape[:-1] + (v.shape[-1],), q.elt)
    out = emit_attention(tr, q, k, v, attn_mask, dropout_p, is_causal, scale,
                         enable_gqa, shape, elt)
    if weights_meta is None:
        return (out, None)
    s, _ = _scores(tr, q, k, attn_mask, is_causal, scale)
    weights = tr.emit("softmax", [s], s.shape, s.elt,
                      f"dim = {s.rank - 1} : i64")
    return cast_to_parts(tr, node, (out, weights))


def rotary(tr, x, cos, sin, offset, elt):
    """tensorplay's interleaved rotary embedding of x (..., L, D) with
    tables (positions, D / 2) from `offset` on: each pair (x0, x1) becomes
    (x0 c - x1 s, x1 c + x0 s), in f32, rounded once to `elt`."""
    from .composite import Composer
    c = Composer(tr)
    x, cos, sin = _value(tr, x), _value(tr, cos), _value(tr, sin)
    if x.rank < 2 or x.shape[-1] % 2 or cos.rank != 2 or \
            cos.shape != sin.shape or cos.shape[1] * 2 != x.shape[-1]:
        raise Unsupported(f"rotary tables {cos.shape} for an input "
                          f"{x.shape}")
    length, half = x.shape[-2], x.shape[-1] // 2
    offset = int(offset)
    if offset < 0 or offset + length > cos.shape[0]:
        raise Unsupported(f"positions {offset}..{offset + length} of a "
                          f"table of {cos.shape[0]}")
    pairs = c.reshape(tr.cast(x, "f32"), x.shape[:-1] + (half, 2))
    first = c.slice(pairs, pairs.rank - 1, 0, 1)
    second = c.slice(pairs, pairs.rank - 1, 1, 2)
    table = (length, half, 1)
    cs = c.reshape(c.slice(tr.cast(cos, "f32"), 0, offset, offset + length),
                   table)
    sn = c.reshape(c.slice(tr.cast(sin, "f32"), 0, offset, offset + length),
                   table)
    out = c.cat([c.sub(c.mul(first, cs), c.mul(second, sn)),
                 c.add(c.mul(second, cs), c.mul(first, sn))],
                pairs.rank - 1)
    return tr.cast(c.reshape(out, x.shape), elt)


@handles("rotary_embedding")
def _rotary_embedding(tr, node, input, cos, sin, position_offset=0):
    from .ops import _result
    return rotary(tr, input, cos, sin, position_offset, _result(node)[1])


@handles("fused_rope")
def _fused_rope(tr, node, query, key, cos, sin, position_offset=0):
    """(query, key), each rotated as rotary_embedding."""
    parts = []
    for i, x in enumerate((query, key)):
        meta = tr.meta_of(node, i)
        parts.append(rotary(tr, x, cos, sin, position_offset,
                            meta[1] if meta else _value(tr, x).elt))
    return tuple(parts)


@handles("_transform_bias_rescale_qkv")
def _transform_bias_rescale_qkv(tr, node, qkv, qkv_bias, num_heads):
    """(q, k, v) of a packed (B, T, 3 D) projection: the bias added, split
    into heads (B, H, T, D / H), q scaled by 1 / sqrt(D / H)."""
    import math
    from .composite import Composer
    c = Composer(tr)
    x, bias = _value(tr, qkv), _value(tr, qkv_bias)
    heads = int(num_heads)
    if x.rank != 3 or x.shape[2] % (3 * heads):
        raise Unsupported(f"a packed projection {x.shape} for {heads} heads")
    b, t, width = x.shape
    dh = width // (3 * heads)
    split = c.reshape(c.add(x, bias), (b, t, 3, heads, dh))
    parts = []
    for i in range(3):
        part = c.permute(c.reshape(c.slice(split, 2, i, i + 1),
                                   (b, t, heads, dh)), (0, 2, 1, 3))
        if i == 0:
            part = c.div(part, math.sqrt(dh))
        parts.append(part)
    return tuple(parts)
