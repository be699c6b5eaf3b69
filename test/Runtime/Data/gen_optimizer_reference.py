#!/usr/bin/env python3
"""Writes OptimizerReference.inc: torch's fused CPU SGD / AdamW (and
torch.amp.GradScaler) results that OptimizerReferenceTest.cpp requires the
runtime to reproduce bit for bit.

Needs torch and numpy; the tests do not. Run it only to regenerate the data,
and commit its output:

    python3 -m venv /tmp/venv-torch && /tmp/venv-torch/bin/pip install torch numpy
    /tmp/venv-torch/bin/python test/Runtime/Data/gen_optimizer_reference.py

The reference is torch's `fused=True` CPU kernels (FusedSGDKernel.cpp,
FusedAdamKernel.cpp) as built for x86-64 CPUs with AVX2 or AVX-512: the
runtime's steps are fused too (unscale + step). Those kernels compute the
last `numel % vector width` elements of each tensor in a scalar loop that
the compiler contracts into FMAs differently from the vector loop, so their
result depends on an element's position and on the CPU's vector width. To
record the vector loop's result for every element, each tensor is padded
here to a multiple of 64 elements; only the first `numel` are stored (every
update is element-wise). The script prints, per case, the largest distances
in ulps (of the case's dtype) from the recorded values to the default
for-loop implementation (foreach=False) and to the fused kernels run on the
unpadded tensors (their scalar tail), which docs/Runtime.md quotes.
"""

import argparse
import math
import os

import numpy as np
import torch

STEPS = 6
SIZES = (37, 7)
PAD = 64
SCALER = dict(init_scale=3000.0, growth_factor=2.0, backoff_factor=0.5,
              growth_interval=2)
# Under a GradScaler, one gradient of this step is inf: the step is skipped.
INF_STEP = 3

SGD_KEYS = ("lr", "momentum", "dampening", "weight_decay", "nesterov",
            "maximize")
ADAMW_KEYS = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")

CASES = [
    # name, optimizer, dtype, hyper-parameters, GradScaler
    ("SgdPlain", "sgd", torch.float32, dict(lr=0.1), False),
    ("SgdMomentum", "sgd", torch.float32, dict(lr=0.1, momentum=0.9), False),
    ("SgdDampeningWeightDecay", "sgd", torch.float32,
     dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.01), False),
    ("SgdNesterov", "sgd", torch.float32,
     dict(lr=0.05, momentum=0.8, weight_decay=0.1, nesterov=True), False),
    ("SgdMaximize", "sgd", torch.float32,
     dict(lr=0.1, momentum=0.5, dampening=0.1, weight_decay=0.01,
          maximize=True), False),
    ("AdamWDefaults", "adamw", torch.float32, dict(), False),
    ("AdamWAmsgradBetas", "adamw", torch.float32,
     dict(lr=1e-2, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1,
          amsgrad=True), False),
    # 1 - beta1 >= 0.5: the other branch of torch's lerp.
    ("AdamWSmallBeta1Maximize", "adamw", torch.float32,
     dict(lr=3e-3, betas=(0.3, 0.6), weight_decay=0.0, maximize=True), False),
    ("AdamWAmsgradMaximize", "adamw", torch.float32,
     dict(amsgrad=True, maximize=True), False),
    ("AdamWF16", "adamw", torch.float16, dict(lr=1e-2, amsgrad=True), False),
    ("SgdScaler", "sgd", torch.float32,
     dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.01), True),
    ("AdamWScaler", "adamw", torch.float32,
     dict(lr=1e-2, weight_decay=0.1, amsgrad=True), True),
    ("SgdScalerBF16", "sgd", torch.bfloat16,
     dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01), True),
    ("AdamWScalerBF16", "adamw", torch.bfloat16,
     dict(lr=1e-2, weight_decay=0.1, amsgrad=True), True),
]

DTYPE_NAMES = {torch.float32: "F32", torch.float16: "F16",
               torch.bfloat16: "BF16"}


def values(rng, n, lo, hi):
    """n floats of magnitude 10^U(lo, hi) and random sign."""
    magnitude = 10.0 ** rng.uniform(lo, hi, n)
    sign = np.where(rng.uniform(0, 1, n) < 0.5, -1.0, 1.0)
    return torch.tensor(magnitude * sign, dtype=torch.float32)


