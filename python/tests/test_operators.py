"""Every dispatcher-level operator of tensorplay 1.1 the translator claims
(generated from the operator registry, not hand-listed):

- its handler binds the operator's schema by name (no handler parameter
  is left without an argument, whatever the positions);
- with sample arguments made from its schema where it takes only tensors
  and scalars without defaults (tensors of shape (3, 4) in (0.5, 1.5),
  scalars 0.75), a one-node graph through the backend either
  gives eager's result (dtype, shape, values within 1e-5) or is refused
  with a reason; never a wrong number, never another error.

Where eager refuses the sample itself there is nothing to compare."""

import warnings

import numpy as np
import pytest
import tensorplay

from test_backend import AOT

pytestmark = pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no "
                                "dispatcher-level operators")


def claimed_overloads():
    from tensorplay_mlir.coverage import overloads
    for _, _, op, handler, in_place in overloads():
        if handler is not None:
            yield op, handler, in_place


# Overloads whose handler serves another form of the operator: binding
# finds no argument for one of its parameters, so they are refused.
UNBOUND = {
    "tp.where.default",  # where(condition): nonzero's indices, not a select
    # repeat_interleave(repeats): positions repeated by a tensor of counts
    # (a shape from values), not the repeat of a tensor by an int
    "tp.repeat_interleave.Tensor",
}


def test_every_claimed_operator_binds_by_name():
    from tensorplay_mlir.binding import BindingError, check_handler
    unbound, count = set(), 0
    for op, handler, _ in claimed_overloads():
        count += 1
        try:
            check_handler(handler, op)
        except BindingError:
            unbound.add(str(op))
    assert count > 300
    assert unbound == UNBOUND


def _sample(argument):
    """A sample value for a schema argument without a default, or a
    ValueError."""
    kind = str(argument.type)
    if kind == "Tensor":
        return tensorplay.rand(3, 4) + 0.5
    if kind == "Scalar":
        return 0.75
    # (Integer and list samples are left out: tensorplay's eager kernels
    # crash on some of them, e.g. a dim where an index is meant.)
    raise ValueError(kind)


def one_node_graph(op, values, kwargs=None):
    """A graph calling `op` once on `values` and `kwargs` (tensors, also
    those in a list, become its inputs), with its shapes propagated;
    (graph module, inputs)."""
    import tensorplay.graph as G
    from tensorplay.graph.passes.shape_prop import ShapeProp
    graph = G.Graph()
    inputs = []

    def placed(v):
        if isinstance(v, tensorplay.Tensor):
            inputs.append(v)
            return graph.placeholder(f"x{len(inputs) - 1}")
        if isinstance(v, list) and v and all(
                isinstance(t, tensorplay.Tensor) for t in v):
            return [placed(t) for t in v]
        return v
    args = [placed(v) for v in values]
    kwargs = {k: placed(v) for k, v in (kwargs or {}).items()}
    graph.output(graph.call_function(op, tuple(args), kwargs))
    gm = G.GraphModule(tensorplay.nn.Module(), graph)
    # (On copies: an operator that updates its inputs in place, as batch
    # norm's running statistics, must not be run on them here.)
    ShapeProp(gm).propagate(*[t.clone() for t in inputs])
    return gm, inputs


# Overloads whose eager kernel crashes the process (a segfault or an
# abort, not an exception) on the uniform samples: tensorplay 1.1's
# lstm_cell with (3, 4) states and weights, its min.other of two (3, 4)
# tensors (tensorplay.minimum computes the same and is compared) and its
# ormqr of (3, 4) tau (test_composite_ops.py runs ormqr on a geqrf).
EAGER_CRASHES = {"tp.lstm_cell.default", "tp.min.other", "tp.ormqr.default"}


# Operators whose eager result is uninitialized memory: dtype and shape are
# compared, not values.
UNINITIALIZED = {"empty", "empty_like", "new_empty", "empty_strided",
                 "new_empty_strided", "empty_permuted"}


