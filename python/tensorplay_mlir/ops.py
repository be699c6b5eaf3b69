"""Graph targets -> tp ops, one handler per canonical target name.

A target arrives as a function (``tensorplay.nn.functional.linear``,
``operator.add``, ``tensorplay.functional.exp``), a method name (``'exp'``,
``'view'``) or, in tensorplay 1.1's operator graphs, an OpOverload
(``tp.linear.default``); :func:`canonical_name` maps all of them to one name
('linear', 'add', 'exp'), so that each op is written once. A handler gets
the translator, the node and its resolved arguments (Values for tensors) and
returns the node's Value (or a Python value); it raises UnsupportedNode (or
TypeError/ValueError, which the translator reports the same way) for
arguments the tp op cannot express.
"""

import math
import operator

from . import dtypes

HANDLERS = {}

_OPERATOR_NAMES = {
    operator.add: "add", operator.iadd: "add", operator.sub: "sub",
    operator.isub: "sub", operator.mul: "mul", operator.imul: "mul",
    operator.truediv: "truediv", operator.itruediv: "truediv",
    operator.neg: "neg", operator.matmul: "matmul", operator.getitem:
    "getitem", operator.pow: "pow", operator.eq: "eq", operator.ne: "ne",
    operator.lt: "lt", operator.le: "le", operator.gt: "gt", operator.ge: "ge",
    operator.floordiv: "floordiv", operator.setitem: "setitem",
}

# Method and function spellings of the same op.
_ALIASES = {"div": "truediv", "divide": "truediv", "multiply": "mul",
            "subtract": "sub", "absolute": "abs", "true_divide": "truediv",
            "_softmax": "softmax", "_log_softmax": "log_softmax",
            "greater": "gt", "greater_equal": "ge", "less": "lt",
            "less_equal": "le", "not_equal": "ne", "clip": "clamp",
            # tensorplay 1.0's functional forms of losses (tensorplay.
            # functional.tp_*: reduction as aten's enum).
            "tp_soft_margin_loss": "soft_margin_loss",
            "tp_hinge_embedding_loss": "hinge_embedding_loss",
            "tp_margin_ranking_loss": "margin_ranking_loss",
            "tp_kl_div": "kl_div", "tp_l1_loss": "l1_loss",
            "tp_cosine_embedding_loss": "cosine_embedding_loss",
            "tp_poisson_nll_loss": "poisson_nll_loss"}


def _is_tensorplay_builtin(target, name):
    """tensorplay's C++ functions (``tensorplay.full``, ``zeros``, ``ones``)
    carry no ``__module__``: they are tensorplay's when the package exports
    them under their name."""
    import tensorplay
    return getattr(tensorplay, name, None) is target


def canonical_name(node):
    target = node.target
    if isinstance(target, str):
        name = target
    elif target in _OPERATOR_NAMES:
        name = _OPERATOR_NAMES[target]
    elif hasattr(target, "_opname") and hasattr(target, "_overloadname"):
        # An OpOverload of tensorplay 1.1's operator graphs (tp.nll_loss.
        # default): its own handler ('op.nll_loss') where the operator's
        # signature differs from the functional form's.
        name = _ALIASES.get(target._opname, target._opname)
        return "op." + name if "op." + name in HANDLERS else name
    else:
        name = getattr(target, "__name__", None) or str(target)
        module = getattr(target, "__module__", "") or ""
        if not (module.startswith("tensorplay") or
                module in ("builtins", "_operator") or
                _is_tensorplay_builtin(target, name)):
            return f"{module}.{name}"
    return _ALIASES.get(name, name)


def handler_for(node):
    """(handler, in_place) for `node`, or (None, False). An in-place form
    (``x.add_(1)``, ``tp.add_.Tensor``, ``tp.__iand__.Tensor``) the
    translator has no handler of its own for is its out-of-place op whose
    result is written back to its first argument (Translator.write_back)."""
    name = canonical_name(node)
    handler = HANDLERS.get(name)
    if handler is not None:
        return handler, False
    bare = name[3:] if name.startswith("op.") else name
    if bare.startswith("__i") and bare.endswith("__"):
        # Python's augmented operators (__iand__ of x &= y): __and__.
        handler = HANDLERS.get("__" + bare[3:])
        if handler is not None:
            return handler, True
    if bare.endswith("_") and not bare.endswith("__"):
        base = _ALIASES.get(bare[:-1], bare[:-1])
        handler = HANDLERS.get("op." + base) or HANDLERS.get(base)
        if handler is not None:
            return handler, True
    return None, False


def handles(*names):
    def register(fn):
        for name in names:
            HANDLERS[name] = fn
        return fn
    return register


class Unsupported(ValueError):
    pass


def _value(tr, x):
    from .translate import Value
    if not isinstance(x, Value):
        raise Unsupported(f"expected a tensor, got {type(x).__name__}")
    return x


