"""Translation of a captured tensorplay graph into a tp-dialect module.

The graph is FX-like (``placeholder``, ``get_attr``, ``call_function``,
``call_method``, ``output``). Every node's shape and dtype come from its
``meta['tensor_meta']`` (static shapes: the frontend specializes on them).
Tensor placeholders, parameters (``get_attr``) and tensors that appear as
literals in ``args`` become arguments of one public function ``@forward``,
passed at call time, so that in-place updates (an optimizer step) are seen
without recompiling. Python scalars among the placeholders are specialized
(the frontend keys its cache on them) and fold into the IR.

A node this module cannot translate raises :class:`UnsupportedNode`, which
names the node and its target; the backend then falls back to the graph's
own Python executor (or raises, with ``options={"fallback": False}``).
"""

import math
from dataclasses import dataclass

import tensorplay

from . import dtypes
from .binding import BindingError, bind
from . import operator_ops  # noqa: F401  (registers the 'op.' handlers)
from . import selection_ops  # noqa: F401  (topk, gather, factories, ...)
from . import decomposed_ops  # noqa: F401  (attention, cross, cdist, ...)
from . import linalg_ops  # noqa: F401  (inverse, cholesky, solve, ...)
from . import linalg_operator_ops  # noqa: F401  (1.1's _linalg_solve_ex, ...)
from . import operator_backward_ops  # noqa: F401  (tanh_backward, attention)
from . import arithmetic_ops  # noqa: F401  (addmm, cumsum, prod, amax, ...)
from . import layer_ops  # noqa: F401  (losses, paddings, conv_transpose)
from . import activation_ops  # noqa: F401  (relu6, hardsigmoid, isnan, ...)
from . import statistics_ops  # noqa: F401  (amin, min, all, std, rms_norm)
from . import layout_ops  # noqa: F401  (flip, roll, repeat, *_copy, ...)
from . import rounding_ops  # noqa: F401  (floor, ceil, round, trunc, ...)
from . import mapped_ops  # noqa: F401  (bce with logits, nll_loss2d, ...)
from . import resize_ops  # noqa: F401  (constant padding, upsampling)
from . import pool1d_ops  # noqa: F401  (avg/max/adaptive 1-d pools)
from . import linalg_factor_ops  # noqa: F401  (qr, svd, cholesky_solve, ...)
from . import loss_backward_ops  # noqa: F401  (1.1's loss/pad backward ops)
from . import norm_ops  # noqa: F401  (native_batch_norm, native_group_norm, ...)
from . import spelling_ops  # noqa: F401  (linalg_matmul, hsplit, windows, ...)
from . import einsum_ops  # noqa: F401  (einsum as tp.bmm)
from . import gradient_ops  # noqa: F401  (linear_backward, select_backward, ...)
from . import matrix_ops  # noqa: F401  (block_diag, vander, matrix_power, ...)
from . import transformer_ops  # noqa: F401  (fused MHA, encoder layer)
from . import patch_ops  # noqa: F401  (im2col, col2im)
from . import logexp_ops  # noqa: F401  (logaddexp, xlogy, nansum, ...)
from . import recurrent_ops  # noqa: F401  (lstm, gru, rnn_tanh, rnn_relu)
from . import determinant_ops  # noqa: F401  (det, slogdet, lu_factor, ...)
from . import sampler_backward_ops  # noqa: F401  (grid_sampler_2d_backward)
from . import embedding_bag_ops  # noqa: F401  (_embedding_bag and its backward)
from . import ctc_ops  # noqa: F401  (_ctc_loss, _ctc_loss_backward)
from . import distance_backward_ops  # noqa: F401  (cdist, cumprod, margins)
from .ops import handler_for


class UnsupportedNode(Exception):
    """A node the tp dialect (or this translator) cannot express."""

    def __init__(self, node, reason):
        self.node = node
        self.reason = reason
        super().__init__(f"node '{node.name}' ({node.op} "
                         f"{describe_target(node)}): {reason}")


def describe_target(node):
    target = node.target
    if isinstance(target, str):
        return repr(target)
    module = getattr(target, "__module__", None) or ""
    name = getattr(target, "__qualname__", None) or getattr(
        target, "__name__", None) or repr(target)
    if module in ("_operator", "operator"):
        module = "operator"
    return f"{module}.{name}" if module else name


