"""The handlers of activation_ops.py (elu, selu, celu, mish, log_sigmoid as
their tp ops; the operators written as several tp ops), statistics_ops.py,
layout_ops.py and rounding_ops.py against eager, through tensorplay.compile
with no fallback allowed: f32 and under cpu bf16 autocast (eager's dtypes,
values within bf16's rounding), forward and the gradients of the inputs
(on tensorplay 1.1 its backward graphs hold the ``*_backward`` operators
activation_ops.py translates: hardtanh_backward, silu_backward, ...); and
the element-wise ones on NaN, infinities and signed zeros, bit for bit
where eager's kernel is exact."""


import numpy as np
import pytest
import tensorplay
import tensorplay.nn.functional as F

from eager_reference import check, compare_backward, run, run_compiled
from test_backend import AOT
from test_operators import one_node_graph

TP = tensorplay


def spread(*shape, scale=4.0):
    """Values in (-scale, scale), away from the kinks at 0, +-3 and the
    thresholds the cases use (gradients there differ by convention)."""
    x = (tensorplay.rand(*shape) * 2 - 1) * scale
    return x + (x.abs() < 0.05).float() * 0.1


def positive(*shape):
    return tensorplay.rand(*shape) * 0.8 + 0.1


def index(*values):
    return tensorplay.tensor(list(values), dtype=tensorplay.int64)


def unpool(x):
    pooled = F.max_pool2d(x, 2, return_indices=True)
    return F.max_unpool2d(pooled[0], pooled[1], 2)


def spd(a):
    return a @ a.t() + TP.eye(a.shape[0]) * 3


def cholesky_solves(a, b):
    lower = TP.linalg.cholesky(a)
    return (TP.cholesky_solve(b, lower).sum() + TP.cholesky_inverse(lower)
            .sum() + TP.cholesky(a, upper=True).sum())


# (1.0's tracer cannot unpack the tuples of these: indexed.)
def svd(a):
    usv = TP.svd(a)
    u, s, v = usv[0], usv[1], usv[2]
    return (u @ TP.diag_embed(s) @ v.t()).sum() + s.sum()


def linalg_factors(a):
    factors = TP.linalg.qr(a)
    complete = TP.linalg.qr(a, mode="complete")
    s = TP.linalg.svd(a, full_matrices=False)[1]
    wv = TP.linalg.eigh(a.t() @ a)
    w, vecs = wv[0], wv[1]
    return ((factors[0] @ factors[1]).sum() + factors[1].abs().sum()
            + complete[0].abs().sum() + s.sum() + w.sum()
            + (vecs @ TP.diag_embed(w) @ vecs.t()).sum())


def geqrf_family(a, b):
    factors = TP.geqrf(a)
    h, tau = factors[0], factors[1]
    return (TP.orgqr(h, tau).abs().sum() + TP.ormqr(h, tau, b).abs().sum()
            + TP.linalg.householder_product(h, tau).abs().sum())


def solves(a, b):
    upper = TP.triu(a) + TP.eye(4) * 4
    x = TP.triangular_solve(b, upper)[0]
    fit = TP.linalg.lstsq(a + TP.eye(4) * 4, b).solution
    return (x.sum() + fit.sum() + TP.linalg.cond(a + TP.eye(4) * 4)
            + TP.linalg.matrix_rank(a).float()
            + TP.linalg.vecdot(a, b.sum(1, keepdim=True).t()).sum())


