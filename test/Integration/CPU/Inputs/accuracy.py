"""Accuracy of the compiled f32 transcendentals and reductions over their
whole input range, against float64 NumPy references.

Every unary function runs on N inputs spread log-uniformly over every
binade of its domain (both signs where it has them, subnormals included)
plus special values (0, +-inf, NaN, the domain's ends); the error is
measured in ulps of the f32 result (|out - ref| / spacing(f32(ref))), so a
correctly rounded result has at most 0.5. Reductions (sums over long axes,
means, norms, softmax, layer and batch norm) are measured as relative
error. Each line prints the measured worst case and the bound it is held
to (docs/CodegenCPU.md states both); a result outside its bound, or a wrong
special value, fails (exit status 1).

Usage: accuracy.py --tp-run PATH --tmp DIR [--n N] [--pipeline-options S]
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tpcheck import erf, erfinv_ref  # noqa: E402

F32 = np.finfo(np.float32)


def spread(lo, hi, n, rng, signs=(1,)):
    """n values with |x| log-uniform in [lo, hi], random signs of `signs`."""
    mags = np.exp(rng.uniform(np.log(lo), np.log(hi), n))
    sign = rng.choice(np.array(signs, dtype=np.float64), n)
    return (sign * mags).astype(np.float32)


def linear(lo, hi, n, rng):
    return rng.uniform(lo, hi, n).astype(np.float32)



def sigmoid(x):
    return np.where(x >= 0, 1 / (1 + np.exp(-x)), np.exp(x) / (1 + np.exp(x)))


erfc = np.vectorize(math.erfc, otypes=[np.float64])


def gelu(x):
    # 0.5 x erfc(-x / sqrt 2): no cancellation for x << 0 (in float64 too).
    return 0.5 * x * erfc(-x / math.sqrt(2))


def gelu_tanh(x):
    # 0.5 x (1 + tanh(u)) = x sigmoid(2u), without the cancellation.
    u = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
    return x * sigmoid(2 * u)


TINY = float(F32.smallest_subnormal)
HUGE = float(F32.max)

# name, op, attrs, input generator (rng, n) -> f32 array, reference, bound
# in ulps, special inputs. Domains follow each function: exp overflows above
# 88.7, sinh/cosh above 89.4; inputs beyond give inf (checked as specials).
UNARY = [
    ("exp", "exp", "", lambda r, n: np.concatenate([
        spread(TINY, 88.7, n // 2, r, (1, -1)), linear(-103, 88.7, n - n // 2, r)]),
     np.exp, 4.0, [0.0, -np.inf, np.inf, 100.0, -110.0]),
    ("expm1", "expm1", "", lambda r, n: spread(TINY, 88.7, n, r, (1, -1)),
     np.expm1, 4.0, [0.0, -np.inf, np.inf]),
    ("log", "log", "", lambda r, n: spread(TINY, HUGE, n, r), np.log, 2.0,
     [0.0, 1.0, np.inf, -1.0]),
    ("log2", "log2", "", lambda r, n: spread(TINY, HUGE, n, r), np.log2, 2.0,
     [0.0, 1.0, np.inf, -1.0]),
    ("log10", "log10", "", lambda r, n: spread(TINY, HUGE, n, r), np.log10, 2.0,
     [0.0, 1.0, np.inf, -1.0]),
    ("log1p", "log1p", "", lambda r, n: np.concatenate([
        spread(TINY, HUGE, n // 2, r), -spread(TINY, 0.9999, n - n // 2, r)]),
     np.log1p, 4.0, [0.0, -1.0, np.inf]),
    ("sqrt", "sqrt", "", lambda r, n: spread(TINY, HUGE, n, r), np.sqrt, 1.0,
     [0.0, np.inf, -1.0]),
    ("rsqrt", "rsqrt", "", lambda r, n: spread(TINY, HUGE, n, r),
     lambda x: 1 / np.sqrt(x), 2.0, [0.0, np.inf]),
    ("reciprocal", "reciprocal", "", lambda r, n: spread(1e-37, HUGE / 4, n, r, (1, -1)),
     lambda x: 1 / x, 1.0, [0.0, np.inf]),
    ("sin", "sin", "", lambda r, n: spread(TINY, HUGE, n, r, (1, -1)), np.sin, 1.0,
     [0.0, np.inf, -np.inf]),
    ("cos", "cos", "", lambda r, n: spread(TINY, HUGE, n, r, (1, -1)), np.cos, 1.0,
     [0.0, np.inf, -np.inf]),
    ("tan", "tan", "", lambda r, n: spread(TINY, 1e4, n, r, (1, -1)), np.tan, 4.0,
     [0.0]),
    ("asin", "asin", "", lambda r, n: spread(TINY, 1.0, n, r, (1, -1)), np.arcsin,
     4.0, [0.0, 1.0, -1.0, 2.0]),
    ("acos", "acos", "", lambda r, n: spread(TINY, 1.0, n, r, (1, -1)), np.arccos,
     4.0, [0.0, 1.0, -1.0, 2.0]),
    ("sinh", "sinh", "", lambda r, n: spread(TINY, 89.4, n, r, (1, -1)), np.sinh,
     4.0, [0.0, np.inf, -np.inf]),
    ("cosh", "cosh", "", lambda r, n: spread(TINY, 89.4, n, r, (1, -1)), np.cosh,
     4.0, [0.0, np.inf, -np.inf]),
    ("tanh", "tanh", "", lambda r, n: spread(TINY, HUGE, n, r, (1, -1)), np.tanh,
     4.0, [0.0, np.inf, -np.inf]),
    ("sigmoid", "sigmoid", "", lambda r, n: spread(TINY, HUGE, n, r, (1, -1)),
     sigmoid, 4.0, [0.0, np.inf, -np.inf]),
    ("silu", "silu", "", lambda r, n: spread(TINY, 1e30, n, r, (1, -1)),
     lambda x: x * sigmoid(x), 32.0, [0.0, np.inf]),
    ("erf", "erf", "", lambda r, n: spread(TINY, HUGE, n, r, (1, -1)), erf, 4.0,
     [0.0, np.inf, -np.inf]),
    ("erfinv", "erfinv", "", lambda r, n: spread(TINY, 1.0, n, r, (1, -1)),
     erfinv_ref, 256.0, [0.0, 1.0, -1.0, 2.0]),
    ("gelu", "gelu", "", lambda r, n: spread(TINY, 1e30, n, r, (1, -1)),
     gelu, 256.0, [0.0, np.inf]),
    ("gelu_tanh", "gelu", '{approximate = #tp.approximate<tanh>}',
     lambda r, n: spread(TINY, 1e12, n, r, (1, -1)), gelu_tanh, 256.0, [0.0]),
    # The same functions away from their far tails.
    ("silu_core", "silu", "", lambda r, n: spread(TINY, 80, n, r, (1, -1)),
     lambda x: x * sigmoid(x), 4.0, []),
    ("erfinv_core", "erfinv", "", lambda r, n: spread(TINY, 0.99, n, r, (1, -1)),
     erfinv_ref, 32.0, []),
    ("gelu_core", "gelu", "", lambda r, n: spread(TINY, 5, n, r, (1, -1)),
     gelu, 32.0, []),
    ("gelu_tanh_core", "gelu", '{approximate = #tp.approximate<tanh>}',
     lambda r, n: spread(TINY, 5, n, r, (1, -1)), gelu_tanh, 32.0, []),
]


def ulps(out, ref):
    """|out - ref| in ulps of the f32 nearest ref; below the normal range
    (|ref| < 2^-126) in units of 2^-126, so results that underflow to 0 or
    to a subnormal count as accurate there (as in PyTorch, whose sigmoid,
    silu and gelu return 0 in these tails)."""
    with np.errstate(over="ignore"):
        ref32 = np.abs(ref).astype(np.float32)
    ref32 = np.where(np.isinf(ref32), np.float32(F32.max), ref32)
    spacing = np.spacing(ref32).astype(np.float64)
    spacing = np.where(np.abs(ref) < float(F32.tiny), float(F32.tiny), spacing)
    return np.abs(out.astype(np.float64) - ref) / spacing


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-run", required=True)
    parser.add_argument("--tmp", required=True)
    parser.add_argument("--n", type=int, default=1 << 16)
    parser.add_argument("--pipeline-options", default="")
    args = parser.parse_args()
    if os.path.isdir(args.tmp):
        shutil.rmtree(args.tmp)
    os.makedirs(args.tmp)
    rng = np.random.default_rng(2026)
    funcs, checks = [], []

    def add(name, body, inputs, results, check):
        params = ", ".join("%%a%d: %s" % (i, t) for i, (_, t) in enumerate(inputs))
        outs = ", ".join(results)
        names = ", ".join("%%r%d" % i for i in range(len(results)))
        funcs.append("func.func @acc_%s(%s) -> (%s) {\n  %s\n  return %s : %s\n}"
                     % (name, params, outs, "\n  ".join(body), names, outs))
        for i, (a, _) in enumerate(inputs):
            np.save(os.path.join(args.tmp, "acc_%s.arg%d.npy" % (name, i)), a)
        checks.append((name, check))

    for name, op, attrs, gen, ref, bound, specials in UNARY:
        x = np.concatenate([gen(rng, args.n - len(specials)),
                            np.array(specials, np.float32)])
        t = "tensor<%dxf32>" % len(x)
        def check(outs, x=x, ref=ref, bound=bound, specials=specials, op=op):
            with np.errstate(all="ignore"):
                r = ref(x.astype(np.float64))
            out = outs[0]
            with np.errstate(over="ignore"):
                r32 = r.astype(np.float32)  # overflow: the f32 result is inf
            both_nan = np.isnan(out) & np.isnan(r)
            same_inf = np.isinf(out) & np.isinf(r32) & (np.sign(out) == np.sign(r32))
            e = np.where(both_nan | same_inf, 0.0, ulps(out, r))
            e = np.where(np.isnan(e), np.inf, e)
            worst = int(np.argmax(e))
            return (float(e[worst]) <= bound,
                    "max %.2f ulp (bound %g) at x = %r (got %r, reference %r)"
                    % (e[worst], bound, float(x[worst]), float(out[worst]),
                       float(r[worst])))
        add(name, ["%%r0 = tp.%s %%a0 %s: (%s) -> %s" % (op, attrs, t, t)],
            [(x, t)], [t], check)

    # Reductions: relative error of the result.
    def rel(out, ref):
        return float(np.max(np.abs(out.astype(np.float64) - ref)) /
                     max(np.max(np.abs(ref)), 1e-300))

    def reduction(name, x, body, result, ref, bound):
        t = "tensor<%sxf32>" % "x".join(map(str, x.shape))
        def check(outs, x=x):
            e = rel(outs[0], ref(x.astype(np.float64)))
            return e <= bound, "relative error %.3g (bound %g)" % (e, bound)
        add(name, [body % {"t": t}], [(x, t)], [result], check)

    col = rng.uniform(0, 1, (1 << 20, 4)).astype(np.float32)
    reduction("sum_long_dim0", col,
              "%%r0 = tp.sum %%a0 {dim = array<i64: 0>} : (%(t)s) -> tensor<4xf32>",
              "tensor<4xf32>", lambda v: v.sum(0), 2e-7)
    row = rng.uniform(0, 1, (4, 1 << 20)).astype(np.float32)
    reduction("sum_long_row", row,
              "%%r0 = tp.sum %%a0 {dim = array<i64: 1>} : (%(t)s) -> tensor<4xf32>",
              "tensor<4xf32>", lambda v: v.sum(1), 2e-7)
    big = (rng.standard_normal((1024, 1024)) + 3).astype(np.float32)
    reduction("mean_all", big, "%%r0 = tp.mean %%a0 : (%(t)s) -> tensor<f32>",
              "tensor<f32>", lambda v: v.mean(), 2e-7)
    reduction("norm2_all", big,
              "%%r0 = tp.norm %%a0 {p = 2.0 : f64} : (%(t)s) -> tensor<f32>",
              "tensor<f32>", lambda v: np.sqrt((v * v).sum()), 2e-7)
    logits = (rng.standard_normal((64, 8192)) * 4).astype(np.float32)
    def softmax(v):
        e = np.exp(v - v.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)
    reduction("softmax_long", logits,
              "%%r0 = tp.softmax %%a0 {dim = 1 : i64} : (%(t)s) -> %(t)s",
              "tensor<64x8192xf32>", softmax, 4e-7)
    reduction("log_softmax_long", logits,
              "%%r0 = tp.log_softmax %%a0 {dim = 1 : i64} : (%(t)s) -> %(t)s",
              "tensor<64x8192xf32>",
              lambda v: v - v.max(1, keepdims=True) - np.log(
                  np.exp(v - v.max(1, keepdims=True)).sum(1, keepdims=True)), 4e-7)
    shifted = (10 + rng.standard_normal((32, 16384))).astype(np.float32)
    def ln(v):
        m = v.mean(1, keepdims=True)
        return (v - m) / np.sqrt(((v - m) ** 2).mean(1, keepdims=True) + 1e-5)
    reduction("layer_norm_mean10", shifted,
              "%%r0 = tp.layer_norm %%a0 {normalized_shape = array<i64: 16384>} : (%(t)s) -> %(t)s",
              "tensor<32x16384xf32>", ln, 2e-6)
    bn_in = (10 + rng.standard_normal((64, 8, 32, 32))).astype(np.float32)
    def bn(v):
        m = v.mean((0, 2, 3), keepdims=True)
        return (v - m) / np.sqrt(v.var((0, 2, 3), keepdims=True) + 1e-5)
    reduction("batch_norm_train_mean10", bn_in,
              "%%r0 = tp.batch_norm %%a0 {training = true} : (%(t)s) -> %(t)s",
              "tensor<64x8x32x32xf32>", bn, 2e-6)

    path = os.path.join(args.tmp, "accuracy.mlir")
    with open(path, "w") as f:
        f.write("\n\n".join(funcs) + "\n")
    cmd = [args.tp_run, path, "--npy-dir", args.tmp]
    if args.pipeline_options:
        cmd.append("--pipeline-options=" + args.pipeline_options)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        print("tp-run failed (%d):\n%s%s" % (proc.returncode, proc.stdout, proc.stderr))
        return 1
    failures = 0
    for name, check in checks:
        outs = [np.load(os.path.join(args.tmp, "acc_%s.out0.npy" % name))]
        ok, msg = check(outs)
        print("%s %s: %s" % ("PASS" if ok else "FAIL", name, msg))
        failures += not ok
    print("%d of %d functions within their bounds" % (len(checks) - failures, len(checks)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
