"""The case tables of tpcheck.py: one function per family, taking the mode
("default", "linalg", "serial" or "bf16") and returning the cases."""

import math

import numpy as np

from tpcheck import (Case, as_input, binary, conv_nd, conv_transpose_nd,
                     conv_transpose_weight_grad_nd, conv_weight_grad_nd, erf, erfinv_ref,
                     f64, gelu, gelu_tanh, log_softmax, nll, op_case, rand,
                     randint, reduce_loss, sigmoid, softmax, softplus, to_bf16,
                     ttype, unary)


def fdt(mode):
    modes = mode.split("+")
    return "bf16" if "bf16" in modes else "f16" if "f16" in modes else "f32"


def rounded(dt, x):
    """The reference rounded to the result dtype (what tensorplay stores)."""
    if dt == "bf16":
        return to_bf16(np.asarray(x, np.float32)).astype(np.float64)
    if dt == "f16":
        return np.asarray(x, np.float16).astype(np.float64)
    return x


def fake_quantize_ref(x, scale, zero_point, quant_min, quant_max):
    x = np.asarray(x, np.float32)
    q = np.rint(x * np.float32(1.0 / scale)) + np.float32(zero_point)
    q = np.clip(q, quant_min, quant_max)
    return ((q - np.float32(zero_point)) * np.float32(scale)).astype(np.float64)


# ----------------------------------------------------------------------------
def elementwise(mode):
    dt = fdt(mode)
    U = lambda name, op, ref, **kw: unary(name, op, ref, dtype=dt, **kw)
    cases = [
        U("abs", "abs", np.abs),
        U("neg", "neg", np.negative),
        U("relu", "relu", lambda x: np.maximum(x, 0)),
        U("exp", "exp", np.exp, lo=-10, hi=10),
        U("expm1", "expm1", np.expm1, lo=-3, hi=3),
        U("log", "log", np.log, lo=0.01, hi=50),
        U("log2", "log2", np.log2, lo=0.01, hi=50),
        U("log10", "log10", np.log10, lo=0.01, hi=50),
        U("log1p", "log1p", np.log1p, lo=-0.9, hi=50),
        U("sqrt", "sqrt", np.sqrt, lo=0, hi=50),
        U("rsqrt", "rsqrt", lambda x: 1 / np.sqrt(x), lo=0.05, hi=50),
        U("reciprocal", "reciprocal", lambda x: 1 / x, lo=0.1, hi=4),
        U("sin", "sin", np.sin, lo=-6, hi=6),
        U("cos", "cos", np.cos, lo=-6, hi=6),
        U("tan", "tan", np.tan, lo=-1.2, hi=1.2),
        U("asin", "asin", np.arcsin, lo=-0.99, hi=0.99),
        U("acos", "acos", np.arccos, lo=-0.99, hi=0.99),
        U("atan", "atan", np.arctan, lo=-50, hi=50),
        U("asinh", "asinh", np.arcsinh, lo=-50, hi=50),
        U("acosh", "acosh", np.arccosh, lo=1, hi=50),
        U("atanh", "atanh", np.arctanh, lo=-0.99, hi=0.99),
        U("sinh", "sinh", np.sinh, lo=-4, hi=4),
        U("cosh", "cosh", np.cosh, lo=-4, hi=4),
        U("tanh", "tanh", np.tanh, lo=-6, hi=6),
        U("sigmoid", "sigmoid", sigmoid, lo=-12, hi=12),
        U("silu", "silu", lambda x: x * sigmoid(x), lo=-8, hi=8),
        U("gelu", "gelu", gelu, lo=-6, hi=6),
        U("gelu_tanh", "gelu", gelu_tanh, lo=-6, hi=6,
          attrs='{approximate = #tp.approximate<tanh>}'),
        U("erf", "erf", erf, lo=-3, hi=3),
        U("erfinv", "erfinv", erfinv_ref, lo=-0.99, hi=0.99,
          tol=None if dt != "f32" else (1e-4, 1e-4)),
        U("softplus", "softplus", lambda x: softplus(x, 2.0, 5.0), lo=-5, hi=5,
          attrs="{beta = 2.0 : f64, threshold = 5.0 : f64}"),
        U("leaky_relu", "leaky_relu", lambda x: np.where(x > 0, x, 0.2 * x),
          attrs="{negative_slope = 0.2 : f64}"),
        U("hardswish", "hardswish",
          lambda x: x * np.clip(x + 3, 0, 6) / 6, lo=-5, hi=5),
        U("elu", "elu", lambda x: np.where(x > 0, x, np.expm1(x)), lo=-5,
          hi=5),
        U("selu", "elu", lambda x: 1.0507009873554805 * np.where(
            x > 0, x, 1.6732632423543772 * np.expm1(x)), lo=-5, hi=5,
          attrs="{alpha = 1.6732632423543772 : f64, "
                "scale = 1.0507009873554805 : f64}"),
        U("celu", "elu", lambda x: np.where(x > 0, x, 0.5 * np.expm1(x / 0.5)),
          lo=-5, hi=5, attrs="{alpha = 0.5 : f64, input_scale = 2.0 : f64}"),
        U("mish", "mish", lambda x: x * np.tanh(np.logaddexp(0.0, x)),
          lo=-30, hi=30),
        U("log_sigmoid", "log_sigmoid", lambda x: -np.logaddexp(0.0, -x),
          lo=-100, hi=100),
        U("clamp", "clamp", lambda x: np.clip(x, -0.5, 1.25),
          attrs="{max = 1.25 : f64, min = -0.5 : f64}"),
        U("clamp_max", "clamp", lambda x: np.minimum(x, 0.3),
          attrs="{max = 0.3 : f64}"),
        # min > max: max everywhere, as tensorplay.
        U("clamp_crossed", "clamp", lambda x: np.full_like(x, 0.25),
          attrs="{max = 0.25 : f64, min = 1.0 : f64}"),
        # Fake quantization, computed as tensorplay's CPU kernel does in
        # float32: round half to even of x * (1/scale), plus the zero point,
        # clamped, then back. A negative quant_min and one that clamps hard.
        U("fake_quantize", "fake_quantize_per_tensor_affine",
          lambda x: fake_quantize_ref(x, 0.1, 2, -8, 7),
          attrs="{quant_max = 7 : i64, quant_min = -8 : i64, "
                "scale = 0.1 : f64, zero_point = 2 : i64}"),
        U("fake_quantize_u8", "fake_quantize_per_tensor_affine",
          lambda x: fake_quantize_ref(x, 0.0125, 128, 0, 255),
          attrs="{quant_max = 255 : i64, quant_min = 0 : i64, "
                "scale = 1.250000e-02 : f64, zero_point = 128 : i64}"),
        # A large tensor: the parallel, vectorized path.
        U("gelu_big", "gelu", gelu, shape=(64, 33, 64), lo=-4, hi=4),
        # (f16 tops out at 65504: exp(10) still fits.)
        U("exp_big", "exp", np.exp, shape=(256, 1024),
          lo=-10 if dt == "f16" else -20, hi=10 if dt == "f16" else 20),
    ]
    B = lambda name, op, ref, sa, sb, so, **kw: binary(
        name, op, ref, sa, sb, so, da=dt, db=dt, do=dt, **kw)
    cases += [
        B("add", "add", np.add, (4, 8), (4, 8), (4, 8)),
        B("add_bcast", "add", np.add, (3, 4, 8), (8,), (3, 4, 8)),
        B("add_bcast2", "add", np.add, (3, 1, 8), (4, 1), (3, 4, 8)),
        B("add_alpha", "add", lambda x, y: x + 2.5 * y, (4, 8), (4, 8), (4, 8),
          attrs="{alpha = 2.5 : f64}"),
        B("sub_alpha", "sub", lambda x, y: x - 0.5 * y, (4, 8), (1, 8), (4, 8),
          attrs="{alpha = 0.5 : f64}"),
        B("mul", "mul", np.multiply, (2, 3, 5), (2, 1, 5), (2, 3, 5)),
        B("div", "div", np.divide, (4, 8), (4, 8), (4, 8), lb=0.5, hb=2),
        B("div_floor", "div", lambda x, y: np.floor(x / y), (4, 8), (4, 8),
          (4, 8), lb=0.5, hb=2, attrs='{rounding_mode = "floor"}'),
        B("div_trunc", "div", lambda x, y: np.trunc(x / y), (4, 8), (4, 8),
          (4, 8), lb=0.5, hb=2, attrs='{rounding_mode = "trunc"}'),
        B("maximum", "maximum", np.maximum, (4, 8), (8,), (4, 8)),
        B("minimum", "minimum", np.minimum, (4, 8), (8,), (4, 8)),
        B("atan2", "atan2", np.arctan2, (4, 8), (4, 8), (4, 8)),
        B("pow_tensor", "pow", np.power, (4, 8), (4, 8), (4, 8), la=0.1,
          ha=3, lb=-2, hb=2),
        B("add_big", "add", np.add, (128, 512), (512,), (128, 512)),
        # The activations' backward ops: grad_output times the derivative
        # at self (gelu's erf form: Phi(x) + x phi(x)); relu's mask above
        # the threshold.
        B("gelu_backward", "gelu_backward",
          lambda g, x: g * (0.5 * (1 + erf(x / math.sqrt(2))) +
                            x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)),
          (4, 8), (4, 8), (4, 8), la=-1, ha=1, lb=-4, hb=4),
        B("threshold_backward", "threshold_backward",
          lambda g, x: np.where(x > 0.25, g, 0.0), (4, 8), (8,), (4, 8),
          attrs="{threshold = 2.500000e-01 : f64}"),
    ]
    if dt == "f32":
        # Native type promotion: bf16 + f32 -> f32; bf16 tensor * f32 0-d
        # tensor stays bf16 (the scalar is rounded to bf16 first).
        cases += [
            binary("promote_bf16_f32", "add", np.add, (4, 8), (4, 8), (4, 8),
                   da="bf16", db="f32", do="f32"),
            binary("promote_scalar", "mul",
                   lambda x, y: to_bf16(x * to_bf16(y)), (4, 8), (), (4, 8),
                   da="bf16", db="f32", do="bf16", tol=(0, 0)),
            binary("int_add", "add", np.add, (4, 8), (4, 8), (4, 8), da="f32",
                   db="f32", do="f32"),
        ]
        a = randint((4, 8), -50, 50, "i64")
        b = randint((4, 8), 1, 9, "i64")
        cases += [
            op_case("int_mul", [a, b], "mul", "%a0, %a1", "",
                    [((4, 8), "i64")], lambda x, y: [x * y]),
            op_case("int_floordiv", [a, b], "div", "%a0, %a1",
                    'rounding_mode = "floor"', [((4, 8), "f32")],
                    lambda x, y: [np.floor_divide(x, y)]),
            op_case("int_truediv", [a, b], "div", "%a0, %a1", "",
                    [((4, 8), "f32")], lambda x, y: [x / y]),
            op_case("int_relu", [a], "relu", "%a0", "", [((4, 8), "i64")],
                    lambda x: [np.maximum(x, 0)]),
            op_case("int_exp", [randint((5,), -3, 4, "i64")], "exp", "%a0", "",
                    [((5,), "f32")], lambda x: [np.exp(x)]),
        ]
    x = rand((4, 8), 0.2, 3, dt)
    cases += [
        op_case("pow_scalar2", [x], "pow", "%a0", "scalar_exponent = 2.0 : f64",
                [((4, 8), dt)], lambda v: [v**2]),
        op_case("pow_scalar_frac", [x], "pow", "%a0",
                "scalar_exponent = 1.7 : f64", [((4, 8), dt)],
                lambda v: [v**1.7]),
        op_case("pow_scalar_neg", [x], "pow", "%a0",
                "scalar_exponent = -0.5 : f64", [((4, 8), dt)],
                lambda v: [v**-0.5]),
        op_case("rdiv", [x], "rdiv", "%a0", "other = 3.0 : f64",
                [((4, 8), dt)], lambda v: [3.0 / v]),
        op_case("rtruediv", [x], "rtruediv", "%a0", "other = -2.0 : f64",
                [((4, 8), dt)], lambda v: [-2.0 / v]),
        op_case("rpow", [x], "rpow", "%a0", "base = 2.0 : f64",
                [((4, 8), dt)], lambda v: [2.0**v]),
    ]
    s, t1, t2 = rand((4, 8), dtype=dt), rand((4, 8), dtype=dt), rand(
        (8,), 0.5, 2, dt)
    cases += [
        op_case("addcmul", [s, t1, t2], "addcmul", "%a0, %a1, %a2",
                "value = 0.5 : f64", [((4, 8), dt)],
                lambda a, b, c: [a + 0.5 * b * c]),
        op_case("addcdiv", [s, t1, t2], "addcdiv", "%a0, %a1, %a2",
                "value = 2.0 : f64", [((4, 8), dt)],
                lambda a, b, c: [a + 2.0 * b / c]),
    ]
    # Comparisons: ties (values on a coarse grid), NaN (unordered: only ne
    # holds), broadcasting, and promotion (a bf16 tensor against a 0-d f32
    # scalar compares in bf16: 0.3 rounds to 0.30078125 first).
    grid = randint((4, 8), -4, 5)[0] / 2.0
    grid[0, :3] = np.nan
    ga, gb = as_input(grid, dt), as_input(grid[1], dt)
    compare = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
               "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
    for name, ref in compare.items():
        cases.append(op_case("cmp_" + name, [ga, gb], name, "%a0, %a1", "",
                             [((4, 8), "i1")],
                             lambda a, b, ref=ref: [ref(a, b)]))
    bx = rand((4, 8), 0.25, 0.35, "bf16")
    cases.append(op_case("cmp_promote_scalar", [bx, as_input(0.3, "f32")],
                         "gt", "%a0, %a1", "", [((4, 8), "i1")],
                         lambda a, b: [a > to_bf16(np.float32(b))]))
    ia, ib = randint((4, 8), -3, 3, "i64"), randint((8,), -3, 3, "i64")
    cases.append(op_case("cmp_int", [ia, ib], "le", "%a0, %a1", "",
                         [((4, 8), "i1")], lambda a, b: [a <= b]))
    cases.append(op_case("cmp_int_float", [ia, as_input(grid[2], "f32")],
                         "lt", "%a0, %a1", "", [((4, 8), "i1")],
                         lambda a, b: [a < b]))
    mask = randint((8,), 0, 2, "i1")
    cases += [
        op_case("masked_fill", [rand((4, 8), dtype=dt), mask], "masked_fill",
                "%a0, %a1", "value = -2.5 : f64", [((4, 8), dt)],
                lambda x, m: [np.where(m != 0, -2.5, x)]),
        op_case("masked_fill_ninf", [rand((3, 4, 8), dtype=dt),
                                     randint((4, 8), 0, 2, "i1")],
                "masked_fill", "%a0, %a1", "value = 0xFFF0000000000000 : f64",
                [((3, 4, 8), dt)],
                lambda x, m: [np.where(m != 0, -np.inf, x)]),
        op_case("masked_fill_int", [ia, mask], "masked_fill", "%a0, %a1",
                "value = 7.75 : f64", [((4, 8), "i64")],
                lambda x, m: [np.where(m != 0, 7, x)]),
        op_case("clamp_int", [ia], "clamp", "%a0",
                "max = 2.0 : f64, min = -1.0 : f64", [((4, 8), "i64")],
                lambda x: [np.clip(x, -1, 2)]),
    ]
    cond = randint((4, 8), 0, 2, "i1")
    cases.append(op_case("where", [cond, rand((4, 8), dtype=dt),
                                   rand((8,), dtype=dt)], "where",
                         "%a0, %a1, %a2", "", [((4, 8), dt)],
                         lambda c, a, b: [np.where(c != 0, a, b)]))
    # Casts.
    xf = rand((4, 9), -100, 100, "f32")
    cases += [
        op_case("cast_f32_bf16", [xf], "cast", "%a0", "", [((4, 9), "bf16")],
                lambda v: [to_bf16(v)], tol=(0, 0)),
        op_case("cast_f32_i32", [xf], "cast", "%a0", "", [((4, 9), "i32")],
                lambda v: [np.trunc(v)]),
        op_case("cast_i64_f32", [randint((6,), -1000, 1000)], "cast", "%a0",
                "", [((6,), "f32")], lambda v: [v]),
        op_case("cast_f32_i1", [rand((6,), -1, 1, "f32")], "cast", "%a0", "",
                [((6,), "i1")], lambda v: [v != 0]),
    ]
    # The cast op has its own syntax: fix the lines.
    for c in cases:
        if c.name.startswith("cast_"):
            (a, da), = c.inputs
            (so, do), = c.results
            c.body = ["%%r0 = tp.cast %%a0 : %s to %s" %
                      (ttype(a.shape, da), ttype(so, do))]
    # Dropout: eval mode is the identity; training keeps ~(1-p) of the
    # elements, scaled by 1/(1-p), and is reproducible.
    xd = rand((64, 64), 0.5, 1.5, dt)
    cases.append(op_case("dropout_eval", [xd], "dropout", "%a0",
                         "p = 0.3 : f64, train = false", [((64, 64), dt)],
                         lambda v: [v]))

    def dropout_check(outs, ins):
        o, x = outs[0].astype(np.float64), ins[0]
        kept = o != 0
        frac = kept.mean()
        scaled = np.abs(o[kept] - x[kept] / 0.75).max() if kept.any() else 0
        tol = {"bf16": 3e-2, "f16": 3e-3}.get(dt, 1e-5)
        ok = abs(frac - 0.75) < 0.05 and scaled <= tol
        return ok, "kept %.3f (expected 0.75), max |kept - x/(1-p)| %.2g" % (
            frac, scaled)
    cases.append(op_case("dropout_train", [xd], "dropout", "%a0",
                         "p = 0.25 : f64, train = true", [((64, 64), dt)],
                         None, check=dropout_check))
    cst = np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5
    cases.append(Case("constant", [], [
        "%r0 = tp.constant dense<[[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]]> : "
        "tensor<2x3xf32>"], [((2, 3), "f32")], lambda: [cst]))
    return cases


