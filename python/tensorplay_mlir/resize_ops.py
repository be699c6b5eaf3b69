"""Padding with a constant and resizing, written with unlisted tp ops
(composite.py says why): constant_pad_nd and F.pad's constant mode
(concatenations with constant blocks, slices for negative pads), and the
nearest, nearest-exact and bilinear upsamplings (F.interpolate and 1.1's
upsample_* operators) as row lookups along each spatial dimension, at the
source indices and with the weights eager's CPU kernels compute (in f32,
as they do); the nearest upsamplings' backward as index_add's at the same
indices.
"""

import math

import numpy as np

from .composite import Composer
from .layout_ops import index_add, rows_of
from .ops import HANDLERS, Unsupported, _value, handles


def constant_pad(tr, x, pad, value):
    """x padded by `pad` (pairs from the last dimension back; negative
    entries cut) with `value`."""
    c = Composer(tr)
    pad = [int(p) for p in pad]
    if len(pad) % 2 or len(pad) // 2 > x.rank:
        raise Unsupported(f"a padding of {len(pad)} sizes for rank {x.rank}")
    if x.elt not in ("f32", "f64", "bf16", "f16") and \
            float(value) != int(value):
        raise Unsupported("a fractional padding value for an integer tensor")
    for k in range(len(pad) // 2):
        d = x.rank - 1 - k
        lo, hi = pad[2 * k], pad[2 * k + 1]
        n = x.shape[d]
        x = c.slice(x, d, max(-lo, 0), n - max(-hi, 0))
        parts = []
        for size in (max(lo, 0), None, max(hi, 0)):
            if size is None:
                parts.append(x)
            elif size:
                shape = list(x.shape)
                shape[d] = size
                parts.append(tr.constant(value, x.elt, tuple(shape)))
        x = c.cat(parts, d)
    return x


@handles("constant_pad_nd")
def _constant_pad_nd(tr, node, x, pad, value=0):
    return constant_pad(tr, _value(tr, x), pad, value)


def circular_pad(tr, x, pad):
    """x padded by `pad` (pairs from the last dimension back) with its own
    values wrapped around: the last `lo` entries before, the first `hi`
    after (each at most the dimension's size, as eager requires)."""
    c = Composer(tr)
    pad = [int(p) for p in pad]
    if len(pad) % 2 or len(pad) // 2 > x.rank:
        raise Unsupported(f"a padding of {len(pad)} sizes for rank {x.rank}")
    for k in range(len(pad) // 2):
        d = x.rank - 1 - k
        lo, hi = pad[2 * k], pad[2 * k + 1]
        n = x.shape[d]
        if not (0 <= lo <= n and 0 <= hi <= n):
            raise Unsupported(f"a circular padding of ({lo}, {hi}) for a "
                              f"dimension of {n}")
        parts = [c.slice(x, d, n - lo, n)] if lo else []
        parts.append(x)
        if hi:
            parts.append(c.slice(x, d, 0, hi))
        x = c.cat(parts, d)
    return x


@handles("circular_pad_nd", "_pad_circular")
def _circular_pad_nd(tr, node, x, pad):
    return circular_pad(tr, _value(tr, x), pad)


# aten's padding modes by number (_pad_enum: at::padding_mode's order).
_PAD_MODES = {0: "reflect", 1: "replicate", 2: "circular", 3: "constant"}


@handles("_pad_enum")
def _pad_enum(tr, node, x, pad, mode, value=None):
    name = _PAD_MODES.get(int(mode))
    if name is None:
        raise Unsupported(f"padding mode {mode}")
    if name == "circular":
        return circular_pad(tr, _value(tr, x), pad)
    return HANDLERS["pad"](tr, node, x, pad, name, value)


@handles("constant_pad_nd_backward")
def _constant_pad_nd_backward(tr, node, grad, pad):
    """The gradient's padding cut away (the opposite padding)."""
    return constant_pad(tr, _value(tr, grad), [-int(p) for p in pad], 0)


def _f32(v):
    return np.float32(v)


def _inverse_scale(scale, in_size, out_size):
    """compute_scales_value: 1 / scale where a scale is given, else
    in / out, as a float."""
    if scale is not None and scale > 0:
        return _f32(1.0 / scale)
    return _f32(in_size) / _f32(out_size)


def nearest_indices(in_size, out_size, scale, exact):
    """The source index of each output position along one dimension, as
    eager's nearest_idx / nearest_neighbor_exact_compute_source_index."""
    if not exact and out_size == in_size:
        return list(range(out_size))
    if not exact and out_size == 2 * in_size:
        return [i >> 1 for i in range(out_size)]
    s = _inverse_scale(scale, in_size, out_size)
    out = []
    for i in range(out_size):
        if exact:
            # (i + 0.5) in double times the float scale, then floorf.
            src = math.floor(_f32((i + 0.5) * float(s)))
        else:
            src = math.floor(_f32(i) * s)
        out.append(min(int(src), in_size - 1))
    return out


def spatial_scales(n, positional, scales_d=None, scales_h=None,
                   scales_w=None):
    """The scale of each of a resize's n spatial dimensions (None where
    absent): the 1-d operators' positional `scales`, else scales_d/h/w of
    the last n, each at its own dimension."""
    if positional:
        return list(positional) + [None] * (n - len(positional))
    return [scales_d, scales_h, scales_w][3 - n:]


def _spatial(x, output_size, scale_factors, scales, **named):
    """(output sizes, scales, input sizes) of x's spatial dimensions from
    either form: output_size with optional scales (positional or named), or
    .vec's scale_factors."""
    if output_size is None:
        spatial = x.shape[x.rank - len(scale_factors):]
        sizes = [int(math.floor(s * f)) for s, f in
                 zip(spatial, scale_factors)]
        return sizes, list(scale_factors), spatial
    n = len(output_size)
    return ([int(o) for o in output_size], spatial_scales(n, scales, **named),
            x.shape[x.rank - n:])


def _upsample_nearest(exact):
    def handler(tr, node, x, output_size=None, *scales, scale_factors=None,
                scales_h=None, scales_w=None, scales_d=None):
        x = _value(tr, x)
        sizes, factors, spatial = _spatial(
            x, output_size, scale_factors, scales, scales_d=scales_d,
            scales_h=scales_h, scales_w=scales_w)
        n = len(sizes)
        for k in range(n):
            d = x.rank - n + k
            idx = nearest_indices(spatial[k], sizes[k], factors[k], exact)
            x = rows_of(tr, x, d, idx)
        return x
    return handler


def _upsample_nearest_backward(exact):
    def handler(tr, node, grad, output_size, input_size, *scales,
                scales_h=None, scales_w=None, scales_d=None):
        """Each output position's gradient added at its source index."""
        c = Composer(tr)
        grad = _value(tr, grad)
        n = len(output_size)
        factors = spatial_scales(n, scales, scales_d, scales_h, scales_w)
        for k in reversed(range(n)):
            d = grad.rank - n + k
            idx = nearest_indices(int(input_size[d]), int(output_size[k]),
                                  factors[k], exact)
            shape = list(grad.shape)
            shape[d] = int(input_size[d])
            zeros = tr.constant(0.0, grad.elt, tuple(shape))
            grad = index_add(c, zeros, d, tr.dense(idx, "i64", (len(idx),)),
                             grad)
        return grad
    return handler


for _n in (1, 2, 3):
    HANDLERS[f"upsample_nearest{_n}d"] = _upsample_nearest(False)
    HANDLERS[f"_upsample_nearest_exact{_n}d"] = _upsample_nearest(True)
    HANDLERS[f"upsample_nearest{_n}d_backward"] = \
        _upsample_nearest_backward(False)
    HANDLERS[f"_upsample_nearest_exact{_n}d_backward"] = \
        _upsample_nearest_backward(True)


def linear_weights(in_size, out_size, align_corners, scale):
    """(index, next index, weight of the next) per output position along
    one dimension, as eager's compute_indices_weights_linear (f32)."""
    if align_corners:
        s = _f32(in_size - 1) / _f32(out_size - 1) if out_size > 1 \
            else _f32(0.0)
    else:
        s = _inverse_scale(scale, in_size, out_size)
    first, second, weights = [], [], []
    for i in range(out_size):
        if align_corners:
            src = s * _f32(i)
        else:
            src = max(s * (_f32(i) + _f32(0.5)) - _f32(0.5), _f32(0.0))
        index = min(int(math.floor(src)), in_size - 1)
        lam = min(max(src - _f32(index), _f32(0.0)), _f32(1.0))
        first.append(index)
        second.append(index + (1 if index < in_size - 1 else 0))
        weights.append(float(lam))
    return first, second, weights


def _interpolate_linear(tr, x, sizes, factors, align_corners):
    """Along each of x's last len(sizes) dimensions: (1 - l) x[i] +
    l x[i + 1]."""
    c = Composer(tr)
    n = len(sizes)
    for k in range(n):
        d = x.rank - n + k
        first, second, lam = linear_weights(x.shape[d], sizes[k],
                                            bool(align_corners), factors[k])
        shape = [1] * x.rank
        shape[d] = sizes[k]
        w1 = tr.dense(lam, x.elt, tuple(shape))
        w0 = tr.dense([1.0 - v for v in lam], x.elt, tuple(shape))
        x = c.add(c.mul(w0, rows_of(tr, x, d, first)),
                  c.mul(w1, rows_of(tr, x, d, second)))
    return x


@handles("upsample_bilinear2d", "upsample_linear1d", "upsample_trilinear3d")
def _upsample_linear(tr, node, x, output_size=None, align_corners=False,
                     *scales, scale_factors=None, scales_h=None,
                     scales_w=None, scales_d=None):
    x = _value(tr, x)
    sizes, factors, _ = _spatial(x, output_size, scale_factors, scales,
                                 scales_d=scales_d, scales_h=scales_h,
                                 scales_w=scales_w)
    return _interpolate_linear(tr, x, sizes, factors, align_corners)


def cubic_weights(in_size, out_size, align_corners, scale):
    """(four index lists, four weight lists) per output position along one
    dimension, as eager's bicubic: the source position (not clamped at 0),
    the taps at floor - 1 .. floor + 2 clamped to the input, and the
    cubic-convolution weights of A = -0.75 (f32)."""
    a = _f32(-0.75)

    def near(t):  # |t| <= 1
        return ((a + 2) * t - (a + 3)) * t * t + 1

    def far(t):  # 1 < |t| < 2
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a
    if align_corners:
        s = _f32(in_size - 1) / _f32(out_size - 1) if out_size > 1 \
            else _f32(0.0)
    else:
        s = _inverse_scale(scale, in_size, out_size)
    indices = [[] for _ in range(4)]
    weights = [[] for _ in range(4)]
    for i in range(out_size):
        src = s * _f32(i) if align_corners else \
            s * (_f32(i) + _f32(0.5)) - _f32(0.5)
        base = int(math.floor(src))
        t = _f32(src - _f32(base))
        taps = (far(t + 1), near(t), near(_f32(1) - t),
                far(_f32(1) - t + 1))
        for k in range(4):
            indices[k].append(min(max(base - 1 + k, 0), in_size - 1))
            weights[k].append(float(taps[k]))
    return indices, weights


def _interpolate_cubic(tr, x, sizes, factors, align_corners):
    """Along each of x's last two dimensions: the four taps' weighted
    sum."""
    return interpolate_taps(tr, x, sizes, factors, lambda n, out, f:
                            cubic_weights(n, out, bool(align_corners), f))


def interpolate_taps(tr, x, sizes, factors, taps):
    """Along each of x's last len(sizes) dimensions: the sum of the taps'
    rows weighted; `taps(size, out_size, scale)` gives the (index lists,
    weight lists), one of each per tap."""
    c = Composer(tr)
    for k in range(len(sizes)):
        d = x.rank - len(sizes) + k
        indices, weights = taps(x.shape[d], sizes[k], factors[k])
        shape = [1] * x.rank
        shape[d] = sizes[k]
        total = None
        for idx, w in zip(indices, weights):
            term = c.mul(tr.dense(w, x.elt, tuple(shape)),
                         rows_of(tr, x, d, idx))
            total = term if total is None else c.add(total, term)
        x = total
    return x


@handles("upsample_bicubic2d")
def _upsample_bicubic(tr, node, x, output_size=None, align_corners=False,
                      *scales, scale_factors=None, scales_h=None,
                      scales_w=None):
    x = _value(tr, x)
    if x.rank != 4:
        raise Unsupported(f"bicubic upsampling of a rank-{x.rank} input")
    sizes, factors, _ = _spatial(x, output_size, scale_factors, scales,
                                 scales_h=scales_h, scales_w=scales_w)
    return _interpolate_cubic(tr, x, sizes, factors, align_corners)


def _triangle(t):
    return max(0.0, 1.0 - abs(t))


def _keys_cubic(t, a=-0.5):
    t = abs(t)
    if t < 1.0:
        return ((a + 2) * t - (a + 3)) * t * t + 1
    if t < 2.0:
        return (((t - 5) * t + 8) * t - 4) * a
    return 0.0


# The antialiasing filters: (support of the filter at scale 1, filter).
_AA_FILTERS = {"bilinear": (2, _triangle), "bicubic": (4, _keys_cubic)}


def antialias_weights(kind, align_corners):
    """The taps of eager's antialiased resize (PIL's): each output pixel
    averages the input pixels under the filter stretched by the scale when
    downsampling, the weights normalized to sum to 1."""
    interp, filt = _AA_FILTERS[kind]

    def taps(in_size, out_size, factor):
        if align_corners:
            scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
        elif factor is not None and factor > 0:
            scale = 1.0 / factor
        else:
            scale = in_size / out_size
        support = interp * 0.5 * (scale if scale >= 1.0 else 1.0)
        invscale = 1.0 / scale if scale >= 1.0 else 1.0
        rows = []
        for i in range(out_size):
            center = scale * (i + 0.5)
            first = max(int(center - support + 0.5), 0)
            count = min(int(center + support + 0.5), in_size) - first
            ws = [filt((j + first - center + 0.5) * invscale)
                  for j in range(count)]
            total = sum(ws)
            rows.append((first, [w / total if total else w for w in ws]))
        width = max(len(ws) for _, ws in rows)
        indices = [[min(first + k, in_size - 1) for first, _ in rows]
                   for k in range(width)]
        weights = [[ws[k] if k < len(ws) else 0.0 for _, ws in rows]
                   for k in range(width)]
        return indices, weights
    return taps


def _upsample_antialiased(kind):
    def handler(tr, node, x, output_size=None, align_corners=False,
                *scales, scale_factors=None, scales_h=None, scales_w=None):
        x = _value(tr, x)
        if x.rank != 4:
            raise Unsupported(f"antialiased {kind} resize of rank {x.rank}")
        sizes, factors, _ = _spatial(x, output_size, scale_factors, scales,
                                     scales_h=scales_h, scales_w=scales_w)
        if output_size is None:
            # (The .vec form's kernel takes the scale from the sizes it
            # computed; the sized form's honours scales_h/scales_w.)
            factors = [None] * len(sizes)
        return interpolate_taps(tr, x, sizes, factors,
                                antialias_weights(kind, bool(align_corners)))
    return handler


HANDLERS["_upsample_bilinear2d_aa"] = _upsample_antialiased("bilinear")
HANDLERS["_upsample_bicubic2d_aa"] = _upsample_antialiased("bicubic")


_LINEAR_MODES = {"linear": 1, "bilinear": 2, "trilinear": 3}


@handles("interpolate")
def _interpolate(tr, node, x, size=None, scale_factor=None, mode="nearest",
                 align_corners=None, recompute_scale_factor=None,
                 antialias=False):
    """F.interpolate (1.0's graphs) in the nearest, nearest-exact,
    (bi/tri)linear and bicubic modes, the last two also antialiased."""
    x = _value(tr, x)
    n = x.rank - 2
    if antialias and mode not in _AA_FILTERS:
        raise Unsupported(f"interpolate mode='{mode}' with antialias")
    if size is not None:
        sizes = [int(s) for s in (size if isinstance(size, (list, tuple))
                                  else [size] * n)]
        factors = [None] * n
    else:
        factors = [float(f) for f in (
            scale_factor if isinstance(scale_factor, (list, tuple))
            else [scale_factor] * n)]
        sizes = [int(math.floor(s * f)) for s, f in zip(x.shape[2:],
                                                         factors)]
        if recompute_scale_factor:
            factors = [None] * n
    if mode in ("nearest", "nearest-exact"):
        for k in range(n):
            idx = nearest_indices(x.shape[2 + k], sizes[k], factors[k],
                                  mode == "nearest-exact")
            x = rows_of(tr, x, 2 + k, idx)
        return x
    if antialias and mode in _AA_FILTERS and n == 2:
        # (The kernel takes the scale from the sizes: eager calls its .vec
        # form with the output size.)
        return interpolate_taps(tr, x, sizes, [None] * n, antialias_weights(
            mode, bool(align_corners)))
    if _LINEAR_MODES.get(mode) == n:
        return _interpolate_linear(tr, x, sizes, factors, bool(align_corners))
    if mode == "bicubic" and n == 2:
        return _interpolate_cubic(tr, x, sizes, factors, bool(align_corners))
    raise Unsupported(f"interpolate mode='{mode}' of a rank-{x.rank} input")


@handles("circular_pad_nd_backward")
def _circular_pad_nd_backward(tr, node, grad_output, x, pad):
    """The adjoint of circular padding: each wrapped border's gradient
    added back onto the entries it copied."""
    c = Composer(tr)
    g = _value(tr, grad_output)
    pad = [int(p) for p in pad]
    for k in range(len(pad) // 2):
        d = g.rank - 1 - k
        lo, hi = pad[2 * k], pad[2 * k + 1]
        n = g.shape[d] - lo - hi
        center = c.slice(g, d, lo, lo + n)
        if lo:
            center = c.add(center, constant_pad_along(
                tr, c.slice(g, d, 0, lo), d, n - lo, 0))
        if hi:
            center = c.add(center, constant_pad_along(
                tr, c.slice(g, d, lo + n, lo + n + hi), d, 0, n - hi))
        g = center
    return g


def constant_pad_along(tr, x, d, before, after):
    """x with `before` and `after` zeros along dimension d."""
    pad = [0, 0] * (x.rank - 1 - d) + [before, after]
    return constant_pad(tr, x, pad, 0)


@handles("affine_grid_generator")
def _affine_grid_generator(tr, node, theta, size, align_corners):
    """The sampling grid of F.affine_grid: the base grid (x, y, 1) of the
    output's pixel centres (or corners) times theta^T, one tp.bmm per
    batch as eager's (bf16 under cpu autocast, as eager's bmm)."""
    c = Composer(tr)
    theta = _value(tr, theta)
    size = [int(s) for s in size]
    if len(size) != 4 or theta.shape != (size[0], 2, 3):
        raise Unsupported(f"affine_grid of theta {theta.shape} for {size}")
    n, _, h, w = size
    grid = c.expand(c.reshape(_base_grid(tr, h, w, align_corners, theta.elt),
                              (1, h * w, 3)), (n, h * w, 3))
    product = tr.emit("bmm", [grid, c.permute(theta, (0, 2, 1))],
                      (n, h * w, 2), theta.elt)
    return c.reshape(product, (n, h, w, 2))


@handles("affine_grid_generator_backward")
def _affine_grid_generator_backward(tr, node, grad, size, align_corners):
    """theta's gradient: grad (N, H * W, 2) transposed times the base grid
    (H * W, 3), by tp.bmm."""
    c = Composer(tr)
    g = _value(tr, grad)
    size = [int(s) for s in size]
    if len(size) != 4:
        raise Unsupported(f"affine_grid of size {size}")
    n, _, h, w = size
    base = c.expand(c.reshape(_base_grid(tr, h, w, align_corners, g.elt),
                              (1, h * w, 3)), (n, h * w, 3))
    flat = c.reshape(g, (n, h * w, 2))
    return tr.emit("bmm", [c.permute(flat, (0, 2, 1)), base], (n, 2, 3),
                   g.elt)


def _base_grid(tr, h, w, align_corners, elt):
    """The (x, y, 1) of each output pixel, row-major, flat."""
    def axis(steps):
        if steps == 1:
            return [0.0]
        values = [-1.0 + 2.0 * i / (steps - 1) for i in range(steps)]
        return values if align_corners else \
            [v * (steps - 1) / steps for v in values]
    base = [value for y in axis(h) for x in axis(w) for value in (x, y, 1.0)]
    return tr.dense(base, elt, (h * w * 3,))