@dataclass
class Value:
    """An SSA value of the module: its name, static shape and element type."""
    ssa: str
    shape: tuple
    elt: str

    @property
    def type(self):
        dims = "x".join(str(d) for d in self.shape)
        return f"tensor<{dims}x{self.elt}>" if dims else f"tensor<{self.elt}>"

    @property
    def rank(self):
        return len(self.shape)


@dataclass
class Input:
    """Where a function argument comes from at call time: the user's
    positional argument `index` ('placeholder'), a module attribute
    ('attr', dotted `name`) or a tensor object captured in the graph
    ('literal')."""
    kind: str
    index: int = -1
    name: str = ""
    tensor: object = None


class Leaf(tuple):
    """An output template leaf: ('result', k), ('input', Input) or
    ('const', value)."""


@dataclass
class Program:
    """A translated graph: the module's text, where each argument of
    @forward comes from, and how the outputs are rebuilt from its results.
    `outputs` is a template: nested tuples/lists whose leaves are
    ('result', k), ('input', Input) or ('const', value)."""
    inputs: list
    outputs: object
    arguments: list  # Values of @forward's arguments
    body: list  # @forward's op lines
    results: list  # Values @forward returns
    next_id: int
    recomposed: list = None
    placeholder_names: list = None
    # (argument index, result index): in-place updates of arguments, which
    # the call copies into the argument's memory.
    writebacks: list = ()

    @property
    def text(self):
        """The module with @forward."""
        return self.module_text(vjp=False)

    def differentiable_results(self):
        updates = {r for _, r in self.writebacks}
        return [k for k, v in enumerate(self.results)
                if v.elt in dtypes.FLOATING and k not in updates]

    def module_text(self, vjp):
        """The module with @forward and, with `vjp`, @forward_vjp: @forward's
        arguments then one cotangent per floating result (f32), returning
        the scalar sum over results of sum(result * cotangent), whose
        gradient (tp-autodiff's @forward_vjp_grad) w.r.t. an argument is
        the vector-Jacobian product autograd's backward needs."""
        funcs = [self._function("forward", self.arguments, self.body,
                                self.results)]
        if vjp:
            writer = OpWriter(list(self.body), self.next_id)
            cots, total = [], None
            for k in self.differentiable_results():
                r = self.results[k]
                c = Value(f"%c{k}", r.shape, "f32")
                cots.append(c)
                r = writer.cast(r, "f32")
                prod = writer.emit("mul", [r, c], r.shape, "f32")
                part = writer.emit("sum", [prod], (), "f32")
                total = part if total is None else writer.emit(
                    "add", [total, part], (), "f32")
            if total is not None:
                funcs.append(self._function("forward_vjp",
                                            self.arguments + cots,
                                            writer.lines, [total]))
            k = self.loss_result()
            if k is not None:
                funcs.append(self._loss_function(k))
        return "module {\n" + "\n".join(funcs) + "}\n"

    def loss_result(self):
        """The index of the only floating 0-d result (a loss), if any."""
        scalars = [k for k in self.differentiable_results()
                   if not self.results[k].shape]
        return scalars[0] if len(scalars) == 1 else None

    def _loss_function(self, k):
        """@forward_loss(args..., %seed) -> (seed * loss, @forward's
        results): its tp-autodiff gradient computes the forward and the
        backward of the loss seeded with `seed` in one call, which the
        autograd path runs speculatively (compiled.py)."""
        writer = OpWriter(list(self.body), self.next_id)
        r = writer.cast(self.results[k], "f32")
        seed = Value("%seed", (), "f32")
        total = writer.emit("mul", [r, seed], (), "f32")
        return self._function("forward_loss", self.arguments + [seed],
                              writer.lines, [total] + list(self.results))

    @staticmethod
    def _function(name, arguments, body, results):
        args = ", ".join(f"{v.ssa}: {v.type}" for v in arguments)
        result_types = ", ".join(v.type for v in results)
        lines = [f"  func.func @{name}({args}) -> ({result_types}) {{"]
        lines += body
        if results:
            lines.append("    return " + ", ".join(v.ssa for v in results) +
                         " : " + result_types)
        else:
            lines.append("    return")
        lines.append("  }\n")
        return "\n".join(lines)


def format_float(value):
    """An MLIR float literal (MLIR requires a '.' or an exponent)."""
    if math.isinf(value) or math.isnan(value):
        raise ValueError("non-finite constant")
    return "%.17e" % value