def padded(rng, lo, hi, dtype):
    return [values(rng, PAD * math.ceil(n / PAD), lo, hi).to(dtype)
            for n in SIZES]


def make_inputs(case_index, dtype):
    rng = np.random.default_rng(1000 + case_index)
    # f16 gradients stay where their squares neither overflow nor vanish.
    lo, hi = (-1, 1) if dtype == torch.float16 else (-4, 2)
    params = padded(rng, -3, 1, dtype)
    grads = [padded(rng, lo, hi, torch.float32) for _ in range(STEPS)]
    for t in grads[0]:
        t[5] = 0.0
    return params, grads


def make_optimizer(kind, params, hyper, **impl):
    if kind == "sgd":
        return torch.optim.SGD(params, **hyper, **impl)
    return torch.optim.AdamW(params, **hyper, **impl)


def state_lists(kind, hyper):
    if kind == "sgd":
        return ["momentum_buffer"] if hyper.get("momentum", 0) else []
    return ["exp_avg", "exp_avg_sq"] + (
        ["max_exp_avg_sq"] if hyper.get("amsgrad") else [])


def bits(tensors):
    """Float bit patterns of the first SIZES[i] elements of tensor i."""
    out = []
    for t, n in zip(tensors, SIZES):
        out.extend(int(b) for b in
                   t.detach()[:n].float().numpy().view(np.uint32))
    return out


def run(kind, dtype, hyper, scaled, params0, grads, **impl):
    params = [p.clone().requires_grad_(True) for p in params0]
    opt = make_optimizer(kind, params, hyper, **impl)
    scaler = torch.amp.GradScaler("cpu", **SCALER) if scaled else None
    names = state_lists(kind, hyper)
    rec = {k: [] for k in ("grads", "grads_after", "params", "states",
                           "scales", "trackers", "steps")}
    applied = 0
    for step in range(STEPS):
        scale = 1.0
        if scaler:
            scaler.scale(torch.ones(1))
            scale = scaler.get_scale()
        for p, g in zip(params, grads[step]):
            p.grad = (g * scale).to(dtype)
        if scaler and step == INF_STEP:
            params[1].grad[2] = math.inf
        rec["grads"].append(bits(p.grad for p in params))
        if scaler:
            scaler.step(opt)
            found = sum(v.item() for v in
                        scaler._per_optimizer_states[id(opt)]
                        ["found_inf_per_device"].values())
            scaler.update()
            rec["scales"].append(int(np.float32(scaler.get_scale())
                                     .view(np.uint32)))
            rec["trackers"].append(int(scaler._growth_tracker.item()))
        else:
            opt.step()
            found = 0
        applied += found == 0
        if kind == "adamw":
            torch_steps = {int(opt.state[p]["step"].item()) for p in params}
            assert torch_steps == {applied}, (torch_steps, applied)
        rec["steps"].append(applied)
        rec["grads_after"].append(bits(p.grad for p in params))
        rec["params"].append(bits(params))
        rec["states"].append(
            [bits(opt.state[p][name] for p in params) for name in names])
    return rec


def ulps(a, b, dtype):
    """The largest distance between a and b (float bit patterns of dtype
    values) in ulps of dtype; "NaN" where only one of them is NaN."""
    fa, fb = (np.array(w, dtype=np.uint32).view(np.float32) for w in (a, b))
    if (np.isnan(fa) != np.isnan(fb)).any():
        return "NaN"
    def ordered(words):
        t = torch.tensor(np.array(words, dtype=np.uint32).view(np.float32))
        if dtype == torch.float32:
            x, top = t.view(torch.int32).long(), 1 << 31
        else:
            x, top = t.to(dtype).view(torch.int16).long(), 1 << 15
        x = torch.where(x < 0, x + 2 * top, x)
        return torch.where(x >= top, top - x, x)
    return int((ordered(a) - ordered(b)).abs().max())


def max_ulps(fused, loop, dtype):
    worst = {"params": 0, "states": 0}
    for step in range(STEPS):
        pairs = [("params", fused["params"][step], loop["params"][step])] + [
            ("states", a, b)
            for a, b in zip(fused["states"][step], loop["states"][step])]
        for key, a, b in pairs:
            d = ulps(a, b, dtype)
            if worst[key] == "NaN" or d == "NaN":
                worst[key] = "NaN"
            else:
                worst[key] = max(worst[key], d)
    return worst


