"""Partitioning: a graph with nodes the translator cannot express still has
its other nodes compiled.

The graph is cut, in its own order, at every untranslatable node: each
maximal run of translatable nodes becomes a partition compiled by the
backend (a CompiledGraph, on its first call with that call's tensors), and
each untranslatable node a partition of its own that runs on the graph's
Python executor. Which nodes cannot be translated is found by translating:
a partition whose translation fails at a node gets that node cut out, and
the cutting repeats (at most once per node).
"""

import warnings
from dataclasses import dataclass

import tensorplay

from .translate import UnsupportedNode, describe_target


@dataclass
class Fallback:
    """A node that runs on the executor, and why."""
    name: str
    target: str
    reason: str


class Partitioned:
    """What the backend returns for a graph with untranslatable nodes: the
    graph split at them (a GraphModule whose translatable partitions are
    LazyPartitions), run as one callable. A partition whose translation
    fails at a node gets that node cut out: the call runs the partition
    on the executor, and the next call takes the finer split. One warning
    names every node that runs on the executor, and again when the list
    grows."""

    def __init__(self, gm, compile_fn, first, name, example_inputs):
        from .translate import propagate_without_autocast
        self.gm = gm
        self.compile_fn = compile_fn
        self.name = name
        # Each value's dtype without autocast: a compiled partition returns
        # autocast's dtypes (bf16 where eager would), and the next one is
        # translated from the graph's own (1.0's frontend records the
        # ambient autocast's).
        propagate_without_autocast(gm, example_inputs)
        self.dtypes = {n.name: getattr(n.meta.get("tensor_meta"), "dtype",
                                       None) for n in gm.graph.nodes}
        self.fallbacks = {}
        self.add_fallback(first)
        self.warned = 0
        self.build()

    def add_fallback(self, error):
        self.fallbacks[error.node.name] = Fallback(
            error.node.name, describe_target(error.node), error.reason)

    def build(self):
        self.module, executor = split(self.gm, set(self.fallbacks))
        self.partitions = {}
        for child_name, child in list(self.module.named_children()):
            if child_name not in executor:
                lazy = LazyPartition(child, self)
                setattr(self.module, child_name, lazy)
                self.partitions[child_name] = lazy
        self.stale = False

    def graph_dtypes(self, names, args):
        """`args` of the partition whose inputs are named `names`, cast to
        the graph's own dtypes (exact: bf16 and f16 widen)."""
        out = []
        for name, a in zip(names, args):
            want = self.dtypes.get(name)
            if isinstance(a, tensorplay.Tensor) and want is not None and \
                    a.dtype != want and a.dtype.is_floating_point and \
                    want.is_floating_point:
                a = a.to(want)
            out.append(a)
        return out

    def __call__(self, *args, **kwargs):
        out = self.module(*args, **kwargs)
        if self.stale:
            self.build()
        if self.warned != len(self.fallbacks):
            self.warned = len(self.fallbacks)
            listed = "; ".join(f"'{f.name}' ({f.target}): {f.reason}"
                               for f in self.fallbacks.values())
            warnings.warn(
                f"tensorplay_mlir: graph '{self.name}' is compiled in "
                f"{len(self.partitions)} partitions; "
                f"{len(self.fallbacks)} nodes run on its Python executor: "
                f"{listed}", RuntimeWarning, stacklevel=2)
        return out


class LazyPartition(tensorplay.nn.Module):
    """Translatable nodes: compiled on the first call (its tensors are the
    example inputs), then called."""

    def __init__(self, gm, owner):
        super().__init__()
        self.graph_module = gm
        self.owner = owner
        self.compiled = None
        self.input_names = [n.target for n in gm.graph.nodes
                            if n.op == "placeholder"]

    def forward(self, *args):
        args = self.owner.graph_dtypes(self.input_names, args)
        if self.compiled is None:
            try:
                self.compiled = self.owner.compile_fn(self.graph_module,
                                                      list(args))
            except UnsupportedNode as e:
                # A call is cut out for the next calls; anything else (an
                # input the translator cannot take) keeps this partition on
                # the executor.
                if is_call(e.node) and e.node.name not in self.owner.fallbacks:
                    self.owner.stale = True
                self.owner.add_fallback(e)
                self.compiled = self.graph_module
        return self.compiled(*args)


def is_call(node):
    return node.op in ("call_function", "call_method")


def _segments(gm, cut):
    """node -> partition index: runs of nodes not in `cut` share an index,
    each node of `cut` gets its own."""
    index, assignment, previous_cut = 0, {}, True
    for node in gm.graph.nodes:
        if node.op in ("placeholder", "get_attr", "output"):
            continue
        is_cut = node.name in cut
        if is_cut or previous_cut:
            index += 1
        assignment[node] = index
        previous_cut = is_cut
    return assignment


def _with_parts(gm, cut):
    """`cut` and the getitem nodes that take parts of a cut node's tuple
    result (a partition's inputs are tensors)."""
    import operator
    cut = set(cut)
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is operator.getitem \
                and getattr(node.args[0], "name", None) in cut:
            cut.add(node.name)
    return cut


def split(gm, cut):
    """The GraphModule of `gm` split at the nodes named in `cut`, and the
    names of its submodules that hold only cut nodes."""
    from tensorplay.graph.passes.split_module import split_module
    cut = _with_parts(gm, cut)
    assignment = _segments(gm, cut)
    split_gm = split_module(gm, gm, lambda node: assignment[node],
                            keep_original_node_name=True)
    executor = set()
    for name, child in split_gm.named_children():
        calls = [n for n in child.graph.nodes if is_call(n)]
        if calls and all(n.name in cut for n in calls):
            executor.add(name)
    return split_gm, executor


