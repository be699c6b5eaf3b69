"""End-to-end numerics of the shipped examples on the CPU.

For examples/mlp.mlir and examples/encoder_block.mlir: inputs with the
scales of a trained model (PyTorch's default Linear init), a float64 NumPy
reference written from the PyTorch definitions of the layers, and three
compiled runs through tp-run:
  * f32 (oneDNN when built)     vs the reference: f32 tolerances;
  * f32 with use-onednn=0       vs the reference: f32 tolerances;
  * --autocast=cpu:bf16         vs the f32 run:   bf16 tolerances;
  * --autocast=cuda:fp16 in the GPU mapping (gpu-mapping=1) vs the f32 run.
With --device cuda the runs are on the GPU instead (tp-run --device=cuda):
f32 vs the reference, --autocast=cuda:fp16 and cuda:bf16 vs the f32 run.
The tolerances are the ones docs/CodegenCPU.md documents; every comparison
prints its worst error relative to the output's scale.

Usage: check_examples.py --tp-run PATH --examples DIR --tmp DIR
                         [--device cpu|cuda]
Exits 1 when a comparison fails.
"""

import argparse
import math
import os
import shutil
import subprocess
import sys

import numpy as np

erf = np.vectorize(math.erf)

# Tolerances: |out - ref| <= atol * scale + rtol * |ref|, scale = max|ref|.
TOL = {
    # f32 compiled code vs a float64 reference (accumulation order,
    # polynomial exp/erf/log approximations).
    "f32": (1e-5, 1e-5),
    # autocast bf16 vs the f32 run: bf16 rounds every matmul/linear output
    # and input to 8 significant bits; through 5 layers (MLP) or the encoder
    # block's matmuls, outputs move by a few bf16 ulps of their scale.
    "bf16-logits": (2e-2, 2e-2),
    "bf16-loss": (1e-2, 1e-2),
    "bf16-encoder": (2e-2, 2e-2),
}


def linear_init(rng, out_f, in_f):
    bound = 1 / math.sqrt(in_f)
    w = rng.uniform(-bound, bound, (out_f, in_f)).astype(np.float32)
    b = rng.uniform(-bound, bound, (out_f,)).astype(np.float32)
    return w, b


def mlp_case(rng):
    x = rng.uniform(-1, 1, (256, 1024)).astype(np.float32)
    labels = rng.integers(0, 10, (256,)).astype(np.int64)
    args = [x, labels]
    for _ in range(4):
        args += list(linear_init(rng, 1024, 1024))
    args += list(linear_init(rng, 10, 1024))
    return args


def mlp_ref(args):
    x = args[0].astype(np.float64)
    labels = args[1]
    ws = [a.astype(np.float64) for a in args[2:]]
    h = x
    for i in range(4):
        h = h @ ws[2 * i].T + ws[2 * i + 1]
        h = 0.5 * h * (1 + erf(h / math.sqrt(2)))
    logits = h @ ws[8].T + ws[9]
    m = logits.max(1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(1, keepdims=True))
    loss = -logp[np.arange(256), labels].mean()
    return [np.array(loss), logits]


def encoder_case(rng):
    x = rng.uniform(-1, 1, (8, 128, 512)).astype(np.float32)
    args = [x]
    for _ in range(4):
        args += list(linear_init(rng, 512, 512))
    args += [rng.uniform(0.8, 1.2, 512).astype(np.float32),
             rng.uniform(-0.1, 0.1, 512).astype(np.float32)]
    args += list(linear_init(rng, 2048, 512))
    args += list(linear_init(rng, 512, 2048))
    args += [rng.uniform(0.8, 1.2, 512).astype(np.float32),
             rng.uniform(-0.1, 0.1, 512).astype(np.float32)]
    return args


def layer_norm(v, g, b, eps=1e-5):
    m = v.mean(-1, keepdims=True)
    var = ((v - m) ** 2).mean(-1, keepdims=True)
    return (v - m) / np.sqrt(var + eps) * g + b


def encoder_ref(args):
    a = [t.astype(np.float64) for t in args]
    x, wq, bq, wk, bk, wv, bv, wo, bo, g1, be1, w1, b1, w2, b2, g2, be2 = a
    heads = lambda t: t.reshape(8, 128, 8, 64).transpose(0, 2, 1, 3)
    q, k, v = heads(x @ wq.T + bq), heads(x @ wk.T + bk), heads(x @ wv.T + bv)
    s = (q @ k.transpose(0, 1, 3, 2)) * 0.125
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    o = (p @ v).transpose(0, 2, 1, 3).reshape(8, 128, 512)
    n1 = layer_norm(x + o @ wo.T + bo, g1, be1)
    f = n1 @ w1.T + b1
    f = 0.5 * f * (1 + erf(f / math.sqrt(2)))
    return [layer_norm(n1 + f @ w2.T + b2, g2, be2)]