# ----------------------------------------------------------------------------
def shape(mode):
    dt = fdt(mode)
    x = rand((2, 3, 4), dtype=dt)
    T = lambda s: ttype(s, dt)
    cases = [
        op_case("transpose", [x], "transpose", "%a0", "dim0 = 0 : i64, dim1 = 2 : i64",
                [((4, 3, 2), dt)], lambda v: [np.swapaxes(v, 0, 2)]),
        op_case("permute", [x], "permute", "%a0", "dims = array<i64: 1, 2, 0>",
                [((3, 4, 2), dt)], lambda v: [np.transpose(v, (1, 2, 0))]),
        op_case("reshape", [x], "reshape", "%a0", "shape = array<i64: 4, 6>",
                [((4, 6), dt)], lambda v: [v.reshape(4, 6)]),
        op_case("reshape_general", [x], "reshape", "%a0",
                "shape = array<i64: 3, 8>", [((3, 8), dt)],
                lambda v: [v.reshape(3, 8)]),
        op_case("flatten", [x], "flatten", "%a0", "start_dim = 1 : i64",
                [((2, 12), dt)], lambda v: [v.reshape(2, 12)]),
        op_case("unsqueeze", [x], "unsqueeze", "%a0", "dim = 1 : i64",
                [((2, 1, 3, 4), dt)], lambda v: [v[:, None]]),
        op_case("squeeze", [rand((3, 1, 4), dtype=dt)], "squeeze", "%a0", "",
                [((3, 4), dt)], lambda v: [v[:, 0]]),
        op_case("expand", [rand((3, 1), dtype=dt)], "expand", "%a0",
                "size = array<i64: 2, 3, 5>", [((2, 3, 5), dt)],
                lambda v: [np.broadcast_to(v, (2, 3, 5))]),
        op_case("cat", [rand((2, 3), dtype=dt), rand((2, 5), dtype=dt)], "cat",
                "[%a0, %a1]", "dim = 1 : i64", [((2, 8), dt)],
                lambda a, b: [np.concatenate([a, b], 1)]),
        op_case("stack", [rand((2, 3), dtype=dt), rand((2, 3), dtype=dt)],
                "stack", "[%a0, %a1]", "dim = 1 : i64", [((2, 2, 3), dt)],
                lambda a, b: [np.stack([a, b], 1)]),
        op_case("embedding", [rand((10, 6), dtype=dt), randint((3, 4), 0, 10)],
                "embedding", "%a0, %a1", "", [((3, 4, 6), dt)],
                lambda w, i: [w[i.astype(np.int64)]]),
        # embedding's weight gradient: repeated indices add up, padding_idx
        # gets nothing, scale_grad_by_freq divides by the counts, indices
        # outside [0, V) go to the row the forward read (clamped).
        op_case("embedding_dense_backward",
                [rand((3, 4, 6), dtype=dt), randint((3, 4), 0, 5)],
                "embedding_dense_backward", "%a0, %a1", "num_weights = 10 : i64",
                [((10, 6), dt)], lambda g, i: [embedding_backward(g, i, 10)]),
        op_case("embedding_dense_backward_pad_freq",
                [rand((2, 7, 3), dtype=dt), randint((2, 7), 0, 4, "i32")],
                "embedding_dense_backward", "%a0, %a1",
                "num_weights = 6 : i64, padding_idx = 2 : i64, "
                "scale_grad_by_freq = true", [((6, 3), dt)],
                lambda g, i: [embedding_backward(g, i, 6, 2, True)]),
        op_case("embedding_dense_backward_clamped",
                [rand((5, 4), dtype=dt),
                 (np.array([-3, 12, 1, 5, 12], np.int64), "i64")],
                "embedding_dense_backward", "%a0, %a1", "num_weights = 6 : i64",
                [((6, 4), dt)], lambda g, i: [embedding_backward(g, i, 6)]),
        op_case("reflection_pad1d", [rand((2, 3, 8), dtype=dt)],
                "reflection_pad1d", "%a0", "padding = array<i64: 3, 2>",
                [((2, 3, 13), dt)],
                lambda v: [np.pad(v, [(0, 0), (0, 0), (3, 2)], mode="reflect")]),
        op_case("reflection_pad2d", [rand((1, 2, 5, 6), dtype=dt)],
                "reflection_pad2d", "%a0", "padding = array<i64: 1, 2, 3, 1>",
                [((1, 2, 9, 9), dt)],
                lambda v: [np.pad(v, [(0, 0), (0, 0), (3, 1), (1, 2)],
                                  mode="reflect")]),
        op_case("replication_pad1d", [rand((2, 3, 6), dtype=dt)],
                "replication_pad1d", "%a0", "padding = array<i64: 2, 4>",
                [((2, 3, 12), dt)],
                lambda v: [np.pad(v, [(0, 0), (0, 0), (2, 4)], mode="edge")]),
        op_case("replication_pad2d", [rand((1, 2, 5, 6), dtype=dt)],
                "replication_pad2d", "%a0", "padding = array<i64: 2, 1, 0, 3>",
                [((1, 2, 8, 9), dt)],
                lambda v: [np.pad(v, [(0, 0), (0, 0), (0, 3), (2, 1)],
                                  mode="edge")]),
        op_case("replication_pad3d", [rand((1, 1, 3, 4, 5), dtype=dt)],
                "replication_pad3d", "%a0",
                "padding = array<i64: 1, 1, 2, 0, 0, 1>", [((1, 1, 4, 6, 7), dt)],
                lambda v: [np.pad(v, [(0, 0), (0, 0), (0, 1), (2, 0), (1, 1)],
                                  mode="edge")]),
        op_case("slice_columns", [rand((4, 8), dtype=dt)], "slice", "%a0",
                "dim = 1 : i64, end = -1 : i64, start = 2 : i64",
                [((4, 5), dt)], lambda v: [v[:, 2:-1]], tol=(0, 0)),
        op_case("slice_step_rows", [rand((8, 5), dtype=dt)], "slice", "%a0",
                "end = 100 : i64, start = -7 : i64, step = 3 : i64",
                [((3, 5), dt)], lambda v: [v[-7:100:3]], tol=(0, 0)),
        op_case("slice_middle_3d", [rand((2, 9, 3), dtype=dt)], "slice", "%a0",
                "dim = -2 : i64, start = 1 : i64, step = 4 : i64",
                [((2, 2, 3), dt)], lambda v: [v[:, 1::4]], tol=(0, 0)),
        op_case("slice_int", [randint((6, 4), -9, 9, "i64")], "slice", "%a0",
                "dim = 0 : i64, end = 5 : i64, start = 1 : i64, step = 2 : i64",
                [((2, 4), "i64")], lambda v: [v[1:5:2]]),
        op_case("slice_backward", [rand((4, 3), dtype=dt)], "slice_backward",
                "%a0", "dim = 1 : i64, input_sizes = array<i64: 4, 8>, "
                "start = 1 : i64, step = 3 : i64", [((4, 8), dt)],
                lambda g: [np.stack([np.zeros(4), g[:, 0], np.zeros(4),
                                     np.zeros(4), g[:, 1], np.zeros(4),
                                     np.zeros(4), g[:, 2]], axis=1)],
                tol=(0, 0)),
        op_case("permute_big", [rand((8, 128, 8, 64), dtype=dt)], "permute",
                "%a0", "dims = array<i64: 0, 2, 1, 3>", [((8, 8, 128, 64), dt)],
                lambda v: [np.transpose(v, (0, 2, 1, 3))], tol=(0, 0)),
    ]
    # chunk(2) as a GLU does: two strided halves into one elementwise chain.
    xg = rand((3, 10), dtype=dt)
    T = lambda sh: ttype(sh, dt)
    cases.append(Case("slice_halves_glu", [xg], [
        "%%a = tp.slice %%a0 {dim = 1 : i64, end = 5 : i64} : (%s) -> %s" % (T((3, 10)), T((3, 5))),
        "%%b = tp.slice %%a0 {dim = 1 : i64, start = 5 : i64} : (%s) -> %s" % (T((3, 10)), T((3, 5))),
        "%%s = tp.sigmoid %%b : (%s) -> %s" % (T((3, 5)), T((3, 5))),
        "%%r0 = tp.mul %%a, %%s : (%s, %s) -> %s" % (T((3, 5)), T((3, 5)), T((3, 5))),
    ], [((3, 5), dt)], lambda v: [rounded(dt, v[:, :5] * sigmoid(v[:, 5:]))]))
    return cases


# ----------------------------------------------------------------------------
def reductions(mode):
    dt = fdt(mode)
    x = rand((3, 5, 7), dtype=dt)
    cases = [
        op_case("sum_all", [x], "sum", "%a0", "", [((), dt)],
                lambda v: [rounded(dt, v.sum())]),
        op_case("sum_dims_keep", [x], "sum", "%a0",
                "dim = array<i64: 0, 2>, keepdim = true", [((1, 5, 1), dt)],
                lambda v: [rounded(dt, v.sum(axis=(0, 2), keepdims=True))]),
        op_case("sum_neg_dim", [x], "sum", "%a0", "dim = array<i64: -1>",
                [((3, 5), dt)], lambda v: [rounded(dt, v.sum(axis=-1))]),
        op_case("sum_dtype_f32", [x], "sum", "%a0",
                "dim = array<i64: 1>, dtype = f32", [((3, 7), "f32")],
                lambda v: [v.sum(axis=1)]),
        op_case("mean", [x], "mean", "%a0", "dim = array<i64: 1>",
                [((3, 7), dt)], lambda v: [rounded(dt, v.mean(axis=1))]),
        op_case("mean_all", [rand((64, 256), dtype=dt)], "mean", "%a0", "",
                [((), dt)], lambda v: [rounded(dt, v.mean())]),
        op_case("prod", [rand((3, 5, 7), 0.5, 1.5, dt)], "prod", "%a0",
                "dim = 1 : i64", [((3, 7), dt)],
                lambda v: [rounded(dt, v.prod(axis=1))]),
        op_case("max", [x], "max", "%a0", "", [((), dt)], lambda v: [v.max()]),
        op_case("logsumexp", [rand((3, 5, 7), -30, 30, dt)], "logsumexp",
                "%a0", "dim = array<i64: 1, 2>", [((3,), dt)],
                lambda v: [rounded(dt, np.logaddexp.reduce(
                    v.reshape(3, -1), axis=1))]),
        op_case("logsumexp_keep", [x], "logsumexp", "%a0",
                "dim = array<i64: 0>, keepdim = true", [((1, 5, 7), dt)],
                lambda v: [rounded(dt, np.logaddexp.reduce(
                    v, axis=0, keepdims=True))]),
        op_case("amax", [x], "amax", "%a0", "dim = array<i64: 0, 1>",
                [((7,), dt)], lambda v: [v.max(axis=(0, 1))]),
        op_case("argmax", [x], "argmax", "%a0", "dim = 2 : i64",
                [((3, 5), "i64")], lambda v: [v.argmax(axis=2)]),
        op_case("argmax_flat", [x], "argmax", "%a0", "", [((), "i64")],
                lambda v: [v.argmax()]),
        op_case("max_dim", [x], "max_dim", "%a0", "dim = 1 : i64, keepdim = true",
                [((3, 1, 7), dt), ((3, 1, 7), "i64")],
                lambda v: [v.max(axis=1, keepdims=True),
                           v.argmax(axis=1)[:, None]]),
        op_case("norm2", [x], "norm", "%a0", "", [((), dt)],
                lambda v: [rounded(dt, np.sqrt((v**2).sum()))]),
        op_case("norm1_dim", [x], "norm", "%a0",
                "p = 1.0 : f64, dim = array<i64: 2>", [((3, 5), dt)],
                lambda v: [rounded(dt, np.abs(v).sum(axis=2))]),
        op_case("norm_inf", [x], "norm", "%a0",
                "p = 0x7FF0000000000000 : f64, dim = array<i64: 1>",
                [((3, 7), dt)], lambda v: [np.abs(v).max(axis=1)]),
        op_case("norm3", [x], "norm", "%a0",
                "p = 3.0 : f64, dim = array<i64: 0>, keepdim = true",
                [((1, 5, 7), dt)],
                lambda v: [rounded(dt, (np.abs(v)**3).sum(axis=0, keepdims=True)**(1 / 3))]),
        op_case("dist", [rand((4, 6), dtype=dt), rand((6,), dtype=dt)], "dist",
                "%a0, %a1", "p = 2.0 : f64", [((), dt)],
                lambda a, b: [rounded(dt, np.sqrt(((a - b)**2).sum()))]),
        op_case("trace", [rand((5, 7), dtype=dt)], "trace", "%a0", "",
                [((), dt)], lambda v: [rounded(dt, np.trace(v))]),
        op_case("cumsum", [x], "cumsum", "%a0", "dim = 1 : i64",
                [((3, 5, 7), dt)], lambda v: [rounded(dt, np.cumsum(v, axis=1))]),
        op_case("cumprod", [rand((3, 6), 0.5, 1.5, dt)], "cumprod", "%a0",
                "dim = -1 : i64", [((3, 6), dt)],
                lambda v: [rounded(dt, np.cumprod(v, axis=-1))]),
        op_case("sum_int", [randint((4, 5), -9, 9, "i32")], "sum", "%a0",
                "dim = array<i64: 1>", [((4,), "i64")],
                lambda v: [v.sum(axis=1)]),
        op_case("sum_big", [rand((512, 1024), dtype=dt)], "sum", "%a0",
                "dim = array<i64: 1>", [((512,), dt)],
                lambda v: [rounded(dt, v.sum(axis=1))]),
        op_case("sum_cols_big", [rand((512, 1024), dtype=dt)], "sum", "%a0",
                "dim = array<i64: 0>", [((1024,), dt)],
                lambda v: [rounded(dt, v.sum(axis=0))]),
    ]
    # f32 accumulation of bf16 inputs: 2048 ones sum to 2048 exactly (a bf16
    # accumulator would stop at 256).
    ones = (np.ones((2048,), np.float32), "bf16")
    cases.append(op_case("sum_bf16_accumulates_f32", [ones], "sum", "%a0", "",
                         [((), "bf16")], lambda v: [2048.0], tol=(0, 0)))
    # Full reductions of a broadcast product (the product fuses into the
    # reduction; its row tiles are reduced into one scalar).
    def reduce_product(name, op, sx, sw, ref):
        xs, ws = rand(sx, dtype=dt), rand(sw, dtype=dt)
        body = ["%%m = tp.mul %%a0, %%a1 : (%s, %s) -> %s" % (
                    ttype(sx, dt), ttype(sw, dt), ttype(sx, dt)),
                "%%r0 = tp.%s %%m : (%s) -> %s" % (op, ttype(sx, dt),
                                                  ttype((), dt))]
        return Case(name, [xs, ws], body, [((), dt)],
                    lambda a, b: [rounded(dt, ref(rounded(dt, a * b)))])
    cases += [
        reduce_product("sum_bcast_product", "sum", (4, 6), (6,), np.sum),
        reduce_product("mean_bcast_product", "mean", (4, 6), (6,), np.mean),
        reduce_product("sum_bcast_product_3d", "sum", (3, 5, 7), (5, 7),
                       np.sum),
        reduce_product("sum_bcast_product_big", "sum", (256, 1024), (1024,),
                       np.sum),
        reduce_product("mean_bcast_product_big", "mean", (8, 128, 512),
                       (512,), np.mean),
    ]
    # Attribute combinations: cumsum along the first dim, norms with p = -inf
    # (smallest magnitude) and p = 0 (count of non-zeros), keepdim.
    xz = rand((3, 5, 7), dtype=dt)
    xz[0][np.abs(xz[0]) < 0.3] = 0
    cases += [
        op_case("cumsum_dim0", [xz], "cumsum", "%a0", "dim = 0 : i64",
                [((3, 5, 7), dt)],
                lambda v: [rounded(dt, np.cumsum(v, axis=0))]),
        op_case("norm_neg_inf", [xz], "norm", "%a0",
                "p = 0xFFF0000000000000 : f64, dim = array<i64: 2>",
                [((3, 5), dt)], lambda v: [np.abs(v).min(axis=2)]),
        op_case("norm0", [xz], "norm", "%a0",
                "p = 0.0 : f64, dim = array<i64: 0, 2>", [((5,), dt)],
                lambda v: [(v != 0).sum(axis=(0, 2))]),
        op_case("norm0_all", [xz], "norm", "%a0", "p = 0.0 : f64", [((), dt)],
                lambda v: [(v != 0).sum()]),
        op_case("mean_keepdim", [xz], "mean", "%a0",
                "dim = array<i64: 1>, keepdim = true", [((3, 1, 7), dt)],
                lambda v: [rounded(dt, v.mean(axis=1, keepdims=True))]),
        op_case("prod_keepdim", [rand((3, 5, 7), 0.5, 1.5, dt)], "prod", "%a0",
                "dim = 2 : i64, keepdim = true", [((3, 5, 1), dt)],
                lambda v: [rounded(dt, v.prod(axis=2, keepdims=True))]),
    ]
    return cases