def hexes(words, indent="    ", per_line=8):
    lines = []
    for i in range(0, len(words), per_line):
        lines.append(indent + ", ".join("0x%08x" % w
                                        for w in words[i:i + per_line]) + ",")
    return "\n".join(lines)


def cxx_bool(value):
    return "true" if value else "false"


def hyper_initializer(kind, hyper):
    """A ReferenceHyper initializer with torch's defaults filled in."""
    defaults = make_optimizer(kind, [torch.zeros(1, requires_grad=True)],
                              hyper).defaults
    keys = SGD_KEYS if kind == "sgd" else ADAMW_KEYS
    h = {k: defaults[k] for k in keys}
    betas = h.get("betas", (0.0, 0.0))
    return ("{%r, %r, %r, %r, %r, %r, %r, %s, %s, %s}" % (
        float(h["lr"]), float(h.get("momentum", 0.0)),
        float(h.get("dampening", 0.0)), float(h["weight_decay"]),
        float(betas[0]), float(betas[1]), float(h.get("eps", 0.0)),
        cxx_bool(h.get("nesterov")), cxx_bool(h.get("amsgrad")),
        cxx_bool(h["maximize"])))


def emit_case(index, name, kind, dtype, hyper, scaled, rec, params0):
    flat = lambda rows: [w for row in rows for w in row]
    states = [w for step in rec["states"] for lst in step for w in lst]
    scaler = ("%r, %r, %r, %d" % (SCALER["init_scale"],
                                  SCALER["growth_factor"],
                                  SCALER["backoff_factor"],
                                  SCALER["growth_interval"])
              if scaled else "0.0, 0.0, 0.0, 0")
    out = ["// %s" % name,
           "{\"%s\", %s, DType::%s," % (name, cxx_bool(kind == "adamw"),
                                       DTYPE_NAMES[dtype]),
           " %s," % hyper_initializer(kind, hyper),
           " %s, %d," % (scaler, len(state_lists(kind, hyper))),
           " {%s}," % ", ".join(str(n) for n in SIZES),
           " {%s}," % ", ".join(str(s) for s in rec["steps"]),
           " {%s}," % ", ".join(str(t) for t in rec["trackers"]),
           " {%s}," % ", ".join("0x%08x" % s for s in rec["scales"])]
    for label, words in (("params0", bits(params0)),
                         ("grads", flat(rec["grads"])),
                         ("gradsAfter", flat(rec["grads_after"])),
                         ("params", flat(rec["params"])),
                         ("states", states)):
        out.append("  // %s" % label)
        out.append("  {\n%s\n  }," % hexes(words) if words else "  {},")
    out.append("},")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "OptimizerReference.inc"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    capability = torch.backends.cpu.get_cpu_capability()
    if capability not in ("AVX2", "AVX512"):
        raise SystemExit("torch runs its %s kernels here; the reference is "
                         "the AVX2 / AVX-512 build" % capability)
    body = []
    for index, (name, kind, dtype, hyper, scaled) in enumerate(CASES):
        params0, grads = make_inputs(index, dtype)
        fused = run(kind, dtype, hyper, scaled, params0, grads, fused=True)
        loop = run(kind, dtype, hyper, scaled, params0, grads, foreach=False)
        cut = lambda ts: [t[:n].clone() for t, n in zip(ts, SIZES)]
        tail = run(kind, dtype, hyper, scaled, cut(params0),
                   [cut(g) for g in grads], fused=True)
        print("%-24s max ulps: for-loop %s, fused scalar tail %s" % (
            name, max_ulps(fused, loop, dtype), max_ulps(fused, tail, dtype)))
        body.append(emit_case(index, name, kind, dtype, hyper, scaled, fused,
                              params0))
    header = [
        "// Generated by gen_optimizer_reference.py from torch %s" %
        torch.__version__ + " (CPU capability %s); do not edit." % capability,
        "// torch's fused=True CPU SGD / AdamW (under torch.amp.GradScaler"
        " where a",
        "// scale is given), %d steps over tensors of %s elements." % (
            STEPS, " and ".join(str(n) for n in SIZES)),
        "// Included by OptimizerReferenceTest.cpp: ReferenceCase entries.",
        "// clang-format off",
    ]
    with open(args.output, "w") as f:
        f.write("\n".join(header + body + ["// clang-format on", ""]))
    print("wrote", args.output)


if __name__ == "__main__":
    main()
