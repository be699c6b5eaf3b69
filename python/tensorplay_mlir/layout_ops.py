"""Layout operators without a tp op, written with reshapes, permutes,
slices, concatenations and row lookups (composite.py says why): movedim,
flip (and fliplr/flipud), roll, repeat, tile, index_select, pixel_shuffle,
pixel_unshuffle, channel_shuffle, outer/ger, inner/vdot; the stacks
(hstack, vstack, dstack, column_stack) and atleast_1d/2d/3d; and the
``*_copy`` forms of the view operators (a compiled value never aliases, so
the copy is the view's own handler).
"""

import math

from .composite import Composer
from .ops import (_ALIASES, HANDLERS, Unsupported, _dim, _is_value, _result,
                  _value, handles)

# The copy forms of view operators, and other spellings of handled ones.
for _name in ("view", "permute", "transpose", "t", "squeeze", "unsqueeze",
              "expand", "slice", "select", "detach", "alias", "diagonal",
              "split", "split_with_sizes", "unbind", "narrow"):
    _ALIASES[_name + "_copy"] = _name
_ALIASES.update({"_reshape_copy": "reshape", "ravel": "reshape",
                 "swapdims": "transpose", "negative": "neg",
                 "arccos": "acos", "arcsin": "asin", "arctan2": "atan2",
                 "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
                 "arctanh": "atanh",
                 "concatenate": "cat", "moveaxis": "movedim", "ger": "outer",
                 "special_expit": "sigmoid", "special_erf": "erf",
                 "special_erfinv": "erfinv", "special_expm1": "expm1",
                 "special_log1p": "log1p", "special_softmax": "softmax",
                 "special_log_softmax": "log_softmax",
                 "native_channel_shuffle": "channel_shuffle",
                 "unsafe_split": "split", "unsafe_chunk": "chunk",
                 "unsafe_split_with_sizes": "split_with_sizes",
                 "_stack": "stack", "swish": "silu",
                 "_adaptive_avg_pool2d": "adaptive_avg_pool2d",
                 "_adaptive_avg_pool3d": "adaptive_avg_pool3d"})


def _positions(dims, rank):
    dims = [dims] if isinstance(dims, int) else list(dims)
    return [_dim(d, rank) % max(rank, 1) for d in dims]


@handles("movedim")
def _movedim(tr, node, x, source, destination):
    x = _value(tr, x)
    source = _positions(source, x.rank)
    destination = _positions(destination, x.rank)
    if len(source) != len(destination):
        raise Unsupported("movedim with source and destination of "
                          "different lengths")
    order = [None] * x.rank
    for s, d in zip(source, destination):
        order[d] = s
    rest = iter(d for d in range(x.rank) if d not in source)
    order = [next(rest) if o is None else o for o in order]
    return Composer(tr).permute(x, order)


def rows_of(tr, x, dim, index):
    """x's entries at `index` (an integer Value, 1-d, or a list) along
    `dim`: rows of the dimension moved first, looked up as an embedding
    (which checks the indices' range)."""
    c = Composer(tr)
    if isinstance(index, (list, tuple)):
        index = tr.dense(index, "i64", (len(index),))
    if index.elt not in ("i64", "i32"):
        raise Unsupported(f"an index tensor of {index.elt}")
    if index.rank > 1:
        raise Unsupported("an index tensor of more than one dimension")
    k = index.shape[0] if index.rank else 1
    index = c.reshape(index, (k,))
    order = [dim] + [d for d in range(x.rank) if d != dim]
    moved = c.permute(x, order)
    rest = moved.shape[1:]
    flat = c.reshape(moved, (moved.shape[0], math.prod(rest)))
    picked = tr.emit("embedding", [flat, index], (k, math.prod(rest)), x.elt)
    picked = c.reshape(picked, (k,) + tuple(rest))
    back = [order.index(d) for d in range(x.rank)]
    return c.permute(picked, back)


@handles("index_select")
def _index_select(tr, node, x, dim, index):
    x, index = _value(tr, x), _value(tr, index)
    if x.rank == 0:
        raise Unsupported("index_select of a 0-d tensor")
    out = rows_of(tr, x, _dim(dim, x.rank) % x.rank, index)
    shape, _ = _result(node)
    return Composer(tr).reshape(out, shape)


@handles("flip")
def _flip(tr, node, x, dims=()):
    x = _value(tr, x)
    for d in _positions(dims, x.rank):
        n = x.shape[d]
        if n > 1:
            x = rows_of(tr, x, d, list(range(n - 1, -1, -1)))
    return x