# (name, function, inputs, differentiable inputs)
CASES = [
    ("relu6", lambda x: F.relu6(x * 2), lambda: (spread(3, 5),), True),
    ("hardtanh", lambda x: F.hardtanh(x, -0.5, 2.0), lambda: (spread(3, 5),),
     True),
    ("hardsigmoid", lambda x: F.hardsigmoid(x), lambda: (spread(3, 5),), True),
    ("hardswish", lambda x: F.hardswish(x), lambda: (spread(3, 5),), True),
    ("silu", lambda x: F.silu(x), lambda: (spread(3, 5),), True),
    ("leaky_relu", lambda x: F.leaky_relu(x, 0.2), lambda: (spread(3, 5),),
     True),
    ("softplus", lambda x: F.softplus(x, beta=2.0, threshold=5.0),
     lambda: (spread(3, 5),), True),
    ("elu", lambda x: F.elu(x, 0.7), lambda: (spread(3, 5),), True),
    ("selu", lambda x: F.selu(x), lambda: (spread(3, 5),), True),
    ("celu", lambda x: F.celu(x, 0.5), lambda: (spread(3, 5),), True),
    ("mish", lambda x: F.mish(x), lambda: (spread(3, 5),), True),
    ("logsigmoid", lambda x: F.logsigmoid(x), lambda: (spread(3, 5),), True),
    ("hardshrink", lambda x: F.hardshrink(x, 0.7), lambda: (spread(3, 5),),
     True),
    ("softshrink", lambda x: F.softshrink(x, 0.7), lambda: (spread(3, 5),),
     True),
    ("tanhshrink", lambda x: F.tanhshrink(x), lambda: (spread(3, 5),), True),
    ("threshold", lambda x: F.threshold(x, 0.3, -2.0),
     lambda: (spread(3, 5),), True),
    ("glu", lambda x: F.glu(x, dim=1), lambda: (spread(3, 6),), True),
    ("mse_loss", lambda x, y: F.mse_loss(x, y), lambda: (spread(3, 5),
                                                         spread(3, 5)), True),
    ("lerp_scalar", lambda x, y: TP.lerp(x, y, 0.3) + TP.lerp(x, y, 0.8),
     lambda: (spread(3, 5), spread(3, 5)), True),
    ("lerp_tensor", lambda x, y, w: TP.lerp(x, y, w),
     lambda: (spread(3, 5), spread(3, 5), positive(3, 5)), True),
    ("inverse_trig", lambda x, y: TP.atan(x) + TP.asinh(x) + TP.atanh(y)
     + TP.acosh(y.abs() + 1.5) + TP.atan(y) * 2,
     lambda: (spread(3, 5), spread(3, 5, scale=0.9)), True),
    # (1.1's capture gives the input of the arc* spellings no gradient.)
    ("arc_spellings", lambda x, y: TP.arctan(x) + TP.arcsinh(x)
     + TP.arctanh(y) + TP.arccosh(y.abs() + 1.5),
     lambda: (spread(3, 5), spread(3, 5, scale=0.9)), False),
    ("square_deg2rad", lambda x: TP.square(x) + TP.deg2rad(x),
     lambda: (spread(3, 5),), True),
    ("sinc", lambda x: TP.sinc(x), lambda: (spread(3, 5),), True),
    ("fmax_fmin", lambda x, y: TP.fmax(x, y) * 2 + TP.fmin(x, y),
     lambda: (spread(3, 5), spread(3, 5)), True),
    ("sign", lambda x: TP.sign(x) * x, lambda: (spread(3, 5),), True),
    ("heaviside", lambda x, v: TP.heaviside(x, v) * x,
     lambda: (TP.tensor([[-1.0, 0.0, 2.0]]), TP.tensor([0.5, 0.25, 1.0])),
     False),
    ("predicates", lambda x: TP.where(TP.logical_or(TP.isnan(x),
                                                    TP.isinf(x)), 0.0, x)
     + TP.isfinite(x).float(), lambda: (spread(3, 5),), True),
    ("logical", lambda x, y: TP.logical_xor(x > 0, y > 0).float()
     + TP.logical_and(x, y > 0).float() + TP.logical_or(x > 1, y).float(),
     lambda: (spread(3, 5), spread(3, 5)), False),
    ("amin", lambda x: TP.amin(x, dim=1) * 2, lambda: (spread(3, 5),), True),
    # (1.0's tracer cannot unpack the pair in a helper, nor capture
    # TP.min(x, dim=...): the method form, indexed.)
    ("min_dim", lambda x: x.min(dim=0)[0] + x.min(dim=0)[1].float(),
     lambda: (spread(3, 5),), True),
    ("min_all", lambda x: TP.min(x) * x, lambda: (spread(3, 5),), True),
    ("argmin", lambda x: TP.argmin(x, dim=1).float(),
     lambda: (spread(3, 5),), False),
    ("all_any", lambda x: TP.all(x > -3.5, dim=1).float()
     + TP.any(x > 3, dim=1).float(), lambda: (spread(3, 5),), False),
    ("std", lambda x: TP.std(x, dim=1), lambda: (spread(3, 5),), True),
    # (1.0's eager logsumexp takes one dim, not a list.)
    ("logsumexp", lambda x: TP.logsumexp(x * 20, 1) + x.logsumexp(
        0, True).sum(), lambda: (spread(3, 5),), True),
    ("var_keepdim", lambda x: TP.var(x, dim=0, keepdim=True, correction=0),
     lambda: (spread(3, 5),), True),
    ("rms_norm", lambda x, w: F.rms_norm(x, [5], w, 1e-5),
     lambda: (spread(3, 5), positive(5)), True),
    ("flip", lambda x: TP.flip(x, [0, 2]), lambda: (spread(2, 3, 4),), True),
    ("roll", lambda x: TP.roll(x, [2, -1], [1, 2]) + TP.roll(x, 5),
     lambda: (spread(2, 3, 4),), True),
    ("repeat", lambda x: x.repeat(2, 1, 3), lambda: (spread(3, 4),), True),
    ("tile", lambda x: TP.tile(x, (2,)), lambda: (spread(3, 4),), True),
    ("index_select", lambda x, i: TP.index_select(x, 1, i),
     lambda: (spread(3, 5), index(4, 0, 0, 2)), True),
    ("pixel_shuffle", lambda x: F.pixel_unshuffle(F.pixel_shuffle(x, 2) * 2,
                                                  2),
     lambda: (spread(1, 8, 3, 2),), True),
    ("channel_shuffle", lambda x: F.channel_shuffle(x, 3),
     lambda: (spread(2, 6, 2, 2),), True),
    ("movedim", lambda x: TP.movedim(x, [0, 1], [2, 0]),
     lambda: (spread(2, 3, 4),), True),
    ("outer_inner", lambda a, b: TP.outer(a, b).sum() + TP.inner(a, b),
     lambda: (spread(5), spread(5)), True),
    ("rounding", lambda x: TP.floor(x) + TP.ceil(x) * 2 + TP.round(x) * 3
     + TP.trunc(x) * 4 + TP.frac(x) * x, lambda: (spread(3, 5),), True),
    ("divisions", lambda x, y: TP.floor_divide(x, y) + TP.div(
        x, y, rounding_mode="trunc") + TP.div(x, y, rounding_mode="floor")
     + x / y, lambda: (spread(3, 5), spread(3, 5)), True),
    ("repeat_interleave", lambda x: TP.repeat_interleave(x, 2, dim=0),
     lambda: (spread(3, 4),), True),
    ("repeat_interleave_flat", lambda x: TP.repeat_interleave(x, 3),
     lambda: (spread(3, 4),), True),
    ("float_power", lambda x: TP.float_power(x.abs() + 0.5, 2.5)
     + TP.float_power(x, x), lambda: (positive(3, 4),), True),
    ("bce_with_logits", lambda x, y, w, pw:
     F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=pw)
     + F.binary_cross_entropy_with_logits(x, y, reduction="sum"),
     lambda: (spread(3, 4), positive(3, 4), positive(4), positive(4) * 3),
     True),
    ("nll_loss2d", lambda x, t: F.nll_loss(F.log_softmax(x, dim=1), t),
     lambda: (spread(2, 3, 4, 5), tensorplay.randint(0, 3, (2, 4, 5))), True),
    ("cross_entropy2d", lambda x, t: F.cross_entropy(x, t, reduction="sum"),
     lambda: (spread(2, 3, 4, 5), tensorplay.randint(0, 3, (2, 4, 5))), True),
    ("chain_matmul", lambda a, b, c: TP.chain_matmul(a, b, c),
     lambda: (spread(3, 4), spread(4, 5), spread(5, 2)), True),
    ("multi_dot", lambda a, b, c: TP.linalg.multi_dot([a, b, c]),
     lambda: (spread(4), spread(4, 5), spread(5, 2)), True),
    ("conv_tbc", lambda x, w, b: TP.conv_tbc(x, w, b, 1),
     lambda: (spread(6, 2, 3), spread(3, 3, 4), spread(4)), True),
    ("multi_dot5", lambda a, b, c, d, e: TP.linalg.multi_dot([a, b, c, d,
                                                              e]),
     lambda: (spread(3, 9), spread(9, 2), spread(2, 8), spread(8, 4),
              spread(4, 5)), True),
    ("pad_constant", lambda x: F.pad(x, (1, 2, -1, 1), value=0.5) * 2
     + F.pad(x, (2, 1, 1, -1))[..., 1:-2, 1:-2].sum(),
     lambda: (spread(2, 3, 4),), True),
    ("nearest", lambda x: F.interpolate(x, scale_factor=2, mode="nearest"),
     lambda: (spread(1, 2, 3, 4),), True),
    ("nearest_size", lambda x: F.interpolate(x, size=(5, 7),
                                             mode="nearest"),
     lambda: (spread(1, 2, 3, 4),), True),
    ("nearest_exact", lambda x: F.interpolate(x, size=(5, 3),
                                              mode="nearest-exact"),
     lambda: (spread(1, 2, 3, 4),), True),
    ("bilinear", lambda x: F.interpolate(x, size=(5, 7), mode="bilinear",
                                         align_corners=False),
     lambda: (spread(1, 2, 3, 4),), True),
    ("bilinear_corners", lambda x: F.interpolate(
        x, scale_factor=2.5, mode="bilinear", align_corners=True),
     lambda: (spread(1, 2, 3, 4),), True),
    ("bicubic", lambda x: F.interpolate(x, size=(5, 7), mode="bicubic",
                                        align_corners=False),
     lambda: (spread(1, 2, 3, 4),), True),
    ("antialias", lambda x: F.interpolate(x, size=(4, 5), mode="bilinear",
                                          antialias=True)
     + F.interpolate(x, size=(4, 5), mode="bicubic", antialias=True),
     lambda: (spread(1, 2, 9, 11),), True),
    ("pools1d", lambda x: F.avg_pool1d(x, 3, 2, 1).sum(-1)
     + F.max_pool1d(x, 2).sum(-1) + F.adaptive_avg_pool1d(x, 3).sum(-1),
     lambda: (spread(2, 3, 9),), True),
    # (1.0's tracer cannot iterate over the parts: indexed.)
    ("unsafe_split", lambda x: x.unsafe_split(2, 1)[0].sum()
     + x.unsafe_split(2, 1)[2].sum() * 2 + x.unsafe_chunk(3, 0)[1].sum(),
     lambda: (spread(3, 5),), True),
    ("fused", lambda x, y: TP.ops.tp.silu_mul.default(x, y)
     + TP.ops.tp.squared_difference.default(x, y)
     + TP.ops.tp.fused_mul_add.default(x, y, x)
     + TP.ops.tp.silu_and_mul.default(TP.cat([x, y], 1))
     if hasattr(TP, "ops") else x, lambda: (spread(3, 4), spread(3, 4)),
     True),
    ("diff", lambda x, y: TP.diff(x, 2, 1, prepend=y).sum(1)
     + TP.diff(x, 1, 0).sum(0)[:3], lambda: (spread(3, 4), spread(3, 2)),
     True),
    ("kron", lambda x, y: TP.kron(x, y[:2, :1]).sum(1)[:3],
     lambda: (spread(3, 4), spread(3, 2)), True),
    ("rot90_take", lambda x, i: TP.rot90(x, 1).sum(0) + TP.rot90(x, 3).sum(0)
     + TP.rot90(x, 2).sum() + TP.take(x, i).sum(),
     lambda: (spread(3, 3), index(0, 4, 8)), True),
    ("take_along_dim", lambda x, i: TP.take_along_dim(x, i.view(1, 3),
                                                      dim=1).sum(0),
     lambda: (spread(3, 3), index(0, 2, 1)), True),
    # (1.0's tracer takes meshgrid's tensors as one list only.)
    ("meshgrid_diag", lambda a, b: TP.meshgrid([a, b], indexing="xy")[0]
     .sum() + TP.meshgrid([a, b], indexing="xy")[1].sum() * 2
     + TP.diag(a).sum(0) + TP.diag(TP.outer(a, a)),
     lambda: (spread(4), spread(3)), True),
    ("diagflat", lambda a: TP.diagflat(a).sum(1) * a,
     lambda: (spread(4),), True),
    ("isclose_isin", lambda x, y: TP.isclose(x, y, rtol=0.5).float()
     + TP.isin(x, y[0]).float(),
     lambda: (spread(3, 4), spread(3, 4)), False),
    ("fill_empty", lambda x: TP.zeros_like(x) + TP.empty_like(x) * 0
     + TP.full_like(x, 2.0) + x,
     lambda: (spread(3, 4),), True),
    ("cholesky_solves", lambda a, b: cholesky_solves(spd(a), b),
     lambda: (spread(4, 4), spread(4, 2)), False),
    ("svd", lambda a: svd(a), lambda: (spread(4, 3),), False),
    ("linalg_factors", lambda a: linalg_factors(a), lambda: (spread(4, 3),),
     False),
    ("geqrf_family", lambda a, b: geqrf_family(a, b),
     lambda: (spread(4, 4), spread(4, 2)), False),
    ("solves", lambda a, b: solves(a, b),
     lambda: (spread(4, 4), spread(4, 2)), False),
    ("quantile", lambda x: TP.quantile(x, 0.7, dim=1).sum(0)
     + TP.quantile(x, 0.3, dim=0, keepdim=True).sum()
     + TP.nanquantile(x, 0.5), lambda: (spread(3, 5),), True),
    ("grid_sample", lambda x, g: F.grid_sample(x, g, align_corners=False),
     lambda: (spread(1, 2, 4, 5), spread(1, 3, 3, 2, scale=1.0)), True),
    ("unpool", lambda x: unpool(x), lambda: (spread(1, 2, 4, 6),), True),
    ("adaptive_max_pool3d", lambda x: F.adaptive_max_pool3d(x, (2, 1, 2)),
     lambda: (spread(1, 2, 4, 3, 4),), True),
    ("fractional_max_pool2d", lambda x, s: F.fractional_max_pool2d(
        x, 2, output_size=(3, 3), _random_samples=s),
     lambda: (spread(1, 2, 7, 7), positive(1, 2, 2)), True),
    ("stacks", lambda a, b: TP.hstack([a, b]).sum() + TP.vstack([a, b]).sum(0),
     lambda: (spread(4), spread(4)), True),
]
IDS = [c[0] for c in CASES]