def operands_with(tr, leading, **optional):
    """(operands, operand text) of a tp op with optional operands: the
    `leading` Values, then each keyword operand that is present, written
    `name(%v)` in the order given (the op's assembly order)."""
    operands = list(leading)
    text = ", ".join(v.ssa for v in operands)
    for name, v in optional.items():
        if v is not None:
            v = _value(tr, v)
            operands.append(v)
            text += f" {name}({v.ssa})"
    return operands, text


def cast_to_parts(tr, node, values):
    """The results of a tuple-valued node, each cast to the dtype its
    getitem user records (None where nothing uses it)."""
    parts = []
    for i, v in enumerate(values):
        meta = tr.meta_of(node, i)
        parts.append(tr.cast(v, meta[1]) if meta and v is not None else None)
    return tuple(parts)


def _is_value(x):
    from .translate import Value
    return isinstance(x, Value)


def _result(node):
    from .translate import Translator
    return Translator.meta_of(node)


def _scalar_elt(x, tensor):
    """The element type of the 0-d constant for Python scalar `x` beside
    `tensor`: a wrapped number never changes a tensor's dtype in PyTorch's
    promotion, so floats become f32 (f64 beside f64: the value keeps full
    precision beside a bf16 or f16 tensor, as eager's opmath does) and ints
    take an integer tensor's type."""
    if isinstance(x, bool):
        return "i1" if tensor is None or tensor.elt == "i1" else tensor.elt
    if isinstance(x, float) or (tensor is not None and tensor.elt in
                                dtypes.FLOATING):
        return "f64" if tensor is not None and tensor.elt == "f64" else "f32"
    return tensor.elt if tensor is not None else "i64"


def _operand(tr, x, other):
    if _is_value(x):
        return x
    if isinstance(x, (bool, int, float)):
        return tr.constant(x, _scalar_elt(x, other if _is_value(other)
                                          else None))
    raise Unsupported(f"operand of type {type(x).__name__}")


def _dim(d, rank):
    d = int(d)
    if not -rank <= d < max(rank, 1):
        raise Unsupported(f"dimension {d} out of range for rank {rank}")
    return d


# --- element-wise -----------------------------------------------------------

_UNARY = ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tanh", "sigmoid",
          "erf", "abs", "neg", "relu", "silu", "reciprocal", "log1p", "expm1",
          "log2", "log10", "tan", "asin", "acos", "sinh", "cosh", "erfinv",
          "atan", "asinh", "acosh", "atanh"]


def _unary(op):
    def handler(tr, node, x, *rest, **kwargs):
        x = _value(tr, x)
        kwargs.pop("inplace", None)
        if rest and not (op == "relu" and rest == (False,)):
            raise Unsupported(f"extra arguments {rest}")
        if kwargs:
            raise Unsupported(f"keyword arguments {sorted(kwargs)}")
        shape, elt = _result(node)
        return tr.emit(op, [x], shape, elt)
    return handler


for _op in _UNARY:
    HANDLERS[_op] = _unary(_op)


@handles("gelu")
def _gelu(tr, node, x, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise Unsupported(f"approximate='{approximate}'")
    shape, elt = _result(node)
    attrs = "approximate = #tp.approximate<tanh>" if approximate == "tanh" \
        else ""
    return tr.emit("gelu", [_value(tr, x)], shape, elt, attrs)


@handles("softplus")
def _softplus(tr, node, x, beta=1.0, threshold=20.0):
    from .translate import format_float
    shape, elt = _result(node)
    attrs = []
    if beta != 1:
        attrs.append(f"beta = {format_float(beta)} : f64")
    if threshold != 20:
        attrs.append(f"threshold = {format_float(threshold)} : f64")
    return tr.emit("softplus", [_value(tr, x)], shape, elt, ", ".join(attrs))


_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "div",
           "maximum": "maximum", "minimum": "minimum"}


def _binary(op):
    def handler(tr, node, a, b, *rest, **kwargs):
        # Operator forms pass alpha (add, sub) or rounding_mode (div)
        # positionally: add.Scalar(x, 1.0, 1).
        if rest:
            if len(rest) > 1 or op not in ("add", "sub", "div"):
                raise Unsupported(f"extra arguments {rest}")
            kwargs["rounding_mode" if op == "div" else "alpha"] = rest[0]
        alpha = kwargs.pop("alpha", 1)
        rounding_mode = kwargs.pop("rounding_mode", None)
        if rounding_mode is not None and not kwargs:
            from .rounding_ops import rounded_division
            if not _is_value(a) or (op != "div"):
                raise Unsupported("rounding_mode")
            return rounded_division(tr, a, _operand(tr, b, a), rounding_mode)
        if kwargs:
            raise Unsupported(f"keyword arguments {sorted(kwargs)}")
        if not _is_value(a) and not _is_value(b):
            return {"add": operator.add, "sub": operator.sub,
                    "mul": operator.mul, "div": operator.truediv,
                    "maximum": max, "minimum": min}[op](a, b)
        if alpha != 1:
            if not isinstance(alpha, (int, float)):
                raise Unsupported("alpha")
            b = _operand(tr, b, a)
            shape_b = b.shape
            b = tr.emit("mul", [b, tr.constant(alpha, _scalar_elt(alpha, b))],
                        shape_b, b.elt)
        a_val = _operand(tr, a, b)
        b_val = _operand(tr, b, a)
        shape, elt = _result(node)
        return tr.emit(op, [a_val, b_val], shape, elt)
    return handler


