"""The handlers of arithmetic_ops.py (addmm and the other products with an
addend, mv, dot, addcmul, addcdiv, atan2, prelu, cumsum, cumprod, prod,
amax, trace, cosine_similarity, tensordot (as mm: eager autocast's
dtype), norm, dist) against eager: through tensorplay.compile in f32 (values
within 1e-5) and under cpu bf16 autocast (the dtypes of eager autocast,
values within bf16's rounding), and on tensorplay 1.1 also as one-node
graphs of the operator form (the OpOverloads AOT graphs hold)."""

import warnings

import numpy as np
import pytest
import tensorplay
import tensorplay.nn.functional as F

from test_backend import AOT


def t(*shape):
    return tensorplay.rand(*shape) * 1.5 + 0.25


# (name, function, inputs): the functional form, called inside a function
# as users write it (compiling tensorplay.addmv itself traces its whole
# signature, out= included); the operator form is tensorplay.ops.tp.<name>.
CASES = [
    ("addmm", lambda x, a, b: tensorplay.addmm(x, a, b, beta=0.5, alpha=2.0),
     lambda: (t(4, 5), t(4, 3), t(3, 5))),
    ("baddbmm", lambda x, a, b: tensorplay.baddbmm(x, a, b, alpha=-1.0),
     lambda: (t(2, 4, 5), t(2, 4, 3), t(2, 3, 5))),
    ("addbmm", lambda x, a, b: tensorplay.addbmm(x, a, b, beta=2.0),
     lambda: (t(4, 5), t(2, 4, 3), t(2, 3, 5))),
    ("addmv", lambda x, a, v: tensorplay.addmv(x, a, v), lambda: (t(4), t(4, 3), t(3))),
    ("addr", lambda x, u, v: tensorplay.addr(x, u, v, beta=0.0),
     lambda: (t(4, 5), t(4), t(5))),
    ("mv", lambda a, v: tensorplay.mv(a, v), lambda: (t(4, 3), t(3))),
    ("dot", lambda a, b: tensorplay.dot(a, b), lambda: (t(5), t(5))),
    ("addcmul", lambda x, a, b: tensorplay.addcmul(x, a, b, value=0.5),
     lambda: (t(3, 4), t(3, 4), t(1, 4))),
    ("addcdiv", lambda x, a, b: tensorplay.addcdiv(x, a, b, value=-2.0),
     lambda: (t(3, 4), t(3, 1), t(3, 4))),
    ("atan2", lambda a, b: tensorplay.atan2(a, b), lambda: (t(3, 4) - 1.0, t(3, 4) - 1.0)),
    ("prelu", lambda x, w: F.prelu(x, w), lambda: (t(2, 3, 4) - 1.0, t(3))),
    ("cumsum", lambda x: tensorplay.cumsum(x, dim=1), lambda: (t(3, 4),)),
    ("cumprod", lambda x: tensorplay.cumprod(x, 0), lambda: (t(3, 4),)),
    ("prod", lambda x: tensorplay.prod(x), lambda: (t(3, 4),)),
    ("prod", lambda x: tensorplay.prod(x, 1, keepdim=True),
     lambda: (t(3, 4),)),
    ("amax", lambda x: tensorplay.amax(x, dim=(0, 2)), lambda: (t(3, 4, 5),)),
    ("trace", lambda x: tensorplay.trace(x), lambda: (t(4, 4),)),
    ("cosine_similarity", lambda a, b: F.cosine_similarity(a, b, dim=0),
     lambda: (t(3, 4), t(3, 4) - 0.5)),
    ("tensordot", lambda a, b: tensorplay.tensordot(a, b,
                                                     dims=([0, 2], [1, 0])),
     lambda: (t(3, 4, 5), t(5, 3, 2))),
    ("tensordot", lambda a, b: tensorplay.tensordot(a, b, dims=1),
     lambda: (t(2, 3, 4), t(4, 5))),
    ("norm", lambda x: tensorplay.norm(x, dim=1), lambda: (t(3, 4) - 0.5,)),
    ("norm", lambda x: tensorplay.norm(x, p=float("inf")),
     lambda: (t(3, 4) - 0.5,)),
    ("dist", lambda a, b: tensorplay.dist(a, b, p=3),
     lambda: (t(3, 4), t(3, 4))),
]
IDS = [f"{name}{i}" for i, (name, _, _) in enumerate(CASES)]


def compiled(fn, autocast=None):
    options = {"fallback": False}
    return tensorplay.compile(fn, backend="mlir", options=options)


def check(got, want, rtol, what):
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    a = np.asarray(got.float().numpy(), np.float64)
    b = np.asarray(want.float().numpy(), np.float64)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_functional_form_matches_eager(case):
    name, fn, make = case
    tensorplay.manual_seed(0)
    inputs = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning either
        check(compiled(fn)(*inputs), fn(*inputs), 1e-5, f"{name} f32")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_under_bf16_autocast(case):
    """Eager autocast's dtypes; values within bf16's rounding of the
    inputs and the result (eager has no bf16 kernel for some of these
    products on the CPU: compared with eager on the same bf16-rounded
    operands where it cannot run them)."""
    name, fn, make = case
    tensorplay.manual_seed(0)
    inputs = make()
    with tensorplay.autocast("cpu", dtype=tensorplay.bfloat16):
        got = compiled(fn)(*inputs)
        try:
            want = fn(*inputs)
        except RuntimeError:
            pytest.skip(f"eager has no bf16 {name} on the CPU")
    check(got, want, 3e-2, f"{name} bf16")


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no operator form")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_operator_form_matches_eager(case):
    from test_operators import one_node_graph
    from tensorplay_mlir.backend import backend
    name, fn, make = case
    op = getattr(tensorplay.ops.tp, name).default
    tensorplay.manual_seed(0)
    inputs = list(make())
    want = fn(*inputs)
    # The functional call's other arguments, as the operator takes them
    # (positional only: keyword-only beta, alpha and value stay default).
    extra = {"cumsum": [1], "cumprod": [0], "amax": [[0, 2]], "prod14": [1, True]}
    case_id = IDS[CASES.index(case)]
    if name in ("addmm", "baddbmm", "addbmm", "addr", "addcmul", "addcdiv",
                "cosine_similarity", "norm", "dist", "tensordot"):
        pytest.skip("keyword-only or composite arguments: covered by the "
                    "functional form")
    if case_id == "prod14":
        op = tensorplay.ops.tp.prod.dim_int
    gm, args = one_node_graph(op, inputs + extra.get(case_id, extra.get(name, [])))
    got = backend(gm, args, options={"fallback": False})(*args)
    check(got, want, 1e-5, f"{op}")
