"""The backward operators of tensorplay 1.1's training graphs for the
pointwise losses, the reflection and replication paddings and the bilinear
upsampling, written as tp ops from aten's formulas (composite.py: backward
graphs carry their casts and are never autocast again, so any op serves).

A loss's gradient is its pointwise derivative times grad_output (0-d for
'mean' and 'sum', shaped for 'none') and, for 'mean', over the element
count of input and target broadcast together. A padding's is grad_output
summed into the input positions it copied (index_add per padded
dimension, the same source indices as the forward); the bilinear
upsampling's the output weighted back into both neighbours.
"""

import math

from .composite import Composer, broadcast
from .layout_ops import index_add
from .ops import HANDLERS, Unsupported, _result, _value, handles
from .resize_ops import (antialias_weights, cubic_weights, linear_weights,
                         spatial_scales)

_MEAN = 1


def _scaled(c, node, derivative, grad, x, target, reduction):
    """derivative * grad (/ N for 'mean'), in the node's dtype."""
    if reduction not in (0, 1, 2):
        raise Unsupported(f"reduction code {reduction}")
    out = c.mul(derivative, grad)
    if reduction == _MEAN:
        out = c.div(out, float(max(math.prod(broadcast(x.shape,
                                                       target.shape)), 1)))
    shape, elt = _result(node)
    if out.shape != tuple(shape):
        out = c.expand(out, shape)
    return out if out.elt == elt else c.cast(out, elt)


def _values(tr, *args):
    return [_value(tr, a) for a in args]


@handles("smooth_l1_loss_backward")
def _smooth_l1_backward(tr, node, grad, x, target, reduction, beta=1.0):
    """d / beta inside |d| < beta, sign(d) outside (d = x - target)."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    beta = float(beta)
    if beta <= 0:
        raise Unsupported("smooth_l1_loss_backward with beta <= 0")
    d = c.sub(x, target)
    inner = c.div(d, beta)
    outer = c.where(c.binary("gt", d, 0.0), 1.0,
                    c.where(c.binary("lt", d, 0.0), -1.0, 0.0, elt=d.elt))
    derivative = c.where(c.binary("lt", c.unary("abs", d), beta), inner,
                         outer)
    return _scaled(c, node, derivative, grad, x, target, reduction)


@handles("huber_loss_backward")
def _huber_backward(tr, node, grad, x, target, reduction, delta=1.0):
    """x - target clamped to [-delta, delta]."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    derivative = c.clamp(c.sub(x, target), -float(delta), float(delta))
    return _scaled(c, node, derivative, grad, x, target, reduction)


@handles("soft_margin_loss_backward", "tp_soft_margin_loss_backward")
def _soft_margin_backward(tr, node, grad, x, target, reduction=_MEAN):
    """-target sigmoid(-target x)."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    derivative = c.mul(c.unary("neg", target),
                       c.unary("sigmoid", c.unary("neg", c.mul(target, x))))
    return _scaled(c, node, derivative, grad, x, target, reduction)


@handles("binary_cross_entropy_backward")
def _bce_backward(tr, node, grad, x, target, weight=None, reduction=_MEAN):
    """(x - target) / max(x (1 - x), 1e-12), times the weight."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    variance = c.binary("maximum", c.mul(c.sub(1.0, x), x),
                        tr.constant(1e-12, x.elt))
    derivative = c.div(c.sub(x, target), variance)
    if weight is not None:
        derivative = c.mul(derivative, _value(tr, weight))
    return _scaled(c, node, derivative, grad, x, target, reduction)


@handles("tp_kl_div_backward")
def _kl_div_backward(tr, node, grad, x, target, reduction=_MEAN,
                     log_target=False):
    """-target (-exp(target) for a log target)."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    derivative = c.unary("neg", c.unary("exp", target) if log_target
                         else target)
    return _scaled(c, node, derivative, grad, x, target, reduction)


@handles("tp_l1_loss_backward")
def _l1_backward(tr, node, grad, x, target, reduction=_MEAN):
    """sign(x - target)."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    d = c.sub(x, target)
    derivative = c.where(c.binary("gt", d, 0.0), 1.0,
                         c.where(c.binary("lt", d, 0.0), -1.0, 0.0,
                                 elt=d.elt))
    return _scaled(c, node, derivative, grad, x, target, reduction)


