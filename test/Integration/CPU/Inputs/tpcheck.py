"""Numerics checks of compiled tp code against NumPy references.

A family of cases becomes one module (one function per case); the inputs are
written as <case>.arg<i>.npy, `tp-run --npy-dir` runs every function once and
writes <case>.out<k>.npy, and each output is compared with a float64 NumPy
reference computed from the same inputs (bf16 inputs: from their bf16
values). The references are written from the PyTorch definitions of the ops,
independently of the compiler.

Usage: tpcheck.py --tp-run PATH --family NAME --tmp DIR [--mode MODE]
       tpcheck.py --family NAME --write-module FILE [--mode MODE]
  (the second form only writes the family's module, e.g. for ptxas)
  mode: "default" or a "+"-joined set of: linalg (use-onednn=0), serial
  (parallel=0 vectorize=0), dnnl-softmax (onednn-softmax-backward=1: the
  opt-in oneDNN route of the softmax backward ops), bf16 / f16 (the same cases with bf16 / f16
  tensors, their tolerances), autocast (tp-run --autocast=cpu:bf16, bf16
  tolerances; families without autocast cases ignore it), gpu-mapping
  (gpu-mapping=1 use-onednn=0 gpu-block-size=96: the loop nests mapped to
  blocks and threads as tp-lower-to-nvvm maps them, run on the CPU; 96 is
  not a divisor of most sizes, so the tail guards run too), gpu (tp-run
  --device=cuda: tp-lower-to-nvvm on a GPU); e.g.
  "bf16+linalg".
Prints one line per case and "all N cases passed"; exits 1 on a failure.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

import numpy as np

# ----------------------------------------------------------------------------
# bf16 helpers: NumPy has no bfloat16; values are kept in float32/float64.


def to_bf16(x):
    """Rounds float32 values to the nearest bf16 (ties to even)."""
    x = np.asarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    sixteen = np.uint64(16)
    rounding = np.uint64(0x7FFF) + ((bits >> sixteen) & np.uint64(1))
    out = ((bits + rounding) >> sixteen) << sixteen
    nan = np.isnan(x)
    out = out.astype(np.uint32).view(np.float32)
    out = np.where(nan, np.float32(np.nan), out)
    return out.astype(np.float32)


NP_DTYPE = {"f32": np.float32, "f64": np.float64, "bf16": np.float32,
            "f16": np.float16, "i64": np.int64, "i32": np.int32,
            "i1": np.bool_, "u8": np.uint8, "c64": np.complex64,
            "c128": np.complex128}
MLIR_TYPE = {"f32": "f32", "f64": "f64", "bf16": "bf16", "f16": "f16",
             "i64": "i64", "i32": "i32", "i1": "i1", "u8": "ui8",
             "c64": "complex<f32>", "c128": "complex<f64>"}
COMPLEX = ("c64", "c128")


def ttype(shape, dtype):
    dims = "x".join(str(d) for d in shape)
    return "tensor<%s%s%s>" % (dims, "x" if shape else "", MLIR_TYPE[dtype])


class Case:
    """One function: inputs (arrays with their tp dtypes), the op text, the
    result types and the NumPy reference."""

    def __init__(self, name, inputs, body, results, ref, tol=None,
                 check=None):
        self.name = name
        self.inputs = inputs          # list of (array, dtype)
        self.body = body              # IR lines; %a0.. are the arguments
        self.results = results        # list of (shape, dtype)
        self.ref = ref                # arrays (float64) -> list of arrays
        self.tol = tol                # (rtol, atol) or None: by dtype
        self.check = check            # optional custom check(outs, ins)

    def ir(self):
        args = ", ".join("%%a%d: %s" % (i, ttype(a.shape, dt))
                         for i, (a, dt) in enumerate(self.inputs))
        res = ", ".join(ttype(s, d) for s, d in self.results)
        names = ", ".join("%%r%d" % i for i in range(len(self.results)))
        lines = ["func.func @%s(%s) -> (%s) {" % (self.name, args, res)]
        lines += ["  " + l for l in self.body]
        lines.append("  return %s : %s" % (names, res))
        lines.append("}")
        return "\n".join(lines)


def rng_for(name):
    return np.random.default_rng(abs(hash(name)) % (2**32))


# ----------------------------------------------------------------------------
# Case builders.

RNG = np.random.default_rng(1234)


def as_input(x, dtype):
    """`x` as an input of `dtype`: rounded to f32, then to bf16 or f16 (or
    widened to f64), stored as NP_DTYPE stores it."""
    x = np.asarray(x, np.float32)
    if dtype == "bf16":
        return (to_bf16(x), dtype)
    return (x.astype({"f16": np.float16, "f64": np.float64}.get(dtype,
                                                                np.float32)),
            dtype)


def rand(shape, lo=-1.0, hi=1.0, dtype="f32"):
    if dtype in COMPLEX:
        z = RNG.uniform(lo, hi, size=shape) + 1j * RNG.uniform(lo, hi,
                                                              size=shape)
        return (z.astype(NP_DTYPE[dtype]), dtype)
    return as_input(RNG.uniform(lo, hi, size=shape), dtype)


def randint(shape, lo, hi, dtype="i64"):
    return (RNG.integers(lo, hi, size=shape).astype(NP_DTYPE[dtype]), dtype)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def unary(name, op, ref, shape=(4, 33), lo=-2.0, hi=2.0, dtype="f32",
          attrs="", tol=None):
    x = rand(shape, lo, hi, dtype)
    t = ttype(shape, dtype)
    return Case(name, [x], ["%%r0 = tp.%s %%a0 %s: (%s) -> %s" %
                            (op, attrs, t, t)], [(shape, dtype)],
                lambda a: [ref(a)], tol)


def binary(name, op, ref, sa, sb, so, da="f32", db="f32", do="f32",
           attrs="", la=-2.0, ha=2.0, lb=-2.0, hb=2.0, tol=None):
    a = rand(sa, la, ha, da)
    b = rand(sb, lb, hb, db)
    return Case(name, [a, b], ["%%r0 = tp.%s %%a0, %%a1 %s: (%s, %s) -> %s" %
                               (op, attrs, ttype(sa, da), ttype(sb, db),
                                ttype(so, do))], [(so, do)],
                lambda x, y: [ref(x, y)], tol)


def op_case(name, inputs, op, operands, attrs, results, ref, tol=None,
            check=None):
    """A single-op case: `operands` is the operand text, `attrs` the
    attribute dict text (may be empty)."""
    ins = ", ".join(ttype(a.shape, d) for a, d in inputs)
    outs = ", ".join(ttype(s, d) for s, d in results)
    names = ", ".join("%%r%d" % i for i in range(len(results)))
    if len(results) > 1:
        outs = "(" + outs + ")"
    line = "%s = tp.%s %s %s: (%s) -> %s" % (names, op, operands,
                                               ("{%s} " % attrs) if attrs else "",
                                               ins, outs)
    return Case(name, inputs, [line], results, ref, tol, check)


# ----------------------------------------------------------------------------
# References (float64, PyTorch semantics).

erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x):
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softplus(x, beta=1.0, threshold=20.0):
    return np.where(x * beta > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def erfinv_ref(y):
    """Bisection on erf: independent of any closed form; +-inf at +-1, NaN
    beyond, the series y sqrt(pi)/2 (1 + pi/12 y^2) near 0 (where the
    bisection's absolute error would dominate)."""
    y = np.asarray(y, dtype=np.float64)
    lo = np.full_like(y, -10.0)
    hi = np.full_like(y, 10.0)
    for _ in range(120):
        mid = (lo + hi) / 2
        go = erf(mid) < y
        lo = np.where(go, mid, lo)
        hi = np.where(go, hi, mid)
    series = y * math.sqrt(math.pi) / 2 * (1 + math.pi / 12 * y * y)
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(y) == 1, y * np.inf, np.where(
            np.abs(y) > 1, np.nan,
            np.where(np.abs(y) < 1e-6, series, (lo + hi) / 2)))


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def reduce_loss(l, reduction):
    if reduction == "none":
        return l
    if reduction == "sum":
        return l.sum()
    return l.mean()


