"""The callable the backend returns: compiled variants chosen at call time.

One translated graph (a :class:`~tensorplay_mlir.translate.Program`) is
compiled lazily into variants keyed by

- the autocast target it is compiled for: read from the ambient state
  (``tensorplay.is_autocast_enabled('cpu')``, ``get_autocast_dtype``) at
  every call, because the frontend neither records autocast in the graph nor
  keys its cache on it; fixed by ``options={"autocast": "cpu:bf16"}``; none
  for graphs that already carry autocast's casts (tensorplay 1.1's AOT path);
- which arguments require grad, when autograd records the call: that
  variant also holds ``@forward_vjp_grad`` (tp-autodiff of the cotangent
  contraction), which the backward of a ``tensorplay.autograd.Function``
  runs.

Every call checks each input's shape and dtype against the translated
graph (the frontend's memo, keyed on tensor id and version, can hand over
others when memory is reused) and refuses a mismatch with a clear error.
"""

import threading
import time

import tensorplay

from . import _core, dtypes
from .cast_cache import CastCache
from .translate import Leaf, fetch_attr

Tensor = tensorplay.Tensor


# A variant that failed to compile: its calls run the graph's executor.
FALLBACK = object()


class GuardError(RuntimeError):
    """A call with inputs the compiled graph was not made for."""


class AutocastMismatchError(RuntimeError):
    """A graph traced with autocast's casts called under another state."""


def ambient_autocast(device="cpu"):
    """The tp-autocast target of the ambient autocast state, or ''."""
    if not tensorplay.is_autocast_enabled(device):
        return ""
    return dtypes.autocast_target(device, tensorplay.get_autocast_dtype(device))


class Variant:
    """One compiled module: @forward (and, for training, @forward_vjp_grad)."""

    def __init__(self, program, autocast, keep_io_types, wrt, pipeline,
                 cast_args=(), opt_level=3, compile_cache=True, tiered=False):
        """`cast_args`: the arguments @forward may take rounded
        (tp-cast-arguments), empty for none."""
        self.wrt = wrt
        self.build_seconds = 0.0
        self.updated_args = [k for k, _ in program.writebacks]
        source = program.module_text(vjp=wrt is not None)
        self.loss_index = program.loss_result() if wrt is not None else None
        autodiff = ["forward_vjp"] if wrt is not None else []
        if self.loss_index is not None:
            autodiff.append("forward_loss")
        # The parameters the forward only casts down are passed rounded
        # (cast_cache.py) to @forward. Not to the training functions: a
        # training loop updates the parameters between calls, so the copies
        # would be made again by eager casts each step, slower than the
        # casts fused into the compiled code (19.3 against 12.4 ms for the
        # MLP's bf16 step).
        cast_functions = ["forward"] if cast_args else []
        self.exe = _core.Executable(source, autocast=autocast,
                                    keep_io_types=keep_io_types,
                                    autodiff=autodiff, wrt=list(wrt or []),
                                    cast_functions=cast_functions,
                                    cast_args=list(cast_args),
                                    pipeline_options=pipeline,
                                    opt_level=opt_level,
                                    cache=compile_cache, tiered=tiered)
        self.arg_specs, self.result_specs, _ = self.exe.signature("forward")
        self.result_alloc = _allocation(self.result_specs)
        self.program_kinds = [dtypes.kind_of_elt(a.elt)
                              for a in program.arguments]
        self.cot_results = program.differentiable_results()
        if wrt is not None:
            self.grad_arg_specs, self.grad_results, _ = \
                self.exe.signature("forward_vjp_grad")
            self.grad_alloc = _allocation(self.grad_results)
        if self.loss_index is not None:
            self.loss_arg_specs, self.loss_result_specs, _ = \
                self.exe.signature("forward_loss_grad")
            self.loss_alloc = _allocation(self.loss_result_specs)
        # Speculation (autograd.py): the loss seed the last backward used,
        # and how many speculative results no backward consumed yet.
        self.seed = 1.0
        self.unconsumed = 0
        self.speculate = self.loss_index is not None

    def compile_seconds(self):
        times = self.exe.compile_times()
        return self.build_seconds + times["optimize"] + times["codegen"] + \
            times["load"]

    def forward_and_grads(self, tensors, seed, cache=None):
        """@forward's results and the gradients of seed * loss w.r.t. the
        wrt arguments, in one call of @forward_loss_grad."""
        if cache is not None:
            tensors = self.rounded(tensors, self.loss_arg_specs, cache)
        seed_tensor = tensorplay.full((), float(seed), dtype=tensorplay.float32)
        outs = _allocate(self.loss_alloc)
        self.exe.run_addresses("forward_loss_grad",
                               _addresses(list(tensors) + [seed_tensor]),
                               _addresses(outs))
        n = len(self.result_specs)
        return outs[1:1 + n], outs[1 + n:]

    def rounded(self, tensors, specs, cache):
        """`tensors` with the parameters `specs` takes rounded replaced by
        their cached copies."""
        out = list(tensors)
        for i, (kind, _) in enumerate(specs[:len(self.program_kinds)]):
            if kind != self.program_kinds[i]:
                out[i] = cache.get(tensors[i], dtypes.from_kind(kind))
        return out

    def forward(self, tensors, cache=None):
        if cache is not None:
            tensors = self.rounded(tensors, self.arg_specs, cache)
        outs = _allocate(self.result_alloc)
        self.exe.run_addresses("forward", _addresses(tensors),
                               _addresses(outs))
        return outs

    def vjp(self, tensors, cotangents):
        """d(sum_k <result_k, cotangent_k>)/d(argument) for the wrt
        arguments; `cotangents` per floating result (None: zero)."""
        cots = []
        for k, g in zip(self.cot_results, cotangents):
            _, shape = self.result_specs[k]
            if g is None:
                g = tensorplay.zeros(tuple(shape), dtype=tensorplay.float32)
            elif g.dtype != tensorplay.float32:
                g = g.float()  # bf16/f16 -> f32 is exact
            # Autograd hands over cotangents as they come: sum's backward
            # gives an expanded (stride 0) one.
            cots.append(g if g.is_contiguous() else g.contiguous())
        outs = _allocate(self.grad_alloc)
        self.exe.run_addresses("forward_vjp_grad",
                               _addresses(list(tensors) + cots),
                               _addresses(outs))
        return outs[1:]


