"""``tensorplay.compile(model, backend="mlir")``: the backend entry point.

``backend(gm, example_inputs, **kwargs)`` translates the captured graph to
the tp dialect and returns a :class:`~tensorplay_mlir.compiled.CompiledGraph`,
which compiles it for the CPU on first use per autocast state and runs it on
the tensors' memory. Options (``tensorplay.compile(..., options={...})``):

- ``fallback`` (default True): a graph with nodes the translator cannot
  express is split at them: the rest is compiled in partitions and only
  those nodes run on the graph's own Python executor, with one warning
  naming each with its target and reason (partition.py); False makes such
  a node an error.
- ``autocast``: ``"cpu:bf16"``/``"cpu:fp16"`` compiles for that target
  whatever the ambient state; ``"off"`` compiles without autocast. Default:
  the ambient ``tensorplay.autocast`` state of each call.
- ``keep_io_types`` (default False): results keep the graph's dtypes instead
  of eager autocast's (f32 logits instead of bf16).
- ``pipeline``: tp-lower-to-cpu options, e.g. ``"use-onednn=0"``.
- ``opt_level`` (default 3): LLVM's optimization level, 0-3. The machine
  code of each compiled function is generated at its first call, and at O3
  that is most of a cold start.
- ``tiered`` (default True): a function's first call runs code generated
  at O0 (a fraction of O3's time: a GPT's bf16 training step is ready in
  2.1 s instead of 7.7) while a background thread generates it at
  ``opt_level`` and swaps it in when done; both compute the same bits.
  False waits for ``opt_level``'s code instead.
- ``compile_cache`` (default True): keep the machine code in the persistent
  compile cache and reuse it when any process compiles the same graph again
  (directory ``TENSORPLAY_MLIR_CACHE_DIR``, default
  ``~/.cache/tensorplay-mlir``; ``TENSORPLAY_MLIR_CACHE_MAX_MB``, default
  1024; ``TENSORPLAY_MLIR_CACHE=0`` turns it off everywhere). A GPT's bf16
  training step is ready in 0.14 s instead of 8.5 s the second time.
- ``cast_cache`` (default True): under autocast, keep the parameters'
  bf16/f16 copies between calls while they are unchanged (cast_cache.py).

A ``with tensorplay.autocast(...)`` written inside the compiled function is
lost by the frontend before the backend sees the graph (both 1.0 and 1.1);
enter autocast around the call instead, or pass ``options={"autocast": ...}``.
"""

import warnings

import tensorplay

from . import dtypes
from .compiled import CompiledGraph, ambient_autocast
from .aliasing import write_through_shared_memory
from .partition import Partitioned, is_call
from .translate import UnsupportedNode, translate

_OPTIONS = {"fallback", "autocast", "keep_io_types", "pipeline", "cast_cache",
            "opt_level", "compile_cache", "tiered"}


class BackendError(RuntimeError):
    pass


def _autocast_option(value):
    if value is None:
        return None
    if value in ("off", "none", "", False):
        return ""
    if not isinstance(value, str) or ":" not in value:
        raise BackendError(f"tensorplay_mlir: options['autocast'] must be "
                           f"'cpu:bf16', 'cpu:fp16' or 'off', got {value!r}")
    device, dtype = value.split(":", 1)
    if device != "cpu" or dtype not in ("bf16", "fp16", "f16"):
        raise BackendError(f"tensorplay_mlir: options['autocast']={value!r}: "
                           "this backend compiles for the CPU: 'cpu:bf16' or "
                           "'cpu:fp16'")
    return f"cpu:{'fp16' if dtype == 'f16' else dtype}"


def _opt_level_option(value):
    if isinstance(value, bool) or value not in (0, 1, 2, 3):
        raise BackendError(f"tensorplay_mlir: options['opt_level'] must be "
                           f"0, 1, 2 or 3, got {value!r}")
    return value


