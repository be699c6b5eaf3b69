"""im2col and col2im (F.unfold and F.fold) with tp ops: im2col pads the
input, takes one strided slice per kernel offset and stacks them as
(N, C * kh * kw, L) in eager's order (channel, then kernel row, then kernel
column); col2im places each offset's block back with tp.slice_backward
(zeros elsewhere) and adds them, then cuts the padding off.
"""

from .composite import Composer
from .ops import Unsupported, _value, handles
from .resize_ops import constant_pad


def _pair(v, what):
    v = [int(i) for i in v] if isinstance(v, (list, tuple)) else [int(v)]
    if len(v) == 1:
        v = v * 2
    if len(v) != 2:
        raise Unsupported(f"{what} of {len(v)} sizes")
    return v


def _geometry(kernel_size, dilation, padding, stride):
    return (_pair(kernel_size, "kernel_size"), _pair(dilation or 1,
                                                     "dilation"),
            _pair(padding or 0, "padding"), _pair(stride or 1, "stride"))


def _blocks(height, width, k, d, s):
    """The output positions along each spatial dimension."""
    return [(n - d[i] * (k[i] - 1) - 1) // s[i] + 1
            for i, n in enumerate((height, width))]


def _batched(c, x, rank, what):
    """(x with a batch dimension, whether it had one) for an operator of
    inputs of `rank` dimensions batched (rank - 1 unbatched)."""
    x = _value(c.tr, x)
    if x.rank not in (rank - 1, rank):
        raise Unsupported(f"{what} of a rank-{x.rank} input")
    if x.rank == rank:
        return x, True
    return c.reshape(x, (1,) + x.shape), False


@handles("im2col")
def _im2col(tr, node, x, kernel_size, dilation=(), padding=(), stride=()):
    c = Composer(tr)
    x, batched = _batched(c, x, 4, "im2col")
    k, d, p, s = _geometry(kernel_size, dilation, padding, stride)
    x = constant_pad(tr, x, [p[1], p[1], p[0], p[0]], 0)
    n, ch, height, width = x.shape
    oh, ow = _blocks(height, width, k, d, s)
    if oh < 1 or ow < 1:
        raise Unsupported("im2col with no block")
    parts = []
    for i in range(k[0]):
        for j in range(k[1]):
            rows = c.slice(x, 2, i * d[0], i * d[0] + s[0] * (oh - 1) + 1,
                           s[0])
            block = c.slice(rows, 3, j * d[1],
                            j * d[1] + s[1] * (ow - 1) + 1, s[1])
            parts.append(c.reshape(block, (n, ch, 1, oh * ow)))
    cols = c.cat(parts, 2) if len(parts) > 1 else parts[0]
    out = c.reshape(cols, (n, ch * k[0] * k[1], oh * ow))
    return out if batched else c.reshape(out, out.shape[1:])


@handles("col2im")
def _col2im(tr, node, x, output_size, kernel_size, dilation=(), padding=(),
            stride=()):
    from .translate import array_attr
    c = Composer(tr)
    x, batched = _batched(c, x, 3, "col2im")
    k, d, p, s = _geometry(kernel_size, dilation, padding, stride)
    height, width = [int(v) for v in output_size]
    ph, pw = height + 2 * p[0], width + 2 * p[1]
    oh, ow = _blocks(ph, pw, k, d, s)
    n, rows, blocks = x.shape
    if rows % (k[0] * k[1]) or blocks != oh * ow:
        raise Unsupported(f"col2im of {x.shape} into {output_size}")
    ch = rows // (k[0] * k[1])
    x = c.reshape(x, (n, ch, k[0] * k[1], oh, ow))
    total = None
    for i in range(k[0]):
        for j in range(k[1]):
            block = c.reshape(c.slice(x, 2, i * k[1] + j, i * k[1] + j + 1),
                              (n, ch, oh, ow))
            tall = tr.emit("slice_backward", [block], (n, ch, ph, ow),
                           x.elt, f"input_sizes = {array_attr([n, ch, ph, ow])}"
                           f", dim = 2 : i64, start = {i * d[0]} : i64, "
                           f"end = {i * d[0] + s[0] * (oh - 1) + 1} : i64, "
                           f"step = {s[0]} : i64")
            placed = tr.emit("slice_backward", [tall], (n, ch, ph, pw),
                             x.elt, f"input_sizes = "
                             f"{array_attr([n, ch, ph, pw])}, dim = 3 : i64, "
                             f"start = {j * d[1]} : i64, end = "
                             f"{j * d[1] + s[1] * (ow - 1) + 1} : i64, "
                             f"step = {s[1]} : i64")
            total = placed if total is None else c.add(total, placed)
    out = c.slice(c.slice(total, 2, p[0], p[0] + height), 3, p[1],
                  p[1] + width)
    return out if batched else c.reshape(out, out.shape[1:])


@handles("im2col_backward")
def _im2col_backward(tr, node, grad_output, input_size, kernel_size,
                     dilation, padding, stride):
    """im2col's adjoint: col2im of the gradient."""
    return _col2im(tr, node, grad_output, list(input_size)[-2:], kernel_size,
                   dilation, padding, stride)


@handles("col2im_backward")
def _col2im_backward(tr, node, grad_output, input_size, output_size,
                     kernel_size, dilation, padding, stride):
    """col2im's adjoint: im2col of the gradient."""
    return _im2col(tr, node, grad_output, kernel_size, dilation, padding,
                   stride)
