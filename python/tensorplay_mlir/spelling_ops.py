"""Operators of tensorplay 1.1's registry that are another spelling or a
special case of one the translator already has: dtype casts (``_cast_*``,
autocast's own ``_autocast_to_*``), h/v/dsplit, numpy_T and matrix_H, the
``linalg_`` names of matmul, vdot, cross, diagonal and the vector norm,
pairwise_distance, the slow and thnn convolutions (tp.convolution),
_addmm_activation, aminmax, cot and sec, fftshift, and the factories whose
values depend only on their arguments (windows, linspace, logspace, range,
fftfreq: constants, computed in f64 and rounded once to the result's dtype,
within an ulp of eager's).

Each keeps eager's autocast decision: the convolutions and products are the
tp ops the tables list (eager's kernels call them), the rest are unlisted
and run in their inputs' types (checked against eager under cpu autocast by
python/tests/test_spelling_ops.py).
"""

import math

import numpy as np

from . import dtypes
from .composite import Composer
from .ops import (HANDLERS, Unsupported, _array, _dim, _emit_slice,
                  _result, _value, handles)


@handles("_cast_Byte", "_cast_Char", "_cast_Double", "_cast_Float",
         "_cast_Half", "_cast_Int", "_cast_Long", "_cast_Short")
def _cast(tr, node, x, non_blocking=False):
    return tr.cast(_value(tr, x), _result(node)[1])


@handles("_autocast_to_full_precision")
def _autocast_to_full(tr, node, x, cuda_enabled, cpu_enabled):
    """A reduced-precision float to f32 where CPU autocast is on (the node's
    dtype says which)."""
    return tr.cast(_value(tr, x), _result(node)[1])


@handles("_autocast_to_reduced_precision")
def _autocast_to_reduced(tr, node, x, cuda_enabled, cpu_enabled,
                         cuda_dtype, cpu_dtype):
    return tr.cast(_value(tr, x), _result(node)[1])