def _pipeline_option(value):
    """Checks tp-lower-to-cpu options on an empty module: a bad option is
    the user's error, not a reason to fall back."""
    if not value:
        return ""
    if not isinstance(value, str):
        raise BackendError(f"tensorplay_mlir: options['pipeline'] must be a "
                           f"string, got {value!r}")
    from . import _core
    try:
        _core.Executable("module {}", pipeline_options=value)
    except RuntimeError as e:
        raise BackendError(f"tensorplay_mlir: options['pipeline']={value!r}: "
                           f"{e}") from e
    return value


def is_operator_graph(gm):
    """Whether `gm` is one of tensorplay 1.1's AOT graphs (OpOverload
    targets): traced under the ambient autocast, its dtypes are decided."""
    return any(hasattr(n.target, "_overloadname") for n in gm.graph.nodes
               if n.op == "call_function")


def carries_casts(gm):
    """Whether the graph already holds autocast's decisions: half-precision
    values appear in its metadata (propagated with autocast off)."""
    for node in gm.graph.nodes:
        meta = node.meta.get("tensor_meta")
        dtype = getattr(meta, "dtype", None)
        if dtype is not None and dtypes.dtype_name(dtype) in ("bfloat16",
                                                              "float16"):
            return True
    return False


def backend(gm, example_inputs, **kwargs):
    options = dict(kwargs.get("options") or {})
    unknown = set(options) - _OPTIONS
    if unknown:
        raise BackendError(f"tensorplay_mlir: unknown options {sorted(unknown)}"
                           f" (known: {sorted(_OPTIONS)})")
    fallback = options.get("fallback", True)
    name = kwargs.get("name") or getattr(gm, "__class__", type(gm)).__name__
    # 1.1's AOT graphs hold autocast's decisions when they carry half
    # precision, or when they are one half of a training pair (traced with
    # grad: the backward graph comes with the forward's dtypes). An
    # inference graph traced without autocast is a plain f32 graph: its
    # autocast variants are compiled from the ambient state, as on 1.0.
    paired = is_operator_graph(gm) and (
        tensorplay.is_grad_enabled() or any(
            n.meta.get("is_backward", False) for n in gm.graph.nodes))
    traced_autocast = ambient_autocast("cpu")
    settings = dict(
        autocast=_autocast_option(options.get("autocast")),
        keep_io_types=bool(options.get("keep_io_types", False)),
        pipeline=_pipeline_option(options.get("pipeline", "")), name=name,
        opt_level=_opt_level_option(options.get("opt_level", 3)),
        cast_cache=bool(options.get("cast_cache", True)),
        compile_cache=bool(options.get("compile_cache", True)),
        tiered=bool(options.get("tiered", True)),
        fallback=bool(fallback))

    def compile_graph(graph_module, inputs):
        program = translate(graph_module, inputs)
        # (After translation, which propagated the dtypes with autocast
        # off: 1.0's frontend records the ambient autocast's.)
        half = carries_casts(graph_module)
        casts = half or paired
        return CompiledGraph(
            graph_module, program, carries_casts=casts, carries_half=half,
            traced_autocast=traced_autocast if casts else "", **settings)
    shared = write_through_shared_memory(gm)
    if shared is not None:
        message = (f"tensorplay_mlir: graph '{name}' runs on its Python "
                   f"executor: {shared} (compiled code gives each view its "
                   "own memory, so the write would not reach it)")
        if not fallback:
            raise BackendError(message)
        warnings.warn(message, RuntimeWarning, stacklevel=2)
        return gm
    try:
        return compile_graph(gm, example_inputs)
    except UnsupportedNode as e:
        if not fallback:
            raise BackendError(f"tensorplay_mlir: cannot compile graph "
                               f"'{name}': {e}") from e
        if not is_call(e.node):
            warnings.warn(f"tensorplay_mlir: graph '{name}' runs on its "
                          f"Python executor: {e}", RuntimeWarning,
                          stacklevel=2)
            return gm
        # The translatable rest is compiled in partitions (partition.py).
        return Partitioned(gm, compile_graph, e, name, example_inputs)