@handles("tp_hinge_embedding_loss_backward")
def _hinge_embedding_backward(tr, node, grad, x, target, margin=1.0,
                              reduction=_MEAN):
    """1 where target != -1, plus -1 where target != 1 and x < margin."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    own = c.where(c.binary("ne", target, -1.0), 1.0, 0.0, elt=x.elt)
    hinge = c.where(c.both(c.binary("ne", target, 1.0),
                           c.binary("gt", c.sub(float(margin), x), 0.0)),
                    -1.0, 0.0, elt=x.elt)
    return _scaled(c, node, c.add(own, hinge), grad, x, target, reduction)


@handles("tp_margin_ranking_loss_backward")
def _margin_ranking_backward(tr, node, grad, x1, x2, target, margin=0.0,
                             reduction=_MEAN):
    """(-target, target) where -target (x1 - x2) + margin > 0."""
    from .ops import _meta_of_part
    c = Composer(tr)
    grad, x1, x2, target = _values(tr, grad, x1, x2, target)
    active = c.binary("gt", c.add(c.mul(c.unary("neg", target),
                                        c.sub(x1, x2)), float(margin)), 0.0)
    derivative = c.where(active, c.unary("neg", target), 0.0)
    g1 = c.mul(derivative, grad)
    if reduction == _MEAN:
        g1 = c.div(g1, float(max(math.prod(broadcast(
            x1.shape, x2.shape, target.shape)), 1)))
    elif reduction not in (0, 2):
        raise Unsupported(f"reduction code {reduction}")
    out = []
    for i, g in enumerate((g1, c.unary("neg", g1))):
        meta = _meta_of_part(node, i)
        shape, elt = meta if meta else ((x1, x2)[i].shape, (x1, x2)[i].elt)
        g = c.expand(g, shape) if g.shape != tuple(shape) else g
        out.append(g if g.elt == elt else c.cast(g, elt))
    return tuple(out)


@handles("tp_poisson_nll_loss_backward")
def _poisson_nll_backward(tr, node, grad, x, target, log_input=True,
                          full=False, eps=1e-08, reduction=_MEAN):
    """exp(x) - target for a log input, else 1 - target / (x + eps) (the
    full loss's Stirling term depends on the target only)."""
    c = Composer(tr)
    grad, x, target = _values(tr, grad, x, target)
    if log_input:
        derivative = c.sub(c.unary("exp", x), target)
    else:
        derivative = c.sub(1.0, c.div(target, c.add(x, float(eps))))
    return _scaled(c, node, derivative, grad, x, target, reduction)


def _pad_source(size, lo, out_size, mode):
    """The input index each padded position copies."""
    out = []
    for o in range(out_size):
        i = o - lo
        if mode == "replicate":
            i = min(max(i, 0), size - 1)
        else:  # reflect
            if size == 1:
                i = 0
            while i < 0 or i >= size:
                i = -i if i < 0 else 2 * (size - 1) - i
        out.append(i)
    return out


def _pad_backward(mode):
    def handler(tr, node, grad, x, padding):
        """grad summed into the positions each padded position copied."""
        c = Composer(tr)
        grad, x = _values(tr, grad, x)
        pad = [int(p) for p in padding]
        if any(p < 0 for p in pad) or len(pad) % 2:
            raise Unsupported(f"a {mode} padding's backward with {pad}")
        for k in range(len(pad) // 2):
            d = x.rank - 1 - k
            size = x.shape[d]
            index = _pad_source(size, pad[2 * k], grad.shape[d], mode)
            shape = list(grad.shape)
            shape[d] = size
            zeros = tr.constant(0.0, grad.elt, tuple(shape))
            grad = index_add(c, zeros, d,
                             tr.dense(index, "i64", (len(index),)), grad)
        return grad
    return handler


for _n in (1, 2, 3):
    HANDLERS[f"replication_pad{_n}d_backward"] = _pad_backward("replicate")
    if _n < 3:
        HANDLERS[f"reflection_pad{_n}d_backward"] = _pad_backward("reflect")
HANDLERS["replication_pad_nd_backward"] = _pad_backward("replicate")
HANDLERS["reflection_pad_nd_backward"] = _pad_backward("reflect")
HANDLERS["reflection_pad3d_backward"] = _pad_backward("reflect")


@handles("upsample_bilinear2d_backward", "upsample_linear1d_backward",
         "upsample_trilinear3d_backward")
def _upsample_linear_backward(tr, node, grad, output_size, input_size,
                              align_corners, *scales, scales_h=None,
                              scales_w=None, scales_d=None):
    """Per dimension, from the last: the output's gradient weighted into
    both neighbours of the forward (index_add of w0 g and w1 g)."""
    def taps(size, out_size, factor):
        first, second, lam = linear_weights(size, out_size,
                                            bool(align_corners), factor)
        return [first, second], [[1.0 - v for v in lam], lam]
    return _resize_backward(tr, grad, output_size, input_size, scales,
                            scales_h, scales_w, scales_d, taps)


@handles("upsample_bicubic2d_backward")
def _upsample_bicubic_backward(tr, node, grad, output_size, input_size,
                               align_corners, scales_h=None, scales_w=None):
    """The four taps' weighted gradients added back, per dimension."""
    def taps(size, out_size, factor):
        return cubic_weights(size, out_size, bool(align_corners), factor)
    return _resize_backward(tr, grad, output_size, input_size, (), scales_h,
                            scales_w, None, taps)


def _antialiased_backward(kind):
    def handler(tr, node, grad, output_size, input_size, align_corners,
                scales_h=None, scales_w=None):
        """The antialiasing taps' weighted gradients added back."""
        return _resize_backward(tr, grad, output_size, input_size, (),
                                scales_h, scales_w, None,
                                antialias_weights(kind, bool(align_corners)))
    return handler


HANDLERS["_upsample_bilinear2d_aa_backward"] = _antialiased_backward(
    "bilinear")
HANDLERS["_upsample_bicubic2d_aa_backward"] = _antialiased_backward(
    "bicubic")


def _resize_backward(tr, grad, output_size, input_size, scales, scales_h,
                     scales_w, scales_d, taps):
    """Per dimension, from the last: the output's gradient weighted into
    each tap of the forward (index_add of w_k g at index_k); `taps(size,
    out_size, scale)` gives the (index lists, weight lists)."""
    c = Composer(tr)
    grad = _value(tr, grad)
    n = len(output_size)
    factors = spatial_scales(n, scales, scales_d, scales_h, scales_w)
    for k in reversed(range(n)):
        d = grad.rank - n + k
        size = int(input_size[d])
        indices, weights = taps(size, int(output_size[k]), factors[k])
        shape = [1] * grad.rank
        shape[d] = len(weights[0])
        target = list(grad.shape)
        target[d] = size
        total = tr.constant(0.0, grad.elt, tuple(target))
        for index, weight in zip(indices, weights):
            total = index_add(c, total, d, tr.dense(index, "i64",
                                                    (len(index),)),
                              c.mul(grad, tr.dense(weight, grad.elt,
                                                   tuple(shape))))
        grad = total
    return grad


@handles("tp_cosine_embedding_loss_backward")
def _cosine_embedding_backward(tr, node, grad_output, input1, input2, target,
                               margin=0.0, reduction=_MEAN):
    """(d x1, d x2) of 1 - cos (target 1) or max(0, cos - margin) (target
    -1), cos = x1.x2 / sqrt((|x1|^2 + 1e-12)(|x2|^2 + 1e-12)) per row:
    d cos / d x1 = x2 / denominator - cos x1 / (|x1|^2 + 1e-12), and
    symmetrically; times the loss's slope (-1; 1 where cos - margin >= 0;
    0 for other targets), the gradient, and 1 / rows for 'mean'."""
    from .ops import _meta_of_part
    c = Composer(tr)
    g, x1, x2, y = _values(tr, grad_output, input1, input2, target)
    if x1.rank not in (1, 2) or x1.shape != x2.shape:
        raise Unsupported(f"cosine_embedding_loss of {x1.shape} and "
                          f"{x2.shape}")
    if reduction not in (0, 1, 2):
        raise Unsupported(f"reduction code {reduction}")
    last = x1.rank - 1

    def row_sum(v):
        return c.reduce("sum", v, [last], True)
    products = row_sum(c.mul(x1, x2))
    m1 = c.add(row_sum(c.mul(x1, x1)), 1e-12)
    m2 = c.add(row_sum(c.mul(x2, x2)), 1e-12)
    denominator = c.unary("sqrt", c.mul(m1, m2))
    cos = c.div(products, denominator)
    yk = c.reshape(y, cos.shape)
    slope = c.where(c.binary("eq", yk, 1), -1.0, c.where(
        c.both(c.binary("eq", yk, -1),
               c.binary("ge", c.sub(cos, float(margin)), 0.0)), 1.0, 0.0,
        elt=cos.elt))
    scale = c.mul(slope, g if reduction != 0 else c.reshape(g, cos.shape))
    if reduction == _MEAN:
        scale = c.div(scale, float(x1.shape[0] if x1.rank == 2 else 1))
    parts = []
    for i, (a, b, m) in enumerate(((x1, x2, m1), (x2, x1, m2))):
        d = c.sub(c.div(b, denominator), c.div(c.mul(cos, a), m))
        part = c.mul(d, scale)
        meta = _meta_of_part(node, i)
        parts.append(part if meta is None or part.elt == meta[1]
                     else c.cast(part, meta[1]))
    return tuple(parts)
