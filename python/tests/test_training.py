"""Training through tensorplay.compile(backend="mlir") on tensorplay 1.0:
gradients against eager's, and a GradScaler + optimizer loop on the digits."""

import copy
import os

import numpy as np
import pytest
import tensorplay

import models
from test_backend import AOT, array, assert_close, compile_recording, flat


def grads(model):
    return {n: p.grad for n, p in model.named_parameters()}


@pytest.mark.parametrize("name", ["mlp", "cnn", "pooled_cnn", "encoder"])
@pytest.mark.parametrize("autocast", [False, True])
def test_gradients_match_eager(name, autocast):
    model = models.model(name)
    eager = copy.deepcopy(model)
    args = models.inputs(name)
    # No fallback: the gradients must come from the compiled backward.
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": False})
    if AOT and autocast and name == "pooled_cnn":
        # tensorplay 1.1's AOT autograd traces the forward with the eager
        # kernels, and tensorplay has no bf16 max_pool2d: the frontend
        # fails before the backend sees a graph.
        with tensorplay.autocast("cpu"), pytest.raises(
                NotImplementedError, match="not implemented for 'BFloat16'"):
            compiled(*args)
        return
    with tensorplay.autocast("cpu", enabled=autocast):
        out = flat(compiled(*args))
    # tensorplay has no bf16 max_pool2d kernel: the pooled CNN's eager
    # reference runs in f32.
    with tensorplay.autocast("cpu", enabled=autocast and name != "pooled_cnn"):
        want = flat(eager(*args))
    # The MLP's last output is its loss; the others get a fixed random
    # projection (a mean of squares would be constant after layer_norm).
    if name == "mlp":
        loss, want_loss = out[-1], want[-1]
    else:
        tensorplay.manual_seed(1)
        w = tensorplay.randn(*out[0].shape)
        loss = (out[0].float() * w).sum()
        want_loss = (want[0].float() * w).sum()
    # Backward outside autocast: the compiled variant keeps the forward's
    # dtypes.
    loss.backward()
    want_loss.backward()
    got, ref = grads(model), grads(eager)
    assert set(got) == set(ref)
    # Some gradients are zero up to rounding (softmax ignores the key
    # bias): measured against the model's largest gradient.
    largest = max(float(np.abs(array(g)).max()) for g in ref.values())
    for n in ref:
        assert got[n] is not None, n
        assert got[n].dtype == ref[n].dtype == tensorplay.float32
        assert_close(got[n], ref[n], 3e-2 if autocast else 1e-4,
                     scale=largest)


def test_input_gradient():
    model = models.model("mlp")
    x, labels = models.inputs("mlp")
    x.requires_grad_(True)
    x2 = x.detach().clone().requires_grad_(True)
    compiled = tensorplay.compile(model, backend="mlir")
    compiled(x, labels)[1].backward()
    model.zero_grad()
    model(x2, labels)[1].backward()
    assert_close(x.grad, x2.grad, 1e-4)



def check_input_gradient(model):
    """x's gradient from the compiled backward only, against central
    differences of the eager forward in float64 along random directions."""
    x = models.inputs("encoder")[0]
    x.requires_grad_(True)
    compiled = tensorplay.compile(model, backend="mlir",
                                  options={"fallback": False})
    compiled(x).backward()
    assert x.grad is not None
    grad = array(x.grad).astype(np.float64).reshape(-1)
    base = array(x.detach()).astype(np.float64)
    rng = np.random.default_rng(3)
    h = 1e-4
    for _ in range(4):
        v = rng.uniform(-1, 1, base.shape)
        with tensorplay.no_grad():
            up = float(model(tensorplay.from_numpy(base + h * v)))
            down = float(model(tensorplay.from_numpy(base - h * v)))
        fd = (up - down) / (2 * h)
        got = float(grad @ v.reshape(-1))
        assert abs(got - fd) <= 1e-3 * (abs(fd) + np.linalg.norm(v)), \
            (got, fd)


def test_linear_algebra_input_gradients():
    """The input's gradient through inverses, Cholesky, solve, eigvalsh,
    svdvals and pinverse. (tensorplay 1.0's eager autograd is no reference
    here: it gives inv, inverse, eigvalsh, svdvals and pinverse no
    gradient at all and Cholesky and solve ones that differ from the
    finite differences.) On 1.1 the graphs are its AOT autograd's:
    linalg_inv_ex, _linalg_solve_ex with its LU and pivots, the backward's
    adjoint linalg_lu_solve and linalg_solve_triangular, ..."""
    check_input_gradient(models.Linalg())


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 cannot trace eigh and "
                    "svd (its wrappers unpack the results during capture)")
