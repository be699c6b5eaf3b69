"""The 'composite' family of tpcheck.py: ops the CPU pipeline decomposes
into other tp ops (tp-decompose-composite-ops): the recurrent cells and
mkldnn_rnn_layer, attention (grouped-query, native multi-head), quantiles,
cross, cdist, pdist, renorm and the multi-class hinge losses, against
float64 NumPy references written from tensorplay's definitions (its CPU
kernels' formulas)."""

import math

import numpy as np

from tpcheck import Case, as_input, op_case, rand, randint, sigmoid, ttype


def _fdt(mode):
    modes = mode.split("+")
    return "bf16" if "bf16" in modes else "f16" if "f16" in modes else "f32"


def _split(g, parts):
    h = g.shape[-1] // parts
    return [g[..., k * h:(k + 1) * h] for k in range(parts)]


def gru_ref(x, h, wi, wh, bi=0.0, bh=0.0):
    ir, iz, inn = _split(x @ wi.T + bi, 3)
    hr, hz, hn = _split(h @ wh.T + bh, 3)
    r, z = sigmoid(ir + hr), sigmoid(iz + hz)
    n = np.tanh(inn + r * hn)
    return (1 - z) * n + z * h


def rnn_ref(x, h, wi, wh, bi=0.0, bh=0.0, relu=False):
    z = x @ wi.T + bi + h @ wh.T + bh
    return np.maximum(z, 0) if relu else np.tanh(z)


def lstm_ref(x, h, c, wi, wh, bi=0.0, bh=0.0):
    i, f, g, o = _split(x @ wi.T + bi + h @ wh.T + bh, 4)
    c2 = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    return [sigmoid(o) * np.tanh(c2), c2]


def sdpa_ref(q, k, v, causal=False):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    if causal:
        L, S = s.shape[-2:]
        s = np.where(np.tril(np.ones((L, S), bool)), s, -np.inf)
    e = np.exp(s - s.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)) @ v


def mha_ref(q, k, v, w, b, pw, pb, heads, mask=None, mask_type=None,
            average=True):
    """_native_multi_head_attention: (output, weights)."""
    n, t, d = q.shape
    dh = d // heads

    def project(x, i, scale=1.0):
        y = (x @ w[i * d:(i + 1) * d].T + b[i * d:(i + 1) * d]) * scale
        return y.reshape(n, x.shape[1], heads, dh).transpose(0, 2, 1, 3)
    qh, kh, vh = project(q, 0, 1 / math.sqrt(dh)), project(k, 1), project(v, 2)
    s = qh @ kh.transpose(0, 1, 3, 2)
    if mask is not None:
        mask = mask.reshape(n, 1, 1, -1) if mask_type == 1 else mask
        s = np.where(mask, -np.inf, s)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max(-1, keepdims=True))
        p = e / e.sum(-1, keepdims=True)
    if mask is not None:  # masked keys (all of a row's too) weigh 0
        p = np.where(mask, 0.0, p)
    ctx = (p @ vh).transpose(0, 2, 1, 3).reshape(n, t, d)
    return [ctx @ pw.T + pb, p.mean(1) if average else p]


def pnorm(d, p, axis, keepdims=False):
    a = np.abs(d)
    if p == 0:
        return (a != 0).sum(axis=axis, keepdims=keepdims).astype(np.float64)
    if math.isinf(p):
        return a.max(axis=axis, keepdims=keepdims)
    return (a ** p).sum(axis=axis, keepdims=keepdims) ** (1 / p)


def cdist_ref(x1, x2, p):
    return pnorm(x1[..., :, None, :] - x2[..., None, :, :], p, -1)


def pdist_ref(x, p):
    n = x.shape[0]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not pairs:
        return np.zeros((0,))
    i, j = (np.array(v) for v in zip(*pairs))
    return pnorm(x[i] - x[j], p, 1)


def multi_margin_ref(x, y, p, margin, w=None, reduction="mean"):
    x2, y2 = np.atleast_2d(x), np.atleast_1d(y).astype(np.int64)
    n, c = x2.shape
    xy = x2[np.arange(n), y2][:, None]
    h = np.maximum(margin - xy + x2, 0) ** p
    if w is not None:
        h = h * w[y2][:, None]
    h[np.arange(n), y2] = 0
    loss = h.sum(1) / c
    if reduction == "none":
        return loss if x.ndim == 2 else loss[0]
    return loss.sum() if reduction == "sum" else loss.mean()


