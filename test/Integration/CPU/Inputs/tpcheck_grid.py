"""The 'grid' family of tpcheck.py: grid_sample and aten's grid_sampler ops
against a float64 NumPy transcription of tensorplay's CPU kernel
(GridSampler.cpp: unnormalize, the padding modes' clip and reflection,
bilinear / trilinear, nearest with rounding half to even, bicubic with
A = -0.75), point by point."""

import math

import numpy as np

from tpcheck import RNG, as_input, op_case


def _fdt(mode):
    modes = mode.split("+")
    return "bf16" if "bf16" in modes else "f16" if "f16" in modes else "f32"


def unnormalize(coord, size, align):
    if align:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def clip(x, size):
    return min(size - 1.0, max(x, 0.0))


def reflect(x, twice_low, twice_high):
    if twice_low == twice_high:
        return 0.0
    lo = twice_low / 2
    span = (twice_high - twice_low) / 2
    x = abs(x - lo)
    extra = math.fmod(x, span)
    flips = math.floor(x / span)
    return extra + lo if flips % 2 == 0 else span - extra + lo


def pad(x, size, padding, align):
    if padding == "border":
        return clip(x, size)
    if padding == "reflection":
        x = reflect(x, 0, 2 * (size - 1)) if align else \
            reflect(x, -1, 2 * size - 1)
        return clip(x, size)
    return x


def cubic(t, a=-0.75):
    c1 = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1
    c2 = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [c2(t + 1), c1(t), c1(1 - t), c2(2 - t)]


def grid_sample_ref(x, grid, mode, padding, align):
    """x (N, C, *S), grid (N, *G, n) with x first: (N, C, *G)."""
    n = x.ndim - 2
    sizes = x.shape[2:]
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])

    def value(b, c, at):
        if all(0 <= i < s for i, s in zip(at, sizes)):
            return x[(b, c) + tuple(at)]
        return 0.0
    for b in range(x.shape[0]):
        for g in np.ndindex(*grid.shape[1:-1]):
            coords = grid[(b,) + g]
            src = [unnormalize(coords[n - 1 - d], sizes[d], align)
                   for d in range(n)]
            if mode != "bicubic":
                src = [pad(s, sz, padding, align) for s, sz in zip(src, sizes)]
            for c in range(x.shape[1]):
                if mode == "nearest":
                    at = [int(np.rint(s)) for s in src]
                    out[(b, c) + g] = value(b, c, at)
                elif mode == "bilinear":
                    lo = [math.floor(s) for s in src]
                    acc = 0.0
                    for corner in range(1 << n):
                        at, w = [0] * n, 1.0
                        for k in range(n):
                            d = n - 1 - k
                            up = corner >> k & 1
                            at[d] = lo[d] + up
                            w *= (src[d] - lo[d]) if up else (lo[d] + 1 - src[d])
                        acc += value(b, c, at) * w
                    out[(b, c) + g] = acc
                else:
                    fy, fx = math.floor(src[0]), math.floor(src[1])
                    cx, cy = cubic(src[1] - fx), cubic(src[0] - fy)
                    acc = 0.0
                    for j in range(4):
                        row = 0.0
                        for i in range(4):
                            px = pad(fx + i - 1, sizes[1], padding, align)
                            py = pad(fy + j - 1, sizes[0], padding, align)
                            row += value(b, c, [int(py), int(px)]) * cx[i]
                        acc += row * cy[j]
                    out[(b, c) + g] = acc
    return out


def grid(mode):
    dt = _fdt(mode)
    cases = []

    def sample(name, xs, gs, op, attrs, ref_mode, padding, align, spread=1.2):
        x = as_input(RNG.uniform(-1, 1, xs), dt)
        # Coordinates reaching past [-1, 1] (the padding modes' ground),
        # a few exactly on pixel centres and edges.
        g = RNG.uniform(-spread, spread, gs)
        g.flat[:4] = [-1.0, 1.0, 0.0, -1.0]
        gg = as_input(g, dt)
        out = xs[:2] + gs[1:-1]
        cases.append(op_case(name, [x, gg], op, "%a0, %a1", attrs,
                             [(out, dt)], lambda v, w: [grid_sample_ref(
                                 v, w, ref_mode, padding, align)]))
    for mode_ in ("bilinear", "nearest", "bicubic"):
        for padding in ("zeros", "border", "reflection"):
            for align in (False, True):
                attrs = 'mode = "%s", padding_mode = "%s"%s' % (
                    mode_, padding, ", align_corners = true" if align else "")
                sample("grid_%s_%s%s" % (mode_, padding, "_align" * align),
                       (2, 3, 5, 6), (2, 4, 3, 2), "grid_sample", attrs, mode_,
                       padding, align)
    # The aten forms: integer modes, 3-D (trilinear and nearest).
    codes = {"bilinear": 0, "nearest": 1, "zeros": 0, "border": 1,
             "reflection": 2}
    for op, xs, gs in [("grid_sampler_2d", (1, 2, 4, 5), (1, 3, 3, 2)),
                       ("grid_sampler", (1, 2, 3, 4, 5), (1, 2, 3, 2, 3)),
                       ("grid_sampler_3d", (2, 1, 3, 4, 3), (2, 2, 2, 2, 3))]:
        for mode_, padding, align in [("bilinear", "zeros", False),
                                      ("bilinear", "reflection", True),
                                      ("nearest", "border", False)]:
            attrs = ("align_corners = %s, interpolation_mode = %d : i64, "
                     "padding_mode = %d : i64" % (
                         "true" if align else "false", codes[mode_],
                         codes[padding]))
            sample("%s_%s_%s" % (op, mode_, padding), xs, gs, op, attrs,
                   mode_, padding, align)
    sample("grid_sampler_2d_cpu_fallback", (1, 2, 4, 4), (1, 2, 5, 2),
           "grid_sampler_2d_cpu_fallback", "align_corners = false, "
           "interpolation_mode = 2 : i64, padding_mode = 2 : i64", "bicubic",
           "reflection", False, spread=3.0)
    return cases