for _name, _op in _BINARY.items():
    HANDLERS[_name] = _binary(_op)


def _f64_literal(value):
    """An f64 attribute literal, +-inf and NaN in MLIR's hex form."""
    from .translate import format_float
    value = float(value)
    if math.isnan(value):
        return "0x7FF8000000000000"
    if math.isinf(value):
        return "0x7FF0000000000000" if value > 0 else "0xFFF0000000000000"
    return format_float(value)


def f64_attr(name, value):
    """`name = <value> : f64` for a Python number argument (finite: an
    infinite one is refused by format_float)."""
    from .translate import format_float
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Unsupported(f"{name}={value!r}: a number is needed")
    return f"{name} = {format_float(float(value))} : f64"


def _scalar_bound(x, bound, what):
    """`bound` as a tp f64 attribute value: a Python number, integral for
    an integer tensor (eager would promote the result to float)."""
    if not isinstance(bound, (int, float)) or isinstance(bound, bool):
        raise Unsupported(f"a tensor {what}")
    if x.elt not in dtypes.FLOATING and float(bound) != int(bound):
        raise Unsupported(f"a fractional {what} for an integer tensor")
    from .translate import format_float
    return format_float(bound)


@handles("clamp")
def _clamp(tr, node, x, min=None, max=None):
    """clamp with scalar bounds -> tp.clamp (NaN propagates, min > max
    gives max, as eager's clamp); tensor bounds -> maximum / minimum."""
    return _clamp_between(tr, node, x, min, max)


@handles("clamp_min")
def _clamp_min(tr, node, x, min):
    return _clamp_between(tr, node, x, min, None)


@handles("clamp_max")
def _clamp_max(tr, node, x, max):
    return _clamp_between(tr, node, x, None, max)


def _clamp_between(tr, node, x, lo, hi):
    x = _value(tr, x)
    if lo is None and hi is None:
        raise Unsupported("clamp without bounds")
    if _is_value(lo) or _is_value(hi):
        from .selection_ops import clamp_with_tensors
        return clamp_with_tensors(tr, node, x, lo, hi)
    shape, elt = _result(node)
    attrs = []
    if lo is not None:
        attrs.append(f"min = {_scalar_bound(x, lo, 'lower bound')} : f64")
    if hi is not None:
        attrs.append(f"max = {_scalar_bound(x, hi, 'upper bound')} : f64")
    return tr.emit("clamp", [x], shape, elt, ", ".join(attrs))


@handles("leaky_relu")
def _leaky_relu(tr, node, x, negative_slope=0.01, inplace=False):
    from .translate import format_float
    shape, elt = _result(node)
    return tr.emit("leaky_relu", [_value(tr, x)], shape, elt,
                   f"negative_slope = {format_float(negative_slope)} : f64")


@handles("hardswish")
def _hardswish(tr, node, x, inplace=False):
    shape, elt = _result(node)
    return tr.emit("hardswish", [_value(tr, x)], shape, elt)


@handles("fake_quantize_per_tensor_affine")
def _fake_quantize(tr, node, x, scale, zero_point, quant_min, quant_max):
    from .translate import format_float
    if _is_value(scale) or _is_value(zero_point):
        raise Unsupported("fake_quantize_per_tensor_affine with tensor "
                          "quantization parameters")
    shape, elt = _result(node)
    return tr.emit("fake_quantize_per_tensor_affine", [_value(tr, x)], shape,
                   elt, f"quant_max = {int(quant_max)} : i64, quant_min = "
                   f"{int(quant_min)} : i64, scale = "
                   f"{format_float(float(scale))} : f64, zero_point = "
                   f"{int(zero_point)} : i64")


def _comparison(op):
    def handler(tr, node, a, b):
        if not _is_value(a) and not _is_value(b):
            return {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt,
                    "le": operator.le, "gt": operator.gt,
                    "ge": operator.ge}[op](a, b)
        a_val, b_val = _operand(tr, a, b), _operand(tr, b, a)
        shape, elt = _result(node)
        return tr.emit(op, [a_val, b_val], shape, elt)
    return handler


for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    HANDLERS[_op] = _comparison(_op)


@handles("logical_not")
def _logical_not(tr, node, x):
    """x == 0 (false for booleans)."""
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit("eq", [x, tr.constant(0, x.elt)], shape, elt)


@handles("floordiv")
def _floordiv(tr, node, a, b):
    """Python integer arithmetic on sizes (``d // heads``); tensors are
    refused (tp has no floor division)."""
    if _is_value(a) or _is_value(b):
        raise Unsupported("floor division of tensors")
    return a // b


@handles("where")
def _where(tr, node, condition, x, y):
    condition = _value(tr, condition)
    if condition.elt != "i1":
        raise Unsupported("a non-bool condition")
    x_val, y_val = _operand(tr, x, y), _operand(tr, y, x)
    shape, elt = _result(node)
    return tr.emit("where", [condition, x_val, y_val], shape, elt)


