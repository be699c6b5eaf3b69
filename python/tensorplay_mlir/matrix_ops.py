"""Operators that build matrices from their inputs' entries, written with
tp ops: block_diag (the blocks padded with zeros and stacked), cartesian_prod
(the inputs expanded over a grid and flattened), vander (powers by repeated
multiplication, as eager's cumulative product), matrix_power (repeated
tp.matmul: eager calls matmul, which cpu autocast puts in bf16), and weight
normalization (v g / ||v|| over every dimension but one, tp.norm).
"""

import math

from .composite import Composer, promote
from .resize_ops import constant_pad_along
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
    total = math.prod(sizes)
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



@handles("combinations")
def _combinations(tr, node, x, r=2, with_replacement=False):
    """The r-element combinations of a 1-d tensor's entries, in
    lexicographic order of their positions (itertools' order, eager's)."""
    import itertools
    from .layout_ops import rows_of
    c = Composer(tr)
    x = _value(tr, x)
    if x.rank != 1:
        raise Unsupported("combinations of a tensor that is not 1-d")
    pick = itertools.combinations_with_replacement if with_replacement \
        else itertools.combinations
    tuples = list(pick(range(x.shape[0]), int(r)))
    if not tuples or int(r) < 1:
        raise Unsupported("combinations with an empty result")
    columns = []
    for j in range(int(r)):
        index = tr.dense([t[j] for t in tuples], "i64", (len(tuples),))
        columns.append(c.reshape(rows_of(tr, x, 0, index),
                                 (len(tuples), 1)))
    return c.cat(columns, 1) if len(columns) > 1 else columns[0]


