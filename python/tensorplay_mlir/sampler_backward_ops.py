"""grid_sampler_2d_backward (1.1's backward of F.grid_sample) written with
tp ops, in f32, as aten's CPU kernel computes it: each output position's
gradient is added into the input at the corners it read (bilinear: the four
neighbours with their weights; nearest: the nearest pixel, half to even),
corners outside the input reading 0; the grid's gradient is the
bilinear weights' derivative times the corners' values, summed over the
channels, times d(pixel)/d(grid) (size / 2 or (size - 1) / 2 with
align_corners, 0 where the border padding clips). Reflection padding and
bicubic sampling are refused.
"""

from .composite import Composer
from .ops import Unsupported, _value, cast_to_parts, handles
from .rounding_ops import floor, round_half_even

_MODES = {0: "bilinear", 1: "nearest"}
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


class _Plane:
    """The input's planes flattened to (N, C, H * W) and the positions'
    reads and writes there."""

    def __init__(self, c, x, positions):
        self.c, self.tr = c, c.tr
        self.n, self.ch, self.h, self.w = x.shape
        self.flat = c.reshape(x, (self.n, self.ch, self.h * self.w))
        self.positions = positions

    def _index(self, cx, cy):
        """(flat index over the channels, in-bounds mask) of a corner."""
        c = self.c
        valid = c.both(
            c.both(c.binary("ge", cx, 0.0), c.binary("le", cx, self.w - 1.0)),
            c.both(c.binary("ge", cy, 0.0), c.binary("le", cy, self.h - 1.0)))
        x = c.clamp(cx, 0.0, self.w - 1.0)
        y = c.clamp(cy, 0.0, self.h - 1.0)
        lin = self.tr.cast(c.add(c.mul(y, float(self.w)), x), "i64")
        shape = (self.n, 1, self.positions)
        wide = (self.n, self.ch, self.positions)
        return (c.expand(c.reshape(lin, shape), wide),
                c.reshape(valid, shape))

    def read(self, cx, cy):
        index, valid = self._index(cx, cy)
        values = self.tr.emit("gather", [self.flat, index], index.shape,
                              "f32", "dim = 2 : i64")
        return self.c.where(valid, values, 0.0)

    def add(self, total, cx, cy, contribution):
        """total plus contribution (N, C, positions) added at the corner
        where it is in bounds."""
        index, valid = self._index(cx, cy)
        kept = self.c.where(valid, contribution, 0.0)
        return self.tr.emit("scatter_add", [total, index, kept], total.shape,
                            "f32", "dim = 2 : i64")


@handles("grid_sampler_2d_backward")
def _grid_sampler_2d_backward(tr, node, grad_output, input, grid,
                              interpolation_mode, padding_mode, align_corners,
                              output_mask):
    c = Composer(tr)
    g, x, grid = (tr.cast(_value(tr, v), "f32")
                  for v in (grad_output, input, grid))
    mode = _MODES.get(int(interpolation_mode))
    padding = _PADDINGS.get(int(padding_mode))
    if mode is None or padding is None or x.rank != 4:
        raise Unsupported(f"grid_sampler_2d_backward of mode "
                          f"{interpolation_mode}, padding {padding_mode}, "
                          f"rank {x.rank}")
    n, ch, h, w = x.shape
    ho, wo = grid.shape[1], grid.shape[2]
    positions = ho * wo
    flat_grid = c.reshape(grid, (n, 1, positions, 2))
    gx = c.reshape(c.slice(flat_grid, 3, 0, 1), (n, 1, positions))
    gy = c.reshape(c.slice(flat_grid, 3, 1, 2), (n, 1, positions))
    ix, dx = _pixel(c, gx, w, align_corners, padding)
    iy, dy = _pixel(c, gy, h, align_corners, padding)
    plane = _Plane(c, x, positions)
    grad = c.reshape(g, (n, ch, positions))
    total = tr.constant(0.0, "f32", (n, ch, h * w))
    wants = list(output_mask)
    if mode == "nearest":
        total = plane.add(total, round_half_even(c, ix),
                          round_half_even(c, iy), grad)
        grid_grad = tr.constant(0.0, "f32", (n, ho, wo, 2))
    else:
        x0, y0 = floor(c, ix), floor(c, iy)
        x1, y1 = c.add(x0, 1.0), c.add(y0, 1.0)
        east, west = c.sub(ix, x0), c.sub(x1, ix)
        south, north = c.sub(iy, y0), c.sub(y1, iy)
        corners = [(x0, y0, c.mul(west, north)), (x1, y0, c.mul(east, north)),
                   (x0, y1, c.mul(west, south)), (x1, y1, c.mul(east, south))]
        for cx, cy, weight in corners:
            total = plane.add(total, cx, cy, c.mul(grad, weight))
        values = [plane.read(cx, cy) for cx, cy, _ in corners]
        nw, ne, sw, se = values
        gix = c.add(c.add(c.mul(c.unary("neg", north), nw), c.mul(north, ne)),
                    c.sub(c.mul(south, se), c.mul(south, sw)))
        giy = c.add(c.add(c.mul(c.unary("neg", west), nw), c.mul(west, sw)),
                    c.sub(c.mul(east, se), c.mul(east, ne)))
        gix = c.mul(c.reduce("sum", c.mul(gix, grad), [1], True), dx)
        giy = c.mul(c.reduce("sum", c.mul(giy, grad), [1], True), dy)
        grid_grad = c.cat([c.reshape(gix, (n, ho, wo, 1)),
                           c.reshape(giy, (n, ho, wo, 1))], 3)
    # (A part output_mask leaves out is zeros, as eager returns it.)
    grad_input = c.reshape(total, x.shape) if wants[0] else \
        tr.constant(0.0, "f32", x.shape)
    if not wants[1]:
        grid_grad = tr.constant(0.0, "f32", grid.shape)
    return cast_to_parts(tr, node, (grad_input, grid_grad))