@handles("masked_fill")
def _masked_fill(tr, node, x, mask, value):
    x, mask = _value(tr, x), _value(tr, mask)
    if mask.elt != "i1":
        raise Unsupported("a non-bool mask")
    if _is_value(value):
        raise Unsupported("a tensor fill value")
    if not isinstance(value, (int, float)):
        raise Unsupported(f"a fill value of type {type(value).__name__}")
    if x.elt not in dtypes.FLOATING and not math.isfinite(value):
        raise Unsupported("a non-finite fill value for an integer tensor")
    shape, elt = _result(node)
    return tr.emit("masked_fill", [x, mask], shape, elt,
                   f"value = {_f64_literal(value)} : f64")


@handles("pow")
def _pow(tr, node, x, exponent):
    if not _is_value(x):
        raise Unsupported("a scalar base")
    shape, elt = _result(node)
    if isinstance(exponent, (int, float)) and not isinstance(exponent, bool):
        from .translate import format_float
        return tr.emit("pow", [x], shape, elt,
                       f"scalar_exponent = {format_float(exponent)} : f64")
    if _is_value(exponent):
        return tr.emit("pow", [x, exponent], shape, elt)
    raise Unsupported(f"an exponent of type {type(exponent).__name__}")


# --- products and layers ----------------------------------------------------

@handles("matmul", "mm", "bmm")
def _matmul(tr, node, a, b):
    shape, elt = _result(node)
    op = canonical_name(node)
    return tr.emit(op, [_value(tr, a), _value(tr, b)], shape, elt)


@handles("linear")
def _linear(tr, node, x, weight, bias=None):
    shape, elt = _result(node)
    x, weight = _value(tr, x), _value(tr, weight)
    if bias is None:
        return tr.emit("linear", [x, weight], shape, elt)
    bias = _value(tr, bias)
    return tr.emit("linear", [x, weight, bias], shape, elt,
                   operand_format=f"{x.ssa}, {weight.ssa} bias({bias.ssa})")


def _pair(v, n):
    if isinstance(v, (list, tuple)):
        if len(v) != n:
            raise Unsupported(f"expected {n} values, got {v}")
        return [int(i) for i in v]
    return [int(v)] * n


@handles("conv1d", "conv2d", "conv3d")
def _conv(tr, node, x, weight, bias=None, stride=1, padding=0, dilation=1,
          groups=1):
    op = canonical_name(node)
    n = int(op[-2])
    if isinstance(padding, str):
        raise Unsupported(f"padding='{padding}'")
    shape, elt = _result(node)
    x, weight = _value(tr, x), _value(tr, weight)
    attrs = (f"stride = {_array(_pair(stride, n))}, padding = "
             f"{_array(_pair(padding, n))}, dilation = "
             f"{_array(_pair(dilation, n))}, groups = {int(groups)} : i64")
    if bias is None:
        return tr.emit(op, [x, weight], shape, elt, attrs)
    bias = _value(tr, bias)
    return tr.emit(op, [x, weight, bias], shape, elt, attrs,
                   operand_format=f"{x.ssa}, {weight.ssa} bias({bias.ssa})")


def _array(values):
    from .translate import array_attr
    return array_attr(values)


def _pool_attrs(n, kernel_size, stride, padding, dilation=None):
    """The attributes shared by the pools (stride None or [] = the kernel)."""
    attrs = [f"kernel_size = {_array(_pair(kernel_size, n))}"]
    if stride is not None and not (isinstance(stride, (list, tuple))
                                   and len(stride) == 0):
        attrs.append(f"stride = {_array(_pair(stride, n))}")
    attrs.append(f"padding = {_array(_pair(padding, n))}")
    if dilation is not None:
        attrs.append(f"dilation = {_array(_pair(dilation, n))}")
    return attrs


def _max_pool_attrs(n, kernel_size, stride, padding, dilation, ceil_mode):
    attrs = _pool_attrs(n, kernel_size, stride, padding, dilation)
    if ceil_mode:
        attrs.append("ceil_mode = true")
    return ", ".join(attrs)


def _avg_pool_attrs(n, kernel_size, stride, padding, ceil_mode,
                    count_include_pad, divisor_override):
    attrs = _pool_attrs(n, kernel_size, stride, padding)
    if ceil_mode:
        attrs.append("ceil_mode = true")
    if not count_include_pad:
        attrs.append("count_include_pad = false")
    if divisor_override is not None:
        attrs.append(f"divisor_override = {int(divisor_override)} : i64")
    return ", ".join(attrs)


@handles("max_pool2d", "max_pool3d", "max_pool2d_with_indices",
         "max_pool3d_with_indices")