# +inf and -inf as MLIR's hexadecimal float literals.
_INFINITY = {"f32": ("0x7F800000", "0xFF800000"),
             "f64": ("0x7FF0000000000000", "0xFFF0000000000000"),
             "bf16": ("0x7F80", "0xFF80"), "f16": ("0x7C00", "0xFC00")}
# The quiet NaN eager's kernels produce (positive, payload zero).
_NAN = {"f32": "0x7FC00000", "f64": "0x7FF8000000000000", "bf16": "0x7FC0",
        "f16": "0x7E00"}


def array_attr(values):
    return "array<i64: " + ", ".join(str(int(v)) for v in values) + ">" \
        if len(values) else "array<i64>"


def _is_undefined_dtype(arg):
    """tensorplay.undefined (1.1) or tensorplay._C.DType.undefined (1.0's
    normalized softmax(x, dim, dtype))."""
    name = type(arg).__name__.lower()
    return "dtype" in name and str(arg).split(":")[0].rstrip(">").endswith(
        "undefined")


class OpWriter:
    """Writes tp op lines with fresh SSA names: the translator's, and the
    functions Program adds around @forward's body."""

    def __init__(self, lines=None, counter=0):
        self.lines = [] if lines is None else lines
        self.counter = counter
        self.loc = ""  # ' loc(...)' of the node being translated

    def fresh(self):
        self.counter += 1
        return f"%v{self.counter}"

    def _write(self, name, op, operands, attrs, operand_format, result_types):
        text = operand_format if operand_format is not None else ", ".join(
            v.ssa for v in operands)
        attr_text = f" {{{attrs}}}" if attrs else ""
        types = ", ".join(v.type for v in operands)
        self.lines.append(f"    {name} = tp.{op} {text}{attr_text} : "
                          f"({types}) -> {result_types}{self.loc}")

    def emit(self, op, operands, result_shape, result_elt, attrs="",
             operand_format=None):
        """Appends `%r = tp.<op> operands {attrs} : (types) -> type`."""
        result = Value(self.fresh(), tuple(result_shape), result_elt)
        self._write(result.ssa, op, operands, attrs, operand_format,
                    result.type)
        return result

    def emit_multi(self, op, operands, results, attrs="", operand_format=None):
        """Appends a multi-result op; `results` are (shape, elt) pairs."""
        name = self.fresh()
        values = [Value(f"{name}#{i}", tuple(shape), elt)
                  for i, (shape, elt) in enumerate(results)]
        self._write(f"{name}:{len(values)}", op, operands, attrs,
                    operand_format,
                    "(" + ", ".join(v.type for v in values) + ")")
        return values

    def dense(self, values, elt, shape):
        """A tp.constant of `shape` holding the Python numbers `values`
        (row-major; written flat and reshaped when `shape` is not 1-d)."""
        values = list(values)
        if len(shape) != 1:
            flat = self.dense(values, elt, (len(values),))
            return self.emit("reshape", [flat], shape, elt,
                             f"shape = {array_attr(shape)}")
        result = Value(self.fresh(), tuple(shape), elt)
        if elt in dtypes.FLOATING:
            items = [format_float(float(v)) for v in values]
        elif elt == "i1":
            items = ["true" if v else "false" for v in values]
        else:
            items = [str(int(v)) for v in values]
        self.lines.append(f"    {result.ssa} = tp.constant dense<["
                          f"{', '.join(items)}]> : {result.type}{self.loc}")
        return result

    def constant(self, value, elt, shape=()):
        """A tp.constant of `shape` (0-d by default) filled with the Python
        scalar `value`."""
        result = Value(self.fresh(), tuple(shape), elt)
        if elt in dtypes.FLOATING and math.isinf(float(value)):
            literal = _INFINITY[elt][float(value) < 0]
        elif elt in dtypes.FLOATING and math.isnan(float(value)):
            literal = _NAN[elt]
        elif elt in dtypes.FLOATING:
            literal = format_float(float(value))
        elif elt == "i1":
            literal = "true" if value else "false"
        else:
            literal = str(int(value))
        self.lines.append(f"    {result.ssa} = tp.constant dense<{literal}> : "
                          f"{result.type}{self.loc}")
        return result

    def cast(self, value, elt):
        if value.elt == elt:
            return value
        result = Value(self.fresh(), value.shape, elt)
        self.lines.append(f"    {result.ssa} = tp.cast {value.ssa} : "
                          f"{value.type} to {result.type}{self.loc}")
        return result


