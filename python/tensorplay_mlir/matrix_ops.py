"""Operators that build matrices from their inputs' entries, written with
tp ops: block_diag (the blocks padded with zeros and stacked), cartesian_prod
(the inputs expanded over a grid and flattened), vander (powers by repeated
multiplication, as eager's cumulative product), matrix_power (repeated
tp.matmul: eager calls matmul, which cpu autocast puts in bf16), and weight
normalization (v g / ||v|| over every dimension but one, tp.norm).
"""

from .composite import Composer, promote
from .ops import Unsupported, _array, _dim, _result, _value, handles


@handles("block_diag")
def _block_diag(tr, node, tensors):
    c = Composer(tr)
    shape, elt = _result(node)
    blocks = []
    for t in tensors:
        t = tr.cast(_value(tr, t), elt)
        if t.rank > 2:
            raise Unsupported(f"block_diag of a rank-{t.rank} tensor")
        blocks.append(c.reshape(t, (1,) * (2 - t.rank) + t.shape))
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        parts = []
        for size in (left, None, width - left - b.shape[1]):
            if size is None:
                parts.append(b)
            elif size:
                parts.append(tr.constant(0, elt, (b.shape[0], size)))
        rows.append(c.cat(parts, 1) if len(parts) > 1 else b)
        left += b.shape[1]
    rows = [r for r in rows if r.shape[0]]
    return c.cat(rows, 0) if len(rows) > 1 else rows[0]


@handles("cartesian_prod")
def _cartesian_prod(tr, node, tensors):
    c = Composer(tr)
    tensors = [_value(tr, t) for t in tensors]
    if any(t.rank != 1 for t in tensors):
        raise Unsupported("cartesian_prod of tensors that are not 1-d")
    if len(tensors) == 1:
        return tensors[0]
    sizes = tuple(t.shape[0] for t in tensors)
    total = 1
    for n in sizes:
        total *= n
    columns = []
    for i, t in enumerate(tensors):
        grid = c.expand(c.reshape(t, tuple(n if j == i else 1 for j, n in
                                           enumerate(sizes))), sizes)
        columns.append(c.reshape(grid, (total, 1)))
    return c.cat(columns, 1)


def _powers(c, x, count):
    """[1, x, x^2, ...] (count of them) as columns of x's shape + (1,)."""
    column = c.reshape(x, x.shape + (1,))
    powers = [c.tr.constant(1, x.elt, column.shape)]
    for _ in range(1, count):
        powers.append(column if len(powers) == 1 else
                      c.mul(powers[-1], column))
    return powers


@handles("vander")
def _vander(tr, node, x, N=None, increasing=False):
    c = Composer(tr)
    x = _value(tr, x)
    if x.rank != 1:
        raise Unsupported("vander of a tensor that is not 1-d")
    count = x.shape[0] if N is None else int(N)
    if count < 1:
        raise Unsupported(f"vander with N={count}")
    powers = _powers(c, x, count)
    return c.cat(powers if increasing else powers[::-1], 1)


@handles("linalg_vander")
def _linalg_vander(tr, node, x, N=None):
    """Increasing powers along the last dimension (any leading ones)."""
    c = Composer(tr)
    x = _value(tr, x)
    count = x.shape[-1] if N is None else int(N)
    if x.rank < 1 or count < 1:
        raise Unsupported(f"linalg_vander of rank {x.rank} with N={count}")
    return c.cat(_powers(c, x, count), x.rank)


@handles("matrix_power", "linalg_matrix_power")
def _matrix_power(tr, node, x, n):
    """x^n for n >= 1 by repeated squaring as eager (x^0 is the identity);
    negative powers (an inverse) are refused."""
    c = Composer(tr)
    x = _value(tr, x)
    n = int(n)
    shape, elt = _result(node)
    if x.rank < 2 or x.shape[-1] != x.shape[-2]:
        raise Unsupported("matrix_power of a non-square tensor")
    if n < 0:
        raise Unsupported("a negative matrix power (an inverse)")
    if n == 0:
        k = x.shape[-1]
        eye = tr.dense([1.0 if i == j else 0.0 for i in range(k)
                        for j in range(k)], elt, (k, k))
        return c.expand(eye, shape)

    def mm(a, b):
        return tr.emit("matmul", [a, b], shape, elt)
    # eager: z = x; result = None; while n: if n & 1: result = result @ z
    # (or z); n >>= 1; if n: z = z @ z.
    result, z = None, x
    while n:
        if n & 1:
            result = z if result is None else mm(result, z)
        n >>= 1
        if n:
            z = mm(z, z)
    return result


def _norm_except(tr, v, dim, elt):
    """The 2-norm of v over every dimension but `dim` (kept, size 1), or
    over all when dim is -1."""
    if dim == -1:
        return tr.emit("norm", [v], (), elt, "keepdim = false")
    d = _dim(dim, v.rank) % v.rank
    dims = [i for i in range(v.rank) if i != d]
    shape = tuple(n if i == d else 1 for i, n in enumerate(v.shape))
    if not dims:
        return tr.emit("abs", [v], v.shape, elt)
    return tr.emit("norm", [v], shape, elt,
                   f"dim = {_array(dims)}, keepdim = true")


@handles("norm_except_dim")
def _norm_except_dim(tr, node, v, pow=2, dim=0):
    if int(pow) != 2:
        raise Unsupported(f"norm_except_dim pow={pow}")
    v = _value(tr, v)
    shape, elt = _result(node)
    norm = _norm_except(tr, v, int(dim), v.elt)
    return Composer(tr).reshape(norm, shape)


def weight_norm(tr, v, g, dim):
    c = Composer(tr)
    norms = _norm_except(tr, v, int(dim), v.elt)
    w = c.mul(v, c.div(g, norms if norms.rank else c.reshape(norms, ())))
    return w, norms


@handles("_weight_norm")
def _weight_norm(tr, node, v, g, dim=0):
    v, g = _value(tr, v), _value(tr, g)
    if promote(v.elt, g.elt) != v.elt:
        raise Unsupported("weight norm with g of a wider dtype")
    return weight_norm(tr, v, g, dim)[0]


@handles("_weight_norm_interface")
def _weight_norm_interface(tr, node, v, g, dim=0):
    """(w, the norms in g's shape)."""
    v, g = _value(tr, v), _value(tr, g)
    if promote(v.elt, g.elt) != v.elt:
        raise Unsupported("weight norm with g of a wider dtype")
    w, norms = weight_norm(tr, v, g, dim)
    meta = tr.meta_of(node, 1)
    norms = Composer(tr).reshape(norms, g.shape)
    return (w, tr.cast(norms, meta[1]) if meta else None)