def _max_pool(tr, node, x, kernel_size, stride=None, padding=0, dilation=1,
              ceil_mode=False, return_indices=False):
    op = canonical_name(node)
    n = int(op[len("max_pool")])
    x = _value(tr, x)
    attrs = _max_pool_attrs(n, kernel_size, stride, padding, dilation,
                            ceil_mode)
    if not (return_indices or op.endswith("_with_indices")):
        shape, elt = _result(node)
        return tr.emit(f"max_pool{n}d", [x], shape, elt, attrs)
    meta = (_meta_of_part(node, 0) or _meta_of_part(node, 1))
    if meta is None:
        raise Unsupported("max pool indices whose results are not used")
    shape = meta[0]
    return tuple(tr.emit_multi(f"max_pool{n}d_with_indices", [x],
                               [(shape, x.elt), (shape, "i64")], attrs))


def _meta_of_part(node, index):
    from .translate import Translator
    return Translator.meta_of(node, index)


@handles("avg_pool2d", "avg_pool3d")
def _avg_pool(tr, node, x, kernel_size, stride=None, padding=0,
              ceil_mode=False, count_include_pad=True, divisor_override=None):
    op = canonical_name(node)
    n = int(op[len("avg_pool")])
    shape, elt = _result(node)
    attrs = _avg_pool_attrs(n, kernel_size, stride, padding, ceil_mode,
                            count_include_pad, divisor_override)
    return tr.emit(op, [_value(tr, x)], shape, elt, attrs)


@handles("max_pool2d_with_indices_backward",
         "max_pool3d_with_indices_backward")
def _max_pool_backward(tr, node, grad, x, kernel_size, stride, padding,
                       dilation, ceil_mode, indices):
    """tensorplay 1.1's backward graphs: aten's signature."""
    op = canonical_name(node)
    n = int(op[len("max_pool")])
    shape, elt = _result(node)
    attrs = _max_pool_attrs(n, kernel_size, stride, padding, dilation,
                            ceil_mode)
    return tr.emit(op, [_value(tr, grad), _value(tr, x), _value(tr, indices)],
                   shape, elt, attrs)


@handles("avg_pool2d_backward", "avg_pool3d_backward")
def _avg_pool_backward(tr, node, grad, x, kernel_size, stride, padding,
                       ceil_mode, count_include_pad, divisor_override):
    op = canonical_name(node)
    n = int(op[len("avg_pool")])
    shape, elt = _result(node)
    attrs = _avg_pool_attrs(n, kernel_size, stride, padding, ceil_mode,
                            count_include_pad, divisor_override)
    return tr.emit(op, [_value(tr, grad), _value(tr, x)], shape, elt, attrs)


@handles("adaptive_avg_pool2d_backward", "_adaptive_avg_pool2d_backward",
         "adaptive_avg_pool3d_backward", "_adaptive_avg_pool3d_backward")
def _adaptive_avg_pool_backward(tr, node, grad, x):
    op = canonical_name(node).lstrip("_")
    shape, elt = _result(node)
    return tr.emit(op, [_value(tr, grad), _value(tr, x)], shape, elt)


@handles("adaptive_avg_pool2d", "adaptive_avg_pool3d")
def _adaptive_avg_pool(tr, node, x, output_size):
    op = canonical_name(node)
    n = int(op[len("adaptive_avg_pool")])
    shape, elt = _result(node)
    # The result's trailing sizes (None in output_size keeps the input's).
    return tr.emit(op, [_value(tr, x)], shape, elt,
                   f"output_size = {_array(list(shape[-n:]))}")


@handles("layer_norm")
def _layer_norm(tr, node, x, normalized_shape, weight=None, bias=None,
                eps=1e-5):
    from .translate import format_float
    shape, elt = _result(node)
    operands, text = operands_with(tr, [_value(tr, x)], weight=weight,
                                   bias=bias)
    attrs = (f"normalized_shape = {_array(list(normalized_shape))}, "
             f"eps = {format_float(eps)} : f64")
    return tr.emit("layer_norm", operands, shape, elt, attrs,
                   operand_format=text)


@handles("softmax", "log_softmax")
def _softmax(tr, node, x, dim=None, *rest, dtype=None, **kwargs):
    # F.softmax(input, dim, _stacklevel, dtype); _softmax(x, dim, half_to_float)
    if dim is None:
        raise Unsupported("softmax without dim")
    if dtype is not None or any(r not in (None, False, 3) for r in rest):
        raise Unsupported("dtype")
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), [x], shape, elt,
                   f"dim = {_dim(dim, x.rank)} : i64")


# tensorplay.functional's losses take aten's reduction enum.
_REDUCTION_ENUM = {0: "none", 1: "mean", 2: "sum"}


def _reduction(value):
    if isinstance(value, int) and not isinstance(value, bool):
        value = _REDUCTION_ENUM.get(value, value)
    if value not in ("mean", "sum", "none"):
        raise Unsupported(f"reduction='{value}'")
    return f"reduction = #tp.reduction<{value}>"