def _mlir_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def user_frame(node):
    """(file, line) of the user's source line that made `node`: the first
    frame of its FX stack trace outside tensorplay, or None."""
    import re
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+)', trace)
    user = [f for f in frames if "/tensorplay/" not in f[0] and
            "/tensorplay_mlir/" not in f[0] and not f[0].startswith("<")]
    if not user:
        return None
    return user[0][0], int(user[0][1])


def location(node):
    """` loc("node"("file":line:0))`: the node's name (and its user source
    line, where the graph recorded one) on every op translated from it, so
    that diagnostics and explain() name the node."""
    frame = user_frame(node)
    name = _mlir_string(node.name)
    if frame is None:
        return f" loc({name})"
    return f" loc({name}({_mlir_string(frame[0])}:{frame[1]}:0))"


def fetch_attr(root, dotted):
    """The attribute `dotted` ('fc1.weight') of `root`."""
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


class Translator(OpWriter):
    def __init__(self, gm, example_inputs):
        super().__init__()
        self.gm = gm
        self.example_inputs = list(example_inputs)
        self.arguments = []  # (Value, Input)
        self.env = {}  # node -> Value or Python value
        self.attr_args = {}  # dotted name -> Value
        self.literal_args = {}  # id(tensor) -> Value
        self.recomposed = []  # the tp ops recomposed from primitives
        self.placeholder_names = []  # the graph's inputs, by name
        self.memo = {}  # handlers' shared ops (operator_ops._conv_grad)
        self.writebacks = {}  # argument index -> its new Value

    def write_back(self, target, value):
        """An in-place update of `target` to `value` (broadcast and cast to
        its shape and dtype): later uses of `target` see `value`, and when
        `target` is an argument (a parameter, a buffer, an input) the
        compiled function returns `value` as an extra result that the call
        copies into the argument's memory (BatchNorm's running statistics).
        Returns the new value."""
        if not isinstance(target, Value) or not isinstance(value, Value):
            raise ValueError("an in-place update of a non-tensor")
        if value.shape != target.shape:
            if value.rank > target.rank or any(
                    v not in (1, t) for v, t in zip(
                        value.shape[::-1], target.shape[::-1])):
                raise ValueError(f"an in-place update of shape "
                                 f"{list(target.shape)} by "
                                 f"{list(value.shape)}")
            value = self.emit("expand", [value], target.shape, value.elt,
                              f"size = {array_attr(target.shape)}")
        value = self.cast(value, target.elt)
        for node, v in list(self.env.items()):
            if v is target:
                self.env[node] = value
        for table in (self.attr_args, self.literal_args):
            for key, v in list(table.items()):
                if v is target:
                    table[key] = value
        for k, (argument, _) in enumerate(self.arguments):
            if argument is target or self.writebacks.get(k) is target:
                self.writebacks[k] = value
        return value

    def argument(self, shape, elt, source):
        value = Value(f"%a{len(self.arguments)}", tuple(shape), elt)
        self.arguments.append((value, source))
        return value

    def tensor_argument(self, tensor, source):
        try:
            elt = dtypes.mlir_type(tensor.dtype)
        except dtypes.UnsupportedDtype as e:
            raise ValueError(str(e))
        return self.argument(tuple(tensor.shape), elt, source)

    # --- node metadata ----------------------------------------------------
    @staticmethod
    def meta_of(node, index=None):
        """(shape, element type) of `node`'s result, or of its result
        `index` when it returns a tuple (read off the getitem users)."""
        if index is not None:
            for user in node.users:
                if user.op == "call_function" and len(user.args) == 2 and \
                        user.args[0] is node and user.args[1] == index:
                    return Translator.meta_of(user)
            # (A part read by field name, .values, or by nobody: the
            # node's own tuple of metadata, where its propagation kept one.)
            parts = node.meta.get("tensor_meta")
            if isinstance(parts, tuple) and index < len(parts) and \
                    hasattr(parts[index], "shape"):
                try:
                    return (tuple(int(d) for d in parts[index].shape),
                            dtypes.mlir_type(parts[index].dtype))
                except dtypes.UnsupportedDtype:
                    return None
            return None
        meta = node.meta.get("tensor_meta")
        if meta is None or not hasattr(meta, "shape"):
            raise UnsupportedNode(node, "its result is not a single tensor "
                                  "(no tensor_meta with a shape)")
        try:
            elt = dtypes.mlir_type(meta.dtype)
        except dtypes.UnsupportedDtype as e:
            raise UnsupportedNode(node, str(e))
        return tuple(int(d) for d in meta.shape), elt

    # --- the graph --------------------------------------------------------
    def resolve(self, arg):
        """A node argument with nodes replaced by their values."""
        if hasattr(arg, "op") and hasattr(arg, "meta"):
            return self.env[arg]
        if isinstance(arg, (tuple, list)):
            return type(arg)(self.resolve(a) for a in arg)
        if isinstance(arg, dict):
            return {k: self.resolve(v) for k, v in arg.items()}
        if _is_undefined_dtype(arg):
            return None  # an absent dtype (DType.undefined)
        if isinstance(arg, tensorplay.Tensor) and \
                _is_undefined_dtype(arg.dtype):
            return None  # an undefined tensor: an absent optional one
        if isinstance(arg, tensorplay.Tensor):
            key = id(arg)
            if key not in self.literal_args:
                self.literal_args[key] = self.tensor_argument(
                    arg, Input("literal", tensor=arg))
            return self.literal_args[key]
        return arg

    def run(self):
        from .patterns import find_recompositions
        recomposed, absorbed = find_recompositions(self.gm.graph)
        placeholder_index = 0
        output_template = None
        for node in self.gm.graph.nodes:
            if node.op == "placeholder":
                index = placeholder_index
                placeholder_index += 1
                self.placeholder_names.append(str(node.target))
                example = self.example_inputs[index] \
                    if index < len(self.example_inputs) else None
                if isinstance(example, tensorplay.Tensor) and \
                        _is_undefined_dtype(example.dtype):
                    # 1.1 passes an absent optional tensor (a conv's bias
                    # of bias=False) as an undefined tensor input.
                    self.env[node] = None
                elif isinstance(example, tensorplay.Tensor):
                    shape, elt = self.meta_of(node) if node.meta.get(
                        "tensor_meta") is not None else (
                        tuple(example.shape), dtypes.mlir_type(example.dtype))
                    self.env[node] = self.argument(
                        shape, elt, Input("placeholder", index=index))
                elif example is None or isinstance(example, (bool, int, float)):
                    self.env[node] = example
                else:
                    raise UnsupportedNode(
                        node, f"input of type {type(example).__name__}")
            elif node.op == "get_attr":
                obj = fetch_attr(self.gm, node.target)
                if isinstance(obj, tensorplay.Tensor):
                    if node.target not in self.attr_args:
                        try:
                            self.attr_args[node.target] = self.tensor_argument(
                                obj, Input("attr", name=node.target))
                        except ValueError as e:
                            raise UnsupportedNode(node, str(e))
                    self.env[node] = self.attr_args[node.target]
                elif isinstance(obj, (bool, int, float)):
                    self.env[node] = obj
                else:
                    raise UnsupportedNode(
                        node, f"attribute of type {type(obj).__name__}")
            elif node.op in ("call_function", "call_method"):
                if node in absorbed:
                    continue
                self.loc = location(node)
                if node in recomposed:
                    x_node, op, attrs = recomposed[node]
                    shape, elt = self.meta_of(node)
                    self.env[node] = self.emit(op, [self.env[x_node]], shape,
                                               elt, attrs)
                    self.recomposed.append(op)
                    continue
                handler, in_place = handler_for(node)
                if handler is None:
                    raise UnsupportedNode(node, "no tp translation for this "
                                          "target")
                args = self.resolve(node.args)
                kwargs = self.resolve(dict(node.kwargs))
                try:
                    args, kwargs = bind(handler, node.target, args, kwargs,
                                        self.resolve)
                except BindingError as e:
                    raise UnsupportedNode(node, f"arguments: {e}")
                try:
                    self.env[node] = handler(self, node, *args, **kwargs)
                    if in_place:
                        self.env[node] = self.write_back(
                            args[0], self.env[node])
                except UnsupportedNode:
                    raise
                except (TypeError, ValueError, KeyError) as e:
                    raise UnsupportedNode(node, f"arguments not supported "
                                          f"({e})")
            elif node.op == "output":
                output_template = node.args[0]
            else:
                raise UnsupportedNode(node, f"node kind {node.op}")
        return self.finish(output_template)

    def finish(self, template):
        results = []
        by_arg = {id(v): src for v, src in self.arguments}

        def leaf(item):
            if hasattr(item, "op") and hasattr(item, "meta"):
                value = self.env[item]
            else:
                value = item
            if isinstance(value, Value):
                if id(value) in by_arg:
                    return Leaf(("input", by_arg[id(value)]))
                results.append(value)
                return Leaf(("result", len(results) - 1))
            if isinstance(value, (tuple, list)):
                return type(value)(leaf(v) for v in value)
            return Leaf(("const", value))

        outputs = leaf(template)
        writebacks = []
        for k, value in sorted(self.writebacks.items()):
            if value is not self.arguments[k][0]:
                results.append(value)
                writebacks.append((k, len(results) - 1))
        return Program(inputs=[src for _, src in self.arguments],
                       writebacks=writebacks,
                       outputs=outputs,
                       arguments=[v for v, _ in self.arguments],
                       body=self.lines, results=results,
                       next_id=self.counter, recomposed=self.recomposed,
                       placeholder_names=self.placeholder_names)