def nll(logp, t, w=None, ignore=-100, reduction="mean"):
    # logp [N, C, d...], t [N, d...]
    c = logp.shape[1]
    tt = np.where(t == ignore, 0, t)
    picked = np.take_along_axis(logp, np.expand_dims(tt, 1), axis=1)[:, 0]
    ww = np.ones(c) if w is None else w
    wt = np.where(t == ignore, 0.0, ww[tt])
    loss = -wt * picked
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / wt.sum()


def conv_nd(x, w, b, stride, pad, dil, groups):
    """Direct N-D convolution (cross-correlation) as in torch."""
    n, cin = x.shape[:2]
    r = x.ndim - 2
    cout, cg = w.shape[:2]
    k = w.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    o = [(xp.shape[2 + i] - dil[i] * (k[i] - 1) - 1) // stride[i] + 1
         for i in range(r)]
    out = np.zeros((n, cout) + tuple(o))
    og = cout // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        ws = w[g * og:(g + 1) * og]
        for kidx in np.ndindex(*k):
            sl = tuple(slice(kidx[i] * dil[i],
                             kidx[i] * dil[i] + stride[i] * (o[i] - 1) + 1,
                             stride[i]) for i in range(r))
            patch = xs[(slice(None), slice(None)) + sl]  # n, cg, o...
            wk = ws[(slice(None), slice(None)) + kidx]   # og, cg
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", patch, wk)
    if b is not None:
        out += b.reshape((1, cout) + (1,) * r)
    return out


