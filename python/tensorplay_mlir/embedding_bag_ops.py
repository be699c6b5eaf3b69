"""_embedding_bag (what F.embedding_bag and nn.EmbeddingBag call) and its
dense backward with tp ops. The bags come from the offsets' values, but
every shape is static: each index's bag is the number of offsets at or
before its position, less one, so a (bags, indices) membership mask (the
padding index left out) is computed at run time and the reductions run
over it: sum (weighted by per_sample_weights), mean (0 for an empty bag)
and max (0 for an empty bag; max_indices the weight row of the maximum, as
eager). offset2bag, bag_size and max_indices are eager's auxiliary results
(max_indices zeros of the bags' count outside max mode). Element-wise
products and sums, not a matmul: eager's kernel is in no autocast table.
The backward adds each bag's gradient into the weight rows its members
read (scaled by 1 / size for mean, per_sample_weights for sum; the max's
row per column for max).
"""

from .composite import Composer
from .ops import Unsupported, _is_value, _value, handles

_SUM, _MEAN, _MAX = 0, 1, 2


def _membership(c, indices, offsets, include_last_offset, padding_idx):
    """(bag of each position (L,), (B, L) mask of the members)."""
    tr = c.tr
    count = indices.shape[0]
    if include_last_offset:
        offsets = c.slice(offsets, 0, 0, offsets.shape[0] - 1)
    bags = offsets.shape[0]
    positions = c.reshape(tr.dense(list(range(count)), offsets.elt,
                                   (count,)), (1, count))
    started = c.where(c.binary("le", c.reshape(offsets, (bags, 1)),
                               positions), 1.0, 0.0, elt="f32")
    bag_of = c.sub(c.reduce("sum", started, [0], False), 1.0)
    ids = c.reshape(tr.dense(list(range(bags)), "f32", (bags,)), (bags, 1))
    member = c.binary("eq", c.reshape(bag_of, (1, count)), ids)
    if padding_idx is not None and int(padding_idx) >= 0:
        member = c.both(member, c.binary("ne", c.reshape(indices, (1, count)),
                                         int(padding_idx)))
    return tr.cast(bag_of, "i64"), member


@handles("_embedding_bag", "_embedding_bag_forward_only")
def _embedding_bag(tr, node, weight, indices, offsets,
                   scale_grad_by_freq=False, mode=0, sparse=False,
                   per_sample_weights=None, include_last_offset=False,
                   padding_idx=-1):
    c = Composer(tr)
    w, idx = _value(tr, weight), _value(tr, indices)
    offsets = _value(tr, offsets)
    mode = int(mode)
    if idx.rank != 1 or offsets.rank != 1 or w.rank != 2 or mode not in (
            _SUM, _MEAN, _MAX):
        raise Unsupported(f"embedding_bag of indices {idx.shape}, offsets "
                          f"{offsets.shape}, mode {mode}")
    if sparse:
        raise Unsupported("sparse=True (a sparse gradient)")
    if per_sample_weights is not None and mode != _SUM:
        raise Unsupported("per_sample_weights outside sum mode")
    bag_of, member = _membership(c, idx, offsets, include_last_offset,
                                 padding_idx)
    bags, count = member.shape
    dim = w.shape[1]
    rows = tr.emit("embedding", [w, idx], (count, dim), w.elt)
    if per_sample_weights is not None and _is_value(per_sample_weights):
        rows = c.mul(rows, c.reshape(_value(tr, per_sample_weights),
                                     (count, 1)))
    inside = c.reshape(member, (bags, count, 1))
    sizes = c.reduce("sum", c.where(member, 1.0, 0.0, elt="f32"), [1],
                     False)
    wide = c.reshape(rows, (1, count, dim))
    if mode == _MAX:
        candidates = c.where(inside, wide, float("-inf"))
        best = c.reduce("amax", candidates, [1], False)
        empty = c.binary("eq", c.reshape(sizes, (bags, 1)), 0.0)
        output = c.where(empty, 0.0, best)
        first = tr.emit("argmax", [candidates], (bags, dim), "i64",
                        "dim = 1 : i64, keepdim = false")
        picked = tr.emit("gather", [c.expand(c.reshape(idx, (1, count)),
                                             (bags, count)), first],
                         (bags, dim), idx.elt, "dim = 1 : i64")
        max_indices = tr.cast(c.where(empty, 0, picked), "i64")
    else:
        output = c.reduce("sum", c.where(inside, wide, 0.0), [1], False)
        if mode == _MEAN:
            output = c.div(output, tr.cast(c.reshape(
                c.clamp(sizes, 1.0, None), (bags, 1)), w.elt))
        max_indices = tr.constant(0, "i64", (bags,))
    return (output, bag_of, tr.cast(sizes, "i64"), max_indices)


