"""Element types: tensorplay dtypes, MLIR element types and _core kind names."""

import tensorplay

from . import _core

# The element types the compiler API knows (ElementTypes.def, read from
# _core), restricted to the dtypes this tensorplay has and the backend
# converts at a function's boundary (complex tensors stay with the eager
# fallback): tensorplay dtype name -> (MLIR element type, _core kind name;
# the compiler API names each kind by its MLIR spelling).
_BOUNDARY_EXCLUDED = {"complex64", "complex128"}
_TABLE = {
    dtype: (name, name)
    for name, dtype, _ in _core.element_types()
    if dtype not in _BOUNDARY_EXCLUDED and hasattr(tensorplay, dtype)
}

FLOATING = {"f32", "f64", "f16", "bf16"}

class UnsupportedDtype(ValueError):
    pass


def dtype_name(dtype):
    """'float32' for tensorplay.float32."""
    return str(dtype).rsplit(".", 1)[-1]


def mlir_type(dtype):
    name = dtype_name(dtype)
    if name not in _TABLE:
        raise UnsupportedDtype(f"dtype {dtype} has no tp element type")
    return _TABLE[name][0]


_KIND_OF_ELT = {elt: kind for elt, kind in _TABLE.values()}


def kind_of_elt(elt):
    """The _core kind name of an MLIR element type (its own name: the
    compiler API's elementKindName)."""
    return _KIND_OF_ELT[elt]


_BY_KIND = {kind: getattr(tensorplay, name) for name, (_, kind) in _TABLE.items()}


def from_kind(kind):
    """The tensorplay dtype of a _core kind name ('bf16' -> bfloat16)."""
    return _BY_KIND[kind]


def from_elt(elt):
    """The tensorplay dtype of an MLIR element type, or None where this
    tensorplay has none."""
    kind = _KIND_OF_ELT.get(elt)
    return None if kind is None else _BY_KIND[kind]


def autocast_target(device, dtype):
    """The tp-autocast target for an autocast state: 'cpu:bf16', 'cpu:fp16'."""
    short = {"bfloat16": "bf16", "float16": "fp16"}.get(dtype_name(dtype))
    if short is None:
        raise UnsupportedDtype(f"autocast dtype {dtype} (the tp tables know "
                               "bfloat16 and float16)")
    return f"{device}:{short}"


# The largest finite value and the machine epsilon of each floating type.
_FINFO = {"f32": (3.4028234663852886e38, 2.0 ** -23),
          "f64": (1.7976931348623157e308, 2.0 ** -52),
          "bf16": (3.3895313892515355e38, 2.0 ** -7),
          "f16": (65504.0, 2.0 ** -10)}


def finfo_max(elt):
    return _FINFO[elt][0]


def finfo_eps(elt):
    return _FINFO[elt][1]