def _bits(t):
    """The bytes of `t`'s values (bf16 and f16 widened to f32 exactly:
    NumPy has no bf16; f8 as their bit patterns: nor f8)."""
    name = dtypes.dtype_name(t.dtype)
    if name in ("bfloat16", "float16"):
        t = t.float()
    elif name.startswith("float8"):
        t = t.view(tensorplay.uint8)
    return t.numpy().tobytes()


def propagate_without_autocast(gm, example_inputs):
    """Records every node's shape and dtype with autocast off.

    The frontend's ShapeProp runs under the ambient autocast of the first
    call, so a graph captured inside ``tensorplay.autocast`` carries bf16
    metadata although it holds no cast (tensorplay 1.0): its dtypes would
    be autocast's decisions, not the program's. Propagating again with
    autocast off gives the graph's own dtypes (explicit casts, as in 1.1's
    AOT graphs, stay). The random state is restored afterwards."""
    from tensorplay.graph.passes.shape_prop import ShapeProp
    state = tensorplay.get_rng_state() if hasattr(
        tensorplay, "get_rng_state") else None
    # Running the graph performs its in-place updates (BatchNorm's running
    # statistics, counters): the tensors they may touch are restored.
    mutable = [t for t in list(example_inputs) + [
        fetch_attr(gm, n.target) for n in gm.graph.nodes
        if n.op == "get_attr"]
        if isinstance(t, tensorplay.Tensor) and not t.requires_grad
        and not _is_undefined_dtype(t.dtype)]
    saved = [(t, t.clone()) for t in mutable]
    try:
        with tensorplay.no_grad(), tensorplay.autocast("cpu", enabled=False):
            ShapeProp(gm).propagate(*example_inputs)
    finally:
        if state is not None:
            tensorplay.set_rng_state(state)
        # Only what changed (bitwise; eager's batch_norm updates its
        # statistics without bumping their version): a copy bumps the
        # version autograd checks its saved tensors against.
        with tensorplay.no_grad():
            for t, copy in saved:
                if _bits(t) != _bits(copy):
                    t.copy_(copy)


