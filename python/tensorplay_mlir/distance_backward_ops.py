"""Backward operators of distances, margin losses and products that 1.1's
training graphs hold, written with tp ops from aten's formulas (backward
graphs carry their casts: any op): cdist's and pdist's (the p-norm's
derivative per pair, 0 where two points coincide), cumprod's (exact with
zeros: each input's gradient from the products that leave it out),
multi_margin_loss's and multilabel_margin_loss's (the active hinges'
slopes), embedding_bag's per-sample weights' (each member's row dotted
with its bag's gradient), and the forward helpers _trilinear (the three
inputs expanded, multiplied and summed) and linalg__powsum (the sum of
|x|^ord).
"""

from .composite import Composer
from .ops import Unsupported, _dim, _result, _value, handles


def _norm_slope(c, diff, dist, p):
    """d ||diff||_p / d diff for each component: sign(diff) |diff|^(p-1) /
    dist^(p-1) (diff / dist for p = 2, sign for p = 1), 0 where dist is
    0."""
    sign = c.where(c.binary("gt", diff, 0.0), 1.0, c.where(
        c.binary("lt", diff, 0.0), -1.0, 0.0, elt=diff.elt))
    if p == 1.0:
        slope = sign
    elif p == 2.0:
        slope = c.div(diff, dist)
    elif p > 0 and p != float("inf"):
        magnitude = c.tr.emit("pow", [c.unary("abs", diff),
                                      c.tr.constant(p - 1.0, diff.elt)],
                              diff.shape, diff.elt)
        scale = c.tr.emit("pow", [dist, c.tr.constant(p - 1.0, dist.elt)],
                          dist.shape, dist.elt)
        slope = c.div(c.mul(sign, magnitude), scale)
    else:
        raise Unsupported(f"the gradient of a p = {p} distance")
    return c.where(c.binary("eq", dist, 0.0), 0.0, slope)


@handles("_cdist_backward")
def _cdist_backward(tr, node, grad_output, x1, x2, p, cdist):
    """x1's gradient: sum over x2's points of the distance's slope times
    the gradient."""
    c = Composer(tr)
    g, a, b = _value(tr, grad_output), _value(tr, x1), _value(tr, x2)
    d = _value(tr, cdist)
    if a.rank != 3 or b.rank != 3:
        raise Unsupported(f"_cdist_backward of ranks {a.rank}, {b.rank}")
    diff = c.sub(c.reshape(a, a.shape[:2] + (1, a.shape[2])),
                 c.reshape(b, (b.shape[0], 1) + b.shape[1:]))
    slope = _norm_slope(c, diff, c.reshape(d, d.shape + (1,)), float(p))
    total = c.reduce("sum", c.mul(slope, c.reshape(g, g.shape + (1,))), [2],
                     False)
    shape, elt = _result(node)
    return tr.cast(c.reshape(total, shape), elt)


@handles("_pdist_backward")
def _pdist_backward(tr, node, grad_output, x, p, pdist):
    """The pairs' gradients (i < j, row-major) spread into a symmetric
    matrix, then each point's sum of the slopes towards every other."""
    c = Composer(tr)
    g, x, d = _value(tr, grad_output), _value(tr, x), _value(tr, pdist)
    n = x.shape[0]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if x.rank != 2 or len(pairs) != g.shape[0]:
        raise Unsupported(f"_pdist_backward of {x.shape}")
    # Each (i, j) cell's pair, the diagonal a dummy (its slope is 0).
    slot = {}
    for k, (i, j) in enumerate(pairs):
        slot[(i, j)] = slot[(j, i)] = k
    index = tr.dense([slot.get((i, j), 0) for i in range(n) for j in
                      range(n)], "i64", (n * n,))
    off_diagonal = tr.dense([i != j for i in range(n) for j in range(n)],
                            "i1", (n, n))

    def square(v):
        full = c.reshape(tr.emit("gather", [v, index], (n * n,), v.elt,
                                 "dim = 0 : i64"), (n, n))
        return c.where(off_diagonal, full, 0.0)
    grads, dists = square(g), square(d)
    diff = c.sub(c.reshape(x, (n, 1, x.shape[1])),
                 c.reshape(x, (1, n, x.shape[1])))
    slope = _norm_slope(c, diff, c.reshape(dists, (n, n, 1)), float(p))
    total = c.reduce("sum", c.mul(slope, c.reshape(grads, (n, n, 1))), [1],
                     False)
    return tr.cast(total, _result(node)[1])