def test_factorization_input_gradients():
    check_input_gradient(models.Factorizations())


def digits():
    directory = os.environ.get("TP_DIGITS_DIR")
    if not directory:
        pytest.skip("TP_DIGITS_DIR is not set (run-python-tests.sh sets it)")
    load = lambda n: np.load(os.path.join(directory, n))  # noqa: E731
    return (load("x_train.npy"), load("y_train.npy"), load("x_test.npy"),
            load("y_test.npy"))


def train(model, step_fn, x, y, epochs, batch=128):
    opt = tensorplay.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = tensorplay.amp.GradScaler(device="cpu", init_scale=1024.0)
    losses = []
    n = (len(x) // batch) * batch
    for _ in range(epochs):
        for i in range(0, n, batch):
            xb = tensorplay.from_numpy(np.ascontiguousarray(x[i:i + batch]))
            yb = tensorplay.from_numpy(np.ascontiguousarray(y[i:i + batch]))
            opt.zero_grad()
            with tensorplay.autocast("cpu"):
                _, loss = step_fn(xb, yb)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            losses.append(float(loss))
    return losses


def accuracy(model, x, y):
    with tensorplay.no_grad():
        logits, _ = model(tensorplay.from_numpy(x), tensorplay.from_numpy(y))
    return float((array(logits).argmax(1) == y).mean())


def test_gradscaler_loop_converges_like_eager():
    x, y, xt, yt = digits()
    model = models.MLP(features=64, hidden=64, layers=1)
    eager = copy.deepcopy(model)
    compiled = tensorplay.compile(model, backend="mlir")
    got = train(model, compiled, x, y, epochs=4)
    want = train(eager, eager, x, y, epochs=4)
    assert got[-1] < 0.5 * got[0]
    # Same data order and initial weights: the curves agree closely.
    assert abs(np.mean(got[-5:]) - np.mean(want[-5:])) < 0.05
    acc, eager_acc = accuracy(model, xt, yt), accuracy(eager, xt, yt)
    assert acc > 0.85
    assert abs(acc - eager_acc) < 0.03


def training_variant(graph):
    return [v for (ac, wrt), v in graph.variants.items() if wrt][0]


ON_1_0 = pytest.mark.skipif(tensorplay.__version__.startswith("1.1"),
                            reason="1.1 differentiates its AOT graphs itself")


@ON_1_0
def test_speculative_gradients_equal_the_recomputed_ones():
    model = models.model("mlp")
    x, labels = models.inputs("mlp")
    compiled, graphs = compile_recording(model)
    seen = []
    for scale in (1.0, 1.0, 8.0, 8.0, 3.0):
        model.zero_grad()
        with tensorplay.autocast("cpu"):
            _, loss = compiled(x, labels)
        (loss * scale).backward()
        seen.append({n: array(p.grad).copy() for n, p in
                     model.named_parameters()})
    graph = graphs[0]
    variant = training_variant(graph)
    assert variant.speculate and variant.seed == 3.0
    tensors = graph.gather((x, labels))
    names = [n for n, _ in model.named_parameters()]
    for scale, grads in zip((1.0, 1.0, 8.0, 8.0, 3.0), seen):
        cot = tensorplay.full((), scale, dtype=tensorplay.float32)
        reference = variant.vjp(tensors, [None, cot])
        for n, g in zip(names, reference):
            np.testing.assert_array_equal(grads[n], array(g))


@ON_1_0
def test_speculation_stops_when_no_backward_consumes_it():
    model = models.model("mlp")
    x, labels = models.inputs("mlp")
    compiled, graphs = compile_recording(model)
    for _ in range(5):  # evaluation with grad enabled: no backward
        compiled(x, labels)
    variant = training_variant(graphs[0])
    assert not variant.speculate
    _, loss = compiled(x, labels)
    loss.backward()  # the recomputing path
    eager = copy.deepcopy(model)
    eager.zero_grad()
    eager(x, labels)[1].backward()
    for (n, p), (_, q) in zip(model.named_parameters(),
                              eager.named_parameters()):
        assert_close(p.grad, q.grad, 1e-4)