def conv_transpose_nd(x, w, b, stride, pad, outpad, dil, groups):
    """Transposed convolution by scattering each input element."""
    n, cin = x.shape[:2]
    r = x.ndim - 2
    cig = cin // groups
    og = w.shape[1]
    k = w.shape[2:]
    full = [(x.shape[2 + i] - 1) * stride[i] + dil[i] * (k[i] - 1) + 1 + outpad[i]
            for i in range(r)]
    out = np.zeros((n, og * groups) + tuple(full))
    for g in range(groups):
        xs = x[:, g * cig:(g + 1) * cig]
        ws = w[g * cig:(g + 1) * cig]          # cig, og, k...
        for kidx in np.ndindex(*k):
            contrib = np.einsum("nc...,co->no...", xs,
                                ws[(slice(None), slice(None)) + kidx])
            sl = tuple(slice(kidx[i] * dil[i],
                             kidx[i] * dil[i] + stride[i] * (x.shape[2 + i] - 1) + 1,
                             stride[i]) for i in range(r))
            out[(slice(None), slice(g * og, (g + 1) * og)) + sl] += contrib
    crop = tuple(slice(pad[i], full[i] - pad[i]) for i in range(r))
    out = out[(slice(None), slice(None)) + crop]
    if b is not None:
        out += b.reshape((1, -1) + (1,) * r)
    return out


def conv_weight_grad_nd(x, g, wshape, stride, pad, dil, groups):
    """The weight gradient of conv_nd(x, w): sum over the batch and the
    output positions of g times the input window each weight entry met."""
    r = x.ndim - 2
    cout, cg = wshape[:2]
    k = wshape[2:]
    o = g.shape[2:]
    og = cout // groups
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    dw = np.zeros(tuple(wshape))
    for grp in range(groups):
        xs = xp[:, grp * cg:(grp + 1) * cg]
        gs = g[:, grp * og:(grp + 1) * og]
        for kidx in np.ndindex(*k):
            sl = tuple(slice(kidx[i] * dil[i],
                             kidx[i] * dil[i] + stride[i] * (o[i] - 1) + 1,
                             stride[i]) for i in range(r))
            patch = xs[(slice(None), slice(None)) + sl]  # n, cg, o...
            dw[(slice(grp * og, (grp + 1) * og), slice(None)) + kidx] = \
                np.einsum("ncp,nop->oc", patch.reshape(patch.shape[:2] + (-1,)),
                          gs.reshape(gs.shape[:2] + (-1,)))
    return dw


def conv_transpose_weight_grad_nd(x, g, wshape, stride, pad, outpad, dil,
                                  groups):
    """The weight gradient of conv_transpose_nd(x, w): each weight entry
    scattered x into the uncropped output at k * dil + j * stride, so its
    gradient gathers g (placed back into the uncropped output) there."""
    r = x.ndim - 2
    cin = x.shape[1]
    cig = cin // groups
    og = wshape[1]
    k = wshape[2:]
    full = [(x.shape[2 + i] - 1) * stride[i] + dil[i] * (k[i] - 1) + 1 + outpad[i]
            for i in range(r)]
    gfull = np.zeros(g.shape[:2] + tuple(full))
    gfull[(slice(None), slice(None)) +
          tuple(slice(pad[i], full[i] - pad[i]) for i in range(r))] = g
    dw = np.zeros(tuple(wshape))
    for grp in range(groups):
        xs = x[:, grp * cig:(grp + 1) * cig]
        for kidx in np.ndindex(*k):
            sl = tuple(slice(kidx[i] * dil[i],
                             kidx[i] * dil[i] + stride[i] * (x.shape[2 + i] - 1) + 1,
                             stride[i]) for i in range(r))
            gs = gfull[(slice(None), slice(grp * og, (grp + 1) * og)) + sl]
            dw[(slice(grp * cig, (grp + 1) * cig), slice(None)) + kidx] = \
                np.einsum("ncp,nop->co", xs.reshape(xs.shape[:2] + (-1,)),
                          gs.reshape(gs.shape[:2] + (-1,)))
    return dw


# ----------------------------------------------------------------------------
# Families.