def check_targets(gm):
    """Raises UnsupportedNode for the first call without a handler, before
    anything runs the graph: propagation executes it, and a node no handler
    knows may have effects (in-place updates, batch_norm's running
    statistics) that must not happen an extra time."""
    for node in gm.graph.nodes:
        if node.op in ("call_function", "call_method") and \
                handler_for(node)[0] is None:
            raise UnsupportedNode(node, "no tp translation for this target")


def repair_frontend_calls(gm):
    """Rewrites the calls tensorplay 1.0's tracer records in a form its own
    function rejects, so that propagation (and the executor, where a node
    falls back) can run them: ``einsum(equation=..., operands=[...],
    path=[])`` of the functional ``einsum(equation, *operands)`` becomes
    positional."""
    for node in gm.graph.nodes:
        if node.op == "call_function" and \
                getattr(node.target, "__name__", "") == "einsum" and \
                not hasattr(node.target, "_schema") and \
                "equation" in node.kwargs and "operands" in node.kwargs:
            kwargs = dict(node.kwargs)
            node.args = (kwargs.pop("equation"), *kwargs.pop("operands"))
            kwargs.pop("path", None)
            node.kwargs = kwargs


def translate(gm, example_inputs):
    """The :class:`Program` of `gm`; raises :class:`UnsupportedNode`."""
    repair_frontend_calls(gm)
    check_targets(gm)
    propagate_without_autocast(gm, example_inputs)
    return Translator(gm, example_inputs).run()