@handles("fliplr")
def _fliplr(tr, node, x):
    return _flip(tr, node, x, [1])


@handles("flipud")
def _flipud(tr, node, x):
    return _flip(tr, node, x, [0])


@handles("roll")
def _roll(tr, node, x, shifts, dims=()):
    c = Composer(tr)
    x = _value(tr, x)
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    dims = [dims] if isinstance(dims, int) else list(dims)
    if not dims:
        if len(shifts) != 1:
            raise Unsupported("roll of a flattened tensor by several shifts")
        flat = c.reshape(x, (math.prod(x.shape),))
        return c.reshape(_roll(tr, node, flat, shifts, [0]), x.shape)
    if len(shifts) != len(dims):
        raise Unsupported("roll with shifts and dims of different lengths")
    for shift, d in zip(shifts, _positions(dims, x.rank)):
        n = x.shape[d]
        s = int(shift) % n if n else 0
        if s:
            x = c.cat([c.slice(x, d, n - s, n), c.slice(x, d, 0, n - s)], d)
    return x


def _sizes(sizes):
    """A size list given as one list or as separate numbers (x.repeat(2,
    3))."""
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
        sizes = sizes[0]
    return [int(s) for s in sizes]


@handles("repeat")
def _repeat(tr, node, x, *repeats):
    """x's dimensions interleaved with the repeats, expanded, merged."""
    c = Composer(tr)
    x = _value(tr, x)
    repeats = _sizes(repeats)
    if len(repeats) < x.rank:
        raise Unsupported("repeat with fewer repeats than dimensions")
    shape = (1,) * (len(repeats) - x.rank) + tuple(x.shape)
    x = c.reshape(x, shape)
    split = tuple(v for n in shape for v in (1, n))
    wide = tuple(v for r, n in zip(repeats, shape) for v in (r, n))
    out = c.expand(c.reshape(x, split), wide)
    return c.reshape(out, tuple(r * n for r, n in zip(repeats, shape)))


@handles("tile")
def _tile(tr, node, x, *dims):
    x = _value(tr, x)
    dims = _sizes(dims)
    return _repeat(tr, node, x, [1] * (x.rank - len(dims)) + dims)


@handles("repeat_interleave")
def _repeat_interleave(tr, node, x, repeats=None, dim=None, output_size=None):
    """Each element `repeats` times in a row (an int: the count of a tensor
    of repeats is the values', refused); over the flattened x without
    dim."""
    c = Composer(tr)
    x = _value(tr, x)
    if not isinstance(repeats, int) or isinstance(repeats, bool):
        raise Unsupported("repeat_interleave with a tensor of repeats (the "
                          "result's shape depends on its values)")
    if dim is None:
        x, d = c.reshape(x, (math.prod(x.shape),)), 0
    else:
        d = _dim(dim, x.rank) % max(x.rank, 1)
    inner = x.shape[:d + 1] + (1,) + x.shape[d + 1:]
    wide = x.shape[:d + 1] + (repeats,) + x.shape[d + 1:]
    out = c.expand(c.reshape(x, inner), wide)
    return c.reshape(out, x.shape[:d] + (x.shape[d] * repeats,) +
                     x.shape[d + 1:])