# ----------------------------------------------------------------------------
def normalization(mode):
    dt = fdt(mode)
    x = rand((4, 6, 10), -3, 3, dt)
    cases = [
        op_case("softmax", [x], "softmax", "%a0", "dim = -1 : i64",
                [((4, 6, 10), dt)], lambda v: [softmax(v, -1)]),
        op_case("softmax_dim1", [x], "softmax", "%a0", "dim = 1 : i64",
                [((4, 6, 10), dt)], lambda v: [softmax(v, 1)]),
        op_case("softmax_dtype", [x], "softmax", "%a0",
                "dim = 2 : i64, dtype = f32", [((4, 6, 10), "f32")],
                lambda v: [softmax(v, 2)]),
        op_case("log_softmax", [x], "log_softmax", "%a0", "dim = 0 : i64",
                [((4, 6, 10), dt)], lambda v: [log_softmax(v, 0)]),
        op_case("softmin", [x], "softmin", "%a0", "dim = 2 : i64",
                [((4, 6, 10), dt)], lambda v: [softmax(-v, 2)]),
        op_case("softmax_big", [rand((8, 8, 128, 128), -5, 5, dt)], "softmax",
                "%a0", "dim = -1 : i64", [((8, 8, 128, 128), dt)],
                lambda v: [softmax(v, -1)]),
    ]
    # The backward ops, from a gradient and a softmax (log_softmax) output.
    def softmax_bwd(g, y, axis):
        return y * (g - (g * y).sum(axis=axis, keepdims=True))

    def log_softmax_bwd(g, y, axis):
        return g - np.exp(y) * g.sum(axis=axis, keepdims=True)
    gx = rand((4, 6, 10), -2, 2, dt)
    big = (8, 8, 128, 128)
    cases += [
        op_case("softmax_backward",
                [gx, as_input(softmax(f64(x[0]), -1), dt)], "softmax_backward",
                "%a0, %a1", "dim = -1 : i64", [((4, 6, 10), dt)],
                lambda g, y: [softmax_bwd(g, y, -1)]),
        op_case("softmax_backward_dim1",
                [gx, as_input(softmax(f64(x[0]), 1), dt)], "softmax_backward",
                "%a0, %a1", "dim = 1 : i64", [((4, 6, 10), dt)],
                lambda g, y: [softmax_bwd(g, y, 1)]),
        op_case("log_softmax_backward",
                [gx, as_input(log_softmax(f64(x[0]), 0), dt)],
                "log_softmax_backward", "%a0, %a1", "dim = 0 : i64",
                [((4, 6, 10), dt)], lambda g, y: [log_softmax_bwd(g, y, 0)]),
        op_case("log_softmax_backward_0d", [rand((), dtype=dt),
                                            as_input(np.zeros(()), dt)],
                "log_softmax_backward", "%a0, %a1", "dim = 0 : i64",
                [((), dt)], lambda g, y: [log_softmax_bwd(g, y, None)]),
        op_case("softmax_backward_big",
                [rand(big, dtype=dt),
                 as_input(softmax(f64(rand(big, -5, 5, dt)[0]), -1), dt)],
                "softmax_backward", "%a0, %a1", "dim = -1 : i64", [(big, dt)],
                lambda g, y: [softmax_bwd(g, y, -1)]),
    ]
    def ln(v, w, b, k, eps=1e-5):
        axes = tuple(range(v.ndim - k, v.ndim))
        m = v.mean(axis=axes, keepdims=True)
        var = ((v - m)**2).mean(axis=axes, keepdims=True)
        y = (v - m) / np.sqrt(var + eps)
        return y * (w if w is not None else 1) + (b if b is not None else 0)
    y = rand((4, 8, 32), -2, 2, dt)
    g, be = rand((32,), 0.5, 1.5, dt), rand((32,), dtype=dt)
    cases += [
        op_case("layer_norm", [y, g, be], "layer_norm",
                "%a0 weight(%a1) bias(%a2)", "normalized_shape = array<i64: 32>",
                [((4, 8, 32), dt)], lambda v, w, b: [ln(v, w, b, 1)]),
        op_case("layer_norm_2d", [y], "layer_norm", "%a0",
                "normalized_shape = array<i64: 8, 32>, eps = 1.0e-3 : f64",
                [((4, 8, 32), dt)], lambda v: [ln(v, None, None, 2, 1e-3)]),
        op_case("layer_norm_big", [rand((8, 128, 512), -3, 3, dt),
                                   rand((512,), dtype=dt), rand((512,), dtype=dt)],
                "layer_norm", "%a0 weight(%a1) bias(%a2)",
                "normalized_shape = array<i64: 512>", [((8, 128, 512), dt)],
                lambda v, w, b: [ln(v, w, b, 1)]),    ]
    def ln_bwd(g, v, w, k, eps=1e-5):
        """native_layer_norm_backward by its textbook formula."""
        axes = tuple(range(v.ndim - k, v.ndim))
        lead = tuple(range(v.ndim - k))
        m = v.mean(axis=axes, keepdims=True)
        rstd = 1 / np.sqrt(((v - m)**2).mean(axis=axes, keepdims=True) + eps)
        xhat = (v - m) * rstd
        gw = g * (w if w is not None else 1)
        dx = rstd * (gw - gw.mean(axis=axes, keepdims=True)
                     - xhat * (gw * xhat).mean(axis=axes, keepdims=True))
        return [dx, (g * xhat).sum(axis=lead), g.sum(axis=lead)]
    three = lambda *s: [(s, dt), (s[-1:], dt), (s[-1:], dt)]
    cases += [
        op_case("layer_norm_backward",
                [rand((4, 8, 32), -2, 2, dt), y, g], "layer_norm_backward",
                "%a0, %a1 weight(%a2)", "normalized_shape = array<i64: 32>",
                three(4, 8, 32), lambda gr, v, w: ln_bwd(gr, v, w, 1)),
        op_case("layer_norm_backward_2d", [rand((4, 8, 32), -2, 2, dt), y],
                "layer_norm_backward", "%a0, %a1",
                "normalized_shape = array<i64: 8, 32>, eps = 1.0e-3 : f64",
                [((4, 8, 32), dt), ((8, 32), dt), ((8, 32), dt)],
                lambda gr, v: ln_bwd(gr, v, None, 2, 1e-3)),
        op_case("layer_norm_backward_all", [rand((6, 5), -2, 2, dt),
                                            rand((6, 5), -2, 2, dt)],
                "layer_norm_backward", "%a0, %a1",
                "normalized_shape = array<i64: 6, 5>",
                [((6, 5), dt), ((6, 5), dt), ((6, 5), dt)],
                lambda gr, v: ln_bwd(gr, v, None, 2)),
        op_case("layer_norm_backward_big",
                [rand((8, 128, 512), -2, 2, dt), rand((8, 128, 512), -3, 3, dt),
                 rand((512,), dtype=dt)], "layer_norm_backward",
                "%a0, %a1 weight(%a2)", "normalized_shape = array<i64: 512>",
                three(8, 128, 512), lambda gr, v, w: ln_bwd(gr, v, w, 1)),
    ]
    def gn(v, groups, w, b, eps=1e-5):
        n, c = v.shape[:2]
        g = v.reshape(n, groups, -1)
        m = g.mean(axis=2, keepdims=True)
        var = ((g - m)**2).mean(axis=2, keepdims=True)
        r = ((g - m) / np.sqrt(var + eps)).reshape(v.shape)
        sh = (1, c) + (1,) * (v.ndim - 2)
        return r * w.reshape(sh) + b.reshape(sh)
    z = rand((2, 6, 5, 3), -2, 2, dt)
    cases.append(op_case("group_norm", [z, rand((6,), dtype=dt), rand((6,), dtype=dt)],
                         "group_norm", "%a0 weight(%a1) bias(%a2)",
                         "num_groups = 3 : i64", [((2, 6, 5, 3), dt)],
                         lambda v, w, b: [gn(v, 3, w, b)]))
    def gn_bwd(g, v, groups, w, eps=1e-5):
        """native_group_norm_backward by its textbook formula."""
        n, c = v.shape[:2]
        vg, gg = v.reshape(n, groups, -1), g.reshape(n, groups, -1)
        m = vg.mean(axis=2, keepdims=True)
        rstd = 1 / np.sqrt(((vg - m)**2).mean(axis=2, keepdims=True) + eps)
        xhat = ((vg - m) * rstd).reshape(v.shape)
        sh = (1, c) + (1,) * (v.ndim - 2)
        gw = (g * (w.reshape(sh) if w is not None else 1)).reshape(n, groups, -1)
        xh = xhat.reshape(n, groups, -1)
        dx = rstd * (gw - gw.mean(axis=2, keepdims=True)
                     - xh * (gw * xh).mean(axis=2, keepdims=True))
        axes = (0,) + tuple(range(2, v.ndim))
        return [dx.reshape(v.shape), (g * xhat).sum(axis=axes), g.sum(axis=axes)]
    cases += [
        op_case("group_norm_backward",
                [rand((2, 6, 5, 3), -2, 2, dt), z, rand((6,), dtype=dt)],
                "group_norm_backward", "%a0, %a1 weight(%a2)",
                "num_groups = 3 : i64",
                [((2, 6, 5, 3), dt), ((6,), dt), ((6,), dt)],
                lambda gr, v, w: gn_bwd(gr, v, 3, w)),
        op_case("group_norm_backward_2d", [rand((4, 8), -2, 2, dt),
                                           rand((4, 8), -2, 2, dt)],
                "group_norm_backward", "%a0, %a1",
                "num_groups = 2 : i64, eps = 1.0e-3 : f64",
                [((4, 8), dt), ((8,), dt), ((8,), dt)],
                lambda gr, v: gn_bwd(gr, v, 2, None, 1e-3)),
        op_case("group_norm_backward_big",
                [rand((8, 64, 28, 28), -2, 2, dt), rand((8, 64, 28, 28), -3, 3, dt),
                 rand((64,), dtype=dt)], "group_norm_backward",
                "%a0, %a1 weight(%a2)", "num_groups = 8 : i64",
                [((8, 64, 28, 28), dt), ((64,), dt), ((64,), dt)],
                lambda gr, v, w: gn_bwd(gr, v, 8, w)),
    ]
    def bn_bwd(g, v, w, eps=1e-5):
        """native_batch_norm_backward (batch statistics) by its textbook
        formula: per channel over the batch and the spatial dims."""
        axes = (0,) + tuple(range(2, v.ndim))
        sh = (1, -1) + (1,) * (v.ndim - 2)
        m = v.mean(axis=axes, keepdims=True)
        rstd = 1 / np.sqrt(((v - m)**2).mean(axis=axes, keepdims=True) + eps)
        xhat = (v - m) * rstd
        gw = g * (w.reshape(sh) if w is not None else 1)
        dx = rstd * (gw - gw.mean(axis=axes, keepdims=True)
                     - xhat * (gw * xhat).mean(axis=axes, keepdims=True))
        return [dx, (g * xhat).sum(axis=axes), g.sum(axis=axes)]
    cases += [
        op_case("batch_norm_backward",
                [rand((2, 6, 5, 3), -2, 2, dt), z, rand((6,), dtype=dt)],
                "batch_norm_backward", "%a0, %a1 weight(%a2)", "",
                [((2, 6, 5, 3), dt), ((6,), dt), ((6,), dt)],
                lambda gr, v, w: bn_bwd(gr, v, w)),
        op_case("batch_norm_backward_2d", [rand((16, 8), -2, 2, dt),
                                           rand((16, 8), -2, 2, dt)],
                "batch_norm_backward", "%a0, %a1", "eps = 1.0e-3 : f64",
                [((16, 8), dt), ((8,), dt), ((8,), dt)],
                lambda gr, v: bn_bwd(gr, v, None, 1e-3)),
        # An f32 weight of a (bf16 / f16) input: f32 parameter gradients.
        op_case("batch_norm_backward_f32_weight",
                [rand((4, 6, 7), -2, 2, dt), rand((4, 6, 7), -2, 2, dt),
                 rand((6,))], "batch_norm_backward", "%a0, %a1 weight(%a2)",
                "", [((4, 6, 7), dt), ((6,), "f32"), ((6,), "f32")],
                lambda gr, v, w: bn_bwd(gr, v, w)),
        op_case("layer_norm_backward_f32_weight",
                [rand((4, 6, 8), -2, 2, dt), rand((4, 6, 8), -2, 2, dt),
                 rand((8,))], "layer_norm_backward", "%a0, %a1 weight(%a2)",
                "normalized_shape = array<i64: 8>",
                [((4, 6, 8), dt), ((8,), "f32"), ((8,), "f32")],
                lambda gr, v, w: ln_bwd(gr, v, w, 1)),
    ]
    def bn_eval(v, w, b, rm, rv, eps=1e-5):
        sh = (1, -1) + (1,) * (v.ndim - 2)
        return (v - rm.reshape(sh)) / np.sqrt(rv.reshape(sh) + eps) * w.reshape(sh) + b.reshape(sh)
    def bn_train(v, eps=1e-5):
        axes = (0,) + tuple(range(2, v.ndim))
        m = v.mean(axis=axes, keepdims=True)
        var = ((v - m)**2).mean(axis=axes, keepdims=True)
        return (v - m) / np.sqrt(var + eps)
    cases += [
        op_case("batch_norm_eval",
                [z, rand((6,), dtype=dt), rand((6,), dtype=dt), rand((6,), dtype=dt),
                 rand((6,), 0.5, 2, dt)], "batch_norm",
                "%a0 weight(%a1) bias(%a2) running_mean(%a3) running_var(%a4)", "",
                [((2, 6, 5, 3), dt)], lambda v, w, b, m, s: [bn_eval(v, w, b, m, s)]),
        op_case("batch_norm_train", [z], "batch_norm", "%a0", "training = true",
                [((2, 6, 5, 3), dt)], lambda v: [bn_train(v)]),
    ]
    u = rand((3, 8), dtype=dt)
    cases += [
        op_case("normalize", [u], "normalize", "%a0", "p = 2.0 : f64, dim = 1 : i64",
                [((3, 8), dt)],
                lambda v: [v / np.maximum(np.sqrt((v**2).sum(1, keepdims=True)), 1e-12)]),
        op_case("cosine_similarity", [u, rand((1, 8), dtype=dt)],
                "cosine_similarity", "%a0, %a1", "dim = 1 : i64", [((3,), dt)],
                lambda a, b: [((a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-8)) *
                               (b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-8))).sum(1)]),
    ]
    return cases


# ----------------------------------------------------------------------------
def nll_backward_ref(g, a, t, ignore=-100):
    """nll_loss_backward for mean: -g / (kept targets) at each kept
    sample's target class."""
    kept = t != ignore
    out = np.zeros_like(a)
    rows = np.nonzero(kept)[0]
    out[rows, t[rows]] = -g / max(kept.sum(), 1)
    return out