@handles("cross_entropy", "nll_loss", "cross_entropy_loss")
def _class_loss(tr, node, x, target, weight=None, size_average=None,
                ignore_index=-100, reduce=None, reduction="mean",
                label_smoothing=0.0):
    from .translate import format_float
    if size_average is not None or reduce is not None:
        raise Unsupported("size_average/reduce (deprecated)")
    op = canonical_name(node)
    shape, elt = _result(node)
    x, target = _value(tr, x), _value(tr, target)
    operands, text = [x, target], f"{x.ssa}, {target.ssa}"
    if weight is not None:
        weight = _value(tr, weight)
        operands.append(weight)
        text += f" weight({weight.ssa})"
    attrs = f"ignore_index = {int(ignore_index)} : i64, {_reduction(reduction)}"
    if op in ("cross_entropy", "cross_entropy_loss"):
        attrs += f", label_smoothing = {format_float(label_smoothing)} : f64"
    elif label_smoothing:
        raise Unsupported("label_smoothing")
    return tr.emit(op, operands, shape, elt, attrs, operand_format=text)


@handles("mse_loss", "l1_loss")
def _pointwise_loss(tr, node, x, target, size_average=None, reduce=None,
                    reduction="mean"):
    if size_average is not None or reduce is not None:
        raise Unsupported("size_average/reduce (deprecated)")
    shape, elt = _result(node)
    return tr.emit(canonical_name(node), [_value(tr, x), _value(tr, target)],
                   shape, elt, _reduction(reduction))


@handles("ctc_loss")
def _ctc_loss(tr, node, log_probs, targets, input_lengths, target_lengths,
              blank=0, reduction="mean", zero_infinity=False):
    """tensorplay's ctc_loss: lengths as tensors, Python ints (the same for
    every sample) or sequences. An unbatched (T, C) input's 1-D target is
    the padded row of its one sample (eager reads its first target_length
    labels); a batch's 1-D targets are concatenated."""
    lp, targets = _value(tr, log_probs), _value(tr, targets)
    shape, elt = _result(node)
    batched = lp.rank == 3
    batch = lp.shape[1] if batched else 1

    def lengths(x):
        if _is_value(x):
            return x
        if isinstance(x, int) and not isinstance(x, bool):
            return tr.constant(x, "i64", (batch,) if batched else ())
        if isinstance(x, (list, tuple)) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in x):
            return tr.dense(list(x), "i64", (len(x),))
        raise Unsupported(f"ctc_loss lengths of type {type(x).__name__}")
    il, tl = lengths(input_lengths), lengths(target_lengths)
    if not batched and targets.rank == 1:
        targets = tr.emit("reshape", [targets], (1,) + targets.shape,
                          targets.elt,
                          f"shape = array<i64: 1, {targets.shape[0]}>")
    attrs = (f"blank = {int(blank)} : i64, zero_infinity = "
             f"{'true' if zero_infinity else 'false'}, "
             f"{_reduction(reduction)}")
    return tr.emit("ctc_loss", [lp, targets, il, tl], shape, elt, attrs)