def _allocation(specs):
    """(shape, tensorplay dtype) per (kind, shape) result spec: what
    _allocate needs, worked out once per compiled function."""
    return [(tuple(shape), dtypes.from_kind(kind)) for kind, shape in specs]


def _allocate(allocation):
    """Fresh tensors, which the compiled code writes."""
    empty = tensorplay.empty
    return [empty(shape, dtype=dtype) for shape, dtype in allocation]


def _addresses(tensors):
    """The tensors' data addresses, for Executable.run_addresses: each
    tensor is of its signature's dtype and shape (checked by gather() for
    the inputs, made so for the rest), and dense."""
    addresses = []
    for t in tensors:
        if not t.is_contiguous():
            raise GuardError("internal: a non-contiguous tensor reached the "
                             "compiled code")
        addresses.append(t.data_ptr())
    return addresses


class CompiledGraph:
    """What `backend` returns for a graph it could translate."""

    def __init__(self, gm, program, *, autocast=None, keep_io_types=False,
                 carries_casts=False, carries_half=False, traced_autocast="",
                 pipeline="", opt_level=3, compile_cache=True, tiered=True,
                 name="graph", cast_cache=True, fallback=True):
        self.gm = gm
        self.program = program
        self.fixed_autocast = autocast
        self.keep_io_types = keep_io_types
        self.carries_casts = carries_casts
        # Whether the graph computes in bf16/f16 at all: an f32 graph has
        # no parameter casts for cached copies to save.
        self.carries_half = carries_half
        self.traced_autocast = traced_autocast
        self.pipeline = pipeline
        self.opt_level = opt_level
        self.compile_cache = compile_cache
        self.tiered = tiered
        self.name = name
        self.variants = {}
        self.built = {}  # (autocast, wrt, cast_args) -> Variant
        self.last_stamps = None
        self.fallback = fallback
        self.cast_cache = CastCache(cast_cache)
        # Parameters (and captured tensors): what tp-cast-arguments may
        # retype; a placeholder changes every call.
        self.cast_args = [i for i, src in enumerate(program.inputs)
                          if src.kind != "placeholder"]
        self.lock = threading.Lock()
        self.specs = [(a.elt, tuple(a.shape)) for a in program.arguments]
        # What each input must be, as gather() compares it on every call:
        # (positional index or -1 for other sources, tensorplay dtype or
        # None where the element type has none, shape).
        self.expected = [
            (src.index if src.kind == "placeholder" else -1,
             dtypes.from_elt(elt), shape)
            for src, (elt, shape) in zip(program.inputs, self.specs)]
        self.placeholders = 1 + max(
            (src.index for src in program.inputs if src.kind == "placeholder"),
            default=-1)
        # The outputs as a tuple of results, when they are no more: rebuilt
        # without walking the template.
        self.flat_outputs = _flat_results(program.outputs)
        self.is_backward = any(n.meta.get("is_backward", False)
                               for n in gm.graph.nodes)

    @property
    def compile_seconds(self):
        """(autocast, wrt, cast_args) -> seconds spent compiling that
        variant so far: its build (translation, transforms, lowering) and
        the machine code of the functions called so far (each generated at
        its first call, or read from the compile cache)."""
        return {key: v.compile_seconds() for key, v in self.built.items()}

    def wait_for_background(self):
        """Waits for the optimized (second tier) code of the functions
        called so far (the `tiered` option)."""
        for v in self.built.values():
            v.exe.wait_for_background()

    @property
    def from_compile_cache(self):
        """(autocast, wrt, cast_args) -> whether the compile cache knew the
        variant (no lowering, code read instead of generated)."""
        return {key: v.exe.from_cache() for key, v in self.built.items()}

    # --- choosing the variant --------------------------------------------
    def autocast_target(self):
        if self.fixed_autocast is not None:
            return self.fixed_autocast
        ambient = ambient_autocast("cpu")
        if self.carries_casts:
            # A backward graph runs when .backward() is called, usually
            # outside autocast: its dtypes are the forward's, never
            # re-decided from the ambient state.
            if not self.is_backward and ambient != self.traced_autocast:
                raise AutocastMismatchError(
                    f"tensorplay_mlir: graph '{self.name}' was traced with "
                    f"autocast's casts for {self.traced_autocast or 'no autocast'} "
                    f"and is now called under {ambient or 'no autocast'}: "
                    "tensorplay.compile does not key its cache on the autocast "
                    "state, so it reuses a graph whose dtypes were decided for "
                    "another state. Compile one function per autocast state "
                    "(e.g. tensorplay.compile(model) inside and outside the "
                    "autocast region separately) or pass "
                    "options={'autocast': ...}.")
            return ""
        return ambient

    def variant(self, autocast, wrt, cast_args=()):
        key = (autocast, wrt) if not cast_args else (autocast, wrt, cast_args)
        variant = self.variants.get(key)
        if variant is None:
            with self.lock:
                variant = self.variants.get(key)
                if variant is None:
                    variant = self.compile_variant(autocast, wrt, cast_args)
                    self.variants[key] = variant
        return variant

    def compile_variant(self, autocast, wrt, cast_args):
        """A new Variant, or FALLBACK (with one warning) when compiling it
        fails and fallback is on."""
        started = time.perf_counter()
        try:
            variant = Variant(self.program, autocast, self.keep_io_types, wrt,
                              self.pipeline, cast_args, self.opt_level,
                              self.compile_cache, self.tiered)
            variant.build_seconds = time.perf_counter() - started
            self.built[(autocast, wrt, cast_args)] = variant
            return variant
        except RuntimeError as e:
            what = f"{'training' if wrt else 'inference'}, " \
                   f"{autocast or 'no autocast'}"
            if not self.fallback:
                from .backend import BackendError
                raise BackendError(f"tensorplay_mlir: cannot compile graph "
                                   f"'{self.name}' ({what}): {e}") from e
            import warnings
            warnings.warn(f"tensorplay_mlir: graph '{self.name}' ({what}) runs "
                          f"on its Python executor: compiling it failed: {e}",
                          RuntimeWarning, stacklevel=4)
            return FALLBACK

    # --- inputs -----------------------------------------------------------
    def fetch(self, source, args):
        """The value of input `source` (an Input) for a call with `args`."""
        if source.kind == "placeholder":
            return args[source.index]
        if source.kind == "attr":
            return fetch_attr(self.gm, source.name)
        return source.tensor

    def gather(self, args):
        if len(args) < self.placeholders:
            raise GuardError(
                f"tensorplay_mlir: graph '{self.name}' takes input "
                f"#{self.placeholders - 1}, got {len(args)} arguments")
        tensors = []
        for i, (index, dtype, shape) in enumerate(self.expected):
            t = args[index] if index >= 0 else \
                self.fetch(self.program.inputs[i], args)
            if not (isinstance(t, Tensor) and t.shape == shape and
                    t.dtype == dtype):
                self.check(i, self.program.inputs[i], t)
            if not t.is_contiguous():
                t = t.contiguous()
            tensors.append(t)
        return tensors

    def check(self, i, source, t):
        elt, shape = self.specs[i]
        if not isinstance(t, tensorplay.Tensor):
            raise GuardError(f"tensorplay_mlir: graph '{self.name}' input "
                             f"{_describe(source)} must be a tensor, got "
                             f"{type(t).__name__}")
        got_shape = tuple(t.shape)
        try:
            got_elt = dtypes.mlir_type(t.dtype)
        except dtypes.UnsupportedDtype:
            got_elt = str(t.dtype)
        if got_shape != shape or got_elt != elt:
            raise GuardError(
                f"tensorplay_mlir: graph '{self.name}' was compiled for input "
                f"{_describe(source)} of shape {list(shape)} and dtype {elt}, "
                f"but is called with shape {list(got_shape)} and dtype "
                f"{got_elt}. tensorplay.compile's memo keys on tensor id and "
                "version, which memory reuse breaks; call the compiled "
                "function again with fresh tensors or recompile "
                "(tensorplay.compile the model anew).")

    # --- calling ----------------------------------------------------------
    def bind(self, args, kwargs):
        """The user's arguments in placeholder order (the frontend calls
        the backend's callable with the raw *args, **kwargs)."""
        if not kwargs:
            return args
        names = self.program.placeholder_names or []
        bound = list(args) + [None] * max(0, len(names) - len(args))
        given = [True] * len(args) + [False] * (len(bound) - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise GuardError(f"tensorplay_mlir: graph '{self.name}' has no "
                                 f"input named '{key}' (inputs: {names})")
            i = names.index(key)
            if i < len(args):
                raise GuardError(f"tensorplay_mlir: graph '{self.name}': input "
                                 f"'{key}' given twice")
            bound[i], given[i] = value, True
        needed = {src.index for src in self.program.inputs
                  if src.kind == "placeholder"}
        missing = [names[i] for i in sorted(needed) if not given[i]]
        if missing:
            raise GuardError(f"tensorplay_mlir: graph '{self.name}' misses "
                             f"inputs {missing}")
        return tuple(bound)

    def __call__(self, *args, **kwargs):
        args = self.bind(args, kwargs)
        tensors = self.gather(args)
        autocast = self.autocast_target()
        wrt = None
        # Graphs with decided dtypes come from 1.1's AOT autograd, which
        # differentiates them itself.
        if tensorplay.is_grad_enabled() and not self.carries_casts:
            mask = tuple(i for i, (t, (elt, _)) in enumerate(
                zip(tensors, self.specs))
                if t.requires_grad and elt in dtypes.FLOATING)
            if mask and self.program.differentiable_results():
                wrt = mask
        variant = self.variant(autocast, wrt, self.rounded_arguments(
            tensors, autocast, wrt))
        if variant is FALLBACK:
            return self.gm(*args)
        if wrt is None:
            results = variant.forward(tensors, self.cast_cache)
        else:
            from .autograd import apply_compiled
            results = apply_compiled(variant, tensors, self.cast_cache)
        self.write_back(args, results)
        return self.outputs(results, args)

    def write_back(self, args, results):
        """Copies the in-place updates of arguments (running statistics,
        counters) into their memory."""
        if not self.program.writebacks:
            return
        with tensorplay.no_grad():
            for k, r in self.program.writebacks:
                self.fetch(self.program.inputs[k], args).copy_(results[r])

    def rounded_arguments(self, tensors, autocast, wrt):
        """The arguments the forward may take already rounded (cast_cache.py),
        as a tuple; empty for a variant that casts them itself.

        Graphs without casts: the parameters, under autocast, for inference
        (a training loop changes them every step: the casts fused into the
        compiled code are cheaper than new eager copies). 1.1's AOT graphs
        hold their casts and their parameters are placeholders, which
        inference and training share: the parameters (inputs that require
        grad) once two calls in a row saw them unchanged, so that an
        inference loop gets the cached copies and a training loop keeps the
        casts in the compiled code; none for an AOT graph computing in f32
        only (it casts nothing: a second variant would only cost a
        compile)."""
        if wrt is not None:
            return ()
        if not self.carries_casts:
            return tuple(self.cast_args) if autocast else ()
        if not self.carries_half:
            return ()
        candidates = tuple(i for i, (src, t) in enumerate(
            zip(self.program.inputs, tensors))
            if src.kind != "placeholder" or t.requires_grad)
        stamps = tuple((id(tensors[i]), tensors[i]._version,
                        tensors[i].data_ptr()) for i in candidates)
        stable = bool(candidates) and stamps == self.last_stamps
        self.last_stamps = stamps
        return candidates if stable else ()

    def outputs(self, results, args):
        """What the graph returns: a tuple of results directly, anything
        else rebuilt from its template."""
        if self.flat_outputs is not None:
            return tuple([results[k] for k in self.flat_outputs])
        return self.rebuild(self.program.outputs, results, args)

    def rebuild(self, template, results, args):
        if isinstance(template, list):
            return [self.rebuild(t, results, args) for t in template]
        if isinstance(template, Leaf):
            kind, value = template
            if kind == "result":
                return results[value]
            if kind == "input":
                return self.fetch(value, args)
            return value
        if isinstance(template, tuple):
            return tuple(self.rebuild(t, results, args) for t in template)
        return template


def _flat_results(template):
    """[k, ...] where `template` is a tuple of ('result', k) leaves, else
    None."""
    if type(template) is not tuple:
        return None
    ks = []
    for leaf in template:
        if not isinstance(leaf, Leaf) or leaf[0] != "result":
            return None
        ks.append(leaf[1])
    return ks


def _describe(source):
    if source.kind == "placeholder":
        return f"#{source.index}"
    if source.kind == "attr":
        return f"'{source.name}'"
    return "(a captured tensor)"
