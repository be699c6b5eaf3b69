"""grid_sampler_2d_backward and grid_sampler_3d_backward (1.1's backward of
F.grid_sample) written with tp ops, in f32, as aten's CPU kernels compute
them: each output position's gradient is added into the input at the
corners it read ((bi/tri)linear: the 4 or 8 neighbours with their weights;
nearest: the nearest pixel, half to even), corners outside the input
reading 0; the grid's gradient along each axis is the interpolation
weights' derivative times the corners' values, summed over the channels,
times d(pixel)/d(grid) (size / 2 or (size - 1) / 2 with align_corners, 0
where the border padding clips). Reflection padding and bicubic sampling
are refused.
"""

import itertools
import math

from .composite import Composer
from .ops import HANDLERS, Unsupported, _value, cast_to_parts
from .rounding_ops import floor, round_half_even

_MODES = {0: "linear", 1: "nearest"}
_PADDINGS = {0: "zeros", 1: "border"}


def _pixel(c, g, size, align_corners, padding):
    """(pixel coordinate, d coordinate / d grid) of a grid coordinate."""
    if align_corners:
        x = c.mul(c.add(g, 1.0), (size - 1) / 2.0)
        scale = (size - 1) / 2.0
    else:
        x = c.div(c.sub(c.mul(c.add(g, 1.0), float(size)), 1.0), 2.0)
        scale = size / 2.0
    if padding == "zeros":
        return x, c.tr.constant(scale, "f32", ())
    inside = c.both(c.binary("gt", x, 0.0), c.binary("lt", x, size - 1.0))
    return c.clamp(x, 0.0, size - 1.0), c.where(inside, scale, 0.0,
                                                 elt="f32")


class _Volume:
    """The input's spatial planes flattened to (N, C, prod(sizes)) and the
    sampled positions' reads and writes there; coordinates in the grid's
    order (x, y[, z]: the last spatial dimension first)."""

    def __init__(self, c, x, positions):
        self.c, self.tr = c, c.tr
        self.n, self.ch = x.shape[:2]
        self.sizes = list(x.shape[2:])[::-1]  # (W, H[, D])
        self.flat = c.reshape(x, (self.n, self.ch, math.prod(self.sizes)))
        self.positions = positions

    def _index(self, corner):
        """(flat index over the channels, in-bounds mask) of a corner."""
        c = self.c
        valid, lin, stride = None, None, 1
        for coordinate, size in zip(corner, self.sizes):
            inside = c.both(c.binary("ge", coordinate, 0.0),
                            c.binary("le", coordinate, size - 1.0))
            valid = inside if valid is None else c.both(valid, inside)
            term = c.mul(c.clamp(coordinate, 0.0, size - 1.0), float(stride))
            lin = term if lin is None else c.add(lin, term)
            stride *= size
        lin = self.tr.cast(lin, "i64")
        shape = (self.n, 1, self.positions)
        wide = (self.n, self.ch, self.positions)
        return (c.expand(c.reshape(lin, shape), wide),
                c.reshape(valid, shape))

    def read(self, corner):
        index, valid = self._index(corner)
        values = self.tr.emit("gather", [self.flat, index], index.shape,
                              "f32", "dim = 2 : i64")
        return self.c.where(valid, values, 0.0)

    def add(self, total, corner, contribution):
        """total plus contribution (N, C, positions) added at the corner
        where it is in bounds."""
        index, valid = self._index(corner)
        kept = self.c.where(valid, contribution, 0.0)
        return self.tr.emit("scatter_add", [total, index, kept], total.shape,
                            "f32", "dim = 2 : i64")


def _product(c, values):
    out = values[0]
    for v in values[1:]:
        out = c.mul(out, v)
    return out


def grid_sampler_backward(tr, node, grad_output, input, grid,
                          interpolation_mode, padding_mode, align_corners,
                          output_mask, rank):
    c = Composer(tr)
    g, x, grid = (tr.cast(_value(tr, v), "f32")
                  for v in (grad_output, input, grid))
    mode = _MODES.get(int(interpolation_mode))
    padding = _PADDINGS.get(int(padding_mode))
    if mode is None or padding is None or x.rank != rank:
        raise Unsupported(f"grid_sampler backward of mode "
                          f"{interpolation_mode}, padding {padding_mode}, "
                          f"rank {x.rank}")
    n, ch = x.shape[:2]
    out_spatial = grid.shape[1:-1]
    axes = grid.shape[-1]
    positions = math.prod(out_spatial)
    flat_grid = c.reshape(grid, (n, 1, positions, axes))
    volume = _Volume(c, x, positions)
    coords, slopes = [], []
    for a in range(axes):
        ga = c.reshape(c.slice(flat_grid, 3, a, a + 1), (n, 1, positions))
        pixel, slope = _pixel(c, ga, volume.sizes[a], align_corners, padding)
        coords.append(pixel)
        slopes.append(slope)
    grad = c.reshape(g, (n, ch, positions))
    total = tr.constant(0.0, "f32", (n, ch) + tuple(volume.flat.shape[2:]))
    if mode == "nearest":
        total = volume.add(total, [round_half_even(c, p) for p in coords],
                           grad)
        grid_grad = tr.constant(0.0, "f32", grid.shape)
    else:
        low = [floor(c, p) for p in coords]
        high = [c.add(p, 1.0) for p in low]
        # The weight of the high and the low neighbour along each axis.
        weights = [(c.sub(high[a], coords[a]), c.sub(coords[a], low[a]))
                   for a in range(axes)]
        derivative = [c.tr.constant(0.0, "f32", (n, 1, positions))
                      for _ in range(axes)]
        for bits in itertools.product((0, 1), repeat=axes):
            corner = [high[a] if b else low[a] for a, b in enumerate(bits)]
            parts = [weights[a][b] for a, b in enumerate(bits)]
            total = volume.add(total, corner, c.mul(grad, _product(c, parts)))
            value = c.mul(volume.read(corner), grad)
            for a, b in enumerate(bits):
                others = [p for k, p in enumerate(parts) if k != a]
                term = c.mul(value, _product(c, others)) if others else value
                term = c.reduce("sum", term, [1], True)
                derivative[a] = (c.add if b else c.sub)(derivative[a], term)
        grid_grad = c.cat([c.reshape(c.mul(derivative[a], slopes[a]),
                                     (n,) + tuple(out_spatial) + (1,))
                           for a in range(axes)], rank - 1)
    # (A part output_mask leaves out is zeros, as eager returns it.)
    wants = list(output_mask)
    grad_input = c.reshape(total, x.shape) if wants[0] else \
        tr.constant(0.0, "f32", x.shape)
    if not wants[1]:
        grid_grad = tr.constant(0.0, "f32", grid.shape)
    return cast_to_parts(tr, node, (grad_input, grid_grad))


def _backward_of_rank(rank):
    def handler(tr, node, grad_output, input, grid, interpolation_mode,
                padding_mode, align_corners, output_mask):
        return grid_sampler_backward(tr, node, grad_output, input, grid,
                                     interpolation_mode, padding_mode,
                                     align_corners, output_mask, rank)
    return handler


HANDLERS["grid_sampler_2d_backward"] = _backward_of_rank(4)
HANDLERS["grid_sampler_3d_backward"] = _backward_of_rank(5)