# Backward graphs of tensorplay 1.1 holding operators without a tp
# translation: their nodes run on the graph's executor (partition.py).
# None now: grid_sample's backward is sampler_backward_ops.py's.
BACKWARD_ON_EXECUTOR = set()
# tensorplay 1.0's eager backward of hardswish is x / 6 + 1/2 (the
# derivative is x / 3 + 1/2) and hardsigmoid's the same (1/6 is right); its
# 1-d pools' backward returns uninitialized memory (values up to 1e6), its
# selu's is 1.7581 exp(x)^1.8 or so, not 1.7581 exp(x); diff's backward is
# -1 everywhere on both versions; 1.0's diagflat passes its input no
# gradient, and its logsumexp's backward fails (a shape error) without
# keepdim: those gradients are compared
# with central differences of eager's forward.
EAGER_GRADIENT_WRONG = {"1.0": {"hardswish", "hardsigmoid", "pools1d",
                                "diff", "selu", "diagflat", "logsumexp"},
                        "1.1": {"diff"}}
# tensorplay 1.0's tracer records F.softplus(x, beta, threshold) as
# log(exp(x) + 1): beta and threshold are lost before the backend sees the
# graph (docs/Python.md). 1.1's tracer writes take_along_dim with
# remainder (wrapping negative indices), which has no translation (fmod).
FRONTEND_WRONG = {
    "1.0": {"softplus": "its tracer drops softplus's beta and threshold",
            "linalg_factors": "its tracer cannot capture linalg.qr, "
            "linalg.svd, linalg.eigh (they iterate over a proxy)",
            "fractional_max_pool2d": "its tracer cannot capture "
            "F.fractional_max_pool2d (it iterates over a proxy)"},
    "1.1": {"take_along_dim": "its tracer writes take_along_dim with "
            "remainder, which has no translation",
            "quantile": "its tracer writes quantile with sort, which has "
            "no translation"}}