@handles("cumprod_backward")
def _cumprod_backward(tr, node, grad, input, dim, output):
    """x_k's gradient: sum over i >= k of g_i times the product of x_j for
    j <= i, j != k: (the product before k) times the cumulative product of
    the entries after k (a (n, n) table per slice: exact with zeros)."""
    c = Composer(tr)
    g, x = _value(tr, grad), _value(tr, input)
    if x.rank == 0:
        return tr.cast(g, _result(node)[1])
    d = _dim(dim, x.rank) % x.rank
    order = [i for i in range(x.rank) if i != d] + [d]
    xs, gs = c.permute(x, order), c.permute(g, order)
    n = xs.shape[-1]
    lead = xs.shape[:-1]
    ones = tr.constant(1.0, x.elt, lead + (1,))
    shifted = c.cat([ones, c.slice(xs, xs.rank - 1, 0, n - 1)], xs.rank - 1) \
        if n > 1 else ones
    before = tr.emit("cumprod", [shifted], xs.shape, x.elt,
                     f"dim = {xs.rank - 1} : i64")
    # after[k, i] = prod_(k < j <= i) x_j: x with the entries j <= k set
    # to 1, cumulated along i.
    later = tr.dense([j > k for k in range(n) for j in range(n)], "i1",
                     (n, n))
    rows = c.where(later, c.reshape(xs, lead + (1, n)), 1.0)
    after = tr.emit("cumprod", [rows], lead + (n, n), x.elt,
                    f"dim = {xs.rank} : i64")
    upper = tr.dense([i >= k for k in range(n) for i in range(n)], "i1",
                     (n, n))
    weighted = c.where(upper, c.mul(after, c.reshape(gs, lead + (1, n))),
                       0.0)
    result = c.mul(before, c.reduce("sum", weighted, [xs.rank], False))
    inverse = [0] * x.rank
    for i, o in enumerate(order):
        inverse[o] = i
    return tr.cast(c.permute(result, inverse), _result(node)[1])


def _reduced(tr, node, c, grad, g, reduction, shape):
    """A per-sample loss's (n, C) gradient times the incoming one: per
    sample for 'none', / n for 'mean'; in x's shape and the node's dtype."""
    n = grad.shape[0]
    if int(reduction) == 0:
        grad = c.mul(grad, c.reshape(g, (n, 1)))
    else:
        grad = c.mul(grad, g)
        if int(reduction) == 1:
            grad = c.div(grad, float(n))
    return tr.cast(c.reshape(grad, shape), _result(node)[1])


@handles("multi_margin_loss_backward")
def _multi_margin_loss_backward(tr, node, grad_output, x, target, p, margin,
                                weight=None, reduction=1):
    """z_j = margin - x_y + x_j (j != y) active where positive: x_j gets
    p z^(p-1) w_y / C, x_y minus their sum; times the gradient (/ N for
    'mean')."""
    c = Composer(tr)
    g, x, t = _value(tr, grad_output), _value(tr, x), _value(tr, target)
    if x.rank not in (1, 2) or int(p) not in (1, 2):
        raise Unsupported(f"multi_margin_loss_backward of rank {x.rank}, "
                          f"p = {p}")
    rows = x if x.rank == 2 else c.reshape(x, (1, x.shape[0]))
    n, classes = rows.shape
    t = c.reshape(t, (n, 1))
    picked = tr.emit("gather", [rows, t], (n, 1), x.elt, "dim = 1 : i64")
    z = c.add(c.sub(float(margin), picked), rows)
    ids = c.reshape(tr.dense(list(range(classes)), t.elt, (classes,)),
                    (1, classes))
    is_target = c.binary("eq", ids, t)
    active = c.both(c.binary("gt", z, 0.0), c.binary("eq", is_target, False))
    slope = c.where(active, c.mul(z, 2.0) if int(p) == 2 else 1.0, 0.0,
                    elt=x.elt)
    if weight is not None:
        w = tr.emit("gather", [_value(tr, weight), c.reshape(t, (n,))], (n,),
                    x.elt, "dim = 0 : i64")
        slope = c.mul(slope, c.reshape(w, (n, 1)))
    slope = c.div(slope, float(classes))
    own = c.reduce("sum", slope, [1], True)
    grad = c.where(is_target, c.unary("neg", own), slope)
    return _reduced(tr, node, c, grad, g, reduction, x.shape)


