"""``tensorplay_mlir.explain(model_or_fn, *args)``: what
``tensorplay.compile(..., backend="mlir")`` does with a call, in the spirit
of ``torch._dynamo.explain``.

It compiles and runs the call once (under the caller's autocast and grad
state) with the frontend's tracer recording each node's source line, and
reports per captured graph: its partitions and their nodes, every node that
runs on the Python executor with its reason, the compile time of each
compiled variant, and per node its user source line, the tp ops it became
with their result dtypes after tp-autocast, and the casts autocast put
there. ``str()`` of the result is a readable report.
"""

import re
import time
from dataclasses import dataclass, field

import tensorplay

from . import _core
from .backend import backend
from .compiled import CompiledGraph
from .partition import Partitioned, is_call
from .translate import describe_target, user_frame


@dataclass
class NodeReport:
    name: str
    target: str
    source: str  # "file:line", or "" where the frontend recorded none
    ops: list = field(default_factory=list)  # (tp op, result types)
    autocast_casts: int = 0  # tp.cast ops tp-autocast added for it
    compiled: bool = True


@dataclass
class PartitionReport:
    name: str
    nodes: list  # node names
    compiled: bool
    compile_seconds: dict = field(default_factory=dict)


@dataclass
class GraphReport:
    kind: str  # 'forward', 'backward'
    nodes: list  # NodeReport per call node
    partitions: list
    fallbacks: list  # partition.Fallback
    translate_seconds: float = 0.0


@dataclass
class Explanation:
    graphs: list
    output: object = None

    @property
    def fallbacks(self):
        return [f for g in self.graphs for f in g.fallbacks]

    @property
    def compile_seconds(self):
        return sum(t for g in self.graphs for p in g.partitions
                   for t in p.compile_seconds.values()) + sum(
            g.translate_seconds for g in self.graphs)

    def __str__(self):
        lines = [f"{len(self.graphs)} graphs, "
                 f"{sum(len(g.partitions) for g in self.graphs)} partitions, "
                 f"{len(self.fallbacks)} nodes on the Python executor, "
                 f"{self.compile_seconds:.2f} s compiling"]
        for i, g in enumerate(self.graphs):
            lines.append(f"graph {i} ({g.kind}): {len(g.nodes)} nodes, "
                         f"translated in {g.translate_seconds:.2f} s")
            for p in g.partitions:
                how = "compiled" if p.compiled else "Python executor"
                times = ", ".join(f"{key or 'no autocast'}: {t:.2f} s"
                                  for key, t in p.compile_seconds.items())
                lines.append(f"  {p.name}: {len(p.nodes)} nodes, {how}"
                             + (f" ({times})" if times else ""))
            for f in g.fallbacks:
                lines.append(f"  executor: '{f.name}' ({f.target}): "
                             f"{f.reason}")
            for n in g.nodes:
                ops = "; ".join(f"{op} -> {types}" for op, types in n.ops)
                casts = f", {n.autocast_casts} autocast casts" \
                    if n.autocast_casts else ""
                where = f"  [{n.source}]" if n.source else ""
                what = ops or ("no op (a view, copy or Python value)"
                               if n.compiled else "Python executor")
                lines.append(f"    {n.name} ({n.target}): "
                             f"{what}{casts}{where}")
        return "\n".join(lines)


_OP_LINE = re.compile(
    r"=\s*tp\.([a-z_0-9]+)\b.*(?:->|\bto)\s*(.+?)\s+loc\(\"([^\"]+)\"")


def _ops_by_node(text):
    """{node name: [(tp op, result types)]} of a module printed with its
    locations."""
    ops = {}
    for line in text.splitlines():
        match = _OP_LINE.search(line)
        if match:
            op, types, node = match.groups()
            ops.setdefault(node, []).append((op, types.strip()))
    return ops