def test_claimed_operators_match_eager_or_refuse():
    from tensorplay_mlir.backend import BackendError, backend
    compared, refused, wrong = [], [], []
    for op, _, in_place in claimed_overloads():
        schema = op._schema
        if in_place or schema.is_mutable or any(a.is_out for a in
                                                schema.arguments) or \
                str(op) in EAGER_CRASHES:
            continue
        try:
            tensorplay.manual_seed(0)
            values = [_sample(a) for a in schema.arguments
                      if not a.has_default]
        except ValueError:
            continue
        try:
            want = op(*values)
        except Exception:
            continue  # eager refuses the sample
        if not isinstance(want, tensorplay.Tensor) or \
                not want.dtype.is_floating_point:
            continue
        gm, inputs = one_node_graph(op, values)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = backend(gm, inputs, options={"fallback": False})(
                    *inputs)
        except BackendError as e:
            assert "node '" in str(e) or "'tp." in str(e), \
                f"{op}: a refusal without a reason: {e}"
            refused.append(str(op))
            continue
        a = np.asarray(got.float().numpy(), np.float64)
        b = np.asarray(want.float().numpy(), np.float64)
        if str(op).split(".")[1] in UNINITIALIZED:
            b = a  # eager's values are whatever the memory held
        if got.dtype != want.dtype or a.shape != b.shape or not np.allclose(
                a, b, rtol=1e-5, atol=1e-6, equal_nan=True):
            wrong.append(f"{op}: {got.dtype} {a.shape} against {want.dtype} "
                         f"{b.shape}")
        compared.append(str(op))
    assert not wrong, "\n".join(wrong)
    # The registry's simple operators: most must compile.
    assert len(compared) >= 100, (len(compared), refused)


def test_batch_norm_binds_by_name_in_both_forms():
    """1.1's batch_norm.default(input, weight, bias, running_mean, ...) and
    F.batch_norm(input, running_mean, running_var, weight, ...) reach the
    same handler with each argument in its place (it was read in
    F.batch_norm's order: garbage with no warning)."""
    import inspect
    import tensorplay.nn.functional as F
    from tensorplay_mlir.binding import bind
    from tensorplay_mlir.ops import HANDLERS
    handler = HANDLERS["batch_norm"]
    names = list(inspect.signature(handler).parameters)[2:]
    op_args = ("x", "w", "b", "mean", "var", True, 0.1, 1e-5)
    fn_args = ("x", "mean", "var", "w", "b", True, 0.1, 1e-5)
    for target, args in ((tensorplay.ops.tp.batch_norm.default, op_args),
                         (F.batch_norm, fn_args)):
        bound, kwargs = bind(handler, target, args, {})
        got = dict(zip(names, bound), **kwargs)
        assert (got["running_mean"], got["running_var"], got["weight"],
                got["bias"], got["training"]) == ("mean", "var", "w", "b",
                                                   True), target


def test_an_argument_no_handler_reads_is_refused():
    from tensorplay_mlir.binding import BindingError, bind
    from tensorplay_mlir.ops import HANDLERS
    # op.embedding reads sparse and refuses it itself; layer_norm's handler
    # has no parameter for an unknown extra argument.
    with pytest.raises(BindingError, match="unknown argument"):
        bind(HANDLERS["layer_norm"], tensorplay.ops.tp.layer_norm.default,
             ("x", [4]), {"bogus": 1})


def test_the_coverage_table_in_docs_is_current():
    """docs/OperatorCoverage.md is `python -m tensorplay_mlir.coverage`'s
    output: regenerate it when the translator's coverage changes."""
    import os
    from tensorplay_mlir.coverage import markdown
    path = os.path.join(os.path.dirname(__file__), "..", "..", "docs",
                        "OperatorCoverage.md")
    with open(path) as f:
        committed = f.read()
    assert committed == markdown(), (
        "docs/OperatorCoverage.md is stale: run `python -m "
        "tensorplay_mlir.coverage > docs/OperatorCoverage.md` in "
        "build/python-venv-1.1")


def test_every_refusal_names_its_reason():
    """No overload of the registry is left without a translation and
    without a named reason (the default 'not translated yet')."""
    from tensorplay_mlir.coverage import _DEFAULT, rows
    unexplained = [f"{name}.{overload}" for name, overload, status, detail
                   in rows() if status == "refused" and detail == _DEFAULT]
    assert not unexplained, unexplained