def run(tp_run, example, fn, name, args, tmp, extra):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for i, a in enumerate(args):
        np.save(os.path.join(d, "%s.arg%d.npy" % (fn, i)), a)
    cmd = [tp_run, os.path.join(args_dir, example + ".mlir"),
           "--entry", fn, "--npy-dir", d] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        print("tp-run %s failed:\n%s%s" % (" ".join(extra), proc.stdout,
                                           proc.stderr))
        sys.exit(1)
    outs = []
    k = 0
    while os.path.exists(os.path.join(d, "%s.out%d.npy" % (fn, k))):
        outs.append(np.load(os.path.join(d, "%s.out%d.npy" % (fn, k))))
        k += 1
    return outs


def compare(what, outs, refs, tols):
    if len(outs) != len(refs):
        print("FAIL %s: %d results, expected %d" % (what, len(outs), len(refs)))
        return False
    ok = True
    for k, (o, r) in enumerate(zip(outs, refs)):
        o = o.astype(np.float64)
        r = np.asarray(r, np.float64)
        rtol, atol = TOL[tols[k]]
        scale = max(1e-30, float(np.abs(r).max()))
        err = np.abs(o - r)
        bad = err > atol * scale + rtol * np.abs(r)
        worst = float(err.max()) / scale
        status = "FAIL" if bad.any() or o.shape != r.shape else "PASS"
        ok &= status == "PASS"
        print("%s %s result #%d: max |err| / max |ref| = %.2e (tolerance "
              "class %s: rtol %g, atol %g)" % (status, what, k, worst,
                                              tols[k], rtol, atol))
    return ok


def check_on_gpu(a, example, fn, inputs, refs, bf16_tols):
    """The example on the GPU: f32 vs the reference, cuda:fp16 and cuda:bf16
    vs the GPU's f32 run."""
    gpu = ["--device=cuda"]
    f32 = run(a.tp_run, example, fn, example + "-cuda-f32", inputs, a.tmp, gpu)
    ok = compare(example + " cuda f32 vs reference", f32, refs,
                 ["f32"] * len(refs))
    for dtype in ("fp16", "bf16"):
        half = run(a.tp_run, example, fn, example + "-cuda-" + dtype, inputs,
                   a.tmp, gpu + ["--autocast=cuda:" + dtype])
        ok &= compare(example + " cuda:" + dtype + " vs f32 run", half, f32,
                      bf16_tols)
    return ok


def main():
    global args_dir
    p = argparse.ArgumentParser()
    p.add_argument("--tp-run", required=True)
    p.add_argument("--examples", required=True)
    p.add_argument("--tmp", required=True)
    p.add_argument("--only", default="")
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    a = p.parse_args()
    args_dir = a.examples
    if os.path.isdir(a.tmp):
        shutil.rmtree(a.tmp)
    os.makedirs(a.tmp)
    rng = np.random.default_rng(2024)
    ok = True
    for example, fn, case, ref, bf16_tols in (
            ("mlp", "mlp_loss", mlp_case, mlp_ref, ["bf16-loss", "bf16-logits"]),
            ("encoder_block", "encoder_block", encoder_case, encoder_ref,
             ["bf16-encoder"])):
        if a.only and a.only != example:
            continue
        inputs = case(rng)
        refs = ref(inputs)
        if a.device == "cuda":
            ok &= check_on_gpu(a, example, fn, inputs, refs, bf16_tols)
            continue
        f32 = run(a.tp_run, example, fn, example + "-f32", inputs, a.tmp, [])
        ok &= compare(example + " f32 vs reference", f32, refs,
                      ["f32"] * len(refs))
        lin = run(a.tp_run, example, fn, example + "-linalg", inputs, a.tmp,
                  ["--pipeline-options=use-onednn=0"])
        ok &= compare(example + " f32 (linalg, no oneDNN) vs reference", lin,
                      refs, ["f32"] * len(refs))
        bf16 = run(a.tp_run, example, fn, example + "-bf16", inputs, a.tmp,
                   ["--autocast=cpu:bf16"])
        ok &= compare(example + " autocast cpu:bf16 vs f32 run", bf16, f32,
                      bf16_tols)
        # The program tp-lower-to-nvvm compiles for --autocast=cuda:fp16, in
        # the loop nests it maps to blocks and threads, run on the CPU (f16
        # rounds less than bf16: the bf16 tolerances bound it).
        gpu = run(a.tp_run, example, fn, example + "-gpu-mapping", inputs,
                  a.tmp, ["--autocast=cuda:fp16",
                          "--pipeline-options=gpu-mapping=1 use-onednn=0"])
        ok &= compare(example + " cuda:fp16 gpu-mapping vs f32 run", gpu, f32,
                      bf16_tols)
    print("examples agree" if ok else "examples DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
