"""The 1-d pools (avg_pool1d, max_pool1d, adaptive_avg_pool1d) as the 2-d
pools of the input with a unit height, as eager computes them; autocast
decides the 2-d pools as it does eager's (the tables list neither)."""

from .composite import Composer
from .ops import (Unsupported, _array, _avg_pool_attrs, _max_pool_attrs,
                  _pair, _result, _value, handles)


def _unit_height(c, x):
    if x.rank not in (2, 3):
        raise Unsupported(f"a 1-d pool of a rank-{x.rank} input")
    return c.reshape(x, x.shape[:-1] + (1, x.shape[-1]))


def _pool(tr, node, op, x, attrs):
    c = Composer(tr)
    x = _unit_height(c, _value(tr, x))
    shape, elt = _result(node)
    out = tr.emit(op, [x], x.shape[:-1] + (shape[-1],), elt, attrs)
    return c.reshape(out, shape)


def _row(v):
    """A 1-d pool's size, stride or padding as the 2-d pool's (1, v)."""
    return [1] + _pair(v, 1) if v is not None and not (
        isinstance(v, (list, tuple)) and len(v) == 0) else v


@handles("avg_pool1d")
def _avg_pool1d(tr, node, x, kernel_size, stride=None, padding=0,
                ceil_mode=False, count_include_pad=True):
    attrs = _avg_pool_attrs(2, _row(kernel_size), _row(stride),
                            [0] + _pair(padding, 1), ceil_mode,
                            count_include_pad, None)
    return _pool(tr, node, "avg_pool2d", x, attrs)


@handles("max_pool1d")
def _max_pool1d(tr, node, x, kernel_size, stride=None, padding=0,
                dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        raise Unsupported("max_pool1d with indices")
    attrs = _max_pool_attrs(2, _row(kernel_size), _row(stride),
                            [0] + _pair(padding, 1), [1] + _pair(dilation, 1),
                            ceil_mode)
    return _pool(tr, node, "max_pool2d", x, attrs)


@handles("adaptive_avg_pool1d")
def _adaptive_avg_pool1d(tr, node, x, output_size):
    shape, _ = _result(node)
    attrs = f"output_size = {_array([1, shape[-1]])}"
    return _pool(tr, node, "adaptive_avg_pool2d", x, attrs)
