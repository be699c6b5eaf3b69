"""Handlers for the products with an addend (addmm, baddbmm, addmv, addr,
addbmm), the plain vector products (mv, dot), the pointwise combinations
(addcmul, addcdiv, atan2, prelu) and the reductions along or over
dimensions (cumsum, cumprod, prod, amax, trace, cosine_similarity, norm, dist): one tp op each, in
both the functional form (1.0) and the operator form (1.1's OpOverloads,
whose parameters carry the same names). Parameters are named after the
operators' schemas, which is how binding.py gives them their arguments.
"""

import math

from . import dtypes
from .ops import (HANDLERS, Unsupported, _array, _dim, _f64_literal,
                  _operand, _result, _value, canonical_name, f64_attr)


def _add_product(tr, node, x, lhs, rhs, beta=1, alpha=1, op=None):
    """tp.<op> (the node's own name by default: addmm, baddbmm, ...)."""
    shape, elt = _result(node)
    operands = [_value(tr, x), _value(tr, lhs), _value(tr, rhs)]
    if len({v.elt for v in operands}) != 1:
        raise Unsupported("operands of different dtypes")
    return tr.emit(op or canonical_name(node), operands, shape, elt,
                   f"{f64_attr('beta', beta)}, "
                   f"{f64_attr('alpha', alpha)}")


def _addmm(tr, node, x, mat1, mat2, beta=1, alpha=1):
    return _add_product(tr, node, x, mat1, mat2, beta, alpha)


def _baddbmm(tr, node, x, batch1, batch2, beta=1, alpha=1):
    return _add_product(tr, node, x, batch1, batch2, beta, alpha)


def _addmv(tr, node, x, mat, vec, beta=1, alpha=1):
    return _add_product(tr, node, x, mat, vec, beta, alpha)


def _addr(tr, node, x, vec1, vec2, beta=1, alpha=1):
    return _add_product(tr, node, x, vec1, vec2, beta, alpha)


HANDLERS["addmm"] = _addmm
HANDLERS["baddbmm"] = HANDLERS["addbmm"] = _baddbmm
HANDLERS["addmv"] = _addmv
HANDLERS["addr"] = _addr


def _product(tr, node, a, b):
    shape, elt = _result(node)
    a, b = _value(tr, a), _value(tr, b)
    if a.elt != b.elt:
        raise Unsupported("operands of different dtypes")
    return tr.emit(canonical_name(node), [a, b], shape, elt)


def _mv(tr, node, x, vec):
    return _product(tr, node, x, vec)


def _dot(tr, node, x, tensor):
    return _product(tr, node, x, tensor)


HANDLERS["mv"] = _mv
HANDLERS["dot"] = _dot


def _addc(tr, node, x, tensor1, tensor2, value=1):
    shape, elt = _result(node)
    operands = [_value(tr, x), _value(tr, tensor1), _value(tr, tensor2)]
    return tr.emit(canonical_name(node), operands, shape, elt,
                   f64_attr("value", value))


HANDLERS["addcmul"] = HANDLERS["addcdiv"] = _addc


def _atan2(tr, node, x, other):
    shape, elt = _result(node)
    a = _operand(tr, x, other)
    return tr.emit("atan2", [a, _operand(tr, other, a)], shape, elt)


def _prelu(tr, node, x, weight):
    shape, elt = _result(node)
    x, weight = _value(tr, x), _value(tr, weight)
    # _prelu_kernel takes the weight already shaped to broadcast (C, 1,
    # ...); tp.prelu a weight per channel or one for all.
    if weight.rank != 1:
        raise Unsupported(f"a prelu weight of shape {list(weight.shape)}")
    return tr.emit("prelu", [x, weight], shape, elt)


HANDLERS["atan2"] = _atan2
HANDLERS["prelu"] = HANDLERS["_prelu_kernel"] = _prelu


def _dtype_attr(dtype):
    """`, dtype = f32` for a dtype argument, '' for none (None, or the
    schema default 'Undefined' of 1.1's prod)."""
    if dtype is None or dtype == "Undefined":
        return ""
    return f", dtype = {dtypes.mlir_type(dtype)}"


def _cumulative(tr, node, x, dim, dtype=None):
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), [x], shape, elt,
                   f"dim = {_dim(dim, x.rank)} : i64{_dtype_attr(dtype)}")


HANDLERS["cumsum"] = HANDLERS["cumprod"] = _cumulative


def _prod(tr, node, x, dim=None, keepdim=False, dtype=None):
    x = _value(tr, x)
    shape, elt = _result(node)
    attrs = [f"keepdim = {'true' if keepdim else 'false'}"]
    if isinstance(dim, (list, tuple)):
        # prod.dim_IntList: tp.prod reduces one dimension or all.
        if len(dim) != 1:
            raise Unsupported(f"prod over dimensions {list(dim)}")
        dim = dim[0]
    if dim is not None:
        attrs.append(f"dim = {_dim(dim, x.rank)} : i64")
    return tr.emit("prod", [x], shape, elt,
                   ", ".join(attrs) + _dtype_attr(dtype))


HANDLERS["prod"] = _prod