@handles("pixel_shuffle")
def _pixel_shuffle(tr, node, x, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    c = Composer(tr)
    x, r = _value(tr, x), int(upscale_factor)
    *batch, ch, h, w = x.shape
    b = len(batch)
    x = c.reshape(x, (*batch, ch // (r * r), r, r, h, w))
    x = c.permute(x, list(range(b)) + [b, b + 3, b + 1, b + 4, b + 2])
    return c.reshape(x, (*batch, ch // (r * r), h * r, w * r))


@handles("pixel_unshuffle")
def _pixel_unshuffle(tr, node, x, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    c = Composer(tr)
    x, r = _value(tr, x), int(downscale_factor)
    *batch, ch, h, w = x.shape
    b = len(batch)
    x = c.reshape(x, (*batch, ch, h // r, r, w // r, r))
    x = c.permute(x, list(range(b)) + [b, b + 2, b + 4, b + 1, b + 3])
    return c.reshape(x, (*batch, ch * r * r, h // r, w // r))


@handles("channel_shuffle")
def _channel_shuffle(tr, node, x, groups):
    """(N, C, *) -> (N, g, C/g, *) -> transposed groups -> (N, C, *)."""
    c = Composer(tr)
    x, g = _value(tr, x), int(groups)
    n, ch, *rest = x.shape
    if g <= 0 or ch % g:
        raise Unsupported(f"channel_shuffle of {ch} channels in {g} groups")
    x = c.reshape(x, (n, g, ch // g, *rest))
    x = c.permute(x, [0, 2, 1] + list(range(3, x.rank)))
    return c.reshape(x, (n, ch, *rest))


@handles("outer")
def _outer(tr, node, x, vec2):
    c = Composer(tr)
    x, vec2 = _value(tr, x), _value(tr, vec2)
    if x.rank != 1 or vec2.rank != 1:
        raise Unsupported("outer of tensors that are not vectors")
    return c.mul(c.reshape(x, (x.shape[0], 1)),
                 c.reshape(vec2, (1, vec2.shape[0])))


@handles("inner", "vdot")
def _inner(tr, node, x, other):
    """A product over the last dimensions: dot for vectors, tensordot
    (permute, reshape, mm: as eager) for higher ranks."""
    x, other = _value(tr, x), _value(tr, other)
    if x.elt != other.elt:
        raise Unsupported("inner of two dtypes")
    if x.elt.startswith("complex"):
        raise Unsupported("inner/vdot of complex tensors")
    if x.rank == 0 or other.rank == 0:
        return Composer(tr).mul(x, other)
    if x.rank == 1 and other.rank == 1:
        shape, elt = _result(node)
        return tr.emit("dot", [x, other], shape, elt)
    return HANDLERS["tensordot"](tr, node, x, other, [[-1], [-1]])


@handles("inner_backward_self", "inner_backward_other")
def _inner_backward(tr, node, grad, x, other):
    """The gradient of inner(x, other) (result x.shape[:-1] +
    other.shape[:-1]) for x: grad contracted with other over other's
    leading dimensions; for other: grad with x over x's."""
    from .ops import canonical_name
    c = Composer(tr)
    grad, x, other = _value(tr, grad), _value(tr, x), _value(tr, other)
    for_self = canonical_name(node) == "inner_backward_self"
    if min(x.rank, other.rank) == 0:
        raise Unsupported("the inner gradient of a 0-d operand")
    partner = other if for_self else x
    k = partner.rank - 1
    if k == 0:  # the partner is a vector: an outer product
        g = c.reshape(grad, grad.shape + (1,))
        return c.mul(g, partner)
    n = grad.rank
    dims = [list(range(n - k, n)) if for_self else list(range(k)),
            list(range(k))]
    return HANDLERS["tensordot"](tr, node, grad, partner, dims)


def index_add(c, x, d, index, source):
    """x with source's slices along dimension d added at `index` (1-d): a
    scatter_add of source with the index spread over its shape."""
    k = index.shape[0] if index.rank else 1
    spread = [1] * x.rank
    spread[d] = k
    wide = c.expand(c.reshape(index, tuple(spread)), source.shape)
    return c.tr.emit("scatter_add", [x, wide, source], x.shape, x.elt,
                     f"dim = {d} : i64")


@handles("index_add")
def _index_add(tr, node, x, dim, index, source, alpha=1):
    c = Composer(tr)
    x, index, source = _value(tr, x), _value(tr, index), _value(tr, source)
    if x.elt != source.elt:
        raise Unsupported("index_add of two dtypes")
    if x.rank == 0:
        raise Unsupported("index_add into a 0-d tensor")
    if alpha != 1:
        source = c.mul(source, alpha)
    return index_add(c, x, _dim(dim, x.rank) % x.rank, index, source)


def _at_least(rank):
    """0-d -> (1,...), 1-d (n) -> (1, n) or (1, n, 1), 2-d -> (m, n, 1)."""
    def handler(tr, node, x):
        x = _value(tr, x)
        if x.rank >= rank:
            return x
        if x.rank == 0:
            shape = (1,) * rank
        elif x.rank == 1:
            shape = (1, x.shape[0], 1)[:rank] if rank > 1 else x.shape
        else:
            shape = x.shape + (1,)
        return Composer(tr).reshape(x, shape)
    return handler


HANDLERS["atleast_1d"] = _at_least(1)
HANDLERS["atleast_2d"] = _at_least(2)
HANDLERS["atleast_3d"] = _at_least(3)


def _stack_along(dim_of, rank):
    """A stack of the tensors made at least `rank`-d, joined along
    dim_of(their rank)."""
    def handler(tr, node, tensors):
        c = Composer(tr)
        grow = _at_least(rank)
        parts = [grow(tr, node, _value(tr, t)) for t in tensors]
        if len({p.elt for p in parts}) > 1:
            raise Unsupported("a stack of tensors of several dtypes")
        return c.cat(parts, dim_of(parts[0].rank))
    return handler


HANDLERS["vstack"] = HANDLERS["row_stack"] = _stack_along(lambda r: 0, 2)
HANDLERS["hstack"] = _stack_along(lambda r: 0 if r == 1 else 1, 1)
HANDLERS["dstack"] = _stack_along(lambda r: 2, 3)


@handles("column_stack")
def _column_stack(tr, node, tensors):
    c = Composer(tr)
    parts = []
    for t in tensors:
        t = _value(tr, t)
        parts.append(c.reshape(t, (t.shape[0] if t.rank else 1, 1))
                     if t.rank <= 1 else t)
    return c.cat(parts, 1)


@handles("diff")
def _diff(tr, node, x, n=1, dim=-1, prepend=None, append=None):
    """x[1:] - x[:-1] along dim, n times, after prepend and append."""
    c = Composer(tr)
    x = _value(tr, x)
    d = _dim(dim, x.rank) % x.rank
    parts = [_value(tr, v) for v in (prepend, append) if v is not None]
    if any(p.rank != x.rank for p in parts):
        raise Unsupported("diff with prepend/append of another rank")
    x = c.cat(([_value(tr, prepend)] if prepend is not None else []) + [x] +
              ([_value(tr, append)] if append is not None else []), d)
    for _ in range(int(n)):
        size = x.shape[d]
        if size <= 1:
            shape = list(x.shape)
            shape[d] = 0
            raise Unsupported("diff down to an empty dimension")
        x = c.sub(c.slice(x, d, 1, size), c.slice(x, d, 0, size - 1))
    return x


@handles("meshgrid")
def _meshgrid(tr, node, *tensors, indexing="ij"):
    """Each 1-d (or 0-d) tensor along its own dimension, expanded; 'xy'
    swaps the first two."""
    c = Composer(tr)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    values = [_value(tr, t) for t in tensors]
    if indexing not in ("ij", "xy"):
        raise Unsupported(f"meshgrid indexing='{indexing}'")
    sizes = [v.shape[0] if v.rank else 1 for v in values]
    swap = indexing == "xy" and len(values) >= 2
    order = list(range(len(values)))
    if swap:
        order[0], order[1] = 1, 0
    full = tuple(sizes[i] for i in order)
    out = []
    for i, v in enumerate(values):
        shape = [1] * len(values)
        shape[order.index(i)] = sizes[i]
        out.append(c.expand(c.reshape(v, tuple(shape)), full))
    return tuple(out)


@handles("kron")
def _kron(tr, node, x, other):
    """x's and other's dimensions interleaved, multiplied, merged."""
    c = Composer(tr)
    x, other = _value(tr, x), _value(tr, other)
    n = max(x.rank, other.rank)
    a = (1,) * (n - x.rank) + tuple(x.shape)
    b = (1,) * (n - other.rank) + tuple(other.shape)
    wide_a = c.reshape(x, tuple(v for s in a for v in (s, 1)))
    wide_b = c.reshape(other, tuple(v for s in b for v in (1, s)))
    return c.reshape(c.mul(wide_a, wide_b),
                     tuple(p * q for p, q in zip(a, b)))


@handles("rot90")
def _rot90(tr, node, x, k=1, dims=(0, 1)):
    """k quarter turns from dims[0] towards dims[1]: flips and a swap."""
    c = Composer(tr)
    x = _value(tr, x)
    d0, d1 = _positions(dims, x.rank)
    k = int(k) % 4
    swap = list(range(x.rank))
    swap[d0], swap[d1] = d1, d0
    if k == 1:
        return c.permute(_flip(tr, node, x, [d1]), swap)
    if k == 2:
        return _flip(tr, node, x, [d0, d1])
    if k == 3:
        return _flip(tr, node, c.permute(x, swap), [d1])
    return x


@handles("take_along_dim")
def _take_along_dim(tr, node, x, indices, dim=None):
    """gather along dim of x and the indices broadcast against each other
    (over the flattened x without dim)."""
    c = Composer(tr)
    x, indices = _value(tr, x), _value(tr, indices)
    if dim is None:
        flat = c.reshape(x, (math.prod(x.shape),))
        return tr.emit("gather", [flat, c.reshape(
            indices, (math.prod(indices.shape),))],
            (math.prod(indices.shape),), x.elt, "dim = 0 : i64")
    d = _dim(dim, x.rank) % x.rank
    if indices.rank != x.rank:
        raise Unsupported("take_along_dim with indices of another rank")
    shape_x, shape_i = list(x.shape), list(indices.shape)
    common = [max(a, b) for a, b in zip(shape_x, shape_i)]
    wide_x = list(common)
    wide_x[d] = x.shape[d]
    wide_i = list(common)
    wide_i[d] = indices.shape[d]
    x = c.expand(x, tuple(wide_x))
    indices = c.expand(indices, tuple(wide_i))
    return tr.emit("gather", [x, indices], tuple(wide_i), x.elt,
                   f"dim = {d} : i64")


@handles("take")
def _take(tr, node, x, index):
    """The flattened x's entries at index (index's shape)."""
    c = Composer(tr)
    x, index = _value(tr, x), _value(tr, index)
    flat = c.reshape(x, (math.prod(x.shape),))
    out = rows_of(tr, flat, 0, c.reshape(index, (math.prod(index.shape),)))
    return c.reshape(out, index.shape)


@handles("diag")
def _diag(tr, node, x, diagonal=0):
    """A vector's diagonal matrix, a matrix's diagonal."""
    x = _value(tr, x)
    if x.rank == 1:
        return HANDLERS["diag_embed"](tr, node, x, diagonal, 0, 1)
    if x.rank == 2:
        return HANDLERS["diagonal"](tr, node, x, diagonal, 0, 1)
    raise Unsupported(f"diag of a rank-{x.rank} tensor")


@handles("diagflat")
def _diagflat(tr, node, x, offset=0):
    c = Composer(tr)
    x = _value(tr, x)
    flat = c.reshape(x, (math.prod(x.shape),))
    return HANDLERS["diag_embed"](tr, node, flat, offset, 0, 1)


@handles("trace_backward")
def _trace_backward(tr, node, grad, sizes):
    """grad on the diagonal of a matrix of `sizes`."""
    c = Composer(tr)
    grad = _value(tr, grad)
    rows, cols = (int(s) for s in sizes)
    eye = tr.dense([1.0 if i == j else 0.0 for i in range(rows)
                    for j in range(cols)], grad.elt, (rows, cols))
    return c.mul(eye, grad)


@handles("diagonal_backward")
def _diagonal_backward(tr, node, grad, input_sizes, offset, dim1, dim2):
    """The main diagonal's gradient of a square matrix: grad on the
    diagonal of zeros."""
    sizes = [int(s) for s in input_sizes]
    if len(sizes) != 2 or sizes[0] != sizes[1] or int(offset) != 0 or \
            sorted(_positions([dim1, dim2], 2)) != [0, 1]:
        raise Unsupported("diagonal_backward other than a square matrix's "
                          "main diagonal")
    return HANDLERS["diag_embed"](tr, node, _value(tr, grad))



@handles("index_fill")
def _index_fill(tr, node, x, dim, index, value):
    """x with `value` at the positions `index` names along dim: a mask
    from comparing each position with every index (negative ones wrap)."""
    c = Composer(tr)
    x, index = _value(tr, x), _value(tr, index)
    d = _dim(dim, max(x.rank, 1)) % max(x.rank, 1)
    n = x.shape[d] if x.rank else 1
    k = index.shape[0] if index.rank else 1
    index = c.reshape(index, (1, k))
    wrapped = c.where(c.binary("lt", index, 0), c.add(index, n), index)
    positions = c.reshape(tr.dense(list(range(n)), index.elt, (n,)), (n, 1))
    hits = c.where(c.binary("eq", positions, wrapped), 1.0, 0.0, elt="f32")
    mask = c.binary("gt", c.reduce("amax", hits, [1], False), 0.0)
    if x.rank:
        mask = c.reshape(mask, tuple(n if i == d else 1
                                     for i in range(x.rank)))
    else:
        mask = c.reshape(mask, ())
    if _is_value(value):
        value = tr.cast(c.reshape(value, ()), x.elt)
    return c.where(mask, value, x)


@handles("unfold")
def _unfold(tr, node, x, dimension, size, step):
    """Tensor.unfold: the windows of `size` every `step` along dimension,
    that dimension becoming the windows' count and a new last dimension the
    window."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.rank == 0:
        raise Unsupported("unfold of a 0-d tensor")
    d = _dim(dimension, x.rank) % x.rank
    size, step = int(size), int(step)
    if size < 1 or step < 1 or size > x.shape[d]:
        raise Unsupported(f"unfold of size {size}, step {step} over "
                          f"{x.shape[d]}")
    count = (x.shape[d] - size) // step + 1
    order = [i for i in range(x.rank) if i != d] + [d]
    windows = []
    for w in range(count):
        part = c.permute(c.slice(x, d, w * step, w * step + size), order)
        shape = list(part.shape)
        shape.insert(d, 1)
        windows.append(c.reshape(part, tuple(shape)))
    return c.cat(windows, d) if count > 1 else windows[0]