# Gradients the frontend gets wrong through any backend: 1.1's backward of
# diff is eager's (wrong, below), and its capture gives kron's,
# diagflat's and the antialiased resizes' inputs no gradient at all. The
# forward is compared; the gradient is not.
FRONTEND_GRADIENT_WRONG = {"1.1": {"diff", "kron", "diagflat", "antialias"}}


@pytest.mark.parametrize("autocast", [False, True], ids=["f32", "bf16"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_matches_eager_with_gradients(case, autocast):
    name, fn, make, differentiable = case
    version = tensorplay.__version__[:3]
    if name in FRONTEND_WRONG.get(version, {}):
        pytest.skip(f"tensorplay {version}: "
                    f"{FRONTEND_WRONG[version][name]}")
    tensorplay.manual_seed(0)
    inputs = make()
    grads = differentiable and name not in FRONTEND_GRADIENT_WRONG.get(
        version, ())
    eager_inputs = [x.clone().requires_grad_(grads and x.is_floating_point())
                    for x in inputs]
    inputs = [x.clone().requires_grad_(grads and x.is_floating_point())
              for x in inputs]
    try:
        want = run(fn, eager_inputs, autocast)
    except (AttributeError, RuntimeError, NotImplementedError) as e:
        pytest.skip(f"eager tensorplay {tensorplay.__version__} cannot run "
                    f"{name} here: {e}")
    partial = AOT and name in BACKWARD_ON_EXECUTOR
    got = run_compiled(fn, inputs, autocast, partial)
    check(got, want, 2e-2 if autocast else 1e-5, name)
    if not grads or not want.requires_grad:
        return
    compare_backward(fn, got, want, inputs, eager_inputs, autocast, name,
                     partial=partial, h=1e-3, cd_rtol=1e-3,
                     eager_wrong=name in EAGER_GRADIENT_WRONG.get(version, ()))


SPECIAL = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, -3.0, 3.0,
           -0.5, 0.5, 0.7, -0.7, 2.5, -2.5, 1.5, 1e30, -1e-30, 7.0,
           0.49999997, 8388609.0, -0.3, 1.0, 0.1, float("nan"), -0.0]
OTHER = object()  # the special values reversed

# tensorplay 1.1's operators on special values, one-node graphs of the
# operator itself (through tensorplay.compile its functional forms may be
# traced as the frontend's own decompositions, whose special values differ
# from the kernels'): eager's result bit for bit (NaN where eager gives
# NaN, the sign of every zero). (operator, arguments after the tensor,
# keyword arguments)
EXACT = [
    ("relu6.default", ()), ("hardtanh.default", (-0.5, 2.0)),
    ("hardshrink.default", (0.7,)), ("softshrink.default", (0.7,)),
    ("threshold.default", (0.3, -2.0)), ("hardsigmoid.default", ()),
    ("sign.default", ()), ("sgn.default", ()), ("isnan.default", ()),
    ("isinf.default", ()), ("isfinite.default", ()),
    ("isposinf.default", ()), ("isneginf.default", ()),
    ("nan_to_num.default", ()), ("nan_to_num.default", (1.0, 2.0, -3.0)),
    ("heaviside.default", (OTHER,)), ("fmax.default", (OTHER,)),
    ("fmin.default", (OTHER,)), ("logical_and.default", (OTHER,)),
    ("logical_or.default", (OTHER,)), ("logical_xor.default", (OTHER,)),
    ("floor.default", ()), ("ceil.default", ()), ("trunc.default", ()),
    ("fix.default", ()), ("round.default", ()),
    ("round.decimals", (), {"decimals": 2}),
    ("round.decimals", (), {"decimals": -1}), ("frac.default", ()),
    ("floor_divide.default", (OTHER,)),
    ("div.Tensor_mode", (OTHER,), {"rounding_mode": "floor"}),
    ("div.Tensor_mode", (OTHER,), {"rounding_mode": "trunc"}),
    ("square.default", ()), ("amin.default", ([0], True)),
    ("lerp.Scalar", (OTHER, 0.25)),
]

# Eager's vectorized relu6, hardtanh and hardsigmoid turn NaN into a bound
# and -0.0 into +0.0 (the vector body's max/min), its scalar tail keeps
# both: where eager disagrees with itself the compiled code keeps NaN (as
# clamp does) and gives +0.0; those inputs are left out of the comparison.
# (tanhshrink and deg2rad are within an ulp of eager's, not bit for bit:
# tested above.)
BY_POSITION = {"relu6.default", "hardtanh.default", "hardsigmoid.default"}


@pytest.mark.skipif(not AOT, reason="tensorplay 1.0 has no dispatcher-level "
                    "operators (its functional forms: the tests above)")
@pytest.mark.parametrize("case", EXACT, ids=[
    f"{c[0]}{'-' + '-'.join(map(str, c[2].values())) if len(c) > 2 else ''}"
    f"{'-' + str(len(c[1])) if c[1] else ''}" for c in EXACT])
def test_special_values_bit_for_bit(case):
    from tensorplay_mlir.backend import backend
    name, rest = case[0], case[1]
    kwargs = case[2] if len(case) > 2 else {}
    operator, overload = name.split(".")
    op = getattr(getattr(tensorplay.ops.tp, operator), overload)
    x = tensorplay.tensor(SPECIAL)
    other = tensorplay.tensor(SPECIAL[::-1])
    args = [x] + [other if a is OTHER else a for a in rest]
    want = op(*args, **kwargs)
    gm, inputs = one_node_graph(op, args, kwargs)
    got = backend(gm, inputs, options={"fallback": False})(*inputs)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    a, b = got.numpy(), want.numpy()
    if name in BY_POSITION:
        keep = ~np.isnan(x.numpy()) & (x.numpy() != 0)
        a, b = a[keep], b[keep]
    if a.dtype.kind == "f":
        assert np.array_equal(np.signbit(a), np.signbit(b)), (a, b)
        assert np.array_equal(a, b, equal_nan=True), (a, b)
    else:
        assert np.array_equal(a, b), (a, b)


def test_integer_minima_do_not_overflow():
    """amin/argmin of integers through -1 - x: INT64_MIN and INT64_MAX are
    found, not wrapped."""
    lo, hi = -2 ** 63, 2 ** 63 - 1
    x = tensorplay.tensor([[3, lo, hi], [hi, 0, lo]], dtype=tensorplay.int64)

    def fn(v):
        return TP.amin(v, dim=1), TP.argmin(v, dim=0), TP.min(v)
    want = fn(x)
    got = tensorplay.compile(fn, backend="mlir",
                             options={"fallback": False})(x)
    for a, b in zip(got, want):
        assert a.tolist() == b.tolist()