def _amax(tr, node, x, dim=(), keepdim=False):
    x = _value(tr, x)
    shape, elt = _result(node)
    dims = [dim] if isinstance(dim, int) else list(dim or [])
    dims = [_dim(d, x.rank) % max(x.rank, 1) for d in dims] or \
        list(range(x.rank))
    return tr.emit(canonical_name(node), [x], shape, elt,
                   f"dim = {_array(dims)}, "
                   f"keepdim = {'true' if keepdim else 'false'}")


HANDLERS["amax"] = _amax


def _trace(tr, node, x):
    x = _value(tr, x)
    if x.rank != 2:
        raise Unsupported("trace of a tensor that is not 2-D")
    shape, elt = _result(node)
    return tr.emit("trace", [x], shape, elt)


HANDLERS["trace"] = _trace


def _cosine_similarity(tr, node, x1, x2, dim=1, eps=1e-8):
    x1, x2 = _value(tr, x1), _value(tr, x2)
    shape, elt = _result(node)
    rank = max(x1.rank, x2.rank)
    return tr.emit("cosine_similarity", [x1, x2], shape, elt,
                   f"dim = {_dim(dim, rank)} : i64, {f64_attr('eps', eps)}")


HANDLERS["cosine_similarity"] = _cosine_similarity


def _norm_p(p):
    """The f64 attribute text of a vector norm order (+-inf included)."""
    if p in (None, "fro"):
        return None
    if isinstance(p, bool) or not isinstance(p, (int, float)) or \
            math.isnan(p):
        raise Unsupported(f"norm p={p!r}")
    return _f64_literal(p)


def _norm(tr, node, x, p="fro", dim=None, keepdim=False, dtype=None):
    """tensorplay.norm / Tensor.norm as a vector norm over `dim` (all when
    absent); 'fro' is the 2-norm of the flattened dims, 'nuc' refused."""
    x = _value(tr, x)
    shape, elt = _result(node)
    if isinstance(p, (list, tuple)) and dim is None or \
            isinstance(dim, float):
        # 1.0's Tensor.norm(dim, p=2.0, keepdim) overload, positionally.
        p, dim = (2.0 if dim is None else dim), p
    attrs = []
    order = _norm_p(p)
    if order is not None:
        attrs.append(f"p = {order} : f64")
    if dim is not None:
        dims = [dim] if isinstance(dim, int) else list(dim)
        if dims:
            attrs.append(f"dim = "
                         f"{_array([_dim(d, x.rank) % x.rank for d in dims])}")
    attrs.append(f"keepdim = {'true' if keepdim else 'false'}")
    return tr.emit("norm", [x], shape, elt,
                   ", ".join(attrs) + _dtype_attr(dtype))


HANDLERS["norm"] = _norm


def _dist(tr, node, x, other, p=2):
    a = _value(tr, x)
    b = _operand(tr, other, a)
    shape, elt = _result(node)
    order = _norm_p(p)
    return tr.emit("dist", [a, b], shape, elt,
                   f"p = {order} : f64" if order is not None else "")


HANDLERS["dist"] = _dist


def _tensordot(tr, node, x, other, dims=2, dims_self=None, dims_other=None):
    """tensordot as eager computes it: both operands permuted and reshaped
    to matrices and one mm, so autocast decides the product as it does
    eager's (a single tp.tensordot is not in the policy tables). `dims`:
    an int (the last `dims` of x with the first of other) or two lists;
    1.1's operator form names the lists."""
    a, b = _value(tr, x), _value(tr, other)
    if dims_self is None:
        if isinstance(dims, int) and not isinstance(dims, bool):
            dims_self = list(range(a.rank - dims, a.rank))
            dims_other = list(range(dims))
        elif isinstance(dims, (list, tuple)) and len(dims) == 2:
            dims_self, dims_other = dims
            if isinstance(dims_self, int):
                dims_self, dims_other = [dims_self], [dims_other]
        else:
            raise Unsupported(f"tensordot dims={dims!r}")
    dims_self = [_dim(d, a.rank) % max(a.rank, 1) for d in dims_self]
    dims_other = [_dim(d, b.rank) % max(b.rank, 1) for d in dims_other]
    if len(dims_self) != len(dims_other) or any(
            a.shape[i] != b.shape[j] for i, j in zip(dims_self, dims_other)):
        raise Unsupported("tensordot over dimensions of different sizes")
    if a.elt != b.elt:
        raise Unsupported("tensordot of different dtypes")
    free_a = [d for d in range(a.rank) if d not in dims_self]
    free_b = [d for d in range(b.rank) if d not in dims_other]

    def matrix(v, order, rows, cols):
        shape = tuple(v.shape[d] for d in order)
        if order != list(range(v.rank)):
            v = tr.emit("permute", [v], shape, v.elt,
                        f"dims = {_array(order)}")
        return tr.emit("reshape", [v], (rows, cols), v.elt,
                       f"shape = {_array([rows, cols])}")

    def size(v, ds):
        return math.prod(v.shape[d] for d in ds)
    m, k, n = size(a, free_a), size(a, dims_self), size(b, free_b)
    product = tr.emit("mm", [matrix(a, free_a + dims_self, m, k),
                             matrix(b, dims_other + free_b, k, n)],
                      (m, n), a.elt)
    shape, elt = _result(node)
    return tr.emit("reshape", [product], shape, elt,
                   f"shape = {_array(list(shape))}")


HANDLERS["tensordot"] = _tensordot