@handles("embedding")
def _embedding(tr, node, indices, weight, padding_idx=None, max_norm=None,
               norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise Unsupported("max_norm/scale_grad_by_freq/sparse")
    shape, elt = _result(node)
    weight, indices = _value(tr, weight), _value(tr, indices)
    if padding_idx is not None and int(padding_idx) < 0:
        padding_idx = int(padding_idx) + weight.shape[0]  # -1: the last row
    attrs = f"padding_idx = {int(padding_idx)} : i64" \
        if padding_idx is not None else ""
    return tr.emit("embedding", [weight, indices], shape, elt, attrs)


@handles("dropout")
def _dropout(tr, node, x, p=0.5, training=True, inplace=False):
    if training and p:
        raise Unsupported("dropout in training mode (its random mask would "
                          "differ from eager's)")
    return _value(tr, x)


# --- reductions -------------------------------------------------------------

@handles("sum", "mean")
def _reduce(tr, node, x, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        raise Unsupported("dtype")
    x = _value(tr, x)
    shape, elt = _result(node)
    attrs = []
    if dim is not None:
        dims = dim if isinstance(dim, (list, tuple)) else [dim]
        attrs.append(f"dim = {_array([_dim(d, x.rank) for d in dims])}")
    if keepdim:
        attrs.append("keepdim = true")
    return tr.emit(canonical_name(node), [x], shape, elt, ", ".join(attrs))


# --- layout -----------------------------------------------------------------

def _to_node_shape(tr, node, x, op, attr):
    """`op` of x to the node's static shape (nothing when it already has it)."""
    x = _value(tr, x)
    shape, elt = _result(node)
    if tuple(shape) == tuple(x.shape):
        return x
    return tr.emit(op, [x], shape, elt, f"{attr} = {_array(shape)}")


@handles("view", "reshape", "flatten", "unsqueeze", "squeeze", "view_as",
         "reshape_as", "unflatten")
def _reshape(tr, node, x, *args, **kwargs):
    """Every reshape-like op is tp.reshape to the node's static shape."""
    return _to_node_shape(tr, node, x, "reshape", "shape")


@handles("expand", "expand_as", "broadcast_to")
def _expand(tr, node, x, *args, **kwargs):
    """tp.expand to the node's static shape."""
    return _to_node_shape(tr, node, x, "expand", "size")


@handles("broadcast_tensors")
def _broadcast_tensors(tr, node, *tensors):
    """Each tensor tp.expand-ed to the broadcast shape (unchanged where it
    has it)."""
    values = [_value(tr, t) for t in tensors]
    rank = max(v.rank for v in values)
    shape = []
    for k in range(rank):
        sizes = {v.shape[k - rank + v.rank] for v in values
                 if k - rank + v.rank >= 0} - {1}
        if len(sizes) > 1:
            raise Unsupported(f"shapes {[list(v.shape) for v in values]} do "
                              "not broadcast")
        shape.append(sizes.pop() if sizes else 1)
    return tuple(v if tuple(v.shape) == tuple(shape) else
                 tr.emit("expand", [v], tuple(shape), v.elt,
                         f"size = {_array(shape)}") for v in values)


@handles("transpose", "swapaxes")
def _transpose(tr, node, x, dim0, dim1):
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.emit("transpose", [x], shape, elt,
                   f"dim0 = {_dim(dim0, x.rank)} : i64, "
                   f"dim1 = {_dim(dim1, x.rank)} : i64")


@handles("t")
def _t(tr, node, x):
    x = _value(tr, x)
    if x.rank < 2:
        return x
    return _transpose(tr, node, x, 0, 1)


@handles("permute")
def _permute(tr, node, x, *dims):
    x = _value(tr, x)
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = dims[0]
    shape, elt = _result(node)
    return tr.emit("permute", [x], shape, elt,
                   f"dims = {_array([_dim(d, x.rank) % max(x.rank, 1) for d in dims])}")


@handles("contiguous", "clone", "detach", "alias")
def _identity(tr, node, x, *args, **kwargs):
    """Values are immutable in tp: copies and layout changes are no-ops."""
    return _value(tr, x)


@handles("cat", "concat", "stack")
def _cat(tr, node, tensors, dim=0):
    values = [_value(tr, t) for t in tensors]
    shape, elt = _result(node)
    op = "stack" if canonical_name(node) == "stack" else "cat"
    rank = values[0].rank + (1 if op == "stack" else 0)
    return tr.emit(op, values, shape, elt, f"dim = {_dim(dim, rank)} : i64",
                   operand_format="[" + ", ".join(v.ssa for v in values) + "]")


# --- casts and Python-level values -------------------------------------------

def _cast_to(tr, node, x):
    x = _value(tr, x)
    shape, elt = _result(node)
    return tr.cast(x, elt)


@handles("to", "type")
def _to(tr, node, x, *args, **kwargs):
    """x.to(dtype), x.to('cpu'), x.to(device, dtype): a cast on the CPU."""
    for a in list(args) + [kwargs.get("device")]:
        if a is not None and "device" in type(a).__name__.lower() or \
                isinstance(a, str):
            if str(a).split(":")[0] != "cpu":
                raise Unsupported(f"device '{a}'")
    return _cast_to(tr, node, x)


for _name in ("float", "double", "half", "bfloat16", "long", "int", "bool",
              "type_as", "_to_copy"):
    HANDLERS[_name] = lambda tr, node, x, *a, **k: _cast_to(tr, node, x)


def _slice_range(size, start, end, step):
    """aten's clamping of a slice of `size` elements: (start, length)."""
    def clamp(v, default):
        if v is None:
            return default
        v = int(v)
        if v < 0:
            v = max(v + size, 0)
        return min(v, size)
    lo, hi = clamp(start, 0), clamp(end, size)
    return lo, ((hi - lo - 1) // step + 1 if hi > lo else 0)


def _emit_slice(tr, x, dim, start=None, end=None, step=1):
    """tp.slice of `x` along `dim` (x itself for the whole dimension)."""
    step = 1 if step is None else int(step)
    if step <= 0:
        raise Unsupported(f"slice step {step} (must be positive)")
    dim = _dim(dim, x.rank) % x.rank
    lo, length = _slice_range(x.shape[dim], start, end, step)
    if lo == 0 and length == x.shape[dim]:
        return x
    shape = list(x.shape)
    shape[dim] = length
    attrs = [f"dim = {dim} : i64"]
    if start is not None:
        attrs.append(f"start = {int(start)} : i64")
    if end is not None:
        attrs.append(f"end = {int(end)} : i64")
    if step != 1:
        attrs.append(f"step = {step} : i64")
    return tr.emit("slice", [x], shape, x.elt, ", ".join(attrs))


def _emit_reshape(tr, x, shape):
    if tuple(shape) == tuple(x.shape):
        return x
    return tr.emit("reshape", [x], shape, x.elt, f"shape = {_array(shape)}")


@handles("getitem")
def _getitem(tr, node, container, index):
    if not _is_value(container):
        return container[index]
    x = container
    if _is_value(index):
        from .operator_backward_ops import index_rows
        return index_rows(tr, node, x, index)  # x[idx]
    items = list(index) if isinstance(index, tuple) else [index]
    for item in items:
        if _is_value(item) or not (item is None or item is Ellipsis or
                                   isinstance(item, (int, slice))):
            raise Unsupported("tensor indexing (only ints, slices, None "
                              "and ... translate)")
    if sum(item is Ellipsis for item in items) > 1:
        raise Unsupported("more than one ... in an index")
    real = sum(item is not None and item is not Ellipsis for item in items)
    if real > x.rank:
        raise Unsupported(f"too many indices for a {x.rank}-d tensor")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (x.rank - real)
    # Slices and ints per dimension of x; None inserts a size-1 dimension.
    shape, dim = [], 0
    for item in items:
        if item is None:
            shape.append(1)
        elif isinstance(item, slice):
            x = _emit_slice(tr, x, dim, item.start, item.stop, item.step)
            shape.append(x.shape[dim])
            dim += 1
        else:
            size = x.shape[dim]
            i = int(item)
            if not -size <= i < size:
                raise Unsupported(f"index {i} out of range for size {size}")
            i %= size
            x = _emit_slice(tr, x, dim, i, i + 1)
            dim += 1
    shape += list(x.shape[dim:])
    return _emit_reshape(tr, x, shape)


@handles("getattr")
def _getattr(tr, node, x, name):
    """`x.shape` (static here) and the like, read at translation time."""
    if _is_value(x) and name == "shape":
        return tuple(x.shape)
    if _is_value(x) and name == "ndim":
        return x.rank
    if isinstance(x, tuple):
        # A named result (max(x, 1).values, linalg.qr(a).Q): its position
        # among the fields of the source's recorded metadata.
        source = node.args[0]
        fields = getattr(getattr(source, "meta", {}).get("tensor_meta"),
                         "_fields", ())
        if name in fields and fields.index(name) < len(x):
            return x[fields.index(name)]
    raise Unsupported(f"getattr {name!r}")


@handles("narrow")
def _narrow(tr, node, x, dim, start, length):
    x = _value(tr, x)
    start = int(start) % x.shape[_dim(dim, x.rank)] if int(start) < 0 \
        else int(start)
    return _emit_slice(tr, x, dim, start, start + int(length))


@handles("select")
def _select(tr, node, x, dim, index):
    x = _value(tr, x)
    d = _dim(dim, x.rank) % x.rank
    i = int(index) % x.shape[d]
    shape = list(x.shape[:d]) + list(x.shape[d + 1:])
    return _emit_reshape(tr, _emit_slice(tr, x, d, i, i + 1), shape)


@handles("slice")
def _slice_op(tr, node, x, dim=0, start=None, end=None, step=1):
    """tensorplay 1.1's operator graphs: aten::slice.Tensor."""
    return _emit_slice(tr, _value(tr, x), dim, start, end, step)


@handles("slice_backward")
def _slice_backward(tr, node, grad, input_sizes, dim, start, end, step):
    """input_sizes: a list, or the sliced tensor (1.1's operator form
    slice_backward(grad_output, self, ...))."""
    grad = _value(tr, grad)
    if _is_value(input_sizes):
        input_sizes = input_sizes.shape
    shape, elt = _result(node)
    attrs = [f"dim = {int(dim)} : i64",
             f"input_sizes = {_array(list(input_sizes))}"]
    if start is not None:
        attrs.append(f"start = {int(start)} : i64")
    if end is not None:
        attrs.append(f"end = {int(end)} : i64")
    if step is not None and int(step) != 1:
        attrs.append(f"step = {int(step)} : i64")
    return tr.emit("slice_backward", [grad], shape, elt, ", ".join(attrs))


@handles("split", "split_with_sizes", "chunk", "tensor_split", "unbind")
def _split(tr, node, x, sizes=None, dim=0):
    """split (a size or a list of sizes), chunk (a count), unbind: a tuple
    of slices."""
    x = _value(tr, x)
    op = canonical_name(node)
    if op == "unbind":
        dim, sizes = (0 if sizes is None else sizes), None
    d = _dim(dim, x.rank) % x.rank
    n = x.shape[d]
    if op == "unbind":
        shape = list(x.shape[:d]) + list(x.shape[d + 1:])
        return tuple(_emit_reshape(tr, _emit_slice(tr, x, d, i, i + 1), shape)
                     for i in range(n))
    if op == "chunk":
        each = -(-n // int(sizes)) if n else 0
        bounds = list(range(0, n, each)) if each else [0]
    elif op == "tensor_split":
        if isinstance(sizes, (list, tuple)):
            bounds = [0] + [int(i) for i in sizes]
        else:
            k = int(sizes)
            bounds = [i * (n // k) + min(i, n % k) for i in range(k)]
    elif isinstance(sizes, (list, tuple)) or op == "split_with_sizes":
        bounds = [0]
        for size in sizes[:-1]:
            bounds.append(bounds[-1] + int(size))
    else:
        bounds = list(range(0, n, int(sizes))) if n else [0]
    ends = bounds[1:] + [n]
    return tuple(_emit_slice(tr, x, d, lo, hi) for lo, hi in zip(bounds, ends))


@handles("size")
def _size(tr, node, x, dim=None):
    x = _value(tr, x)
    return tuple(x.shape) if dim is None else x.shape[_dim(dim, x.rank)]


@handles("dim")
def _rank(tr, node, x):
    return _value(tr, x).rank