def _describe_compiled(compiled, nodes):
    """Fills `nodes` (name -> NodeReport) from a CompiledGraph: its ops
    after tp-autocast of the state it was called in."""
    target = next((key[0] for key in compiled.variants), "")
    before = _ops_by_node(_core.transform(compiled.program.text,
                                          locations=True))
    after = _ops_by_node(_core.transform(
        compiled.program.text, autocast=target, locations=True)) \
        if target else before
    for name, ops in after.items():
        if name in nodes:
            nodes[name].ops = ops
            nodes[name].autocast_casts = max(0, sum(
                op == "cast" for op, _ in ops) - sum(
                op == "cast" for op, _ in before.get(name, [])))


def _partition_report(name, compiled, node_names):
    if isinstance(compiled, CompiledGraph):
        seconds = {key[0] + ("/training" if key[1] else ""): t
                   for key, t in compiled.compile_seconds.items()}
        return PartitionReport(name, node_names, True, seconds)
    return PartitionReport(name, node_names, False)


def _graph_report(gm, result, seconds):
    nodes = {}
    for node in gm.graph.nodes:
        if is_call(node):
            frame = user_frame(node)
            nodes[node.name] = NodeReport(
                node.name, describe_target(node),
                f"{frame[0]}:{frame[1]}" if frame else "")
    kind = "backward" if any(n.meta.get("is_backward", False)
                             for n in gm.graph.nodes) else "forward"
    partitions, fallbacks = [], []
    if isinstance(result, CompiledGraph):
        partitions.append(_partition_report("graph", result, list(nodes)))
        _describe_compiled(result, nodes)
    elif isinstance(result, Partitioned):
        fallbacks = list(result.fallbacks.values())
        for name, lazy in result.partitions.items():
            names = [n.name for n in lazy.graph_module.graph.nodes
                     if is_call(n)]
            partitions.append(_partition_report(name, lazy.compiled, names))
            if isinstance(lazy.compiled, CompiledGraph):
                _describe_compiled(lazy.compiled, nodes)
        for f in fallbacks:
            if f.name in nodes:
                nodes[f.name].compiled = False
    else:
        partitions.append(PartitionReport("graph", list(nodes), False))
        for n in nodes.values():
            n.compiled = False
    return GraphReport(kind, list(nodes.values()), partitions, fallbacks,
                       seconds)


class _StackTraces:
    """While explain() captures, every node the frontend creates records
    the Python stack it was made from (innermost frame first), which
    translate.user_frame reads: the frontend's tracers record none."""

    def __enter__(self):
        import traceback
        from tensorplay.graph import Graph
        self.original = Graph.create_node
        original = self.original
        # Only the frames the captured call opened: a node a frontend pass
        # makes (a decomposition) has no user line of its own.
        outer = len(traceback.extract_stack())

        def create_node(graph, *args, **kwargs):
            node = original(graph, *args, **kwargs)
            if not node.meta.get("stack_trace"):
                frames = traceback.extract_stack()[outer:-1]
                node.meta["stack_trace"] = "\n".join(
                    f'File "{f.filename}", line {f.lineno}, in {f.name}'
                    for f in reversed(frames))
            return node
        Graph.create_node = create_node
        return self

    def __exit__(self, *exc):
        from tensorplay.graph import Graph
        Graph.create_node = self.original


def explain(model_or_fn, *args, options=None, backward=False, **kwargs):
    """Compiles and calls `model_or_fn(*args, **kwargs)` once through the
    mlir backend and returns an :class:`Explanation`. With `backward`, the
    sum of the floating outputs is also differentiated (training graphs of
    tensorplay 1.1 reach the backend at the first backward)."""
    recorded = []

    def recording(gm, example_inputs, **kw):
        started = time.perf_counter()
        result = backend(gm, example_inputs, **kw)
        recorded.append((gm, result, time.perf_counter() - started))
        return result
    compiled = tensorplay.compile(model_or_fn, backend=recording,
                                  options=options)
    with _StackTraces():
        output = compiled(*args, **kwargs)
    if backward:
        outs = output if isinstance(output, (tuple, list)) else [output]
        total = None
        for o in outs:
            if isinstance(o, tensorplay.Tensor) and o.requires_grad:
                part = o.float().sum()
                total = part if total is None else total + part
        if total is not None:
            total.backward()
    return Explanation([_graph_report(gm, result, seconds)
                        for gm, result, seconds in recorded], output)