@handles("fill_diagonal_")
def _fill_diagonal_(tr, node, x, fill_value, wrap=False):
    """x with fill_value on its main diagonal, in place (every dimension
    equal beyond 2-d; a tall matrix's diagonal restarts below itself every
    columns + 1 rows with wrap, as eager)."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.rank < 2 or (x.rank > 2 and len(set(x.shape)) != 1):
        raise Unsupported(f"fill_diagonal_ of shape {x.shape}")
    total = math.prod(x.shape)
    step = sum(math.prod(x.shape[i + 1:]) for i in range(x.rank))
    limit = total if wrap and x.rank == 2 else \
        min(x.shape) * step - step + 1
    chosen = set(range(0, min(total, limit), step))
    mask = tr.dense([i in chosen for i in range(total)], "i1", x.shape)
    return tr.write_back(x, c.where(mask, float(fill_value), x))


def _centered(c, rows):
    """Each row less its sum / N (eager's cov's mean)."""
    return c.sub(rows, c.div(c.reduce("sum", rows, [1], True),
                             float(rows.shape[1])))


def covariance(tr, x, correction):
    """eager's cov of the rows of x (variables) over its columns
    (observations): x minus each row's sum / N, its product with its own
    transpose (tp.mm), divided by N - correction (0 where that is not
    positive, as eager)."""
    c = Composer(tr)
    if x.rank == 1:
        x = c.reshape(x, (1, x.shape[0]))
    n = x.shape[1]
    centered = _centered(c, x)
    product = tr.emit("mm", [centered, c.permute(centered, (1, 0))],
                      (x.shape[0], x.shape[0]), x.elt)
    return c.div(product, float(max(n - int(correction), 0)))


@handles("cov")
def _cov(tr, node, x, correction=1, fweights=None, aweights=None):
    if fweights is not None or aweights is not None:
        raise Unsupported("cov with observation weights")
    x = _value(tr, x)
    if x.rank not in (1, 2):
        raise Unsupported(f"cov of a rank-{x.rank} tensor")
    shape, elt = _result(node)
    return Composer(tr).reshape(covariance(tr, x, correction), shape)


@handles("corrcoef")
def _corrcoef(tr, node, x):
    """cov / (stddev_i stddev_j), clipped to [-1, 1]."""
    c = Composer(tr)
    x = _value(tr, x)
    if x.rank not in (1, 2):
        raise Unsupported(f"corrcoef of a rank-{x.rank} tensor")
    shape, elt = _result(node)
    cov = covariance(tr, x, 1)
    k = cov.shape[0]
    if x.rank == 1:
        return c.reshape(c.div(cov, cov), shape)
    eye = tr.dense([i == j for i in range(k) for j in range(k)], "i1",
                   (k, k))
    diagonal = c.reduce("sum", c.where(eye, cov, 0.0), [1], False)
    stddev = c.unary("sqrt", diagonal)
    cov = c.div(cov, c.reshape(stddev, (k, 1)))
    cov = c.div(cov, c.reshape(stddev, (1, k)))
    return c.clamp(cov, -1.0, 1.0)


@handles("_euclidean_dist")
def _euclidean_dist(tr, node, x1, x2):
    """eager's matrix form: [-2 x1, |x1|^2, 1] [x2, 1, |x2|^2]^T (tp.matmul),
    clamped at 1e-30, square root."""
    c = Composer(tr)
    x1, x2 = _value(tr, x1), _value(tr, x2)
    if x1.rank < 2 or x2.rank != x1.rank:
        raise Unsupported("_euclidean_dist of operands of different ranks")
    last = x1.rank - 1
    n1 = c.reduce("sum", c.mul(x1, x1), [last], True)
    n2 = c.reduce("sum", c.mul(x2, x2), [last], True)
    ones1 = tr.constant(1.0, x1.elt, n1.shape)
    ones2 = tr.constant(1.0, x2.elt, n2.shape)
    a = c.cat([c.mul(x1, -2.0), n1, ones1], last)
    b = c.cat([x2, ones2, n2], last)
    shape, elt = _result(node)
    bt = c.permute(b, list(range(last - 1)) + [last, last - 1])
    product = tr.emit("matmul", [a, bt], shape, elt)
    return c.unary("sqrt", c.clamp(product, 1e-30, None))


@handles("box_iou")
def _box_iou(tr, node, boxes1, boxes2):
    """The intersection over union of every pair of (x1, y1, x2, y2)
    boxes."""
    c = Composer(tr)
    a, b = _value(tr, boxes1), _value(tr, boxes2)
    if a.rank != 2 or b.rank != 2 or a.shape[1] != 4 or b.shape[1] != 4:
        raise Unsupported(f"boxes of shapes {a.shape} and {b.shape}")

    def column(v, k):
        return c.slice(v, 1, k, k + 1)

    def area(v):
        return c.mul(c.sub(column(v, 2), column(v, 0)),
                     c.sub(column(v, 3), column(v, 1)))
    bt = c.permute(b, (1, 0))  # (4, M): columns of b as rows

    def row(k):
        return c.slice(bt, 0, k, k + 1)
    width = c.clamp(c.sub(c.binary("minimum", column(a, 2), row(2)),
                          c.binary("maximum", column(a, 0), row(0))),
                    0.0, None)
    height = c.clamp(c.sub(c.binary("minimum", column(a, 3), row(3)),
                           c.binary("maximum", column(a, 1), row(1))),
                     0.0, None)
    inter = c.mul(width, height)
    union = c.sub(c.add(area(a), c.permute(area(b), (1, 0))), inter)
    return c.div(inter, union)


@handles("diagonal_scatter")
def _diagonal_scatter(tr, node, x, src, offset=0, dim1=0, dim2=1):
    """x with src written on its diagonal `offset` of (dim1, dim2): the two
    dimensions moved last, src spread along the one it is indexed by and
    selected on the diagonal's positions."""
    c = Composer(tr)
    x, src = _value(tr, x), _value(tr, src)
    d1, d2 = (_dim(d, x.rank) % x.rank for d in (dim1, dim2))
    if d1 == d2:
        raise Unsupported("diagonal_scatter with dim1 == dim2")
    offset = int(offset)
    rest = [d for d in range(x.rank) if d not in (d1, d2)]
    order = rest + [d1, d2]
    moved = c.permute(x, order)
    n, m = moved.shape[-2], moved.shape[-1]
    length = src.shape[-1]
    lead = moved.shape[:-2]
    src = tr.cast(src, x.elt)
    if offset >= 0:
        spread = c.reshape(constant_pad_along(tr, src, src.rank - 1, 0,
                                              n - length), lead + (n, 1))
    else:
        spread = c.reshape(constant_pad_along(tr, src, src.rank - 1, 0,
                                              m - length), lead + (1, m))
    mask = tr.dense([j - i == offset for i in range(n) for j in range(m)],
                    "i1", (n, m))
    placed = c.where(mask, c.expand(spread, lead + (n, m)), moved)
    inverse = [0] * x.rank
    for i, d in enumerate(order):
        inverse[d] = i
    return c.permute(placed, inverse)


