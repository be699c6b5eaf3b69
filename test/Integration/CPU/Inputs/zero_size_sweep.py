"""Compiles every op of a module with one of its dimension sizes set to 0.

For each function of the input (test/Dialect/TP/roundtrip.mlir: every op of
the dialect) and each dimension size d > 1 in its tensor types, every d in
the function's types becomes 0; variants the verifier accepts are compiled
with `tp-opt --tp-lower-to-cpu`. A variant must compile or fail with a
diagnostic, never crash. Prints one line per crash and
"N variants, C compiled, E refused, K crashed"; exit status 1 on a crash.

Usage: zero_size_sweep.py --tp-opt PATH --input roundtrip.mlir --tmp DIR
"""

import argparse
import os
import re
import subprocess
import sys

FUNC = re.compile(r"^func\.func @[^\n]*\n(?:.*\n)*?^}\n", re.M)
SHAPE = re.compile(r"tensor<((?:\d+x)+)")


def variants(func):
    dims = sorted({int(d) for m in SHAPE.finditer(func)
                   for d in m.group(1).split("x") if d})
    for d in dims:
        if d <= 1:
            continue
        def zero(m):
            sizes = m.group(1)[:-1].split("x")
            return "tensor<" + "x".join("0" if s == str(d) else s
                                        for s in sizes) + "x"
        yield d, SHAPE.sub(zero, func)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-opt", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--tmp", required=True)
    args = parser.parse_args()
    os.makedirs(args.tmp, exist_ok=True)
    path = os.path.join(args.tmp, "variant.mlir")
    total = compiled = refused = crashed = 0
    for func in FUNC.findall(open(args.input).read()):
        name = re.match(r"func\.func @(\w+)", func).group(1)
        for d, text in variants(func):
            with open(path, "w") as f:
                f.write(text)
            if subprocess.run([args.tp_opt, path], capture_output=True).returncode:
                continue  # not a valid program with this size
            total += 1
            run = subprocess.run([args.tp_opt, path, "--tp-lower-to-cpu"],
                                 capture_output=True, text=True, timeout=300)
            if run.returncode < 0 or "Stack dump" in run.stderr:
                crashed += 1
                print("CRASH @%s with %d -> 0: %s" % (
                    name, d, (run.stderr.splitlines() or ["?"])[0]))
                with open(os.path.join(args.tmp, "crash_%s_%d.mlir" % (name, d)),
                          "w") as f:
                    f.write(text)
            elif run.returncode:
                refused += 1
            else:
                compiled += 1
    print("%d variants, %d compiled, %d refused, %d crashed" %
          (total, compiled, refused, crashed))
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
