"""A small builder for handlers that write one operator as several tp ops.

Operators without a tp op of their own (relu6, hardsigmoid, isnan, std,
flip, logaddexp, ...) are written with tp ops the CPU autocast tables do
not list (arithmetic, comparisons, where, clamp, mean, sum, exp, log,
amax, reshapes: this backend compiles for CPU autocast only), so that
autocast leaves every part in its inputs' types, as eager leaves the
unlisted operator. A composition never uses an op those tables list where
it may meet autocast, unless eager's own kernel calls that operator (the
products of einsum, matrix_power, cov: autocast decides them for eager
too); forward operators that would need one otherwise are refused until
they have a tp op (docs/OperatorCoverage.md says which). Backward
operators (1.1's ``*_backward`` targets) only occur in training graphs,
which carry their autocast decisions as explicit casts and are never
autocast again, so their compositions may use any op.

Element-wise parts broadcast as numpy does; Python numbers become 0-d
constants beside a tensor (PyTorch's wrapped numbers: they never change the
tensor's dtype).
"""

from . import dtypes
from .ops import _array, _is_value, _operand

_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


def broadcast(*shapes):
    """numpy's broadcast of static shapes."""
    n = max(len(s) for s in shapes)
    padded = [(1,) * (n - len(s)) + tuple(s) for s in shapes]
    out = []
    for dims in zip(*padded):
        sizes = {d for d in dims if d != 1}
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def promote(a, b, fallback=None):
    """Eager's promotion of two tensors' element types for the float cases
    (f64 over f32 over bf16 / f16; bf16 with f16 is f32; a float over an
    integer); elsewhere `fallback` (the graph's dtype), or a."""
    if a == b:
        return a
    floats = [e for e in (a, b) if e in dtypes.FLOATING]
    if len(floats) == 1:
        return floats[0]
    if len(floats) == 2:
        return "f64" if "f64" in floats else "f32"
    return a if fallback is None else fallback


class Composer:
    """Emits the tp ops of one composition through the translator `tr`."""

    def __init__(self, tr):
        self.tr = tr

    def _pair(self, a, b):
        tensors = [v for v in (a, b) if _is_value(v)]
        elt = tensors[0].elt if len(tensors) == 1 else \
            promote(tensors[0].elt, tensors[1].elt)
        return _operand(self.tr, a, b), _operand(self.tr, b, a), elt

    def binary(self, op, a, b):
        a, b, elt = self._pair(a, b)
        return self.tr.emit(op, [a, b], broadcast(a.shape, b.shape),
                            "i1" if op in _COMPARISONS else elt)

    def add(self, a, b):
        return self.binary("add", a, b)

    def sub(self, a, b):
        return self.binary("sub", a, b)

    def mul(self, a, b):
        return self.binary("mul", a, b)

    def div(self, a, b):
        return self.binary("div", a, b)

    def unary(self, op, x):
        return self.tr.emit(op, [x], x.shape, x.elt)

    def where(self, condition, a, b, elt=None):
        """a where condition, else b; numbers take the tensor's type (or
        `elt` where both are numbers)."""
        tensors = [v for v in (a, b) if _is_value(v)]
        if len(tensors) == 1:
            elt = tensors[0].elt
        elif tensors:
            elt = promote(tensors[0].elt, tensors[1].elt)
        elif elt is None:
            raise ValueError("where of two numbers needs an element type")
        a = a if _is_value(a) else self.tr.constant(a, elt)
        b = b if _is_value(b) else self.tr.constant(b, elt)
        shape = broadcast(condition.shape, a.shape, b.shape)
        return self.tr.emit("where", [condition, a, b], shape, elt)

    def either(self, a, b):
        """a or b, for booleans."""
        return self.where(a, True, b)

    def both(self, a, b):
        """a and b, for booleans."""
        return self.where(a, b, False)

    def truth(self, x):
        """x != 0 (x itself for booleans)."""
        return x if x.elt == "i1" else self.binary("ne", x, 0)

    def cast(self, x, elt):
        return self.tr.cast(x, elt)

    def clamp(self, x, lo, hi):
        from .translate import format_float
        attrs = []
        if lo is not None:
            attrs.append(f"min = {format_float(lo)} : f64")
        if hi is not None:
            attrs.append(f"max = {format_float(hi)} : f64")
        return self.tr.emit("clamp", [x], x.shape, x.elt, ", ".join(attrs))

    def reshape(self, x, shape):
        from .ops import _emit_reshape
        return _emit_reshape(self.tr, x, tuple(shape))

    def expand(self, x, shape):
        shape = tuple(shape)
        if shape == tuple(x.shape):
            return x
        return self.tr.emit("expand", [x], shape, x.elt,
                            f"size = {_array(shape)}")

    def permute(self, x, dims):
        dims = list(dims)
        if dims == list(range(x.rank)):
            return x
        return self.tr.emit("permute", [x], tuple(x.shape[d] for d in dims),
                            x.elt, f"dims = {_array(dims)}")

    def slice(self, x, dim, start, end, step=1):
        from .ops import _emit_slice
        return _emit_slice(self.tr, x, dim, start, end, step)

    def cat(self, parts, dim):
        parts = [p for p in parts if p.shape[dim] > 0]
        if len(parts) == 1:
            return parts[0]
        shape = list(parts[0].shape)
        shape[dim] = sum(p.shape[dim] for p in parts)
        return self.tr.emit("cat", parts, tuple(shape), parts[0].elt,
                            f"dim = {dim} : i64", operand_format="[" +
                            ", ".join(p.ssa for p in parts) + "]")

    def reduce(self, op, x, dims, keepdim, elt=None):
        """tp.mean / tp.sum / tp.amax over `dims` (all when empty)."""
        dims = sorted(d % max(x.rank, 1) for d in dims) or list(range(x.rank))
        shape = [1 if i in dims else n for i, n in enumerate(x.shape)]
        if not keepdim:
            shape = [n for i, n in enumerate(shape) if i not in dims]
        if op == "amax":
            attrs = (f"dim = {_array(dims)}, keepdim = "
                     f"{'true' if keepdim else 'false'}")
        else:
            attrs = f"dim = {_array(dims)}" + (", keepdim = true"
                                                if keepdim else "")
        return self.tr.emit(op, [x], tuple(shape), elt or x.elt, attrs)