@handles("_cov_backward")
def _cov_backward(tr, node, grad, x, correction, fweights=None,
                  aweights=None):
    """(G + G^T) (x - mean) / (N - correction), x's shape: the centering
    adds nothing, its rows summing to zero."""
    if fweights is not None or aweights is not None:
        raise Unsupported("cov with observation weights")
    c = Composer(tr)
    g, x = _value(tr, grad), _value(tr, x)
    rows = x if x.rank == 2 else c.reshape(x, (1, x.shape[0]))
    n = rows.shape[1]
    k = rows.shape[0]
    g = c.reshape(g, (k, k))
    centered = _centered(c, rows)
    symmetric = c.add(g, c.permute(g, (1, 0)))
    product = tr.emit("mm", [symmetric, centered], rows.shape, x.elt)
    result = c.div(product, float(max(n - int(correction), 0)))
    shape, elt = _result(node)
    return tr.cast(c.reshape(result, shape), elt)


@handles("_corrcoef_backward")
def _corrcoef_backward(tr, node, grad, x):
    """Through R = clip(C / (s s^T), -1, 1), s = sqrt(diag C), C = cov(x):
    dR passes where -1 <= R <= 1; dC = dR / (s s^T) plus, on the diagonal,
    -sum_j (dR_ij R_ij + dR_ji R_ji) / (2 s_i^2); then cov's backward."""
    c = Composer(tr)
    g, x = _value(tr, grad), _value(tr, x)
    rows = x if x.rank == 2 else c.reshape(x, (1, x.shape[0]))
    k, n = rows.shape
    cov = covariance(tr, rows, 1)
    eye = tr.dense([i == j for i in range(k) for j in range(k)], "i1",
                   (k, k))
    variance = c.reduce("sum", c.where(eye, cov, 0.0), [1], False)
    s = c.unary("sqrt", variance)
    outer = c.mul(c.reshape(s, (k, 1)), c.reshape(s, (1, k)))
    r = c.div(cov, outer)
    g = c.reshape(g, (k, k))
    g = c.where(c.both(c.binary("ge", r, -1.0), c.binary("le", r, 1.0)), g,
                0.0)
    gr = c.mul(g, r)
    both = c.add(c.reduce("sum", gr, [1], False),
                 c.reduce("sum", gr, [0], False))
    diagonal = c.div(c.unary("neg", both), c.mul(variance, 2.0))
    dcov = c.add(c.div(g, outer), c.where(eye, c.reshape(diagonal, (k, 1)),
                                          0.0))
    centered = _centered(c, rows)
    symmetric = c.add(dcov, c.permute(dcov, (1, 0)))
    product = tr.emit("mm", [symmetric, centered], rows.shape, x.elt)
    shape, elt = _result(node)
    return tr.cast(c.reshape(c.div(product, float(max(n - 1, 0))), shape),
                   elt)