@handles("multilabel_margin_loss_backward")
def _multilabel_margin_loss_backward(tr, node, grad_output, x, target,
                                     reduction, is_target):
    """For each valid target j and non-target k with 1 - x_j + x_k > 0: x_k
    gets 1 / C, x_j -1 / C; times the gradient (/ N for 'mean')."""
    c = Composer(tr)
    g, x, t = _value(tr, grad_output), _value(tr, x), _value(tr, target)
    mask = _value(tr, is_target)
    rows = x if x.rank == 2 else c.reshape(x, (1, x.shape[0]))
    n, classes = rows.shape
    t = c.reshape(t, (n, classes))
    mask = c.binary("ne", c.reshape(mask, (n, classes)), 0)
    flags = c.where(c.binary("ne", t, -1), 1.0, 0.0, elt="f32")
    valid = c.binary("gt", tr.emit("cumprod", [flags], flags.shape, "f32",
                                   "dim = 1 : i64"), 0.0)
    safe = c.where(valid, t, 0)
    xj = tr.emit("gather", [rows, safe], (n, classes), x.elt, "dim = 1 : i64")
    z = c.add(c.sub(1.0, c.reshape(xj, (n, classes, 1))),
              c.reshape(rows, (n, 1, classes)))
    active = c.both(c.both(c.reshape(valid, (n, classes, 1)),
                           c.binary("eq", c.reshape(mask, (n, 1, classes)),
                                    False)),
                    c.binary("gt", z, 0.0))
    hits = c.div(c.where(active, 1.0, 0.0, elt=x.elt), float(classes))
    to_k = c.reduce("sum", hits, [1], False)
    from_j = c.reduce("sum", hits, [2], False)
    grad = tr.emit("scatter_add", [to_k, safe, c.unary("neg", from_j)],
                   (n, classes), x.elt, "dim = 1 : i64")
    return _reduced(tr, node, c, grad, g, reduction, x.shape)


@handles("_embedding_bag_per_sample_weights_backward")
def _per_sample_weights_backward(tr, node, grad_output, weight, indices,
                                 offsets, offset2bag, mode, padding_idx=-1):
    """Each member's gradient: its weight row dotted with its bag's
    gradient (0 at the padding index)."""
    c = Composer(tr)
    if int(mode) != 0:
        raise Unsupported("per_sample_weights outside sum mode")
    g, w = _value(tr, grad_output), _value(tr, weight)
    idx, bag_of = _value(tr, indices), _value(tr, offset2bag)
    count, dim = idx.shape[0], w.shape[1]
    rows = tr.emit("embedding", [w, idx], (count, dim), w.elt)
    bags = tr.emit("gather", [g, c.expand(c.reshape(bag_of, (count, 1)),
                                          (count, dim))],
                   (count, dim), g.elt, "dim = 0 : i64")
    dots = c.reduce("sum", c.mul(rows, bags), [1], False)
    if padding_idx is not None and int(padding_idx) >= 0:
        dots = c.where(c.binary("eq", idx, int(padding_idx)), 0.0, dots)
    return tr.cast(dots, _result(node)[1])


@handles("linalg__powsum")
def _powsum(tr, node, x, ord=2, dim=None, keepdim=False, dtype=None):
    """sum(|x|^ord) over dim (all when absent)."""
    c = Composer(tr)
    x = _value(tr, x)
    if dtype is not None:
        raise Unsupported("linalg__powsum with a dtype")
    powered = tr.emit("pow", [c.unary("abs", x), tr.constant(float(ord),
                                                             x.elt)],
                      x.shape, x.elt)
    dims = [] if dim is None else [_dim(d, x.rank) % x.rank for d in (
        [dim] if isinstance(dim, int) else dim)]
    shape, elt = _result(node)
    return c.reshape(c.reduce("sum", powered, dims, bool(keepdim)), shape)


@handles("_trilinear")
def _trilinear(tr, node, i1, i2, i3, expand1, expand2, expand3, sumdim,
               unroll_dim=1):
    """i1, i2, i3 with size-1 dimensions inserted at expand1..3, multiplied
    (broadcast) and summed over sumdim."""
    c = Composer(tr)

    def expanded(v, dims):
        v = _value(tr, v)
        shape = list(v.shape)
        for d in sorted(int(d) for d in dims):
            shape.insert(d, 1)
        return c.reshape(v, tuple(shape))
    product = c.mul(c.mul(expanded(i1, expand1), expanded(i2, expand2)),
                    expanded(i3, expand3))
    shape, elt = _result(node)
    dims = [int(d) for d in sumdim]
    summed = c.reduce("sum", product, dims, True) if dims else product
    return tr.cast(c.reshape(summed, shape), elt)