@handles("_embedding_bag_dense_backward")
def _embedding_bag_dense_backward(tr, node, grad_output, indices, offset2bag,
                                  bag_size, maximum_indices, num_weights,
                                  scale_grad_by_freq, mode,
                                  per_sample_weights=None, padding_idx=-1):
    return dense_backward(tr, grad_output, indices, offset2bag, bag_size,
                          maximum_indices, num_weights, scale_grad_by_freq,
                          mode, per_sample_weights, padding_idx)


@handles("_embedding_bag_backward")
def _embedding_bag_backward(tr, node, grad, indices, offsets, offset2bag,
                            bag_size, maximum_indices, num_weights,
                            scale_grad_by_freq, mode, sparse,
                            per_sample_weights, padding_idx=-1):
    if sparse:
        raise Unsupported("sparse=True (a sparse gradient)")
    return dense_backward(tr, grad, indices, offset2bag, bag_size,
                          maximum_indices, num_weights, scale_grad_by_freq,
                          mode, per_sample_weights, padding_idx)


def dense_backward(tr, grad_output, indices, offset2bag, bag_size,
                   maximum_indices, num_weights, scale_grad_by_freq, mode,
                   per_sample_weights, padding_idx):
    """The weight's gradient: each member's bag gradient added at its
    weight row (/ size for mean, * per_sample_weights for sum); for max,
    each column's gradient at the row that won it."""
    if scale_grad_by_freq:
        raise Unsupported("embedding_bag with scale_grad_by_freq")
    c = Composer(tr)
    g = _value(tr, grad_output)
    idx, bag_of = _value(tr, indices), _value(tr, offset2bag)
    bags, dim = g.shape
    count = idx.shape[0]
    total = tr.constant(0.0, g.elt, (int(num_weights), dim))
    mode = int(mode)
    if mode == _MAX:
        winners = _value(tr, maximum_indices)
        sizes = c.reshape(tr.cast(_value(tr, bag_size), g.elt), (bags, 1))
        kept = c.where(c.binary("gt", sizes, 0.0), g, 0.0)
        return tr.emit("scatter_add", [total, winners, kept], total.shape,
                       g.elt, "dim = 0 : i64")
    per_member = tr.emit("gather", [g, c.expand(c.reshape(bag_of, (count,
                                                                   1)),
                                                (count, dim))],
                         (count, dim), g.elt, "dim = 0 : i64")
    if mode == _MEAN:
        sizes = tr.emit("gather", [tr.cast(_value(tr, bag_size), g.elt),
                                   bag_of], (count,), g.elt, "dim = 0 : i64")
        per_member = c.div(per_member, c.reshape(c.clamp(sizes, 1.0, None),
                                                 (count, 1)))
    elif per_sample_weights is not None:
        per_member = c.mul(per_member, c.reshape(
            _value(tr, per_sample_weights), (count, 1)))
    if padding_idx is not None and int(padding_idx) >= 0:
        per_member = c.where(c.binary("eq", c.reshape(idx, (count, 1)),
                                      int(padding_idx)), 0.0, per_member)
    rows = c.expand(c.reshape(idx, (count, 1)), (count, dim))
    return tr.emit("scatter_add", [total, rows, per_member], total.shape,
                   g.elt, "dim = 0 : i64")
