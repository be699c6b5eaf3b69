"""Attention cases of torch-grads.mlir: tp.scaled_dot_product_attention and
tp.native_multi_head_attention in f64 and f32 against
F.scaled_dot_product_attention and F.multi_head_attention_forward, forward
and every input's gradient, with the default scale 1/sqrt(E) and scales
f32 cannot represent (0.3), causal, boolean and additive masks, broadcast
batch dimensions and grouped-query heads. An f64 computation whose scale
was rounded to f32 is off by 3e-8 relative: far outside the f64 bound.

Each case is (name, args, body, torch_body, dtype) as in cases.py; the
inputs are deterministic (sin of the element index), not drawn.
"""

import math

def values(shape, seed):
    n = math.prod(shape)
    flat = [round(math.sin(0.37 * i + seed) * 0.9 + 0.05 * seed, 6)
            for i in range(n)]

    def nest(offset, dims):
        if not dims:
            return flat[offset]
        step = math.prod(dims[1:])
        return [nest(offset + i * step, dims[1:]) for i in range(dims[0])]
    return nest(0, list(shape))


def ty(shape, dtype):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def broadcast(*shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = [s[i - rank + len(s)] for s in shapes if i - rank + len(s) >= 0]
        big = [d for d in dims if d != 1]
        out.append(big[0] if big else 1)
    return tuple(out)


def dense(nested, dtype):
    text = repr(nested).replace("True", "true").replace("False", "false")
    return "dense<%s>" % text


def square_sum(result, out_type, dtype):
    """The loss lines: sum(result * result)."""
    return [
        "%%sq = tp.mul %s, %s : (%s, %s) -> %s"
        % (result, result, out_type, out_type, out_type),
        "%%loss = tp.sum %%sq : (%s) -> tensor<%s>" % (out_type, dtype),
    ]


def sdpa(name, dtype, qs, ks, vs, attrs=None, mask=None, torch_kwargs="",
         gqa=False):
    """(q ks vs) shapes; mask: (shape, nested values, 'i1' or dtype) made a
    constant on both sides."""
    attrs = dict(attrs or {})
    batch = broadcast(qs[:-2], ks[:-2])
    if gqa:
        batch = broadcast(qs[:-2], ks[:-3] + (qs[-3],))
    out_shape = broadcast(batch, vs[:-2] if not gqa else
                          vs[:-3] + (qs[-3],)) + (qs[-2], vs[-1])
    out_t = ty(out_shape, dtype)
    body, torch_mask = [], ""
    operands = "%a0, %a1, %a2"
    types = [ty(qs, dtype), ty(ks, dtype), ty(vs, dtype)]
    if mask is not None:
        mshape, mvalues, melt = mask
        body.append("%%m = tp.constant %s : %s"
                    % (dense(mvalues, melt), ty(mshape, melt)))
        operands += " mask(%m)"
        types.append(ty(mshape, melt))
        tdtype = "torch.bool" if melt == "i1" else (
            "torch.float64" if dtype == "f64" else "torch.float32")
        torch_mask = ", attn_mask=torch.tensor(%r, dtype=%s)" % (mvalues,
                                                                 tdtype)
    if gqa:
        attrs["enable_gqa"] = "true"
    attr_text = ""
    if attrs:
        attr_text = " {%s}" % ", ".join("%s = %s" % kv for kv in attrs.items())
    body.append("%%o = tp.scaled_dot_product_attention %s%s : (%s) -> %s"
                % (operands, attr_text, ", ".join(types), out_t))
    body += square_sum("%o", out_t, dtype)
    kwargs = torch_kwargs + torch_mask + (", enable_gqa=True" if gqa else "")
    torch_body = ("(F.scaled_dot_product_attention(a0, a1, a2%s) ** 2).sum()"
                  % kwargs)
    args = [(qs, values(qs, 1)), (ks, values(ks, 2)), (vs, values(vs, 3))]
    return (name + "_" + dtype, args, body, torch_body, dtype)


def mha(name, dtype, batch, length, source, embed, heads, weights):
    """tp.native_multi_head_attention (need_weights, averaged) against
    F.multi_head_attention_forward; the loss sums the squares of the output
    and of the averaged attention weights."""
    q_shape, kv_shape = (batch, length, embed), (batch, source, embed)
    out_t, w_t = ty(q_shape, dtype), ty((batch, length, source), dtype)
    t = lambda s: ty(s, dtype)
    body = [
        "%%o, %%w = tp.native_multi_head_attention %%a0, %%a1, %%a2, %%a3, "
        "%%a4, %%a5, %%a6 {embed_dim = %d : i64, num_head = %d : i64, "
        "need_weights = %s} : (%s, %s, %s, %s, %s, %s, %s) -> (%s, %s)"
        % (embed, heads, "true" if weights else "false", t(q_shape),
           t(kv_shape), t(kv_shape), t((3 * embed, embed)), t((3 * embed,)),
           t((embed, embed)), t((embed,)), out_t, w_t),
    ] + square_sum("%o", out_t, dtype)
    if weights:
        body[-1] = body[-1].replace("%loss", "%lo")
        body += [
            "%%ww = tp.mul %%w, %%w : (%s, %s) -> %s" % (w_t, w_t, w_t),
            "%%lw = tp.sum %%ww : (%s) -> tensor<%s>" % (w_t, dtype),
            "%%loss = tp.add %%lo, %%lw : (tensor<%s>, tensor<%s>) -> "
            "tensor<%s>" % (dtype, dtype, dtype),
        ]
    # F.multi_head_attention_forward takes [L, N, E]: transposed in and out.
    torch_body = (
        "(lambda o, w: (o ** 2).sum() + (0 if w is None else (w ** 2).sum()))"
        "(*(lambda r: (r[0].transpose(0, 1), r[1]))("
        "F.multi_head_attention_forward(a0.transpose(0, 1), a1.transpose(0, 1),"
        " a2.transpose(0, 1), %d, %d, a3, a4, None, None, False, 0.0, a5, a6,"
        " training=False, need_weights=%s)))" % (embed, heads, weights))
    shapes = [q_shape, kv_shape, kv_shape, (3 * embed, embed), (3 * embed,),
              (embed, embed), (embed,)]
    args = [(s, values(s, 4 + i)) for i, s in enumerate(shapes)]
    return (name + "_" + dtype, args, body, torch_body, dtype)


def cases(f):
    return [
        sdpa("sdpa_default_scale", f, (2, 3, 4, 8), (2, 3, 5, 8),
             (2, 3, 5, 6)),
        sdpa("sdpa_scale_0_3", f, (2, 2, 3, 8), (2, 2, 5, 8), (2, 2, 5, 4),
             {"scale": "0.3 : f64"}, torch_kwargs=", scale=0.3"),
        sdpa("sdpa_causal", f, (1, 2, 5, 8), (1, 2, 5, 8), (1, 2, 5, 3),
             {"is_causal": "true"}, torch_kwargs=", is_causal=True"),
        sdpa("sdpa_bool_mask", f, (2, 1, 4, 6), (2, 1, 5, 6), (2, 1, 5, 6),
             {"scale": "0.3 : f64"}, torch_kwargs=", scale=0.3",
             mask=((4, 5), [[(i + 2 * j) % 3 != 0 or j == 0
                             for j in range(5)] for i in range(4)], "i1")),
        sdpa("sdpa_additive_mask", f, (3, 4, 8), (3, 5, 8), (3, 5, 2),
             mask=((3, 1, 5), [[[0.5 * ((i + j) % 3) - 0.4 for j in range(5)]]
                               for i in range(3)], f)),
        sdpa("sdpa_broadcast_batch", f, (2, 3, 4, 8), (3, 5, 8), (1, 3, 5, 4),
             {"scale": "0.3 : f64"}, torch_kwargs=", scale=0.3"),
        sdpa("sdpa_gqa", f, (1, 4, 3, 8), (1, 2, 5, 8), (1, 2, 5, 4), gqa=True),
        mha("mha_weights", f, 2, 3, 4, 8, 2, True),
        mha("mha_no_weights", f, 1, 4, 4, 12, 3, False),
    ]


ATTENTION_CASES = cases("f64") + cases("f32")