def multilabel_ref(x, y, reduction="mean"):
    x2, y2 = np.atleast_2d(x), np.atleast_2d(y).astype(np.int64)
    n, c = x2.shape
    loss, is_target = np.zeros(n), np.zeros((n, c))
    for s in range(n):
        targets = []
        for t in y2[s]:
            if t < 0:
                break
            targets.append(t)
        is_target[s, targets] = 1
        for t in targets:
            z = np.maximum(1 - x2[s, t] + x2[s], 0)
            loss[s] += z[is_target[s] == 0].sum()
    loss /= c
    if reduction == "none":
        out = loss if x.ndim == 2 else loss[0]
    else:
        out = loss.sum() if reduction == "sum" else loss.mean()
    return out, is_target if x.ndim == 2 else is_target[0]


def composite(mode):
    dt = _fdt(mode)
    cases = []
    T = lambda *shape: ttype(shape, dt)

    # --- recurrent cells (batched and unbatched, with and without biases)
    def cell(name, op, b, i, hd, gates, biases=True, attrs=""):
        batch = (b,) if b else ()
        ins = [rand(batch + (i,), dtype=dt), rand(batch + (hd,), dtype=dt)]
        if op == "lstm_cell":
            ins.append(rand(batch + (hd,), dtype=dt))
        ins += [rand((gates * hd, i), -0.5, 0.5, dt),
                rand((gates * hd, hd), -0.5, 0.5, dt)]
        n = len(ins)
        text = ", ".join("%%a%d" % k for k in range(n))
        if biases:
            ins += [rand((gates * hd,), dtype=dt), rand((gates * hd,), dtype=dt)]
            text += " b_ih(%%a%d) b_hh(%%a%d)" % (n, n + 1)
        outs = [(batch + (hd,), dt)] * (2 if op == "lstm_cell" else 1)
        ref = {"lstm_cell": lambda *a: lstm_ref(*a),
               "gru_cell": lambda *a: [gru_ref(*a)],
               "rnn_cell": lambda *a: [rnn_ref(*a, relu="relu" in attrs)]}[op]
        cases.append(op_case(name, ins, op, text, attrs, outs, ref))

    cell("gru_cell", "gru_cell", 3, 5, 4, 3)
    cell("gru_cell_no_bias_unbatched", "gru_cell", 0, 6, 3, 3, False)
    cell("rnn_cell_tanh", "rnn_cell", 3, 5, 4, 1)
    cell("rnn_cell_relu_no_bias_unbatched", "rnn_cell", 0, 4, 6, 1, False,
         'nonlinearity = "relu"')
    cell("lstm_cell", "lstm_cell", 4, 5, 6, 4)
    cell("lstm_cell_no_bias_unbatched", "lstm_cell", 0, 3, 5, 4, False)

    # --- grouped-query attention: 8 query heads over 2 key / value heads
    q = rand((2, 8, 6, 8), dtype=dt)
    k, v = rand((2, 2, 5, 8), dtype=dt), rand((2, 2, 5, 8), dtype=dt)
    rep = lambda t: np.repeat(t, 4, axis=-3)
    cases.append(op_case("sdpa_gqa", [q, k, v], "scaled_dot_product_attention",
                         "%a0, %a1, %a2", "enable_gqa = true",
                         [((2, 8, 6, 8), dt)],
                         lambda a, b, c: [sdpa_ref(a, rep(b), rep(c))]))
    k6, v6 = rand((2, 4, 6, 8), dtype=dt), rand((2, 4, 6, 8), dtype=dt)
    cases.append(op_case(
        "sdpa_gqa_causal", [q, k6, v6], "scaled_dot_product_attention",
        "%a0, %a1, %a2", "enable_gqa = true, is_causal = true",
        [((2, 8, 6, 8), dt)],
        lambda a, b, c: [sdpa_ref(a, np.repeat(b, 2, -3), np.repeat(c, 2, -3),
                                  True)]))

    # --- _native_multi_head_attention (2 heads of 4): self-attention, a key
    # padding mask (mask_type 1; the second sample's keys all masked), a
    # [T, S] mask with per-head weights, and need_weights = false.
    def mha(name, t, s, mask=None, attrs="", average=True, need=True):
        ins = [rand((2, t, 8), dtype=dt), rand((2, s, 8), dtype=dt),
               rand((2, s, 8), dtype=dt), rand((24, 8), -0.5, 0.5, dt),
               rand((24,), dtype=dt), rand((8, 8), -0.5, 0.5, dt),
               rand((8,), dtype=dt)]
        text = "%a0, %a1, %a2, %a3, %a4, %a5, %a6"
        mask_type = None
        if mask is not None:
            ins.append((mask, "i1"))
            text += " mask(%a7)"
            mask_type = 1 if "mask_type = 1" in attrs else None
        wshape = ((2, t, s) if average else (2, 2, t, s)) if need else (0,)
        attrs = "embed_dim = 8 : i64, num_head = 2 : i64" + attrs
        cases.append(op_case(
            name, ins, "native_multi_head_attention", text, attrs,
            [((2, t, 8), dt), (wshape, dt)],
            lambda *a: (lambda r: r if need else [r[0], np.zeros((0,))])(
                mha_ref(*a[:7], 2, a[7] if len(a) > 7 else None, mask_type,
                        average))))

    mha("mha", 5, 5)
    padding = np.zeros((2, 6), bool)
    padding[0, 4:] = True
    padding[1, :] = True
    mha("mha_key_padding", 3, 6, padding, ", mask_type = 1 : i64")
    causal = ~np.tril(np.ones((4, 4), bool))
    mha("mha_mask_per_head", 4, 4, causal, ", average_attn_weights = false",
        average=False)
    mha("mha_no_weights", 4, 3, attrs=", need_weights = false", need=False)

    # --- quantile / nanquantile: every interpolation, q 1-D and 0-d, along
    # a dim (keepdim too) and of all values; a row with a NaN (quantile:
    # NaN; nanquantile: ignored, an all-NaN row gives NaN) and q outside
    # [0, 1] at run time (NaN).
    qdt = "f32" if dt != "f64" else "f64"

    def quantile(name, op, x, q, attrs, shape, ref):
        cases.append(op_case(name, [x, q], op, "%a0, %a1", attrs,
                             [(shape, qdt)], ref))
    xq = rand((3, 7), dtype=qdt)
    qs = (np.array([0.0, 0.25, 0.5, 0.9, 1.0], np.float32
                   if qdt == "f32" else np.float64), qdt)
    for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
        quantile("quantile_" + mode, "quantile", xq, qs,
                 'dim = 1 : i64, interpolation = "%s"' % mode, (5, 3),
                 lambda x, q, m=mode: [np.quantile(x, q, axis=1, method=m)])
    half = (np.array(0.5, np.float32 if qdt == "f32" else np.float64), qdt)
    quantile("quantile_keepdim", "quantile", xq, half,
             "dim = 0 : i64, keepdim = true", (1, 7),
             lambda x, q: [np.quantile(x, q, axis=0, keepdims=True)])
    quantile("quantile_all", "quantile", xq, qs, "", (5,),
             lambda x, q: [np.quantile(x, q)])
    xn = xq[0].copy()
    xn[1, 3] = np.nan
    xn[2, :] = np.nan
    quantile("quantile_nan", "quantile", (xn, qdt), qs, "dim = 1 : i64",
             (5, 3), lambda x, q: [np.quantile(x, q, axis=1)])
    quantile("nanquantile", "nanquantile", (xn, qdt), qs,
             "dim = -1 : i64", (5, 3),
             lambda x, q: [np.nanquantile(x, q, axis=1)])
    quantile("nanquantile_nearest", "nanquantile", (xn, qdt), qs,
             'dim = 1 : i64, interpolation = "nearest"', (5, 3),
             lambda x, q: [np.nanquantile(x, q, axis=1, method="nearest")])
    outside = (np.array([-0.5, 0.3, 1.5], qs[0].dtype), qdt)
    quantile("quantile_q_outside", "quantile", xq, outside, "dim = 1 : i64",
             (3, 3), lambda x, q: [np.where(
                 ((q < 0) | (q > 1))[:, None], np.nan,
                 np.quantile(x, np.clip(q, 0, 1), axis=1))])

    # --- mkldnn_rnn_layer (an LSTM layer): forward, reverse, batch_first,
    # without biases; each step an LSTMCell (lstm_ref), h stacked over time.
    def rnn_layer(name, t, b, i, hd, reverse=False, batch_first=False,
                  biases=True):
        xs = (b, t, i) if batch_first else (t, b, i)
        ins = [rand(xs, dtype=dt), rand((4 * hd, i), -0.5, 0.5, dt),
               rand((4 * hd, hd), -0.5, 0.5, dt), rand((4 * hd,), dtype=dt),
               rand((4 * hd,), dtype=dt), rand((b, hd), dtype=dt),
               rand((b, hd), dtype=dt)]
        attrs = ("reverse = %s, batch_sizes = array<i64>, mode = 2 : i64, "
                 "hidden_size = %d : i64, num_layers = 1 : i64, has_biases = "
                 "%s, bidirectional = false, batch_first = %s, train = false"
                 % (str(reverse).lower(), hd, str(biases).lower(),
                    str(batch_first).lower()))

        def ref(x, wi, wh, bi, bh, h, c):
            if batch_first:
                x = x.transpose(1, 0, 2)
            if not biases:
                bi = bh = 0.0
            out = [None] * t
            for k in range(t):
                step = t - 1 - k if reverse else k
                h, c = lstm_ref(x[step], h, c, wi, wh, bi, bh)
                out[step] = h
            o = np.stack(out)
            return [o.transpose(1, 0, 2) if batch_first else o, h, c,
                    np.zeros((0,))]
        oshape = (b, t, hd) if batch_first else (t, b, hd)
        cases.append(op_case(
            name, ins, "mkldnn_rnn_layer",
            "%a0, %a1, %a2, %a3, %a4, %a5, %a6", attrs,
            [(oshape, dt), ((b, hd), dt), ((b, hd), dt), ((0,), "u8")], ref))
    rnn_layer("rnn_layer", 4, 2, 3, 5)
    rnn_layer("rnn_layer_reverse", 3, 3, 4, 2, reverse=True)
    rnn_layer("rnn_layer_batch_first", 3, 2, 2, 3, batch_first=True,
              biases=False)

    # --- cross
    def cross(name, sa, sb, so, attrs, axis, dtype=dt):
        if dtype == "i64":
            a, b = randint(sa, -6, 6), randint(sb, -6, 6)
        else:
            a, b = rand(sa, dtype=dtype), rand(sb, dtype=dtype)
        cases.append(op_case(name, [a, b], "cross", "%a0, %a1", attrs,
                             [(so, dtype)],
                             lambda x, y: [np.cross(x, y, axis=axis)]))

    cross("cross_last", (4, 3), (4, 3), (4, 3), "dim = 1 : i64", -1)
    cross("cross_broadcast", (2, 1, 3), (5, 3), (2, 5, 3), "dim = -1 : i64", -1)
    cross("cross_default_dim", (3, 4), (3, 4), (3, 4), "", 0)
    cross("cross_int", (5, 3), (5, 3), (5, 3), "dim = 1 : i64", -1, "i64")

    # --- cdist / pdist over the p-norm cases
    inf = "0x7FF0000000000000"
    for p, lit in ((2.0, "2.0"), (1.0, "1.0"), (0.5, "0.5"), (math.inf, inf),
                   (0.0, "0.0")):
        tag = "inf" if math.isinf(p) else str(p).replace(".", "_")
        a, b = rand((5, 3), dtype=dt), rand((7, 3), dtype=dt)
        if p == 0:  # equal coordinates count as zero distance
            b[0][:2, :2] = a[0][:2, :2]
        cases.append(op_case(f"cdist_p{tag}", [a, b], "cdist", "%a0, %a1",
                             f"p = {lit} : f64", [((5, 7), dt)],
                             lambda x, y, p=p: [cdist_ref(x, y, p)]))
    cases.append(op_case("cdist_batched", [rand((2, 4, 3), dtype=dt),
                                           rand((1, 6, 3), dtype=dt)],
                         "cdist", "%a0, %a1", "", [((2, 4, 6), dt)],
                         lambda x, y: [cdist_ref(x, y, 2.0)]))
    for p, lit, shape in ((2.0, "2.0", (6, 4)), (1.0, "1.0", (5, 3)),
                          (3.0, "3.0", (4, 7)), (2.0, "2.0", (1, 3))):
        n = shape[0]
        cases.append(op_case(
            "pdist_p%d_%dx%d" % (int(p), *shape), [rand(shape, dtype=dt)],
            "pdist", "%a0", f"p = {lit} : f64", [((n * (n - 1) // 2,), dt)],
            lambda x, p=p: [pdist_ref(x, p)]))

    # --- renorm: slices above maxnorm scaled down, the others kept
    def renorm(name, shape, p, dim, maxnorm):
        x = rand(shape, -2, 2, dt)

        def ref(x):
            others = tuple(d for d in range(x.ndim) if d != dim % x.ndim)
            norm = pnorm(x, p, others, keepdims=True)
            factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)
            if dt == "bf16":
                from tpcheck import to_bf16
                factor = to_bf16(factor).astype(np.float64)
            elif dt == "f16":
                factor = factor.astype(np.float16).astype(np.float64)
            return [x * factor]
        cases.append(op_case(name, [x], "renorm", "%a0",
                             f"dim = {dim} : i64, maxnorm = {maxnorm} : f64, "
                             f"p = {p} : f64", [(shape, dt)], ref))

    renorm("renorm_rows", (4, 8), 2.0, 0, 2.5)
    renorm("renorm_middle_p1", (3, 4, 5), 1.0, 1, 12.0)
    renorm("renorm_last_p3", (5, 6), 3.0, -1, 1.5)

    # --- multi-class hinge losses
    def multi_margin(name, shape, p=1, margin=1.0, weight=False,
                     reduction="mean"):
        c = shape[-1]
        ins = [rand(shape, dtype=dt),
               randint(shape[:-1], 0, c) if len(shape) == 2 else
               (np.array(2, np.int64), "i64")]
        text = "%a0, %a1"
        if weight:
            ins.append(rand((c,), 0.2, 2.0, dt))
            text += " weight(%a2)"
        attrs = f"p = {p} : i64, margin = {margin} : f64, " \
                f"reduction = #tp.reduction<{reduction}>"
        out = shape[:-1] if reduction == "none" else ()
        cases.append(op_case(
            name, ins, "multi_margin_loss", text, attrs, [(out, dt)],
            lambda x, y, w=None: [multi_margin_ref(x, y, p, margin, w,
                                                   reduction)]))

    multi_margin("multi_margin", (5, 6))
    multi_margin("multi_margin_p2_weight_none", (4, 7), 2, 0.5, True, "none")
    multi_margin("multi_margin_unbatched_sum", (6,), 1, 2.0, False, "sum")

    def multilabel(name, x, y, reduction="mean", forward=False):
        out = x[0].shape[:-1] if reduction == "none" else ()
        results = [(out, dt)] + ([(x[0].shape, dt)] if forward else [])
        op = "multilabel_margin_loss" + ("_forward" if forward else "")
        cases.append(op_case(
            name, [x, (np.array(y, np.int64), "i64")], op, "%a0, %a1",
            f"reduction = #tp.reduction<{reduction}>", results,
            lambda a, b: list(multilabel_ref(a, b, reduction))[:len(results)]))

    # Targets before the first -1 (a repeated target counts twice; entries
    # after the -1 are ignored), a sample with no target, all classes.
    y = [[3, 0, -1, 1, 1], [1, 1, 4, -1, 2], [-1, 2, 2, 2, 2],
         [0, 1, 2, 3, 4]]
    multilabel("multilabel_margin", rand((4, 5), dtype=dt), y)
    multilabel("multilabel_margin_none", rand((4, 5), dtype=dt), y, "none")
    multilabel("multilabel_margin_forward_sum", rand((4, 5), dtype=dt), y,
               "sum", True)
    multilabel("multilabel_margin_unbatched", rand((6,), dtype=dt),
               [5, 2, -1, 0, 0, 0], "none", True)
    return cases
