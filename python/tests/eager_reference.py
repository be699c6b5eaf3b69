"""What the tests that compare compiled functions with eager share: the
comparison of two results, a call under cpu bf16 autocast or none, and
gradients by central differences of eager's forward (for the operators
whose eager backward is wrong)."""

import numpy as np
import tensorplay


def check(got, want, rtol, what):
    """Same dtype and shape, values within rtol (and atol = rtol)."""
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    a = np.asarray(got.detach().float().numpy(), np.float64)
    b = np.asarray(want.detach().float().numpy(), np.float64)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol, err_msg=what)


def run(fn, inputs, autocast):
    with tensorplay.autocast("cpu", dtype=tensorplay.bfloat16,
                             enabled=autocast):
        return fn(*inputs)


def run_compiled(fn, inputs, autocast, fallback):
    """fn through tensorplay.compile(backend="mlir"), fallback only where
    allowed, called under `autocast` with every warning an error."""
    import warnings
    compiled = tensorplay.compile(fn, backend="mlir",
                                  options={"fallback": fallback})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return run(compiled, inputs, autocast)


def central_differences(fn, inputs, index, h=1e-4):
    """d sum(fn(*inputs)) / d inputs[index], from eager's forward in f64."""
    xs = [x.detach().double() for x in inputs]
    grad = tensorplay.zeros_like(xs[index])
    flat = grad.view(-1)
    for k in range(flat.numel()):
        plus = [x.clone() for x in xs]
        minus = [x.clone() for x in xs]
        plus[index].view(-1)[k] += h
        minus[index].view(-1)[k] -= h
        flat[k] = (float(fn(*plus).sum()) - float(fn(*minus).sum())) / (2 * h)
    return grad.float()


def compare_backward(fn, got, want, inputs, eager_inputs, autocast, name, *,
                     partial=False, eager_wrong=False, h=1e-4, cd_rtol=1e-4):
    """Backpropagates sum(got) and sum(want) and compares the inputs'
    gradients (within 4e-2 in bf16, 1e-4 in f32). Only `partial` graphs may
    warn, and only of backward operators left to the executor. Where eager's
    backward is wrong (`eager_wrong`), the f32 gradients are compared with
    central differences of eager's forward (step h, within cd_rtol)."""
    import warnings
    if not eager_wrong:  # (a wrong eager backward may also fail outright)
        want.float().sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got.float().sum().backward()
    for w in caught:
        assert partial and "_backward" in str(w.message), str(w.message)
    for i, (a, b) in enumerate(zip(inputs, eager_inputs)):
        if not b.requires_grad or (b.grad is None and not eager_wrong):
            continue
        if eager_wrong:
            if not autocast:
                check(a.grad, central_differences(fn, inputs, i, h), cd_rtol,
                      f"{name} gradient {i} (central differences)")
            continue
        check(a.grad, b.grad, 4e-2 if autocast else 1e-4,
              f"{name} gradient {i}")
