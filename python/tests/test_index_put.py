"""Writes through an index: `y[idx] = v` (an integer index tensor),
`y[mask] = c` (a boolean mask and one value), `y[i, j] += v` (accumulate
through index_put), as 1.0's graphs hold them (operator.setitem) and as
1.1's operator graphs do (index_put), against eager: values, and on 1.0
gradients through the compiled backward. A write into a tensor whose
views the graph also uses is refused (eager's views would change)."""

import warnings

import numpy as np
import pytest
import tensorplay
from tensorplay import nn

from test_backend import AOT


class Writes(nn.Module):
    def __init__(self):
        super().__init__()
        tensorplay.manual_seed(0)
        self.lin = nn.Linear(4, 4)

    def forward(self, x, idx, mask):
        y = self.lin(x)
        y[idx] = 0.5 * y[idx]
        y[mask] = -1.0
        return y * 2.0


def inputs():
    tensorplay.manual_seed(1)
    x = tensorplay.randn(5, 4)
    idx = tensorplay.tensor([0, 3, -1])
    mask = tensorplay.rand(5, 4) > 0.6
    return x, idx, mask


def close(a, b, what):
    np.testing.assert_allclose(np.asarray(a.detach().float().numpy()),
                               np.asarray(b.detach().float().numpy()),
                               rtol=1e-5, atol=1e-6, err_msg=what)


def central_differences(model, args, parameter, h=1e-3):
    """d sum(model(*args)) / d parameter from eager's forward (f64 sums)."""
    grad = tensorplay.zeros_like(parameter)
    with tensorplay.no_grad():
        for k in range(parameter.numel()):
            flat = parameter.view(-1)
            base = float(flat[k])
            flat[k] = base + h
            plus = float(model(*args).double().sum())
            flat[k] = base - h
            minus = float(model(*args).double().sum())
            flat[k] = base
            grad.view(-1)[k] = (plus - minus) / (2 * h)
    return grad


@pytest.mark.skipif(AOT, reason="1.1's AOT tracing refuses in-place writes "
                    "into a tensor autograd saved (a frontend error)")
def test_setitem_matches_eager_with_gradients():
    """Values against eager; gradients against central differences:
    tensorplay 1.0's eager autograd through indexed in-place writes is
    wrong (lin.weight[0, 0]: -1.916 where central differences and the
    compiled backward give 0.939)."""
    eager, model = Writes(), Writes()
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": False})
    x, idx, mask = inputs()
    want = eager(x, idx, mask)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = compiled(x, idx, mask)
    close(got, want, "values")
    got.sum().backward()
    for name, p in model.named_parameters():
        reference = central_differences(eager, (x, idx, mask),
                                        dict(eager.named_parameters())[name])
        np.testing.assert_allclose(p.grad.numpy(), reference.numpy(),
                                   rtol=2e-3, atol=2e-3,
                                   err_msg=f"gradient of {name}")


def test_setitem_in_inference():
    model = Writes()
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": False})
    x, idx, mask = inputs()
    with tensorplay.no_grad():
        close(compiled(x, idx, mask), model(x, idx, mask), "values")


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no operator form")
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_operator(accumulate):
    from test_operators import one_node_graph
    from tensorplay_mlir.backend import backend
    tensorplay.manual_seed(2)
    x = tensorplay.randn(6, 3, 2)
    i = tensorplay.tensor([1, -2, 1])
    j = tensorplay.tensor([0, 2, 0])
    v = tensorplay.randn(3, 2)
    op = tensorplay.ops.tp.index_put.default
    want = op(x, [i, j], v, accumulate)
    gm, args = one_node_graph(op, [x, [i, j], v, accumulate])
    got = backend(gm, args, options={"fallback": False})(*args)
    close(got, want, f"index_put accumulate={accumulate}")


def _writes_through_views():
    def add_into_view(x):
        y = x * 1.0
        z = y.view(-1)
        z.add_(1.0)
        return y

    def view_before_write(x):
        y = x * 1.0
        z = y.view(-1)
        y.mul_(2.0)
        return z + 0.0

    def setitem_seen_by_view(x):
        y = x * 1.0
        first = y.view(-1)
        y[tensorplay.tensor([1])] = 0.0
        return first + 1.0

    def slice_written(x):
        y = x * 1.0
        y[0].fill_(3.0)
        return y
    return [add_into_view, view_before_write, setitem_seen_by_view,
            slice_written]


@pytest.mark.parametrize("fn", _writes_through_views(),
                         ids=lambda f: f.__name__)
def test_writes_through_shared_memory_run_on_the_executor(fn):
    """Eager's views see in-place writes; compiled code gives each view its
    own memory: such graphs run on the executor (a warning naming the
    write), never with the old values."""
    x = tensorplay.randn(3, 2)
    want = fn(x.clone())
    compiled = tensorplay.compile(fn, backend="mlir")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # (1.0's frontend runs a graph while capturing it: a graph that
        # writes into its input, as 1.0 makes of `x * 1.0`, writes twice
        # on the first call, with any backend. The second call is eager's.)
        compiled(x.clone())
        got = compiled(x.clone())
    close(got, want, fn.__name__)
    assert any("shares memory" in str(w.message) for w in caught), \
        [str(w.message) for w in caught]
    from tensorplay_mlir.backend import BackendError
    strict = tensorplay.compile(fn, backend="mlir",
                                options={"fallback": False})
    with pytest.raises(BackendError, match="shares memory"):
        strict(x.clone())


def test_a_write_without_views_compiles():
    def f(x):
        y = x * 1.0
        y.add_(1.0)
        y[tensorplay.tensor([0])] = 5.0
        return y
    x = tensorplay.randn(3, 2)
    compiled = tensorplay.compile(f, backend="mlir",
                                  options={"fallback": False})
    compiled(x.clone())  # (1.0 writes twice while capturing, see above)
    close(compiled(x.clone()), f(x.clone()), "values")
