"""The compiled pools and their backward ops against PyTorch eager, side by
side in one run (the two take turns, so machine load hits both). A
benchmark, never a test: it prints median milliseconds and the ratio.

  .venv-bench/bin/python bench/cpu/pooling_vs_eager.py [--tp-run build/bin/tp-run]
      [--threads 2] [--rounds 3]

(bench/cpu/compare-eager.sh makes .venv-bench with torch.)
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

import torch
import torch.nn.functional as F

X, G, Y = (8, 64, 56, 56), (8, 64, 28, 28), (8, 512, 7, 7)
POOL = ("kernel_size = array<i64: 3>, padding = array<i64: 1>, "
        "stride = array<i64: 2>")


def t(shape, elt="f32"):
    return "tensor<%s%s>" % ("x".join(map(str, shape)) + "x", elt)


# name: (tp function text, torch callable builder)
CASES = {
    "max_pool2d 3x3/2": (
        "%%r = tp.max_pool2d %%a {%s} : (%s) -> %s" % (POOL, t(X), t(G)),
        [X], G),
    "avg_pool2d 3x3/2": (
        "%%r = tp.avg_pool2d %%a {%s} : (%s) -> %s" % (POOL, t(X), t(G)),
        [X], G),
    "adaptive_avg_pool2d 7x7->1": (
        "%%r = tp.adaptive_avg_pool2d %%a {output_size = array<i64: 1, 1>} "
        ": (%s) -> %s" % (t(Y), t((8, 512, 1, 1))), [Y], (8, 512, 1, 1)),
    "max_pool2d backward": (
        "%%r = tp.max_pool2d_with_indices_backward %%a, %%b, %%c {%s} : "
        "(%s, %s, %s) -> %s" % (POOL, t(G), t(X), t(G, "i64"), t(X)),
        [G, X, (G, "i64")], X),
    "avg_pool2d backward": (
        "%%r = tp.avg_pool2d_backward %%a, %%b {%s} : (%s, %s) -> %s"
        % (POOL, t(G), t(X), t(X)), [G, X], X),
    "adaptive_avg_pool2d backward": (
        "%%r = tp.adaptive_avg_pool2d_backward %%a, %%b : (%s, %s) -> %s"
        % (t((8, 512, 1, 1)), t(Y), t(Y)), [(8, 512, 1, 1), Y], Y),
}


def module():
    funcs = []
    for i, (name, (line, args, result)) in enumerate(CASES.items()):
        params = []
        for letter, a in zip("abc", args):
            shape, elt = (a if isinstance(a[1], str) else (a, "f32"))
            params.append("%%%s: %s" % (letter, t(shape, elt)))
        funcs.append("func.func @f%d(%s) -> %s {\n  %s\n  return %%r : %s\n}"
                     % (i, ", ".join(params), t(result), line, t(result)))
    return "\n".join(funcs) + "\n"


def eager():
    x, y = torch.randn(*X), torch.randn(*Y)
    v, i = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    g, gy = torch.randn_like(v), torch.randn(8, 512, 1, 1)
    aten = torch.ops.aten
    return [lambda: F.max_pool2d(x, 3, 2, 1), lambda: F.avg_pool2d(x, 3, 2, 1),
            lambda: F.adaptive_avg_pool2d(y, 1),
            lambda: aten.max_pool2d_with_indices_backward(
                g, x, [3, 3], [2, 2], [1, 1], [1, 1], False, i),
            lambda: aten.avg_pool2d_backward(g, x, [3, 3], [2, 2], [1, 1],
                                             False, True, None),
            lambda: aten._adaptive_avg_pool2d_backward(gy, y)]


def median_ms(fn, runs=20):
    for _ in range(3):
        fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[runs // 2] * 1e3


def main():
    parser = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    parser.add_argument("--tp-run", default=os.path.join(root, "build/bin/tp-run"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pools.mlir")
        with open(path, "w") as f:
            f.write(module())
        fns = eager()
        tp = {k: [] for k in range(len(CASES))}
        pt = {k: [] for k in range(len(CASES))}
        for _ in range(args.rounds):
            out = subprocess.run([args.tp_run, path, "--warmup=3",
                                  "--repeat=20"], capture_output=True,
                                 text=True, env=env, check=True).stdout
            for m in re.finditer(r"@f(\d+): median ([0-9.]+) ms", out):
                tp[int(m.group(1))].append(float(m.group(2)))
            for k, fn in enumerate(fns):
                pt[k].append(median_ms(fn))
    print("%-30s %12s %12s %8s" % ("f32, %d threads" % args.threads,
                                   "tp (ms)", "eager (ms)", "eager/tp"))
    for k, name in enumerate(CASES):
        a, b = min(tp[k]), min(pt[k])
        print("%-30s %12.3f %12.3f %8.2f" % (name, a, b, b / a))


if __name__ == "__main__":
    main()