def losses(mode):
    dt = fdt(mode)
    x, t = rand((4, 7), -2, 2, dt), rand((4, 7), -2, 2, dt)
    cases = []
    for red in ("mean", "sum", "none"):
        so = (4, 7) if red == "none" else ()
        R = lambda l, red=red: [reduce_loss(l, red)]
        attr = 'reduction = #tp.reduction<%s>' % red
        cases += [
            op_case("mse_" + red, [x, t], "mse_loss", "%a0, %a1", attr,
                    [(so, dt)], lambda a, b, R=R: R((a - b)**2)),
            op_case("l1_" + red, [x, t], "l1_loss", "%a0, %a1", attr,
                    [(so, dt)], lambda a, b, R=R: R(np.abs(a - b))),
        ]
    def smooth(a, b, beta):
        z = np.abs(a - b)
        return np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)
    def huber(a, b, d):
        z = np.abs(a - b)
        return np.where(z < d, 0.5 * z * z, d * (z - 0.5 * d))
    p = rand((4, 7), 0.05, 0.95, dt)
    tp_ = rand((4, 7), 0, 1, dt)
    lp = (np.log(rand((4, 7), 0.05, 1, "f32")[0]), dt)
    if dt == "bf16":
        lp = (to_bf16(lp[0]), dt)
    tprob = rand((4, 7), 0.01, 1, dt)
    sign = ((np.sign(rand((4, 7))[0]) + (rand((4, 7))[0] == 0)).astype(np.float32), dt)
    cases += [
        op_case("smooth_l1", [x, t], "smooth_l1_loss", "%a0, %a1",
                "beta = 0.5 : f64", [((), dt)],
                lambda a, b: [smooth(a, b, 0.5).mean()]),
        op_case("huber", [x, t], "huber_loss", "%a0, %a1",
                'delta = 0.7 : f64, reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, b: [huber(a, b, 0.7).sum()]),
        op_case("soft_margin", [x, sign], "soft_margin_loss", "%a0, %a1", "",
                [((), dt)], lambda a, y: [np.log1p(np.exp(-y * a)).mean()]),
        op_case("hinge_embedding", [x, sign], "hinge_embedding_loss", "%a0, %a1",
                "margin = 0.5 : f64", [((), dt)],
                lambda a, y: [np.where(y == 1, a, np.maximum(0, 0.5 - a)).mean()]),
        op_case("kl_div", [lp, tprob], "kl_div", "%a0, %a1",
                'reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, b: [(b * (np.log(b) - a)).sum()]),
        op_case("kl_div_log_target", [lp, lp], "kl_div", "%a0, %a1",
                "log_target = true", [((), dt)],
                lambda a, b: [(np.exp(b) * (b - a)).mean()]),
        op_case("poisson_nll", [x, tp_], "poisson_nll_loss", "%a0, %a1", "",
                [((), dt)], lambda a, b: [(np.exp(a) - b * a).mean()]),
        op_case("bce", [p, tp_], "binary_cross_entropy", "%a0, %a1", "",
                [((), dt)],
                lambda a, b: [-(b * np.log(a) + (1 - b) * np.log(1 - a)).mean()]),
        op_case("bce_weight", [p, tp_, rand((7,), 0, 2, dt)],
                "binary_cross_entropy", "%a0, %a1 weight(%a2)",
                'reduction = #tp.reduction<none>', [((4, 7), dt)],
                lambda a, b, w: [-w * (b * np.log(a) + (1 - b) * np.log(1 - a))]),
        op_case("bce_logits", [x, tp_], "binary_cross_entropy_with_logits",
                "%a0, %a1", "", [((), dt)],
                lambda a, b: [(-(b * np.log(sigmoid(a)) + (1 - b) * np.log(1 - sigmoid(a)))).mean()]),
        op_case("bce_logits_pos_weight", [x, tp_, rand((7,), 0.5, 3, dt)],
                "binary_cross_entropy_with_logits", "%a0, %a1 pos_weight(%a2)",
                'reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, b, pw: [(-(pw * b * np.log(sigmoid(a)) + (1 - b) * np.log(1 - sigmoid(a)))).sum()]),
        op_case("margin_ranking", [rand((7,), dtype=dt), rand((7,), dtype=dt),
                                   (sign[0][0].copy(), dt)],
                "margin_ranking_loss", "%a0, %a1, %a2", "margin = 0.1 : f64",
                [((), dt)],
                lambda a, b, y: [np.maximum(0, -y * (a - b) + 0.1).mean()]),
    ]
    logits = rand((6, 5), -3, 3, dt)
    tgt = randint((6,), 0, 5)
    tgt_ign = (np.array([0, 4, -100, 2, 1, -100], np.int64), "i64")
    w = rand((5,), 0.2, 2, dt)
    # cross_entropy rounds log_softmax to the op's dtype (tensorplay's
    # composite), the reference does the same.
    ls = lambda a: rounded(dt, log_softmax(a, 1))
    cases += [
        op_case("nll", [(ls(logits[0]).astype(np.float32), dt), tgt], "nll_loss",
                "%a0, %a1", "", [((), dt)], lambda a, t: [nll(a, t.astype(np.int64))]),
        op_case("nll_weight_ignore", [(ls(logits[0]).astype(np.float32), dt), tgt_ign, w],
                "nll_loss", "%a0, %a1 weight(%a2)", "", [((), dt)],
                lambda a, t, ww: [nll(a, t.astype(np.int64), ww)]),
        op_case("nll_backward_mean", [rand((), 0.5, 2, dt),
                                      (ls(logits[0]).astype(np.float32), dt),
                                      tgt_ign],
                "nll_loss_backward", "%a0, %a1, %a2", "", [((6, 5), dt)],
                lambda g, a, t: [nll_backward_ref(g, a, t.astype(np.int64))]),
        op_case("nll_none", [(ls(logits[0]).astype(np.float32), dt), tgt_ign],
                "nll_loss", "%a0, %a1", 'reduction = #tp.reduction<none>', [((6,), dt)],
                lambda a, t: [nll(a, t.astype(np.int64), reduction="none")]),
        op_case("cross_entropy", [logits, tgt], "cross_entropy", "%a0, %a1", "",
                [((), dt)], lambda a, t: [nll(ls(a), t.astype(np.int64))]),
        op_case("cross_entropy_weight_ignore", [logits, tgt_ign, w],
                "cross_entropy", "%a0, %a1 weight(%a2)", 'reduction = #tp.reduction<sum>',
                [((), dt)],
                lambda a, t, ww: [nll(ls(a), t.astype(np.int64), ww, reduction="sum")]),
        op_case("cross_entropy_smoothing", [logits, tgt], "cross_entropy",
                "%a0, %a1", "label_smoothing = 0.1 : f64", [((), dt)],
                lambda a, t: [0.9 * nll(ls(a), t.astype(np.int64)) +
                              0.1 * (-ls(a).sum(1) / 5).mean()]),
        op_case("cross_entropy_probs", [logits, (softmax(f64(rand((6, 5))[0]), 1).astype(np.float32), dt)],
                "cross_entropy", "%a0, %a1", "", [((), dt)],
                lambda a, p: [(-(p * ls(a)).sum(1)).mean()]),
        op_case("nll_2d", [(rounded(dt, log_softmax(f64(rand((2, 4, 3, 3), -2, 2)[0]), 1)).astype(np.float32), dt),
                           randint((2, 3, 3), 0, 4)],
                "nll_loss2d", "%a0, %a1", "", [((), dt)],
                lambda a, t: [-np.take_along_axis(
                    a, t.astype(np.int64)[:, None], 1).mean()]),
        op_case("cross_entropy_2d", [rand((2, 4, 3, 3), -2, 2, dt), randint((2, 3, 3), 0, 4)],
                "cross_entropy_loss", "%a0, %a1", "", [((), dt)],
                lambda a, t: [nll(rounded(dt, log_softmax(a, 1)), t.astype(np.int64))]),
    ]
    a1, a2 = rand((5, 8), dtype=dt), rand((5, 8), dtype=dt)
    ysign = (np.array([1, -1, 1, -1, -1], np.float32), dt)
    def cos_emb(a, b, y, margin):
        eps = 1e-12
        cos = (a * b).sum(1) / np.sqrt(((a * a).sum(1) + eps) * ((b * b).sum(1) + eps))
        return np.where(y == 1, 1 - cos, np.maximum(0, cos - margin)).mean()
    def pdist(a, b, p, eps=1e-6):
        return (np.abs(a - b + eps)**p).sum(-1)**(1 / p)
    cases += [
        op_case("cosine_embedding", [a1, a2, ysign], "cosine_embedding_loss",
                "%a0, %a1, %a2", "margin = 0.2 : f64", [((), dt)],
                lambda a, b, y: [cos_emb(a, b, y, 0.2)]),
        op_case("triplet_margin", [a1, a2, rand((5, 8), dtype=dt)],
                "triplet_margin_loss", "%a0, %a1, %a2", "", [((), dt)],
                lambda a, p, n: [np.maximum(pdist(a, p, 2) - pdist(a, n, 2) + 1.0, 0).mean()]),
        op_case("triplet_margin_swap", [a1, a2, rand((5, 8), dtype=dt)],
                "triplet_margin_loss", "%a0, %a1, %a2",
                "p = 1.0 : f64, swap = true", [((), dt)],
                lambda a, p, n: [np.maximum(pdist(a, p, 1) - np.minimum(pdist(a, n, 1), pdist(p, n, 1)) + 1.0, 0).mean()]),
    ]
    # Weighted binary cross entropy reduced to a scalar (the weighted loss
    # is a broadcast product fused into the full reduction).
    bw = rand((7,), 0, 2, dt)
    bce = lambda a, b: -(b * np.log(a) + (1 - b) * np.log(1 - a))
    bce_logits = lambda a, b: -(b * np.log(sigmoid(a)) +
                                (1 - b) * np.log(1 - sigmoid(a)))
    for red in ("mean", "sum"):
        attr = 'reduction = #tp.reduction<%s>' % red
        cases += [
            op_case("bce_weight_" + red, [p, tp_, bw], "binary_cross_entropy",
                    "%a0, %a1 weight(%a2)", attr, [((), dt)],
                    lambda a, b, w, red=red: [reduce_loss(w * bce(a, b), red)]),
            op_case("bce_logits_weight_" + red, [x, tp_, bw],
                    "binary_cross_entropy_with_logits", "%a0, %a1 weight(%a2)",
                    attr, [((), dt)],
                    lambda a, b, w, red=red: [
                        reduce_loss(w * bce_logits(a, b), red)]),
        ]
    # A class index as ignore_index; label smoothing with weights and
    # ignored targets (PyTorch normalizes the smoothing term of the mean by
    # the weights of the kept targets too).
    tgt_ign2 = (np.array([0, 2, 4, 2, 1, 3], np.int64), "i64")
    def smoothed(logp, t, ww, ignore, eps, reduction):
        kept = t != ignore
        smooth = np.where(kept, -(logp * ww).sum(1), 0.0)
        if reduction == "sum":
            smooth = smooth.sum()
        else:
            smooth = smooth.sum() / ww[np.where(kept, t, 0)][kept].sum()
        return ((1 - eps) * nll(logp, t, ww, ignore, reduction) +
                eps / logp.shape[1] * smooth)
    cases += [
        op_case("nll_ignore_class", [(ls(logits[0]).astype(np.float32), dt),
                                     tgt_ign2, w], "nll_loss",
                "%a0, %a1 weight(%a2)", "ignore_index = 2 : i64", [((), dt)],
                lambda a, t, ww: [nll(a, t.astype(np.int64), ww, ignore=2)]),
        op_case("cross_entropy_ignore_class", [logits, tgt_ign2],
                "cross_entropy", "%a0, %a1", "ignore_index = 2 : i64",
                [((), dt)],
                lambda a, t: [nll(ls(a), t.astype(np.int64), ignore=2)]),
        op_case("cross_entropy_smoothing_weight_ignore", [logits, tgt_ign, w],
                "cross_entropy", "%a0, %a1 weight(%a2)",
                "label_smoothing = 0.2 : f64", [((), dt)],
                lambda a, t, ww: [smoothed(ls(a), t.astype(np.int64), ww,
                                           -100, 0.2, "mean")]),
        op_case("cross_entropy_smoothing_weight_ignore_sum",
                [logits, tgt_ign2, w], "cross_entropy", "%a0, %a1 weight(%a2)",
                'ignore_index = 2 : i64, label_smoothing = 0.1 : f64, '
                'reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, t, ww: [smoothed(ls(a), t.astype(np.int64), ww, 2,
                                           0.1, "sum")]),
        # beta = 0: smooth_l1 is l1 (PyTorch's special case).
        op_case("smooth_l1_beta0", [x, t], "smooth_l1_loss", "%a0, %a1",
                "beta = 0.0 : f64", [((), dt)],
                lambda a, b: [np.abs(a - b).mean()]),
    ]
    return cases


# ----------------------------------------------------------------------------
def matmul(mode):
    dt = fdt(mode)
    R = lambda x: rounded(dt, x)
    mm = lambda name, sa, sb, so, op="matmul", **kw: op_case(
        name, [rand(sa, dtype=dt), rand(sb, dtype=dt)], op, "%a0, %a1", "",
        [(so, dt)], lambda a, b: [R(np.matmul(a, b))], **kw)
    cases = [
        mm("mm", (8, 16), (16, 12), (8, 12), "mm"),
        mm("mm_odd", (7, 13), (13, 5), (7, 5), "mm"),
        mm("mm_big", (256, 512), (512, 384), (256, 384), "mm"),
        mm("bmm", (3, 8, 16), (3, 16, 4), (3, 8, 4), "bmm"),
        mm("matmul_3d_2d", (2, 5, 16), (16, 6), (2, 5, 6)),
        mm("matmul_2d_3d", (5, 16), (3, 16, 6), (3, 5, 6)),
        mm("matmul_bcast", (2, 1, 5, 8), (3, 8, 4), (2, 3, 5, 4)),
        mm("matmul_4d", (2, 3, 32, 16), (2, 3, 16, 32), (2, 3, 32, 32)),
        mm("matmul_vec_mat", (16,), (16, 6), (6,)),
        mm("matmul_mat_vec", (5, 16), (16,), (5,)),
        mm("matmul_vec_vec", (16,), (16,), ()),
        mm("mv", (5, 16), (16,), (5,), "mv"),
        mm("dot", (16,), (16,), (), "dot"),
    ]
    c, a, b = rand((8, 12), dtype=dt), rand((8, 16), dtype=dt), rand((16, 12), dtype=dt)
    cases += [
        op_case("addmm", [rand((12,), dtype=dt), a, b], "addmm", "%a0, %a1, %a2",
                "alpha = 0.5 : f64, beta = 2.0 : f64", [((8, 12), dt)],
                lambda i, x, y: [R(2.0 * i + 0.5 * (x @ y))]),
        op_case("addmm_beta0", [(np.full((8, 12), np.nan, np.float32), dt), a, b],
                "addmm", "%a0, %a1, %a2", "beta = 0.0 : f64", [((8, 12), dt)],
                lambda i, x, y: [R(x @ y)]),
        op_case("baddbmm", [rand((3, 8, 4), dtype=dt), rand((3, 8, 16), dtype=dt),
                            rand((3, 16, 4), dtype=dt)], "baddbmm", "%a0, %a1, %a2",
                "alpha = -1.0 : f64", [((3, 8, 4), dt)],
                lambda i, x, y: [R(i - np.matmul(x, y))]),
        op_case("addbmm", [rand((8, 4), dtype=dt), rand((3, 8, 16), dtype=dt),
                           rand((3, 16, 4), dtype=dt)], "addbmm", "%a0, %a1, %a2",
                "beta = 0.5 : f64", [((8, 4), dt)],
                lambda i, x, y: [R(0.5 * i + np.matmul(x, y).sum(0))]),
        op_case("addmv", [rand((5,), dtype=dt), rand((5, 16), dtype=dt),
                          rand((16,), dtype=dt)], "addmv", "%a0, %a1, %a2", "",
                [((5,), dt)], lambda i, m, v: [R(i + m @ v)]),
        op_case("addr", [rand((5, 6), dtype=dt), rand((5,), dtype=dt),
                         rand((6,), dtype=dt)], "addr", "%a0, %a1, %a2",
                "alpha = 2.0 : f64", [((5, 6), dt)],
                lambda i, u, v: [R(i + 2 * np.outer(u, v))]),
        op_case("linear", [rand((4, 6, 32), dtype=dt), rand((24, 32), dtype=dt),
                           rand((24,), dtype=dt)], "linear", "%a0, %a1 bias(%a2)", "",
                [((4, 6, 24), dt)], lambda x, w, bb: [R(x @ w.T + bb)]),
        op_case("linear_nobias", [rand((5, 32), dtype=dt), rand((7, 32), dtype=dt)],
                "linear", "%a0, %a1", "", [((5, 7), dt)],
                lambda x, w: [R(x @ w.T)]),
        op_case("linear_big", [rand((256, 1024), dtype=dt), rand((512, 1024), dtype=dt),
                               rand((512,), dtype=dt)], "linear", "%a0, %a1 bias(%a2)",
                "", [((256, 512), dt)], lambda x, w, bb: [R(x @ w.T + bb)]),
        op_case("tensordot", [rand((3, 4, 5), dtype=dt), rand((5, 3, 2), dtype=dt)],
                "tensordot", "%a0, %a1",
                "dims_other = array<i64: 1, 0>, dims_self = array<i64: 0, 2>",
                [((4, 2), dt)],
                lambda x, y: [R(np.tensordot(x, y, axes=([0, 2], [1, 0])))]),
        op_case("bilinear", [rand((4, 3), dtype=dt), rand((4, 5), dtype=dt),
                             rand((7, 3, 5), dtype=dt), rand((7,), dtype=dt)],
                "bilinear", "%a0, %a1, %a2 bias(%a3)", "", [((4, 7), dt)],
                lambda x, y, w, bb: [R(np.einsum("mi,oij,mj->mo", x, w, y) + bb)]),
        op_case("vecdot", [rand((4, 8), dtype=dt), rand((4, 8), dtype=dt)],
                "linalg_vecdot", "%a0, %a1", "", [((4,), dt)],
                lambda x, y: [R((x * y).sum(-1))]),
        op_case("prelu", [rand((2, 3, 5), dtype=dt), rand((3,), 0, 0.5, dt)],
                "prelu", "%a0, %a1", "", [((2, 3, 5), dt)],
                lambda x, w: [np.maximum(x, 0) + w[None, :, None] * np.minimum(x, 0)]),
    ]
    # Attention-style layouts: permuted operands and a permuted result are
    # strided views for oneDNN (no transpose copies).
    q, k = rand((2, 6, 3, 8), dtype=dt), rand((2, 6, 3, 8), dtype=dt)
    T = lambda s: ttype(s, dt)
    cases.append(Case("permuted_operands_result", [q, k], [
        "%%qp = tp.permute %%a0 {dims = array<i64: 0, 2, 1, 3>} : (%s) -> %s" % (T((2, 6, 3, 8)), T((2, 3, 6, 8))),
        "%%kt = tp.permute %%a1 {dims = array<i64: 0, 2, 3, 1>} : (%s) -> %s" % (T((2, 6, 3, 8)), T((2, 3, 8, 6))),
        "%%s = tp.matmul %%qp, %%kt : (%s, %s) -> %s" % (T((2, 3, 6, 8)), T((2, 3, 8, 6)), T((2, 3, 6, 6))),
        "%%r0 = tp.permute %%s {dims = array<i64: 0, 2, 1, 3>} : (%s) -> %s" % (T((2, 3, 6, 6)), T((2, 6, 3, 6))),
    ], [((2, 6, 3, 6), dt)],
        lambda x, y: [R(np.transpose(np.transpose(x, (0, 2, 1, 3)) @ np.transpose(y, (0, 2, 3, 1)), (0, 2, 1, 3)))]))
    # A permuted result whose layout stores C's columns contiguously (the
    # backward's dK^T): computed as C^T = B^T A^T, whose rows are.
    a5, b5 = rand((2, 3, 6, 8), dtype=dt), rand((2, 3, 8, 5), dtype=dt)
    cases.append(Case("permuted_result_columns", [a5, b5], [
        "%%s = tp.matmul %%a0, %%a1 : (%s, %s) -> %s" % (T((2, 3, 6, 8)), T((2, 3, 8, 5)), T((2, 3, 6, 5))),
        "%%r0 = tp.permute %%s {dims = array<i64: 0, 3, 1, 2>} : (%s) -> %s" % (T((2, 3, 6, 5)), T((2, 5, 3, 6))),
    ], [((2, 5, 3, 6), dt)],
        lambda x, y: [R(np.transpose(x @ y, (0, 3, 1, 2)))]))
    # A permuted result whose C dims land in the batch: not fused.
    cases.append(Case("permuted_result_batch", [a5, b5], [
        "%%s = tp.matmul %%a0, %%a1 : (%s, %s) -> %s" % (T((2, 3, 6, 8)), T((2, 3, 8, 5)), T((2, 3, 6, 5))),
        "%%r0 = tp.permute %%s {dims = array<i64: 3, 2, 0, 1>} : (%s) -> %s" % (T((2, 3, 6, 5)), T((5, 6, 2, 3))),
    ], [((5, 6, 2, 3), dt)],
        lambda x, y: [R(np.transpose(x @ y, (3, 2, 0, 1)))]))
    # Chains of layout changes compose into one view; a chain that moves
    # the contiguous dim into the batch is copied instead.
    a6, k6 = rand((2, 3, 5, 6), dtype=dt), rand((2, 6, 3, 8), dtype=dt)
    b7 = rand((2, 8, 3, 4), dtype=dt)
    cases.append(Case("chained_views", [a6, k6, b7], [
        "%%kt = tp.permute %%a1 {dims = array<i64: 0, 2, 3, 1>} : (%s) -> %s" % (T((2, 6, 3, 8)), T((2, 3, 8, 6))),
        "%%k2 = tp.transpose %%kt {dim0 = 2 : i64, dim1 = 3 : i64} : (%s) -> %s" % (T((2, 3, 8, 6)), T((2, 3, 6, 8))),
        "%%r0 = tp.matmul %%a0, %%k2 : (%s, %s) -> %s" % (T((2, 3, 5, 6)), T((2, 3, 6, 8)), T((2, 3, 5, 8))),
        "%%kb = tp.permute %%a1 {dims = array<i64: 0, 3, 1, 2>} : (%s) -> %s" % (T((2, 6, 3, 8)), T((2, 8, 6, 3))),
        "%%r1 = tp.matmul %%kb, %%a2 : (%s, %s) -> %s" % (T((2, 8, 6, 3)), T((2, 8, 3, 4)), T((2, 8, 6, 4))),
    ], [((2, 3, 5, 8), dt), ((2, 8, 6, 4), dt)],
        lambda x, k, y: [R(x @ np.transpose(k, (0, 2, 1, 3))),
                         R(np.transpose(k, (0, 3, 1, 2)) @ y)]))
    # A product followed by relu / gelu: oneDNN applies the activation as an
    # epilogue on the f32 accumulator, so a bf16 result is rounded once
    # (the reference rounds once too).
    def act_case(name, act_line, act, product_line, inputs, shape, ref):
        body = [product_line % tuple(ttype(a.shape, d) for a, d in inputs) +
                " -> %s" % T(shape),
                act_line % (T(shape), T(shape))]
        return Case(name, inputs, body, [(shape, dt)],
                    lambda *xs: [R(act(ref(*xs)))])
    lin = "%%p = tp.linear %%a0, %%a1 bias(%%a2) : (%s, %s, %s)"
    lin_in = [rand((4, 6, 32), dtype=dt), rand((24, 32), dtype=dt),
              rand((24,), dtype=dt)]
    lin_ref = lambda x, w, bb: x @ w.T + bb
    gelu_line = "%%r0 = tp.gelu %%p : (%s) -> %s"
    cases += [
        act_case("linear_gelu", gelu_line, gelu, lin, lin_in, (4, 6, 24), lin_ref),
        act_case("linear_gelu_tanh",
                 "%%r0 = tp.gelu %%p {approximate = #tp.approximate<tanh>} : (%s) -> %s",
                 gelu_tanh, lin, lin_in, (4, 6, 24), lin_ref),
        act_case("mm_relu", "%%r0 = tp.relu %%p : (%s) -> %s",
                 lambda x: np.maximum(x, 0), "%%p = tp.mm %%a0, %%a1 : (%s, %s)",
                 [rand((7, 13), dtype=dt), rand((13, 5), dtype=dt)], (7, 5),
                 lambda x, y: x @ y),
        act_case("matmul_gelu_big", gelu_line, gelu,
                 "%%p = tp.matmul %%a0, %%a1 : (%s, %s)",
                 [rand((2, 128, 256), dtype=dt), rand((256, 192), dtype=dt)],
                 (2, 128, 192), lambda x, y: np.matmul(x, y)),
    ]
    m1, m2, m3 = rand((4, 8), dtype=dt), rand((8, 3), dtype=dt), rand((3, 5), dtype=dt)
    cases += [
        Case("chain_matmul", [m1, m2, m3], [
            "%%r0 = tp.chain_matmul [%%a0, %%a1, %%a2] : (%s, %s, %s) -> %s" % (
                ttype((4, 8), dt), ttype((8, 3), dt), ttype((3, 5), dt),
                ttype((4, 5), dt))], [((4, 5), dt)],
             lambda x, y, z: [R(R(x @ y) @ z)]),
        Case("multi_dot", [rand((8,), dtype=dt), m2, rand((3,), dtype=dt)], [
            "%%r0 = tp.multi_dot [%%a0, %%a1, %%a2] : (%s, %s, %s) -> %s" % (
                ttype((8,), dt), ttype((8, 3), dt), ttype((3,), dt),
                ttype((), dt))], [((), dt)],
             lambda x, y, z: [R(R(x @ y) @ z)]),
    ]
    return cases


def embedding_backward(g, indices, rows, padding=-1, freq=False):
    """aten::embedding_dense_backward by np.add.at (indices clamped)."""
    raw = indices.astype(np.int64).ravel()
    idx = np.clip(raw, 0, rows - 1)
    grad = g.reshape(idx.size, -1)
    scale = np.ones(idx.size)
    if freq:
        scale /= np.bincount(idx, minlength=rows)[idx]
    scale[raw == padding] = 0
    out = np.zeros((rows, grad.shape[1]))
    np.add.at(out, idx, grad * scale[:, None])
    return out


# ----------------------------------------------------------------------------
def conv(mode):
    dt = fdt(mode)
    R = lambda x: rounded(dt, x)
    cases = []

    def conv_case(name, op, xs, ws, bias, attrs, outshape, stride, pad, dil,
                  groups, transposed=False, outpad=None):
        ins = [rand(xs, dtype=dt), rand(ws, dtype=dt)]
        operands = "%a0, %a1"
        if bias:
            ins.append(rand((bias,), dtype=dt))
            operands += " bias(%a2)"
        r = len(xs) - 2
        def ref(x, w, b=None):
            if transposed:
                return [R(conv_transpose_nd(x, w, b, stride, pad, outpad or [0] * r,
                                            dil, groups))]
            return [R(conv_nd(x, w, b, stride, pad, dil, groups))]
        # The result shape is the reference's (the verifier checks it too).
        outshape = ref(*[f64(a) for a, _ in ins])[0].shape
        cases.append(op_case(name, ins, op, operands, attrs, [(outshape, dt)], ref))

    conv_case("conv1d", "conv1d", (2, 3, 16), (4, 3, 5), 4, "",
              (2, 4, 12), [1], [0], [1], 1)
    conv_case("conv1d_stride_pad_dil", "conv1d", (2, 4, 17), (6, 2, 3), None,
              "stride = array<i64: 2>, padding = array<i64: 2>, "
              "dilation = array<i64: 2>, groups = 2 : i64",
              (2, 6, 8), [2], [2], [2], 2)
    conv_case("conv2d", "conv2d", (2, 3, 9, 8), (5, 3, 3, 3), 5,
              "padding = array<i64: 1>", (2, 5, 9, 8), [1, 1], [1, 1], [1, 1], 1)
    conv_case("conv2d_stride_groups", "conv2d", (1, 6, 11, 10), (9, 2, 3, 2), 9,
              "stride = array<i64: 2, 3>, padding = array<i64: 1, 0>, "
              "groups = 3 : i64", (1, 9, 6, 3), [2, 3], [1, 0], [1, 1], 3)
    conv_case("conv2d_depthwise", "conv2d", (2, 4, 8, 8), (4, 1, 3, 3), None,
              "padding = array<i64: 1>, groups = 4 : i64", (2, 4, 8, 8),
              [1, 1], [1, 1], [1, 1], 4)
    conv_case("conv2d_big", "conv2d", (4, 32, 28, 28), (64, 32, 3, 3), 64,
              "padding = array<i64: 1>", (4, 64, 28, 28), [1, 1], [1, 1],
              [1, 1], 1)
    conv_case("conv3d", "conv3d", (1, 2, 5, 6, 4), (3, 2, 3, 3, 2), 3,
              "padding = array<i64: 1, 0, 1>, dilation = array<i64: 1, 2, 1>",
              (1, 3, 5, 2, 5), [1, 1, 1], [1, 0, 1], [1, 2, 1], 1)
    conv_case("conv_transpose1d", "conv_transpose1d", (2, 4, 7), (4, 3, 3), 3,
              "stride = array<i64: 2>, padding = array<i64: 1>, "
              "output_padding = array<i64: 1>", (2, 3, 14), [2], [1], [1], 1,
              True, [1])
    conv_case("conv_transpose2d", "conv_transpose2d", (1, 4, 5, 4), (4, 2, 3, 3),
              2, "stride = array<i64: 2>", (1, 2, 11, 9), [2, 2], [0, 0],
              [1, 1], 1, True, [0, 0])
    conv_case("conv_transpose2d_groups_dil", "conv_transpose2d", (2, 4, 4, 5),
              (4, 3, 2, 3), None,
              "stride = array<i64: 1, 2>, padding = array<i64: 1>, "
              "groups = 2 : i64, dilation = array<i64: 2>", (2, 6, 4, 11),
              [1, 2], [1, 1], [2, 2], 2, True, [0, 0])
    conv_case("conv_transpose2d_outpad_gt_pad", "conv_transpose2d", (1, 2, 3, 3),
              (2, 2, 3, 3), None,
              "stride = array<i64: 3>, output_padding = array<i64: 2>",
              (1, 2, 11, 11), [3, 3], [0, 0], [1, 1], 1, True, [2, 2])
    conv_case("conv_transpose3d", "conv_transpose3d", (1, 3, 2, 3, 2),
              (3, 2, 2, 2, 2), 2, "stride = array<i64: 2>",
              (1, 2, 4, 6, 4), [2, 2, 2], [0, 0, 0], [1, 1, 1], 1, True,
              [0, 0, 0])

    # convolution_backward (what tp-autodiff emits): the input gradient
    # against the adjoint (conv_transpose / conv) of the NumPy forward, the
    # weight gradient against a direct sum over the windows, the bias
    # gradient against a sum.
    def conv_backward_case(name, xs, ws, stride, pad, dil, groups,
                           transposed=False, outpad=None):
        r = len(xs) - 2
        outpad = outpad or [0] * r
        x, w = rand(xs, dtype=dt), rand(ws, dtype=dt)
        if transposed:
            ys = conv_transpose_nd(f64(x[0]), f64(w[0]), None, stride, pad, outpad,
                                   dil, groups).shape
        else:
            ys = conv_nd(f64(x[0]), f64(w[0]), None, stride, pad, dil, groups).shape
        g = rand(ys, dtype=dt)
        def ref(g, x, w):
            if transposed:
                dx = conv_nd(g, w, None, stride, pad, dil, groups)
                dw = conv_transpose_weight_grad_nd(x, g, w.shape, stride, pad,
                                                   outpad, dil, groups)
            else:
                back = [x.shape[2 + i] + 2 * pad[i] - dil[i] * (w.shape[2 + i] - 1)
                        - 1 - stride[i] * (g.shape[2 + i] - 1) for i in range(r)]
                dx = conv_transpose_nd(g, w, None, stride, pad, back, dil,
                                       groups)
                dw = conv_weight_grad_nd(x, g, w.shape, stride, pad, dil,
                                         groups)
            db = g.sum(axis=(0,) + tuple(range(2, g.ndim)))
            return [R(dx), R(dw), R(db)]
        array = lambda v: "array<i64: %s>" % ", ".join(str(i) for i in v)
        attrs = ("dilation = %s, groups = %d : i64, output_padding = %s, "
                 "padding = %s, stride = %s, transposed = %s"
                 % (array(dil), groups, array(outpad), array(pad),
                    array(stride), "true" if transposed else "false"))
        cout = g[0].shape[1]
        cases.append(op_case(name, [g, x, w], "convolution_backward",
                             "%a0, %a1, %a2", attrs,
                             [(xs, dt), (ws, dt), ((cout,), dt)], ref))

    conv_backward_case("conv_backward2d_stride_unused_row", (2, 3, 7, 6),
                       (4, 3, 3, 3), [2, 2], [1, 1], [1, 1], 1)
    conv_backward_case("conv_backward1d_groups_dil", (2, 4, 17), (6, 2, 3),
                       [2], [2], [2], 2)
    conv_backward_case("conv_backward2d_depthwise", (2, 4, 8, 8),
                       (4, 1, 3, 3), [1, 1], [1, 1], [1, 1], 4)
    conv_backward_case("conv_backward3d", (1, 2, 5, 6, 4), (3, 2, 3, 3, 2),
                       [1, 1, 1], [1, 0, 1], [1, 2, 1], 1)
    conv_backward_case("conv_backward2d_big", (4, 32, 28, 28),
                       (64, 32, 3, 3), [1, 1], [1, 1], [1, 1], 1)
    conv_backward_case("conv_transpose_backward2d", (1, 4, 5, 4),
                       (4, 2, 3, 3), [2, 2], [0, 0], [1, 1], 1, True)
    conv_backward_case("conv_transpose_backward2d_groups_dil", (2, 4, 4, 5),
                       (4, 3, 2, 3), [1, 2], [1, 1], [2, 2], 2, True)
    # output_padding > padding: oneDNN cannot take the weight gradient.
    conv_backward_case("conv_transpose_backward2d_outpad_gt_pad",
                       (1, 2, 3, 3), (2, 2, 3, 3), [3, 3], [0, 0], [1, 1], 1,
                       True, [2, 2])
    conv_backward_case("conv_transpose_backward1d_outpad", (2, 4, 7),
                       (4, 3, 3), [2], [1], [1], 1, True, [1])
    # A computed gradient of a 1x1 stride-2 convolution (ResNet's
    # downsample): bufferization writes it straight into the stride-2
    # window of the input gradient's upsampled buffer, a view (strides 784,
    # 49, 14, 2) oneDNN cannot describe; the weight gradient reads it
    # through a dense copy (runtime/onednn/DescribableView.h).
    g, x, w = (rand((2, 16, 4, 4), dtype=dt), rand((2, 8, 8, 8), dtype=dt),
               rand((16, 8, 1, 1), dtype=dt))
    types = ", ".join(ttype(a.shape, d) for a, d in (g, x, w))
    results = [((2, 8, 8, 8), dt), ((16, 8, 1, 1), dt), ((16,), dt)]
    cases.append(Case(
        "conv_backward2d_1x1_stride2_computed_grad", [g, x, w],
        ["%%g = tp.neg %%a0 : (%s) -> %s" % (ttype(g[0].shape, dt),
                                             ttype(g[0].shape, dt)),
         "%%r0, %%r1, %%r2 = tp.convolution_backward %%g, %%a1, %%a2 "
         "{dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = "
         "array<i64: 0, 0>, padding = array<i64: 0, 0>, stride = array<i64: "
         "2, 2>, transposed = false} : (%s) -> (%s)" % (
             types, ", ".join(ttype(s_, d) for s_, d in results))],
        results,
        lambda g, x, w: [R(conv_transpose_nd(-g, w, None, [2, 2], [0, 0],
                                             [1, 1], [1, 1], 1)),
                         R(conv_weight_grad_nd(x, -g, w.shape, [2, 2],
                                               [0, 0], [1, 1], 1)),
                         R(-g.sum(axis=(0, 2, 3)))]))
    x, w = rand((2, 3, 10), dtype=dt), rand((4, 3, 3), dtype=dt)
    cases.append(op_case(
        "convolution", [x, w], "convolution", "%a0, %a1",
        "dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, "
        "padding = array<i64: 1>, stride = array<i64: 2>, transposed = false",
        [((2, 4, 5), dt)], lambda a, b: [R(conv_nd(a, b, None, [2], [1], [1], 1))]))
    xt, wt, bt = rand((10, 2, 3), dtype=dt), rand((3, 3, 4), dtype=dt), rand((4,), dtype=dt)
    cases.append(op_case(
        "conv_tbc", [xt, wt, bt], "conv_tbc", "%a0, %a1, %a2", "pad = 1 : i64",
        [((10, 2, 4), dt)],
        lambda a, b, c: [R(np.transpose(conv_nd(np.transpose(a, (1, 2, 0)),
                                                np.transpose(b, (2, 1, 0)), c,
                                                [1], [1], [1], 1), (2, 0, 1)))]))
    return cases


# ----------------------------------------------------------------------------
def attention(mode):
    dt = fdt(mode)
    R = lambda x: rounded(dt, x)
    q, k, v = (rand((2, 4, 16, 8), dtype=dt), rand((2, 4, 12, 8), dtype=dt),
               rand((2, 4, 12, 8), dtype=dt))
    def sdpa(q, k, v, mask=None, causal=False, scale=None):
        s = (q @ np.swapaxes(k, -1, -2)) * (scale or 1 / math.sqrt(q.shape[-1]))
        if causal:
            L, S = s.shape[-2:]
            s = np.where(np.tril(np.ones((L, S), bool)), s, -np.inf)
        if mask is not None:
            s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
        return softmax(s, -1) @ v
    cases = [
        op_case("sdpa", [q, k, v], "scaled_dot_product_attention",
                "%a0, %a1, %a2", "", [((2, 4, 16, 8), dt)],
                lambda a, b, c: [sdpa(a, b, c)]),
        op_case("sdpa_causal_scale", [q, rand((2, 4, 16, 8), dtype=dt),
                                      rand((2, 4, 16, 8), dtype=dt)],
                "scaled_dot_product_attention", "%a0, %a1, %a2",
                "is_causal = true, scale = 0.25 : f64", [((2, 4, 16, 8), dt)],
                lambda a, b, c: [sdpa(a, b, c, causal=True, scale=0.25)]),
        op_case("sdpa_float_mask", [q, k, v, rand((16, 12), -1, 1, dt)],
                "scaled_dot_product_attention", "%a0, %a1, %a2 mask(%a3)", "",
                [((2, 4, 16, 8), dt)], lambda a, b, c, m: [sdpa(a, b, c, m)]),
    ]
    bmask = RNG_bool((16, 12))
    cases.append(op_case("sdpa_bool_mask", [q, k, v, (bmask, "i1")],
                         "scaled_dot_product_attention", "%a0, %a1, %a2 mask(%a3)",
                         "", [((2, 4, 16, 8), dt)],
                         lambda a, b, c, m: [sdpa(a, b, c, m != 0)]))
    # Causal with L != S: the mask is the top-left aligned lower triangle
    # (PyTorch's tril(ones(L, S))), more queries than keys and fewer.
    q6 = rand((2, 4, 6, 8), dtype=dt)
    cases += [
        op_case("sdpa_causal_more_queries", [q, k, v],
                "scaled_dot_product_attention", "%a0, %a1, %a2",
                "is_causal = true", [((2, 4, 16, 8), dt)],
                lambda a, b, c: [sdpa(a, b, c, causal=True)]),
        op_case("sdpa_causal_fewer_queries", [q6, k, v],
                "scaled_dot_product_attention", "%a0, %a1, %a2",
                "is_causal = true", [((2, 4, 6, 8), dt)],
                lambda a, b, c: [sdpa(a, b, c, causal=True)]),
    ]
    return cases


# ----------------------------------------------------------------------------
def sharing(mode):
    """A value read by several runtime calls (oneDNN products and
    convolutions) with elementwise ops between them whose results have the
    value's type and shape, so that bufferization could write them into the
    value's buffer while a later call still reads it (fixed in 821d380: an
    LSTM step with per-gate linears was off by 0.1-0.6 in bf16). The shared
    values are computed inside the function (function arguments are never
    written), by an exact op (neg) or, in the bf16 mode, by the f32 -> bf16
    casts autocast inserts (weights included: the fused cast path)."""
    dt = fdt(mode)
    R = lambda x: rounded(dt, x)
    T = lambda *shape: ttype(shape, dt)
    cases = []

    def lstm(name, b, i, hd, cast, autocast=False):
        """One LSTM step, gates i, f, g, o each linear(x) + linear(h). With
        `autocast`, an f32 program that tp-run autocasts (cpu:bf16): the
        products and what follows them in bf16, the cell state in f32
        (bf16 * f32 promotes)."""
        idt = "f32" if cast or autocast else dt
        ins = [rand((b, i), dtype=idt), rand((b, hd), dtype=idt),
               rand((b, hd), dtype=dt)]
        ins += [rand((hd, i), -0.5, 0.5, idt) for _ in range(4)]
        ins += [rand((hd, hd), -0.5, 0.5, idt) for _ in range(4)]
        ins += [rand((hd,), dtype=dt) for _ in range(4)]
        if cast:
            share = lambda n, a, *sh: "%%%s = tp.cast %%a%d : %s to %s" % (
                n, a, ttype(sh, "f32"), T(*sh))
        else:
            share = lambda n, a, *sh: "%%%s = tp.neg %%a%d : (%s) -> %s" % (
                n, a, T(*sh), T(*sh))
        body = [share("x", 0, b, i), share("h", 1, b, hd)]
        if autocast:  # autocast's casts of x and h are the shared values
            body = []
        acts = ["sigmoid", "sigmoid", "tanh", "sigmoid"]
        for g in range(4):
            wx, wh = "%%a%d" % (3 + g), "%%a%d" % (7 + g)
            if cast:  # the weight casts feed the products (fused)
                body.append("%%wx%d = tp.cast %s : %s to %s" % (
                    g, wx, ttype((hd, i), "f32"), T(hd, i)))
                body.append("%%wh%d = tp.cast %s : %s to %s" % (
                    g, wh, ttype((hd, hd), "f32"), T(hd, hd)))
                wx, wh = "%%wx%d" % g, "%%wh%d" % g
            body += [
                "%%zx%d = tp.linear %s, %s bias(%%a%d) : (%s, %s, %s) -> %s"
                % (g, "%a0" if autocast else "%x", wx, 11 + g, T(b, i),
                   T(hd, i), T(hd), T(b, hd)),
                "%%zh%d = tp.linear %s, %s : (%s, %s) -> %s"
                % (g, "%a1" if autocast else "%h", wh, T(b, hd), T(hd, hd),
                   T(b, hd)),
                "%%z%d = tp.add %%zx%d, %%zh%d : (%s, %s) -> %s"
                % (g, g, g, T(b, hd), T(b, hd), T(b, hd)),
                "%%g%d = tp.%s %%z%d : (%s) -> %s"
                % (g, acts[g], g, T(b, hd), T(b, hd))]
        t2 = (T(b, hd), T(b, hd), T(b, hd))
        body += ["%%fc = tp.mul %%g1, %%a2 : (%s, %s) -> %s" % t2,
                 "%%ig = tp.mul %%g0, %%g2 : (%s, %s) -> %s" % t2,
                 "%%r1 = tp.add %%fc, %%ig : (%s, %s) -> %s" % t2,
                 "%%tc = tp.tanh %%r1 : (%s) -> %s" % t2[:2],
                 "%%r0 = tp.mul %%g3, %%tc : (%s, %s) -> %s" % t2]

        def ref(x, h, c, *w):
            if autocast:
                B = lambda v: to_bf16(np.asarray(v, np.float32)).astype(np.float64)
                z = [B(B(B(x) @ B(w[g]).T + B(w[8 + g])) + B(B(h) @ B(w[4 + g]).T))
                     for g in range(4)]
                gi, gf, go = (B(sigmoid(z[k])) for k in (0, 1, 3))
                c2 = gf * c + B(gi * B(np.tanh(z[2])))
                return [go * np.tanh(c2), c2]
            if cast:
                x, h = R(x), R(h)
                w = [R(v) for v in w[:8]] + list(w[8:])
            else:
                x, h = -x, -h
            z = [R(R(x @ w[g].T + w[8 + g]) + R(h @ w[4 + g].T))
                 for g in range(4)]
            gi, gf, go = (R(sigmoid(z[k])) for k in (0, 1, 3))
            gg = R(np.tanh(z[2]))
            c2 = R(R(gf * c) + R(gi * gg))
            return [R(go * R(np.tanh(c2))), c2]
        return Case(name, ins, body, [((b, hd), dt), ((b, hd), dt)], ref)

    if "autocast" in mode.split("+"):
        # Only the f32 programs autocast turns into the pattern.
        return [lstm("lstm_step_autocast", 16, 32, 32, False, True),
                lstm("lstm_step_autocast_odd", 5, 13, 11, False, True)]
    cases.append(lstm("lstm_step", 8, 24, 24, False))
    cases.append(lstm("lstm_step_odd", 5, 13, 11, False))
    if dt == "bf16":
        cases.append(lstm("lstm_step_autocast", 16, 32, 32, True))

    # A product whose ReLU is a oneDNN epilogue, then an in-place-able op of
    # the shared operand's type, then a second product of that operand.
    m = 12
    cases.append(Case(
        "epilogue_between",
        [rand((m, m), dtype=dt), rand((m, m), dtype=dt), rand((m, m), dtype=dt)],
        ["%%s = tp.neg %%a0 : (%s) -> %s" % (T(m, m), T(m, m)),
         "%%p = tp.mm %%s, %%a1 : (%s, %s) -> %s" % (T(m, m), T(m, m), T(m, m)),
         "%%q = tp.relu %%p : (%s) -> %s" % (T(m, m), T(m, m)),
         "%%e = tp.sigmoid %%q : (%s) -> %s" % (T(m, m), T(m, m)),
         "%%p2 = tp.mm %%s, %%a2 : (%s, %s) -> %s" % (T(m, m), T(m, m), T(m, m)),
         "%%r0 = tp.mul %%e, %%p2 : (%s, %s) -> %s" % (T(m, m), T(m, m), T(m, m))],
        [((m, m), dt)],
        lambda a, w1, w2: [R(R(sigmoid(R(np.maximum(-a @ w1, 0))))
                             * R(-a @ w2))]))

    # The shared operand is B, seen through a transposed view (linear's
    # weight), with a GELU epilogue on the first product.
    cases.append(Case(
        "shared_weight_gelu",
        [rand((m, m), dtype=dt), rand((m, m), dtype=dt)],
        ["%%w = tp.neg %%a1 : (%s) -> %s" % (T(m, m), T(m, m)),
         "%%p = tp.linear %%a0, %%w : (%s, %s) -> %s" % (T(m, m), T(m, m), T(m, m)),
         "%%q = tp.gelu %%p : (%s) -> %s" % (T(m, m), T(m, m)),
         "%%e = tp.tanh %%q : (%s) -> %s" % (T(m, m), T(m, m)),
         "%%r0 = tp.linear %%e, %%w : (%s, %s) -> %s" % (T(m, m), T(m, m), T(m, m))],
        [((m, m), dt)],
        lambda x, w: [R(R(np.tanh(R(gelu(x @ -w.T)))) @ -w.T)]))

    # Two convolutions of one computed input, an in-place-able op between.
    x = rand((2, 4, 7, 7), dtype=dt)
    w1, w2 = rand((4, 4, 3, 3), dtype=dt), rand((4, 4, 3, 3), dtype=dt)
    ts = T(2, 4, 7, 7)
    conv_attrs = "{padding = array<i64: 1, 1>}"
    cases.append(Case(
        "conv_shared_input", [x, w1, w2],
        ["%%s = tp.neg %%a0 : (%s) -> %s" % (ts, ts),
         "%%y = tp.conv2d %%s, %%a1 %s : (%s, %s) -> %s" % (
             conv_attrs, ts, T(4, 4, 3, 3), ts),
         "%%t = tp.tanh %%y : (%s) -> %s" % (ts, ts),
         "%%y2 = tp.conv2d %%s, %%a2 %s : (%s, %s) -> %s" % (
             conv_attrs, ts, T(4, 4, 3, 3), ts),
         "%%r0 = tp.mul %%t, %%y2 : (%s, %s) -> %s" % (ts, ts, ts)],
        [((2, 4, 7, 7), dt)],
        lambda a, k1, k2: [R(R(np.tanh(R(conv_nd(-a, k1, None, (1, 1), (1, 1),
                                                   (1, 1), 1))))
                             * R(conv_nd(-a, k2, None, (1, 1), (1, 1),
                                         (1, 1), 1)))]))
    return cases


# ----------------------------------------------------------------------------
def empty(mode):
    """Tensors with a 0-size dimension, with PyTorch's results: elementwise
    ops and shape ops give empty results; a sum of nothing is 0, a product 1,
    a mean NaN; a product with K = 0 is zeros (plus its bias); losses with
    reduction "mean" over nothing are NaN, with "sum" 0."""
    dt = fdt(mode)
    R = lambda x: rounded(dt, x)
    E = lambda *shape: rand(shape, dtype=dt)
    nan = np.float64("nan")
    cases = [
        unary("relu", "relu", lambda x: np.maximum(x, 0), shape=(0, 5), dtype=dt),
        unary("exp", "exp", np.exp, shape=(3, 0), dtype=dt),
        unary("gelu", "gelu", gelu, shape=(0,), dtype=dt),
        binary("add_bcast", "add", lambda a, b: a + b, (0, 5), (5,), (0, 5),
               dt, dt, dt),
        binary("mul_bcast", "mul", lambda a, b: a * b, (4, 1), (0,), (4, 0),
               dt, dt, dt),
        op_case("sum_all", [E(0, 5)], "sum", "%a0", "", [((), dt)],
                lambda v: [v.sum()]),
        op_case("sum_dim", [E(0, 5)], "sum", "%a0", "dim = array<i64: 0>",
                [((5,), dt)], lambda v: [v.sum(axis=0)]),
        op_case("sum_kept", [E(3, 0)], "sum", "%a0",
                "dim = array<i64: 1>, keepdim = true", [((3, 1), dt)],
                lambda v: [v.sum(axis=1, keepdims=True)]),
        op_case("sum_of_empty_rows", [E(0, 5)], "sum", "%a0",
                "dim = array<i64: 1>", [((0,), dt)], lambda v: [v.sum(axis=1)]),
        op_case("mean_all", [E(0, 5)], "mean", "%a0", "", [((), dt)],
                lambda v: [np.full((), nan)]),
        op_case("mean_dim", [E(4, 0)], "mean", "%a0", "dim = array<i64: 1>",
                [((4,), dt)], lambda v: [np.full((4,), nan)]),
        op_case("prod_dim", [E(0, 3)], "prod", "%a0", "dim = 0 : i64",
                [((3,), dt)], lambda v: [np.ones(3)]),
        op_case("cumsum", [E(0, 4)], "cumsum", "%a0", "dim = 0 : i64",
                [((0, 4), dt)], lambda v: [v]),
        op_case("amax_other_dim", [E(0, 6)], "amax", "%a0",
                "dim = array<i64: 1>", [((0,), dt)], lambda v: [np.zeros(0)]),
        op_case("norm", [E(0, 6)], "norm", "%a0", "", [((), dt)],
                lambda v: [np.zeros(())]),
        op_case("softmax", [E(0, 6)], "softmax", "%a0", "dim = 1 : i64",
                [((0, 6), dt)], lambda v: [v]),
        op_case("softmax_empty_dim", [E(3, 0)], "softmax", "%a0",
                "dim = 1 : i64", [((3, 0), dt)], lambda v: [v]),
        op_case("log_softmax", [E(0, 6)], "log_softmax", "%a0",
                "dim = 1 : i64", [((0, 6), dt)], lambda v: [v]),
        op_case("layer_norm", [E(0, 8), E(8), E(8)], "layer_norm",
                "%a0 weight(%a1) bias(%a2)", "normalized_shape = array<i64: 8>",
                [((0, 8), dt)], lambda v, w, b: [v]),
        op_case("group_norm", [E(0, 4, 5)], "group_norm", "%a0",
                "num_groups = 2 : i64", [((0, 4, 5), dt)], lambda v: [v]),
        # The backward ops over no samples: an empty input gradient, zero
        # parameter gradients (sums of nothing).
        op_case("layer_norm_backward", [E(0, 8), E(0, 8), E(8)],
                "layer_norm_backward", "%a0, %a1 weight(%a2)",
                "normalized_shape = array<i64: 8>",
                [((0, 8), dt), ((8,), dt), ((8,), dt)],
                lambda g, v, w: [v, np.zeros(8), np.zeros(8)]),
        op_case("group_norm_backward", [E(0, 4, 5), E(0, 4, 5)],
                "group_norm_backward", "%a0, %a1", "num_groups = 2 : i64",
                [((0, 4, 5), dt), ((4,), dt), ((4,), dt)],
                lambda g, v: [v, np.zeros(4), np.zeros(4)]),
        op_case("softmax_backward", [E(3, 0), E(3, 0)], "softmax_backward",
                "%a0, %a1", "dim = 1 : i64", [((3, 0), dt)],
                lambda g, y: [y]),
        op_case("mm_empty_m", [E(0, 8), E(8, 4)], "mm", "%a0, %a1", "",
                [((0, 4), dt)], lambda a, b: [a @ b]),
        op_case("mm_empty_k", [E(4, 0), E(0, 5)], "mm", "%a0, %a1", "",
                [((4, 5), dt)], lambda a, b: [np.zeros((4, 5))]),
        op_case("linear_empty_k", [E(3, 0), E(6, 0), E(6)], "linear",
                "%a0, %a1 bias(%a2)", "", [((3, 6), dt)],
                lambda x, w, b: [np.broadcast_to(b, (3, 6))]),
        op_case("bmm_empty_batch", [E(0, 3, 4), E(0, 4, 5)], "bmm", "%a0, %a1",
                "", [((0, 3, 5), dt)], lambda a, b: [np.zeros((0, 3, 5))]),
        op_case("addmm_empty_k", [E(5), E(4, 0), E(0, 5)], "addmm",
                "%a0, %a1, %a2", "beta = 2.0 : f64", [((4, 5), dt)],
                lambda c, a, b: [R(np.broadcast_to(2 * c, (4, 5)))]),
        op_case("conv2d_empty_batch", [E(0, 3, 6, 6), E(4, 3, 3, 3), E(4)],
                "conv2d", "%a0, %a1 bias(%a2)", "", [((0, 4, 4, 4), dt)],
                lambda x, w, b: [np.zeros((0, 4, 4, 4))]),
        op_case("mse_mean", [E(0, 4), E(0, 4)], "mse_loss", "%a0, %a1", "",
                [((), dt)], lambda a, b: [np.full((), nan)]),
        op_case("mse_sum", [E(0, 4), E(0, 4)], "mse_loss", "%a0, %a1",
                'reduction = #tp.reduction<sum>', [((), dt)], lambda a, b: [np.zeros(())]),
        op_case("bce_logits_mean", [E(0, 4, 7), E(0, 4, 7)],
                "binary_cross_entropy_with_logits", "%a0, %a1", "",
                [((), dt)], lambda a, b: [np.full((), nan)]),
        op_case("cross_entropy_mean", [E(0, 5), randint((0,), 0, 5)],
                "cross_entropy", "%a0, %a1", "", [((), dt)],
                lambda a, t: [np.full((), nan)]),
        op_case("cross_entropy_sum", [E(0, 5), randint((0,), 0, 5)],
                "cross_entropy", "%a0, %a1", 'reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, t: [np.zeros(())]),
        # The margin losses over an empty batch (decomposed: their cumsum
        # and amax over 0 rows are empty too) follow the other losses: mean
        # NaN, sum 0. (PyTorch 2.15 returns uninitialized memory for these
        # sums and for multi_margin_loss's mean, 0 for
        # multilabel_margin_loss's mean.)
        op_case("multilabel_margin_mean", [E(0, 10), randint((0, 10), -1, 10)],
                "multilabel_margin_loss", "%a0, %a1", "", [((), dt)],
                lambda a, t: [np.full((), nan)]),
        op_case("multilabel_margin_sum", [E(0, 10), randint((0, 10), -1, 10)],
                "multilabel_margin_loss", "%a0, %a1",
                'reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, t: [np.zeros(())]),
        op_case("multi_margin_sum", [E(0, 10), randint((0,), 0, 10)],
                "multi_margin_loss", "%a0, %a1",
                'reduction = #tp.reduction<sum>', [((), dt)],
                lambda a, t: [np.zeros(())]),
        op_case("embedding", [E(10, 4), randint((0,), 0, 10)], "embedding",
                "%a0, %a1", "", [((0, 4), dt)], lambda w, i: [np.zeros((0, 4))]),
        op_case("transpose", [E(0, 3)], "transpose", "%a0",
                "dim0 = 0 : i64, dim1 = 1 : i64", [((3, 0), dt)],
                lambda v: [v.T]),
        op_case("reshape", [E(0, 6)], "reshape", "%a0",
                "shape = array<i64: 3, 0, 2>", [((3, 0, 2), dt)],
                lambda v: [v.reshape(3, 0, 2)]),
    ]
    cases += [
        op_case("dist", [E(0, 6), E(6)], "dist", "%a0, %a1", "", [((), dt)],
                lambda a, b: [np.zeros(())]),
        op_case("trace", [E(0, 0)], "trace", "%a0", "", [((), dt)],
                lambda a: [np.zeros(())]),
        op_case("norm_p0", [E(0, 6)], "norm", "%a0", "p = 0.0 : f64",
                [((), dt)], lambda a: [np.zeros(())]),
        op_case("cosine_similarity", [E(3, 0), E(3, 0)], "cosine_similarity",
                "%a0, %a1", "dim = 1 : i64", [((3,), dt)],
                lambda a, b: [np.zeros(3)]),
        op_case("nll_mean", [E(0, 5), randint((0,), 0, 5)], "nll_loss",
                "%a0, %a1", "", [((), dt)], lambda a, t: [np.full((), nan)]),
        op_case("kl_div_mean", [E(0, 6), E(0, 6)], "kl_div", "%a0, %a1",
                "", [((), dt)],
                lambda a, b: [np.full((), nan)]),
    ]
    a, b = E(2, 3), E(0, 3)
    cases.append(Case("cat_with_empty", [a, b],
                      ["%%r0 = tp.cat [%%a0, %%a1] {dim = 0 : i64} : "
                       "(%s, %s) -> %s" % (ttype((2, 3), dt), ttype((0, 3), dt),
                                           ttype((2, 3), dt))],
                      [((2, 3), dt)], lambda x, y: [x]))
    return cases


# ----------------------------------------------------------------------------
# Pools: references written per window, as aten's CPU kernels loop (the
# first of equal maxima, the last NaN; aten's divisor); the backward ones
# scatter each window's gradient (the lowerings gather).

def _per_dim(v, n, dflt):
    if v is None:
        return list(dflt)
    v = list(v) if isinstance(v, (list, tuple)) else [v]
    return v * n if len(v) == 1 else v


def pool_windows(in_shape, kernel=None, stride=None, padding=0, dilation=1,
                 ceil=False, adaptive=None):
    """Per spatial dimension: the list over outputs of (start, positions,
    padded_end) where positions are the window's input positions (in the
    input or not)."""
    n = len(in_shape)
    dims = []
    if adaptive is not None:
        for I, O in zip(in_shape, adaptive):
            ws = []
            for o in range(O):
                a, b = (o * I) // O, -((-(o + 1) * I) // O)
                ws.append((a, list(range(a, b)), b))
            dims.append(ws)
        return dims
    k = _per_dim(kernel, n, None)
    s = _per_dim(stride, n, k)
    p = _per_dim(padding, n, [0] * n)
    d = _per_dim(dilation, n, [1] * n)
    for i, I in enumerate(in_shape):
        span = I + 2 * p[i] - d[i] * (k[i] - 1) - 1
        O = (-(-span // s[i]) if ceil else span // s[i]) + 1
        if ceil and (O - 1) * s[i] >= I + p[i]:
            O -= 1
        ws = []
        for o in range(O):
            a = o * s[i] - p[i]
            ws.append((a, [a + j * d[i] for j in range(k[i])],
                       min(a + k[i], I + p[i])))
        dims.append(ws)
    return dims


def _windows_of(x, n, dims):
    import itertools
    lead = x.shape[:-n]
    sizes = x.shape[-n:]
    out_shape = tuple(len(w) for w in dims)
    for o in itertools.product(*[range(m) for m in out_shape]):
        cells = [[q for q in dims[i][o[i]][1] if 0 <= q < sizes[i]]
                 for i in range(n)]
        yield o, list(itertools.product(*cells)), lead, sizes, out_shape


def max_pool_ref(x, n, **kw):
    dims = pool_windows(x.shape[-n:], **kw)
    out_shape = x.shape[:-n] + tuple(len(w) for w in dims)
    val = np.empty(out_shape)
    idx = np.empty(out_shape, dtype=np.int64)
    for o, cells, lead, sizes, _ in _windows_of(x, n, dims):
        for l in np.ndindex(*lead):
            best, at = -np.inf, np.ravel_multi_index(cells[0], sizes)
            for c in cells:
                v = x[l + c]
                if v > best or np.isnan(v):
                    best, at = v, np.ravel_multi_index(c, sizes)
            val[l + o], idx[l + o] = best, at
    return val, idx


def avg_divisor(dims, o, include_pad=True, divisor=None, adaptive=False):
    if divisor is not None:
        return divisor
    total = 1
    for i, w in enumerate(dims):
        a, _, b = w[o[i]]
        total *= (b - a)
    return total


def _avg_windows(x, n, dims, include_pad, divisor, kw):
    """Each output window of an average pool with the divisor aten uses:
    the padded window size (or divisor_override), or the count of real cells
    when count_include_pad is false."""
    for o, cells, lead, _, _ in _windows_of(x, n, dims):
        if include_pad or kw.get("adaptive") is not None:
            div = avg_divisor(dims, o, divisor=divisor)
        else:
            div = divisor or len(cells)
        yield o, cells, lead, div


def avg_pool_ref(x, n, include_pad=True, divisor=None, **kw):
    dims = pool_windows(x.shape[-n:], **kw)
    out_shape = x.shape[:-n] + tuple(len(w) for w in dims)
    out = np.empty(out_shape)
    for o, cells, lead, div in _avg_windows(x, n, dims, include_pad, divisor,
                                            kw):
        for l in np.ndindex(*lead):
            out[l + o] = sum(x[l + c] for c in cells) / div
    return out


def avg_pool_backward_ref(g, x, n, include_pad=True, divisor=None, **kw):
    dims = pool_windows(x.shape[-n:], **kw)
    gx = np.zeros(x.shape)
    for o, cells, lead, div in _avg_windows(x, n, dims, include_pad, divisor,
                                            kw):
        for l in np.ndindex(*lead):
            for c in cells:
                gx[l + c] += g[l + o] / div
    return gx


def max_pool_backward_ref(g, x, indices, n):
    gx = np.zeros(x.shape)
    sizes = x.shape[-n:]
    for l in np.ndindex(*g.shape):
        lead = l[:-n]
        gx[lead + np.unravel_index(int(indices[l]), sizes)] += g[l]
    return gx


def generate_intervals(u, size, out, pool, dt):
    """tensorplay's generate_intervals in the input's dtype (f32 for f32,
    each step rounded for bf16 / f16)."""
    def r(v):
        return float(rounded(dt, np.float32(v))) if dt != "f32" else \
            float(np.float32(v))
    seq = [0] * out
    if out > 1:
        alpha = r(r(size - pool) / r(out - 1))
        for i in range(out - 1):
            seq[i] = int(r(r(i + u) * alpha)) - int(r(u * alpha))
    seq[out - 1] = size - pool
    return seq


def fractional_max_pool_ref(x, samples, kernel, out, n, dt):
    lead = x.shape[:-n]
    sizes = x.shape[-n:]
    vals = np.zeros(lead + tuple(out))
    idx = np.zeros(lead + tuple(out), dtype=np.int64)
    for l in np.ndindex(*lead):
        b = l[0] if len(lead) == 2 else 0
        u = samples[b, l[-1]]
        order = [1, 0] if n == 2 else [0, 1, 2]  # 2-D samples are (w, h)
        seqs = [generate_intervals(float(u[order[d]]), sizes[d], out[d],
                                   kernel[d], dt) for d in range(n)]
        for o in np.ndindex(*out):
            start = [seqs[d][o[d]] for d in range(n)]
            best = -np.inf
            at = int(np.ravel_multi_index(start, sizes))
            for off in np.ndindex(*kernel):
                p = tuple(s + k for s, k in zip(start, off))
                v = x[l + p]
                if v > best or np.isnan(v):
                    best, at = v, int(np.ravel_multi_index(p, sizes))
            vals[l + o], idx[l + o] = best, at
    return [vals, idx]


def max_unpool_ref(x, idx, out_shape, n):
    """Zeros, each value of x stored at its index in the flattened output
    plane of its leading position, in order (the last duplicate wins)."""
    lead = x.shape[:-n]
    out = np.zeros((int(np.prod(lead, dtype=np.int64)),
                    int(np.prod(out_shape[-n:], dtype=np.int64))))
    xf = x.reshape(out.shape[0], -1)
    idf = np.asarray(idx).astype(np.int64).reshape(out.shape[0], -1)
    for p in range(out.shape[0]):
        for j in range(xf.shape[1]):
            out[p, idf[p, j]] = xf[p, j]
    return out.reshape(out_shape)


def pooling(mode):
    dt = fdt(mode)
    R = lambda v: rounded(dt, v)
    T = lambda s: ttype(s, dt)
    cases = []

    def pool(name, x, n, op, attrs, kw, kind):
        if kind == "max":
            ref = lambda v: max_pool_ref(v, n, **kw)
        else:
            ref = lambda v: (avg_pool_ref(v, n, **kw), None)
        val, idx = ref(f64(x[0]))
        results = [(val.shape, dt)]
        if op.endswith("with_indices") or op.startswith("adaptive_max"):
            results.append((idx.shape, "i64"))
            cases.append(op_case(name, [x], op, "%a0", attrs, results,
                                 lambda v: [R(ref(v)[0]), ref(v)[1]]))
        else:
            cases.append(op_case(name, [x], op, "%a0", attrs, results,
                                 lambda v: [R(ref(v)[0])]))

    x = rand((2, 3, 7, 6), dtype=dt)
    pool("max2d", x, 2, "max_pool2d", "kernel_size = array<i64: 3>, "
         "padding = array<i64: 1>, stride = array<i64: 2>",
         dict(kernel=3, stride=2, padding=1), "max")
    pool("max2d_idx_dilated_ceil", x, 2, "max_pool2d_with_indices",
         "ceil_mode = true, dilation = array<i64: 2, 1>, kernel_size = "
         "array<i64: 2, 3>, padding = array<i64: 1, 0>, stride = array<i64: 2>",
         dict(kernel=[2, 3], stride=2, padding=[1, 0], dilation=[2, 1],
              ceil=True), "max")
    pool("max2d_unbatched", rand((3, 5, 5), dtype=dt), 2,
         "max_pool2d_with_indices", "kernel_size = array<i64: 2>, stride = "
         "array<i64: 1>", dict(kernel=2, stride=1), "max")
    # Ties take the first, a NaN wins (the last NaN's index), -inf counts.
    special = np.array([[[[1, 1, 0, 0], [1, 1, 0, 0],
                          [np.nan, 2, -np.inf, -np.inf],
                          [3, np.nan, -np.inf, -np.inf]]]])
    pool("max2d_ties_nan_inf", as_input(special, dt), 2,
         "max_pool2d_with_indices", "kernel_size = array<i64: 2>",
         dict(kernel=2), "max")
    cases.append(op_case("max2d_int", [randint((1, 2, 5, 5), -9, 9, "i64")],
                         "max_pool2d", "%a0", "kernel_size = array<i64: 2>",
                         [((1, 2, 2, 2), "i64")],
                         lambda v: [max_pool_ref(v, 2, kernel=2)[0]]))
    pool("max3d_plain", rand((2, 1, 4, 5, 6), dtype=dt), 3, "max_pool3d",
         "kernel_size = array<i64: 2, 3, 2>, stride = array<i64: 1, 2, 2>",
         dict(kernel=[2, 3, 2], stride=[1, 2, 2]), "max")
    pool("max3d", rand((1, 2, 5, 4, 6), dtype=dt), 3, "max_pool3d_with_indices",
         "kernel_size = array<i64: 2, 2, 3>, padding = array<i64: 1, 0, 1>, "
         "stride = array<i64: 2>", dict(kernel=[2, 2, 3], stride=2,
                                        padding=[1, 0, 1]), "max")
    pool("avg2d", x, 2, "avg_pool2d", "kernel_size = array<i64: 3>, padding = "
         "array<i64: 1>, stride = array<i64: 2>",
         dict(kernel=3, stride=2, padding=1), "avg")
    pool("avg2d_exclude_pad_ceil", x, 2, "avg_pool2d",
         "ceil_mode = true, count_include_pad = false, kernel_size = "
         "array<i64: 3, 2>, padding = array<i64: 1>, stride = array<i64: 2>",
         dict(kernel=[3, 2], stride=2, padding=1, ceil=True,
              include_pad=False), "avg")
    pool("avg2d_ceil_include_pad", x, 2, "avg_pool2d",
         "ceil_mode = true, kernel_size = array<i64: 3>, padding = "
         "array<i64: 1>, stride = array<i64: 2>",
         dict(kernel=3, stride=2, padding=1, ceil=True), "avg")
    pool("avg2d_divisor", x, 2, "avg_pool2d",
         "divisor_override = 5 : i64, kernel_size = array<i64: 2>, padding = "
         "array<i64: 1>", dict(kernel=2, padding=1, divisor=5), "avg")
    pool("avg3d", rand((1, 2, 4, 5, 6), dtype=dt), 3, "avg_pool3d",
         "kernel_size = array<i64: 2, 3, 2>, padding = array<i64: 0, 1, 1>, "
         "stride = array<i64: 1, 2, 2>",
         dict(kernel=[2, 3, 2], stride=[1, 2, 2], padding=[0, 1, 1]), "avg")
    pool("adaptive_avg2d", x, 2, "adaptive_avg_pool2d",
         "output_size = array<i64: 3, 4>", dict(adaptive=[3, 4]), "avg")
    pool("adaptive_avg2d_global", x, 2, "adaptive_avg_pool2d",
         "output_size = array<i64: 1, 1>", dict(adaptive=[1, 1]), "avg")
    pool("adaptive_avg2d_upsample", rand((2, 3, 2), dtype=dt), 2,
         "adaptive_avg_pool2d", "output_size = array<i64: 5, 3>",
         dict(adaptive=[5, 3]), "avg")
    pool("adaptive_avg3d", rand((1, 2, 5, 4, 3), dtype=dt), 3,
         "adaptive_avg_pool3d", "output_size = array<i64: 2, 3, 2>",
         dict(adaptive=[2, 3, 2]), "avg")
    pool("adaptive_max3d", rand((1, 2, 5, 4, 3), dtype=dt), 3,
         "adaptive_max_pool3d", "output_size = array<i64: 2, 3, 2>",
         dict(adaptive=[2, 3, 2]), "max")

    # Backward ops, against a scatter of each window's gradient.
    def backward(name, n, op, attrs, xs, kw, kind):
        x = rand(xs, dtype=dt)
        if kind == "max":
            val, idx = max_pool_ref(f64(x[0]), n, **kw)
        else:
            val = avg_pool_ref(f64(x[0]), n, **kw)
        g = rand(val.shape, dtype=dt)
        if kind == "max":
            ins = [g, x, (idx, "i64")]
            ref = lambda g, x, i: [R(max_pool_backward_ref(g, x, i, n))]
            operands = "%a0, %a1, %a2"
        else:
            ins = [g, x]
            ref = lambda g, x: [R(avg_pool_backward_ref(g, x, n, **kw))]
            operands = "%a0, %a1"
        cases.append(op_case(name, ins, op, operands, attrs, [(xs, dt)], ref))

    backward("avg2d_backward", 2, "avg_pool2d_backward",
             "kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = "
             "array<i64: 2>", (2, 3, 7, 6), dict(kernel=3, stride=2, padding=1),
             "avg")
    backward("avg2d_backward_exclude_ceil", 2, "avg_pool2d_backward",
             "ceil_mode = true, count_include_pad = false, kernel_size = "
             "array<i64: 3, 2>, padding = array<i64: 1>, stride = array<i64: 2>",
             (2, 3, 7, 6), dict(kernel=[3, 2], stride=2, padding=1, ceil=True,
                                include_pad=False), "avg")
    backward("avg2d_backward_overlap_divisor", 2, "avg_pool2d_backward",
             "divisor_override = 3 : i64, kernel_size = array<i64: 3>, "
             "stride = array<i64: 1>", (1, 2, 5, 6),
             dict(kernel=3, stride=1, divisor=3), "avg")
    backward("avg3d_backward", 3, "avg_pool3d_backward",
             "kernel_size = array<i64: 2, 3, 2>, padding = array<i64: 0, 1, 1>, "
             "stride = array<i64: 1, 2, 2>", (1, 2, 4, 5, 6),
             dict(kernel=[2, 3, 2], stride=[1, 2, 2], padding=[0, 1, 1]), "avg")
    backward("max2d_backward_overlap", 2, "max_pool2d_with_indices_backward",
             "kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = "
             "array<i64: 1>", (2, 3, 6, 5), dict(kernel=3, stride=1, padding=1),
             "max")
    backward("max2d_backward_dilated_ceil", 2,
             "max_pool2d_with_indices_backward",
             "ceil_mode = true, dilation = array<i64: 2, 1>, kernel_size = "
             "array<i64: 2, 3>, padding = array<i64: 1, 0>, stride = array<i64: 2>",
             (2, 3, 7, 6), dict(kernel=[2, 3], stride=2, padding=[1, 0],
                                dilation=[2, 1], ceil=True), "max")
    backward("max3d_backward", 3, "max_pool3d_with_indices_backward",
             "kernel_size = array<i64: 2>, stride = array<i64: 1>",
             (1, 2, 4, 3, 5), dict(kernel=2, stride=1), "max")
    backward("adaptive_avg2d_backward", 2, "adaptive_avg_pool2d_backward", "",
             (2, 3, 7, 6), dict(adaptive=[3, 4]), "avg")
    backward("adaptive_avg2d_backward_upsample", 2,
             "adaptive_avg_pool2d_backward", "", (2, 3, 2),
             dict(adaptive=[5, 3]), "avg")
    backward("adaptive_avg3d_backward", 3, "adaptive_avg_pool3d_backward", "",
             (1, 2, 5, 4, 3), dict(adaptive=[2, 3, 2]), "avg")
    backward("adaptive_max3d_backward", 3, "adaptive_max_pool3d_backward", "",
             (1, 2, 5, 4, 3), dict(adaptive=[3, 2, 2]), "max")

    # Forward indices feed the backward in one program.
    xs, os_ = (2, 2, 6, 6), (2, 2, 3, 3)
    x, g = rand(xs, dtype=dt), rand(os_, dtype=dt)
    attrs = "{kernel_size = array<i64: 3>, padding = array<i64: 1>, stride = array<i64: 2>}"
    cases.append(Case("max2d_forward_backward", [x, g], [
        "%%v, %%i = tp.max_pool2d_with_indices %%a0 %s : (%s) -> (%s, %s)"
        % (attrs, T(xs), T(os_), ttype(os_, "i64")),
        "%%r0 = tp.max_pool2d_with_indices_backward %%a1, %%a0, %%i %s : (%s, %s, %s) -> %s"
        % (attrs, T(os_), T(xs), ttype(os_, "i64"), T(xs)),
    ], [(xs, dt)], lambda x, g: [R(max_pool_backward_ref(
        g, x, max_pool_ref(x, 2, kernel=3, stride=2, padding=1)[1], 2))]))
    # fractional_max_pool2d/3d: windows placed by the random samples
    # (generate_intervals), the first largest (or NaN) element and its flat
    # index; batched, unbatched, a NaN, windows touching the input's end.
    def fractional(name, n, xs, kernel, out, nan=False):
        x = rand(xs, dtype=dt)
        if nan:
            x[0].flat[5] = np.nan
        lead = xs[:-n]
        b = lead[0] if len(lead) == 2 else 1
        u = rand((b, lead[-1], n), 0.0, 1.0, dt)
        os_ = lead + tuple(out)
        attrs = "kernel_size = array<i64: %s>, output_size = array<i64: %s>" % (
            ", ".join(map(str, kernel)), ", ".join(map(str, out)))
        cases.append(op_case(
            name, [x, u], "fractional_max_pool%dd" % n, "%a0, %a1", attrs,
            [(os_, dt), (os_, "i64")],
            lambda v, s: fractional_max_pool_ref(v, s, kernel, out, n, dt)))
    fractional("fractional2d", 2, (2, 3, 9, 8), [2, 3], [4, 3])
    fractional("fractional2d_unbatched_nan", 2, (2, 7, 7), [3, 2], [5, 6],
               nan=True)
    fractional("fractional2d_one", 2, (1, 2, 5, 5), [2, 2], [1, 4])
    fractional("fractional3d", 3, (1, 2, 6, 5, 7), [2, 2, 3], [3, 4, 2])

    # max_unpool2d/3d: each value written at its index in its output plane
    # (a later duplicate wins, as tensorplay's loop); the indices of a max
    # pool in one program, given ones with duplicates, an unbatched input.
    def unpool(name, n, xs, idx, outsize, attrs=""):
        x = rand(xs, dtype=dt)
        os_ = xs[:-n] + tuple(outsize)
        text = "output_size = array<i64: %s>%s" % (
            ", ".join(map(str, outsize)), attrs)
        cases.append(op_case(name, [x, (idx, "i64")], "max_unpool%dd" % n,
                             "%a0, %a1", text, [(os_, dt)],
                             lambda v, i: [R(max_unpool_ref(v, i, os_, n))]))
    px = f64(rand((2, 3, 6, 6), dtype=dt)[0])
    unpool("unpool2d", 2, (2, 3, 3, 3),
           max_pool_ref(px, 2, kernel=2, stride=2)[1], [6, 6])
    dup = randint((3, 2, 3), 0, 4)[0]
    unpool("unpool2d_duplicates", 2, (3, 2, 3), dup, [2, 2])
    px3 = f64(rand((1, 2, 4, 4, 4), dtype=dt)[0])
    unpool("unpool3d", 3, (1, 2, 2, 2, 2),
           max_pool_ref(px3, 3, kernel=2, stride=2)[1], [4, 4, 4],
           ", padding = array<i64: 0, 0, 0>, stride = array<i64: 2, 2, 2>")
    xs, os_ = (2, 2, 6, 6), (2, 2, 3, 3)
    x = rand(xs, dtype=dt)
    pool_attrs = "{kernel_size = array<i64: 2>, stride = array<i64: 2>}"
    cases.append(Case("max2d_pool_unpool", [x], [
        "%%v, %%i = tp.max_pool2d_with_indices %%a0 %s : (%s) -> (%s, %s)"
        % (pool_attrs, T(xs), T(os_), ttype(os_, "i64")),
        "%%r0 = tp.max_unpool2d %%v, %%i {output_size = array<i64: 6, 6>} : "
        "(%s, %s) -> %s" % (T(os_), ttype(os_, "i64"), T(xs)),
    ], [(xs, dt)], lambda x: [R(max_unpool_ref(
        *max_pool_ref(x, 2, kernel=2, stride=2), xs, 2))]))
    return cases


def gather_ref(x, dim, index):
    """torch.gather, clamping indices into the dimension as the lowering
    does (eager raises)."""
    index = np.clip(index.astype(np.int64), 0, x.shape[dim] - 1)
    out = np.empty(index.shape)
    for i in np.ndindex(*index.shape):
        at = list(i)
        at[dim] = index[i]
        out[i] = x[tuple(at)]
    return out


def scatter_add_ref(self, dim, index, src):
    out = np.array(self, dtype=np.float64)
    for i in np.ndindex(*index.shape):
        at = list(i)
        at[dim] = int(np.clip(index[i], 0, self.shape[dim] - 1))
        out[tuple(at)] += src[i]
    return out


def index_copy_ref(self, dim, index, source):
    out = np.array(self, dtype=np.float64)
    src = np.moveaxis(source, dim, 0)
    view = np.moveaxis(out, dim, 0)
    for j, row in enumerate(np.atleast_1d(index).astype(np.int64)):
        view[row] = src[j]
    return out


def topk_ref(x, k, dim=-1, largest=True):
    """(values, indices): best first, NaN above every number, equal values
    by position."""
    moved = np.moveaxis(x, dim, -1)
    vals = np.empty(moved.shape[:-1] + (k,))
    idxs = np.empty(moved.shape[:-1] + (k,), dtype=np.int64)
    for r in np.ndindex(*moved.shape[:-1]):
        row = moved[r]

        def key(i):
            v = row[i]
            if np.isnan(v):
                return (0 if largest else 1, 0.0, i)
            return (1 if largest else 0, -v if largest else v, i)
        order = sorted(range(len(row)), key=key)[:k]
        vals[r] = row[order]
        idxs[r] = order
    return np.moveaxis(vals, -1, dim), np.moveaxis(idxs, -1, dim)


def indexing(mode):
    """gather, scatter_add, index_copy, topk and index_put."""
    dt = fdt(mode)
    R = lambda v: rounded(dt, v)
    cases = []

    def gather(name, xs, dim, index):
        x = rand(xs, dtype=dt)
        cases.append(op_case(
            name, [x, index], "gather", "%a0, %a1", f"dim = {dim} : i64",
            [(index[0].shape, dt)],
            lambda x, i: [gather_ref(x, dim, i)]))

    gather("gather_dim1", (4, 8), 1, randint((4, 3), 0, 8))
    gather("gather_dim0_smaller", (5, 6), 0, randint((3, 4), 0, 5))
    gather("gather_3d_negative_dim", (2, 3, 7), -1, randint((2, 2, 9), 0, 7))
    gather("gather_i32_index", (3, 5), 1, randint((3, 5), 0, 5, "i32"))
    gather("gather_clamped", (3, 4), 1, (np.array(
        [[-3, 0, 9], [1, 4, 2], [3, 3, -1]], np.int64), "i64"))

    def scatter(name, selfs, dim, index, srcs, dtype=None):
        d = dtype or dt
        x = rand(selfs, dtype=d) if d != "i64" else randint(selfs, -9, 9)
        src = rand(srcs, dtype=d) if d != "i64" else randint(srcs, -9, 9)
        fix = (lambda v: v) if d == "i64" else R
        cases.append(op_case(
            name, [x, index, src], "scatter_add", "%a0, %a1, %a2",
            f"dim = {dim} : i64", [(selfs, d)],
            lambda x, i, s: [fix(scatter_add_ref(x, dim % len(selfs), i, s))]))

    # Duplicate indices accumulate.
    scatter("scatter_add_dim0", (5, 3), 0, randint((6, 3), 0, 5), (6, 3))
    scatter("scatter_add_src_larger", (4, 5), 1, randint((3, 4), 0, 5), (5, 6))
    scatter("scatter_add_3d", (2, 3, 4), -1, randint((2, 3, 6), 0, 4),
            (2, 3, 6))
    scatter("scatter_add_int", (4, 4), 0, randint((5, 4), 0, 4), (5, 4),
            "i64")

    def index_copy(name, selfs, dim, index, srcs):
        x, src = rand(selfs, dtype=dt), rand(srcs, dtype=dt)
        cases.append(op_case(
            name, [x, (np.array(index, np.int64), "i64"), src], "index_copy",
            "%a0, %a1, %a2", f"dim = {dim} : i64", [(selfs, dt)],
            lambda x, i, s: [index_copy_ref(x, dim % len(selfs), i, s)]))

    index_copy("index_copy_rows", (5, 3), 0, [4, 0, 2], (3, 3))
    index_copy("index_copy_columns", (2, 6, 3), 1, [5, 1], (2, 2, 3))
    index_copy("index_copy_last_dim", (3, 4), -1, [3, 2, 1, 0], (3, 4))

    def topk(name, x, k, dim=-1, largest=True, extra=""):
        attrs = f"k = {k} : i64, dim = {dim} : i64"
        if not largest:
            attrs += ", largest = false"
        attrs += extra
        shape = list(x[0].shape)
        shape[dim] = k
        cases.append(op_case(
            name, [x], "topk", "%a0", attrs, [(tuple(shape), x[1]),
                                               (tuple(shape), "i64")],
            lambda v: list(topk_ref(v, k, dim, largest))))

    topk("topk_largest", rand((4, 9), dtype=dt), 3)
    topk("topk_smallest_dim0", rand((7, 5), dtype=dt), 2, 0, False)
    topk("topk_all_unsorted", rand((3, 6), dtype=dt), 6, extra=", sorted = false")
    topk("topk_k0", rand((3, 4), dtype=dt), 0)
    topk("topk_3d_middle", rand((2, 8, 3), dtype=dt), 4, 1)
    topk("topk_int", randint((3, 10), -5, 5), 4)
    # NaN above every number (first when largest, last when smallest),
    # ties by position, infinities in order.
    special = as_input(np.array([[1, np.nan, -np.inf, 1, np.inf, np.nan, 0],
                                 [2, 2, 2, -1, -1, 3, 3]]), dt)
    topk("topk_nan_ties", special, 5)
    topk("topk_nan_ties_smallest", special, 5, largest=False)
    # topk's indices feed a gather in one program: the values again.
    x = rand((3, 8), dtype=dt)
    T = lambda s: ttype(s, dt)
    cases.append(Case("topk_then_gather", [x], [
        "%%v, %%i = tp.topk %%a0 {k = 3 : i64} : (%s) -> (%s, %s)"
        % (T((3, 8)), T((3, 3)), ttype((3, 3), "i64")),
        "%%r0 = tp.gather %%a0, %%i {dim = 1 : i64} : (%s, %s) -> %s"
        % (T((3, 8)), ttype((3, 3), "i64"), T((3, 3))),
    ], [((3, 3), dt)], lambda x: [topk_ref(x, 3)[0]]))
    # index_put: rows named by broadcast index tensors (negative ones count
    # from the end), values broadcast, written (the last duplicate wins, as
    # NumPy's assignment) or added (np.add.at).
    def index_put(name, xs, idx, vs, accumulate=False):
        x, v = rand(xs, dtype=dt), rand(vs, dtype=dt)
        ins = [x] + [(i, "i64") for i in idx] + [v]
        k = len(idx)
        text = "%%a0[%s], %%a%d" % (
            ", ".join("%%a%d" % (j + 1) for j in range(k)), k + 1)

        def ref(x, *rest):
            out = x.copy()
            where = tuple(np.asarray(r, np.int64) for r in rest[:-1])
            vals = np.broadcast_to(rest[-1], out[where].shape)
            if accumulate:
                np.add.at(out, where, vals)
            else:
                out[where] = vals
            return [R(out)]
        cases.append(op_case(name, ins, "index_put", text,
                             "accumulate = true" if accumulate else "",
                             [(xs, dt)], ref))
    index_put("index_put_rows", (5, 3), [np.array([4, -5], np.int64)],
              (2, 3))
    index_put("index_put_broadcast", (4, 5, 2),
              [np.array([[3], [0]], np.int64), np.array([1, -1, 2], np.int64)],
              (2,))
    index_put("index_put_accumulate", (4, 3),
              [np.array([1, 3, 1, 1], np.int64)], (4, 3), accumulate=True)
    index_put("index_put_duplicates", (4, 3),
              [np.array([2, 0, 2], np.int64)], (3, 3))
    # self[mask] = v with a boolean mask over the leading dimensions and
    # values of one row (NumPy's boolean assignment; += for accumulate).
    def index_put_mask(name, xs, ms, vs, accumulate=False):
        x, v = rand(xs, dtype=dt), rand(vs, dtype=dt)
        m = np.random.default_rng(len(name)).integers(0, 2, ms).astype(bool)
        m.flat[0], m.flat[-1] = True, False

        def ref(x, m, v):
            out, m = x.copy(), np.asarray(m, bool)
            rows = np.broadcast_to(v, (int(m.sum()),) + x.shape[m.ndim:])
            if accumulate:
                out[m] += rows
            else:
                out[m] = rows
            return [R(out)]
        cases.append(op_case(name, [x, (m, "i1"), v], "index_put",
                             "%a0[%a1], %a2",
                             "accumulate = true" if accumulate else "",
                             [(xs, dt)], ref))
    index_put_mask("index_put_mask_rows", (5, 3), (5,), (3,))
    index_put_mask("index_put_mask_scalar", (4, 3, 2), (4, 3), ())
    index_put_mask("index_put_mask_leading_one", (6, 4), (6,), (1, 4))
    index_put_mask("index_put_mask_full", (3, 4), (3, 4), (1,))
    index_put_mask("index_put_mask_accumulate", (5, 2, 3), (5,), (2, 1),
                   accumulate=True)
    return cases


def RNG_bool(shape):
    m = np.random.default_rng(7).integers(0, 2, size=shape).astype(bool)
    m[:, 0] = True  # every row keeps one key
    return m


from tpcheck_composite import composite  # noqa: E402
from tpcheck_linalg import linalg  # noqa: E402
from tpcheck_grid import grid  # noqa: E402
from tpcheck_ctc import ctc  # noqa: E402
from tpcheck_fft import fft  # noqa: E402

FAMILIES = {
    "composite": composite,
    "ctc": ctc,
    "fft": fft,
    "linalg": linalg,
    "grid": grid,
    "matmul": matmul,
    "conv": conv,
    "attention": attention,
    "elementwise": elementwise,
    "shape": shape,
    "pooling": pooling,
    "indexing": indexing,
    "reductions": reductions,
    "normalization": normalization,
    "losses": losses,
    "sharing": sharing,
    "empty": empty,
}