def _split_along(tr, x, d, sections_or_indices, name):
    """numpy's array_split by a count of equal sections (which must divide
    the dimension, as h/v/dsplit require) or by indices."""
    n = x.shape[d]
    if isinstance(sections_or_indices, int):
        k = int(sections_or_indices)
        if k <= 0 or n % k:
            raise Unsupported(f"{name} of {n} into {k} sections")
        bounds = [i * (n // k) for i in range(k + 1)]
    else:
        bounds = [0] + [min(max(int(i) if i >= 0 else n + int(i), 0), n)
                        for i in sections_or_indices] + [n]
    parts = []
    for start, end in zip(bounds, bounds[1:]):
        end = max(start, end)
        if end == start:
            raise Unsupported(f"{name} with an empty part")
        parts.append(_emit_slice(tr, x, d, start, end))
    return tuple(parts)


def _directional_split(name, dim_of, least_rank):
    def handler(tr, node, x, *sections):
        x = _value(tr, x)
        if x.rank < least_rank:
            raise Unsupported(f"{name} of a rank-{x.rank} tensor")
        (arg,) = sections
        return _split_along(tr, x, dim_of(x.rank), arg, name)
    return handler


HANDLERS["hsplit"] = _directional_split("hsplit",
                                        lambda r: 1 if r > 1 else 0, 1)
HANDLERS["vsplit"] = _directional_split("vsplit", lambda r: 0, 2)
HANDLERS["dsplit"] = _directional_split("dsplit", lambda r: 2, 3)


@handles("numpy_T")
def _numpy_t(tr, node, x):
    return Composer(tr).permute(_value(tr, x), range(_value(tr, x).rank)[::-1])


@handles("matrix_H")
def _matrix_h(tr, node, x):
    """The conjugate transpose of a real matrix: its transpose."""
    x = _value(tr, x)
    if x.rank != 2:
        raise Unsupported(f"matrix_H of a rank-{x.rank} tensor")
    return Composer(tr).permute(x, (1, 0))


@handles("linalg_diagonal")
def _linalg_diagonal(tr, node, A, offset=0, dim1=-2, dim2=-1):
    return HANDLERS["diagonal"](tr, node, A, offset, dim1, dim2)


@handles("linalg_matmul")
def _linalg_matmul(tr, node, x, other):
    """tp.matmul (eager's linalg.matmul is matmul: autocast to bf16)."""
    shape, elt = _result(node)
    return tr.emit("matmul", [_value(tr, x), _value(tr, other)], shape, elt)


@handles("linalg_vdot")
def _linalg_vdot(tr, node, x, other):
    return HANDLERS["vdot"](tr, node, x, other)


@handles("linalg_cross")
def _linalg_cross(tr, node, x, other, dim=-1):
    x, other = _value(tr, x), _value(tr, other)
    shape, elt = _result(node)
    return tr.emit("cross", [x, other], shape, elt,
                   f"dim = {_dim(dim, len(shape)) % len(shape)} : i64")


@handles("linalg_vector_norm")
def _linalg_vector_norm(tr, node, x, ord=2, dim=None, keepdim=False,
                        dtype=None):
    """tp.norm of order `ord` over `dim` (all when absent)."""
    return HANDLERS["norm"](tr, node, x, ord, dim, keepdim, dtype)


@handles("pairwise_distance")
def _pairwise_distance(tr, node, x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """norm(x1 - x2 + eps, p) over the last dimension, as eager computes it
    (eps added to the difference)."""
    c = Composer(tr)
    x1, x2 = _value(tr, x1), _value(tr, x2)
    diff = c.add(c.sub(x1, x2), float(eps))
    shape, elt = _result(node)
    from .arithmetic_ops import _norm_p
    order = _norm_p(float(p))
    rank = diff.rank
    if rank == 0:
        raise Unsupported("pairwise_distance of 0-d tensors")
    attrs = (f"p = {order} : f64, " if order is not None else "") + \
        f"dim = {_array([rank - 1])}" + (", keepdim = true" if keepdim else "")
    return tr.emit("norm", [diff], shape, elt, attrs)


# --- convolutions -------------------------------------------------------------

def _conv(tr, node, x, weight, bias, stride, padding, dilation=1,
          transposed=False, output_padding=0, groups=1):
    n = _value(tr, weight).rank - 2

    def each(v):
        v = [int(v)] if isinstance(v, int) else [int(i) for i in v]
        return v * n if len(v) == 1 else v
    return HANDLERS["convolution"](
        tr, node, x, weight, bias, each(stride), each(padding),
        each(dilation), transposed, each(output_padding), int(groups))


@handles("slow_conv3d", "slow_conv3d_forward", "thnn_conv2d",
         "_slow_conv2d_forward")
def _slow_conv(tr, node, x, weight, kernel_size, bias=None, stride=1,
               padding=0):
    return _conv(tr, node, x, weight, bias, stride, padding)


@handles("slow_conv_dilated2d", "slow_conv_dilated3d")
def _slow_conv_dilated(tr, node, x, weight, kernel_size, bias=None,
                       stride=1, padding=0, dilation=1):
    return _conv(tr, node, x, weight, bias, stride, padding, dilation)


@handles("slow_conv_transpose2d", "slow_conv_transpose3d")
def _slow_conv_transpose(tr, node, x, weight, kernel_size, bias=None,
                         stride=1, padding=0, output_padding=0, dilation=1):
    return _conv(tr, node, x, weight, bias, stride, padding, dilation, True,
                 output_padding)


@handles("_addmm_activation")
def _addmm_activation(tr, node, x, mat1, mat2, beta=1, alpha=1,
                      use_gelu=False):
    """addmm (tp.addmm: autocast as eager's) then relu, or gelu (erf)."""
    from .arithmetic_ops import _add_product
    out = _add_product(tr, node, x, mat1, mat2, beta, alpha, op="addmm")
    if use_gelu:
        return tr.emit("gelu", [out], out.shape, out.elt)
    return tr.emit("relu", [out], out.shape, out.elt)


# --- element-wise and reductions ----------------------------------------------

@handles("aminmax")
def _aminmax(tr, node, x, dim=None, keepdim=False):
    """(min, max) over `dim` (all when absent)."""
    c = Composer(tr)
    x = _value(tr, x)
    dims = [] if dim is None or dim == [] else (
        [dim] if isinstance(dim, int) else list(dim))
    dims = [_dim(d, x.rank) % max(x.rank, 1) for d in dims]
    neg = c.unary("neg", x)
    return (c.unary("neg", c.reduce("amax", neg, dims, keepdim)),
            c.reduce("amax", x, dims, keepdim))


@handles("_aminmax")
def _aminmax_private(tr, node, x, dim=None, keepdim=False):
    return _aminmax(tr, node, x, dim, keepdim)


def _float_only(name, fn):
    def handler(tr, node, x):
        x = _value(tr, x)
        if x.elt not in dtypes.FLOATING:
            raise Unsupported(f"{name} of a {x.elt} tensor")
        return fn(Composer(tr), x)
    return handler


# cot = cos / sin (tan and reciprocal are in the tables; cos, sin and div
# are not); sec = 1 / cos.
HANDLERS["cot"] = _float_only(
    "cot", lambda c, x: c.div(c.unary("cos", x), c.unary("sin", x)))
HANDLERS["sec"] = _float_only(
    "sec", lambda c, x: c.div(c.tr.constant(1.0, x.elt), c.unary("cos", x)))


def _shift(sign):
    def handler(tr, node, x, dim=None):
        x = _value(tr, x)
        dims = list(range(x.rank)) if dim is None else (
            [dim] if isinstance(dim, int) else list(dim))
        dims = [_dim(d, x.rank) % x.rank for d in dims]
        shifts = [sign * (x.shape[d] // 2) for d in dims]
        return HANDLERS["roll"](tr, node, x, shifts, dims)
    return handler


HANDLERS["fft_fftshift"] = _shift(1)
HANDLERS["fft_ifftshift"] = _shift(-1)


# --- factories of constants ---------------------------------------------------

def _constant(tr, node, values):
    shape, elt = _result(node)
    values = np.asarray(values, np.float64).reshape(-1)
    if tuple(shape) != (values.size,):
        raise Unsupported(f"{values.size} values for a result of shape "
                          f"{shape}")
    if elt not in dtypes.FLOATING:
        raise Unsupported(f"a {elt} result")
    if values.size == 0:
        raise Unsupported("an empty result")
    return tr.dense(values.tolist(), elt, (values.size,))


def _window(formula):
    def handler(tr, node, window_length, periodic=True, *rest, **kwargs):
        n = int(window_length)
        if n == 1:
            return _constant(tr, node, [1.0])
        width = n if periodic else n - 1
        k = np.arange(n, dtype=np.float64)
        numbers = [a for a in rest if isinstance(a, (int, float))
                   and not isinstance(a, bool)]
        return _constant(tr, node, formula(k, width, numbers))
    return handler


def _hamming(k, width, numbers):
    alpha, beta = (list(numbers) + [0.54, 0.46][len(numbers):])[:2]
    return alpha - beta * np.cos(2 * math.pi * k / width)


HANDLERS["hann_window"] = _window(
    lambda k, w, _: 0.5 - 0.5 * np.cos(2 * math.pi * k / w))
HANDLERS["hamming_window"] = _window(_hamming)
HANDLERS["blackman_window"] = _window(
    lambda k, w, _: 0.42 - 0.5 * np.cos(2 * math.pi * k / w)
    + 0.08 * np.cos(4 * math.pi * k / w))
HANDLERS["bartlett_window"] = _window(
    lambda k, w, _: 1 - np.abs(2 * k / w - 1))


@handles("kaiser_window")
def _kaiser_window(tr, node, window_length, periodic=True, beta=12.0,
                   **kwargs):
    n = int(window_length)
    if n == 1:
        return _constant(tr, node, [1.0])
    width = n if periodic else n - 1
    k = np.arange(n, dtype=np.float64)
    ratio = np.clip(1 - (2 * k / width - 1) ** 2, 0, None)
    return _constant(tr, node, np.i0(float(beta) * np.sqrt(ratio))
                     / np.i0(float(beta)))


def _numbers(*values):
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
               for v in values):
        raise Unsupported("bounds that are not Python numbers")
    return [float(v) for v in values]


def _linspace_values(start, end, steps):
    """Eager's linspace: start + i step in the first half, end - (steps - 1
    - i) step in the second (symmetric rounding)."""
    steps = int(steps)
    if steps == 1:
        return np.array([start])
    step = (end - start) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    return np.where(i < steps // 2, start + i * step,
                    end - (steps - 1 - i) * step)


@handles("linspace")
def _linspace(tr, node, start, end, steps, **kwargs):
    start, end = _numbers(start, end)
    return _constant(tr, node, _linspace_values(start, end, steps))


@handles("logspace")
def _logspace(tr, node, start, end, steps, base=10.0, **kwargs):
    start, end, base = _numbers(start, end, base)
    return _constant(tr, node, base ** _linspace_values(start, end, steps))


@handles("range")
def _range(tr, node, start, end, step=1, **kwargs):
    """start, start + step, ... up to and including end (deprecated
    torch.range)."""
    start, end, step = _numbers(start, end, step)
    if step == 0:
        raise Unsupported("range with step 0")
    count = int(math.floor((end - start) / step)) + 1
    return _constant(tr, node, start + np.arange(max(count, 0)) * step)


def _frequencies(real):
    def handler(tr, node, n, d=1.0, **kwargs):
        n, (d,) = int(n), _numbers(d)
        if real:
            k = np.arange(n // 2 + 1, dtype=np.float64)
        else:
            k = np.concatenate([np.arange((n - 1) // 2 + 1),
                                -np.arange(n // 2, 0, -1)]).astype(np.float64)
        return _constant(tr, node, k / (n * d))
    return handler


HANDLERS["fft_fftfreq"] = _frequencies(False)
HANDLERS["fft_rfftfreq"] = _frequencies(True)


@handles("_safe_softmax")
def _safe_softmax(tr, node, x, dim, dtype=None):
    """softmax, with 0 (not NaN) along the slices that are -inf
    throughout (attention rows every key of which is masked)."""
    c = Composer(tr)
    x = _value(tr, x)
    shape, elt = _result(node)
    if dtype is not None and elt != x.elt:
        x = tr.cast(x, elt)
    d = _dim(dim, x.rank) % max(x.rank, 1)
    soft = tr.emit("softmax", [x], x.shape, x.elt, f"dim = {d} : i64")
    live = c.binary("gt", c.reduce("amax", x, [d], True), float("-inf"))
    return c.where(live, soft, 0.0)


def _vector_norm(tr, node, x, ord, dims, keepdim, dtype):
    return HANDLERS["norm"](tr, node, x, ord, dims, keepdim, dtype)


@handles("linalg_norm")
def _linalg_norm(tr, node, x, ord=None, dim=None, keepdim=False,
                 dtype=None):
    """Vector norms (ord a number over one dim, or None over any dims) and
    the Frobenius norm of matrices; the other matrix norms (nuclear, the
    induced ones) are refused."""
    x = _value(tr, x)
    dims = None if dim is None else ([dim] if isinstance(dim, int)
                                     else list(dim))
    if ord is None or ord == "fro" and (dims is None or len(dims) == 2) \
            and (dims is not None or x.rank == 2):
        return _vector_norm(tr, node, x, 2, dims, keepdim, dtype)
    if isinstance(ord, (int, float)) and dims is not None and len(dims) == 1:
        return _vector_norm(tr, node, x, ord, dims, keepdim, dtype)
    if isinstance(ord, (int, float)) and dims is None and x.rank == 1:
        return _vector_norm(tr, node, x, ord, None, keepdim, dtype)
    raise Unsupported(f"linalg.norm ord={ord!r} over {dims or x.rank} dims "
                      "(a matrix norm other than 'fro')")


@handles("linalg_matrix_norm")
def _linalg_matrix_norm(tr, node, x, ord="fro", dim=(-2, -1),
                        keepdim=False, dtype=None):
    if ord != "fro":
        raise Unsupported(f"matrix norm ord={ord!r}")
    return _vector_norm(tr, node, _value(tr, x), 2, list(dim), keepdim,
                        dtype)


@handles("_masked_scale")
def _masked_scale(tr, node, x, mask, scale):
    """x * mask * scale (dropout's kept elements, rescaled)."""
    c = Composer(tr)
    x = _value(tr, x)
    return c.mul(c.mul(x, tr.cast(_value(tr, mask), x.elt)), float(scale))


@handles("_neg_view", "_neg_view_copy")
def _neg_view(tr, node, x):
    x = _value(tr, x)
    return tr.emit("neg", [x], x.shape, x.elt)


@handles("unfold_copy")
def _unfold_copy(tr, node, x, dimension, size, step):
    return HANDLERS["unfold"](tr, node, x, dimension, size, step)


@handles("_pdist_forward")
def _pdist_forward(tr, node, x, p=2.0):
    return HANDLERS["pdist"](tr, node, x, p)


@handles("_dim_arange")
def _dim_arange(tr, node, like, dim):
    """0, 1, ..., like.size(dim) - 1 (int64)."""
    like = _value(tr, like)
    n = like.shape[_dim(dim, like.rank) % max(like.rank, 1)]
    shape, elt = _result(node)
    return tr.dense(list(range(n)), elt, (n,))


@handles("_shape_as_tensor")
def _shape_as_tensor(tr, node, x):
    x = _value(tr, x)
    shape, elt = _result(node)
    if not x.shape:
        raise Unsupported("the shape of a 0-d tensor (an empty tensor)")
    return tr.dense(list(x.shape), elt, (x.rank,))


@handles("flatten_dense_tensors")
def _flatten_dense_tensors(tr, node, tensors):
    """The tensors flattened and concatenated (DDP's buckets)."""
    c = Composer(tr)
    parts = [_value(tr, t) for t in tensors]
    if len({t.elt for t in parts}) != 1:
        raise Unsupported("flatten_dense_tensors of several dtypes")
    flat = [c.reshape(t, (math.prod(t.shape),)) for t in parts]
    return c.cat(flat, 0) if len(flat) > 1 else flat[0]


@handles("unflatten_dense_tensors")
def _unflatten_dense_tensors(tr, node, flat, tensors):
    """flat cut back into the tensors' shapes."""
    c = Composer(tr)
    flat = _value(tr, flat)
    parts, at = [], 0
    for t in tensors:
        t = _value(tr, t)
        n = math.prod(t.shape)
        parts.append(c.reshape(c.slice(flat, 0, at, at + n), t.shape))
        at += n
    if at != flat.shape[0]:
        raise Unsupported(f"{flat.shape[0]} values for {at} entries")
    return tuple(parts)


@handles("_index_put_impl_")
def _index_put_impl_(tr, node, x, indices, values, accumulate=False,
                     unsafe=False):
    """index_put, in place."""
    return tr.write_back(_value(tr, x), HANDLERS["index_put"](
        tr, node, x, indices, values, accumulate))


@handles("_masked_softmax")
def _masked_softmax(tr, node, x, mask, dim=None, mask_type=None):
    """softmax with the entries where mask is true left out, 0 along the
    slices masked throughout; mask_type 1 is a key padding mask (B, S) of a
    (B, H, L, S) input."""
    c = Composer(tr)
    x, mask = _value(tr, x), _value(tr, mask)
    d = x.rank - 1 if dim is None else _dim(dim, x.rank) % x.rank
    if mask_type == 1:
        if x.rank != 4 or mask.shape != (x.shape[0], x.shape[3]):
            raise Unsupported(f"a key padding mask {mask.shape} for "
                              f"{x.shape}")
        mask = c.reshape(mask, (x.shape[0], 1, 1, x.shape[3]))
    masked = c.where(mask, float("-inf"), x)
    soft = tr.emit("softmax", [masked], x.shape, x.elt, f"dim = {d} : i64")
    live = c.binary("gt", c.reduce("amax", masked, [d], True), float("-inf"))
    return c.where(live, soft, 0.0)


@handles("embedding_renorm_")
def _embedding_renorm_(tr, node, x, indices, max_norm, norm_type):
    """In place: the rows `indices` names whose norm exceeds max_norm
    scaled by max_norm / (norm + 1e-7), as eager (F.embedding's
    max_norm)."""
    c = Composer(tr)
    x, indices = _value(tr, x), _value(tr, indices)
    if x.rank != 2:
        raise Unsupported(f"embedding_renorm_ of a rank-{x.rank} weight")
    rows = x.shape[0]
    flat = c.reshape(indices, (1, math.prod(indices.shape)))
    ids = c.reshape(tr.dense(list(range(rows)), indices.elt, (rows,)),
                    (rows, 1))
    named = c.binary("gt", c.reduce("amax", c.where(
        c.binary("eq", ids, flat), 1.0, 0.0, elt="f32"), [1], True), 0.0)
    from .arithmetic_ops import _norm_p
    order = _norm_p(float(norm_type))
    norms = tr.emit("norm", [x], (rows, 1), x.elt,
                    (f"p = {order} : f64, " if order is not None else "")
                    + "dim = array<i64: 1>, keepdim = true")
    over = c.both(named, c.binary("gt", norms, float(max_norm)))
    scale = c.where(over, c.div(float(max_norm), c.add(norms, 1e-7)), 1.0)
    return tr.write_back(x, c.mul(x, scale))
