"""Generated programs of sibling loops for tp-fuse-siblings: sums, means
and elementwise results of shared operands over random shapes, each
compiled with and without the pass (tp-lower-to-cpu's fuse-siblings).
Both must give the same bits, match NumPy, and the pass must have fused:
fewer loops (linalg.generic ops) in total."""

import argparse
import os
import subprocess

import numpy as np

DIMS = [(0, 2), (0,), (2,), (1, 2)]


def program(rng, name):
    # Large enough for parallel tiles, with odd sizes (partial vectors).
    a, b, c = (int(rng.integers(1, 9)), int(rng.integers(8, 72)),
               int(rng.integers(16, 300)))
    shape = (a, b, c)
    ty = f"tensor<{a}x{b}x{c}xf32>"
    lines, results, refs = [], [], []
    dims = DIMS[int(rng.integers(len(DIMS)))]
    kept = [s for d, s in enumerate(shape) if d not in dims]
    rty = "tensor<" + "x".join(map(str, kept)) + ("x" if kept else "") + \
        "f32>"
    for k in range(int(rng.integers(2, 7))):
        kind = ["sum", "mean", "prodsum", "sqsum", "elementwise"][
            int(rng.integers(5))]
        v = f"%v{k}"
        if kind == "elementwise":
            lines.append(f"{v}a = tp.mul %x, %y : ({ty}, {ty}) -> {ty}")
            lines.append(f"{v} = tp.sub {v}a, %x : ({ty}, {ty}) -> {ty}")
            results.append((v, ty))
            refs.append(lambda x, y: x * y - x)
            continue
        src = "%x"
        ref = (lambda x, y: x)
        if kind == "prodsum":
            lines.append(f"{v}p = tp.mul %x, %y : ({ty}, {ty}) -> {ty}")
            src, ref = f"{v}p", (lambda x, y: x * y)
        elif kind == "sqsum":
            lines.append(f"{v}d = tp.sub %y, %x : ({ty}, {ty}) -> {ty}")
            lines.append(f"{v}p = tp.mul {v}d, {v}d : ({ty}, {ty}) -> {ty}")
            src, ref = f"{v}p", (lambda x, y: (y - x) ** 2)
        op = "mean" if kind == "mean" else "sum"
        attr = ", ".join(map(str, dims))
        lines.append(f"{v} = tp.{op} {src} {{dim = array<i64: {attr}>}} : "
                     f"({ty}) -> {rty}")
        results.append((v, rty))
        npop = np.mean if op == "mean" else np.sum
        refs.append(lambda x, y, ref=ref, npop=npop:
                    npop(ref(x, y), axis=dims))
    body = "\n  ".join(lines)
    outs = ", ".join(v for v, _ in results)
    types = ", ".join(t for _, t in results)
    text = (f"func.func @{name}(%x: {ty}, %y: {ty}) -> ({types}) {{\n  "
            f"{body}\n  return {outs} : {types}\n}}\n")
    return text, shape, refs


def run(args, path, tmp, fuse):
    """Runs `path` compiled with fuse-siblings=`fuse`; returns how many
    linalg.generic ops the tp -> linalg stages leave with or without the
    pass."""
    options = f"--pipeline-options=fuse-siblings={fuse}"
    subprocess.run([args.tp_run, path, "--npy-dir", tmp, "--no-cache",
                    options], check=True)
    stages = ["--convert-tp-to-linalg", "--canonicalize",
              "--tp-fuse-elementwise", "--canonicalize", "--cse"]
    if fuse:
        stages.append("--tp-fuse-siblings")
    lowered = subprocess.run([args.tp_opt, path] + stages, check=True,
                             capture_output=True, text=True).stdout
    return lowered.count("linalg.generic")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-run", required=True)
    parser.add_argument("--tp-opt", required=True)
    parser.add_argument("--tmp", required=True)
    parser.add_argument("--programs", type=int, default=24)
    args = parser.parse_args()
    rng = np.random.default_rng(11)
    loops = {0: 0, 1: 0}
    for p in range(args.programs):
        name = f"p{p}"
        text, shape, refs = program(rng, name)
        path = os.path.join(args.tmp, f"{name}.mlir")
        with open(path, "w") as f:
            f.write(text)
        x = rng.uniform(-2, 2, shape).astype(np.float32)
        y = rng.uniform(-2, 2, shape).astype(np.float32)
        outs = {}
        for fuse in (1, 0):
            tmp = os.path.join(args.tmp, f"{name}-{fuse}")
            os.makedirs(tmp, exist_ok=True)
            np.save(f"{tmp}/{name}.arg0.npy", x)
            np.save(f"{tmp}/{name}.arg1.npy", y)
            loops[fuse] += run(args, path, tmp, fuse)
            outs[fuse] = [np.load(f"{tmp}/{name}.out{k}.npy")
                          for k in range(len(refs))]
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        for k, ref in enumerate(refs):
            fused, apart = outs[1][k], outs[0][k]
            assert np.array_equal(fused, apart), (name, k, text)
            want = ref(x64, y64)
            np.testing.assert_allclose(fused, want, rtol=2e-5, atol=2e-4,
                                       err_msg=f"{name} result #{k}\n{text}")
    assert loops[1] < loops[0], loops
    print(f"{args.programs} programs: fused and unfused results equal bit "
          f"for bit and match NumPy; loops {loops[0]} -> "
          f"{loops[1]}")


if __name__ == "__main__":
    main()