def default_tol(dtype, mode):
    if dtype == "bf16" or {"bf16", "autocast"} & set(mode.split("+")):
        return (2e-2, 2e-2)
    if dtype == "f16" or "f16" in mode.split("+"):
        return (3e-3, 3e-3)
    if dtype in ("f64", "c128"):
        return (1e-12, 1e-12)
    if dtype in ("i64", "i32", "i1"):
        return (0, 0)
    return (2e-5, 2e-5)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-run")
    parser.add_argument("--family", required=True)
    parser.add_argument("--tmp")
    parser.add_argument("--mode", default="default")
    parser.add_argument("--write-module",
                        help="only write the family's module to this file")
    args = parser.parse_args()

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tpcheck_cases import FAMILIES  # the case tables
    cases = FAMILIES[args.family](args.mode)
    if args.write_module:
        with open(args.write_module, "w") as f:
            f.write("\n\n".join(c.ir() for c in cases) + "\n")
        return 0
    if not args.tp_run or not args.tmp:
        parser.error("--tp-run and --tmp are required to run the cases")
    if os.path.isdir(args.tmp):
        shutil.rmtree(args.tmp)
    os.makedirs(args.tmp)
    module = "\n\n".join(c.ir() for c in cases)
    path = os.path.join(args.tmp, "cases.mlir")
    with open(path, "w") as f:
        f.write(module + "\n")
    for c in cases:
        for i, (a, dt) in enumerate(c.inputs):
            np.save(os.path.join(args.tmp, "%s.arg%d.npy" % (c.name, i)),
                    a.astype(NP_DTYPE[dt]))
    cmd = [args.tp_run, path, "--npy-dir", args.tmp]
    modes = args.mode.split("+")
    options = []
    if "linalg" in modes:
        options.append("use-onednn=0")
    if "serial" in modes:
        options += ["parallel=0", "vectorize=0"]
    if "dnnl-softmax" in modes:
        options.append("onednn-softmax-backward=1")
    if "gpu-mapping" in modes:
        options += ["gpu-mapping=1", "use-onednn=0", "gpu-block-size=96"]
    if options:
        cmd.append("--pipeline-options=" + " ".join(options))
    if "autocast" in modes:
        cmd.append("--autocast=cpu:bf16")
    if "gpu" in modes:
        cmd.append("--device=cuda")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print("tp-run failed (%d):\n%s%s" % (proc.returncode, proc.stdout,
                                             proc.stderr))
        return 1
    failures = 0
    for c in cases:
        ins = [np.asarray(a, np.complex128) if d in COMPLEX else f64(a)
               for a, d in c.inputs]
        outs = [np.load(os.path.join(args.tmp, "%s.out%d.npy" % (c.name, k)))
                for k in range(len(c.results))]
        if c.check:
            ok, msg = c.check(outs, ins)
            print("%s %s: %s" % ("PASS" if ok else "FAIL", c.name, msg))
            failures += not ok
            continue
        refs = c.ref(*ins)
        for k, (out, ref) in enumerate(zip(outs, refs)):
            shape, dtype = c.results[k]
            wide = np.complex128 if dtype in COMPLEX else np.float64
            ref = np.asarray(ref, dtype=wide)
            rtol, atol = c.tol or default_tol(dtype, args.mode)
            if tuple(out.shape) != tuple(shape) or ref.shape != tuple(shape):
                print("FAIL %s #%d: shape %s, reference %s, expected %s" %
                      (c.name, k, out.shape, ref.shape, shape))
                failures += 1
                continue
            o = out.astype(wide)
            scale = max(1.0, float(np.max(np.abs(ref))) if ref.size else 1.0)
            err = np.abs(o - ref)
            bound = atol * scale + rtol * np.abs(ref)
            same_nan = np.isnan(o) & np.isnan(ref)
            same_inf = np.isinf(o) & np.isinf(ref) & (np.sign(o) == np.sign(ref))
            bad = ~((err <= bound) | same_nan | same_inf)
            maxerr = float(np.max(np.where(same_nan | same_inf, 0, err))) if err.size else 0.0
            if bad.any():
                idx = np.unravel_index(np.argmax(bad), bad.shape)
                print("FAIL %s #%d: max |err| %.3g; at %s got %r, reference %r"
                      % (c.name, k, maxerr, idx, o[idx], ref[idx]))
                failures += 1
            else:
                print("PASS %s #%d: max |err| %.3g" % (c.name, k, maxerr))
    if failures:
        print("%d of %d cases failed" % (failures, len(cases)))
        return 1
    if not cases:
        print("FAIL: no cases (the family or mode selects nothing)")
        return 1
    print("all %d cases passed" % len(cases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
