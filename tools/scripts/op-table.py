#!/usr/bin/env python3
"""The per-op table of docs/CodegenCPU.md: every op of the tp dialect, its
lowering route and its measured error.

Runs every tpcheck family (test/Integration/CPU/Inputs/tpcheck.py: each
case a compiled function against a float64 NumPy reference) in the
default mode and in bf16, reads the error each case reports, and gives
each op the worst error of the cases whose body uses it, per result dtype
(f32 / complex64, f64 / complex128, bf16). The route of an op is read
from the sources: the files whose patterns name its C++ class
(lib/Conversion/TPToRuntime: library calls; lib/Conversion/TPToLinalg:
generated code; dialects/TP/Transforms/Decompose*: rewritten into other
tp ops). Ops that no case computes are listed with the tests that cover
them instead (lit FileCheck, gradcheck).

Usage: tools/scripts/op-table.py [--build build] [--write docs/CodegenCPU.md]
  (without --write, the table goes to stdout; with it, between the
  "<!-- op-table -->" markers of the file)."""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
INPUTS = os.path.join(ROOT, "test", "Integration", "CPU", "Inputs")

# Where each source directory sends an op.
ROUTES = [
    ("lib/Conversion/TPToRuntime/MatmulToRuntime.cpp", "oneDNN matmul"),
    ("lib/Conversion/TPToRuntime/ConvToRuntime.cpp", "oneDNN convolution"),
    ("lib/Conversion/TPToRuntime/NormalizationToRuntime.cpp",
     "oneDNN softmax backward (option)"),
    ("lib/Conversion/TPToRuntime/LinalgToRuntime.cpp", "LAPACK"),
    ("lib/Conversion/TPToRuntime/LossToRuntime.cpp", "runtime CTC kernel"),
    ("lib/Conversion/TPToRuntime/FftToRuntime.cpp", "runtime FFT"),
    ("lib/Conversion/TPToRuntime/TrainingToRuntime.cpp",
     "GradScaler runtime kernels"),
]


def class_name(mnemonic):
    return "".join(p[:1].upper() + p[1:] for p in mnemonic.split("_")) + "Op"


def dialect_ops(build):
    """Every op of the dialect, from the generated op classes (mnemonics
    computed in TableGen included)."""
    ops = set()
    inc = os.path.join(build, "include", "tensorplay", "Dialect", "TP", "IR")
    for name in os.listdir(inc):
        if name.endswith(".h.inc"):
            text = open(os.path.join(inc, name)).read()
            ops.update(re.findall(r'StringLiteral\("tp\.(\w+)"\)', text))
    return sorted(ops)


def routes_of(ops):
    """op -> list of route labels, from the files that name its class."""
    files = [(os.path.join(ROOT, p), label) for p, label in ROUTES]
    for d, kind in (("lib/Conversion/TPToLinalg", "linalg"),
                    ("dialects/TP/Transforms", "decomposed")):
        for name in sorted(os.listdir(os.path.join(ROOT, d))):
            # DecomposeGridSample rewrites for tp-autodiff's gradient
            # functions only, not for the lowering.
            if name == "DecomposeGridSample.cpp":
                continue
            if name.endswith(".cpp") and (kind == "linalg" or
                                          name.startswith("Decompose")):
                stem = name[:-4].replace("ToLinalg", "")
                files.append((os.path.join(ROOT, d, name),
                              f"{kind} ({stem})"))
    # The classes each file's patterns are for: the template arguments of
    # its patterns.add<...> lists and of its pattern bases.
    handled = []
    for path, label in files:
        text = open(path).read()
        names = set()
        for block in re.findall(r"\.add<(.*?)>\s*\(", text, re.S):
            names.update(re.findall(r"\b(\w+Op)\b", block))
        # Tables of patterns keyed by op name.
        names.update(re.findall(r"\b(\w+Op)::getOperationName\(\)", text))
        for arg in re.findall(
                r"(?:OpRewritePattern|OpConversionPattern|Pattern|Lowering|"
                r"ToLapack|ToRuntime)<\s*(\w+Op)\s*[,>]", text):
            names.add(arg)
        handled.append((names, label))
    result = {}
    for op in ops:
        cls = class_name(op)
        labels = [label for names, label in handled if cls in names]
        if op.startswith("fft_"):  # FftToRuntime matches them by name
            labels.insert(0, "runtime FFT")
        if op in ("autocast", "custom_function"):
            labels = ["regions inlined (convert-tp-to-linalg)"]
        if op == "yield":
            labels = ["region terminator"]
        result[op] = labels
    return result


def run_family(build, family, mode, tmp):
    env = dict(os.environ, PATH=os.path.join(build, "bin") + os.pathsep +
               os.environ["PATH"])
    out = subprocess.run(
        [sys.executable, os.path.join(INPUTS, "tpcheck.py"), "--tp-run",
         "tp-run", "--family", family, "--tmp", tmp, "--mode", mode],
        capture_output=True, text=True, env=env)
    module = os.path.join(tmp, "cases.mlir")
    if not os.path.exists(module):
        return {}
    bodies = {}
    for fn in re.split(r"\n(?=func\.func @)", open(module).read()):
        m = re.match(r"func\.func @(\w+)\(.*?\) -> \((.*?)\) \{", fn, re.S)
        if not m:
            continue
        ops = set(re.findall(r"= tp\.(\w+)", fn))
        elem = re.search(r"x?(complex<f\d+>|[a-z]+\d+)>", m.group(2))
        bodies[m.group(1)] = (ops, elem.group(1) if elem else "?")
    errors = {}
    for line in out.stdout.splitlines():
        m = re.match(r"(PASS|FAIL) (\w+)(?: #\d+)?: (.*)", line)
        if not m or m.group(2) not in bodies:
            continue
        e = re.search(r"max \|err\| ([0-9.e+-]+|inf|nan)", m.group(3))
        err = float(e.group(1)) if e else None
        errors.setdefault(m.group(2), []).append((m.group(1), err))
    return {name: (bodies[name], errors.get(name, [])) for name in bodies}


def dtype_class(elem):
    if elem in ("f32", "complex<f32>"):
        return "f32"
    if elem in ("f64", "complex<f64>"):
        return "f64"
    if elem in ("bf16", "f16"):
        return elem
    return "int"


def fmt(x):
    return "—" if x is None else ("0" if x == 0 else "%.1e" % x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--write")
    args = parser.parse_args()
    sys.path.insert(0, INPUTS)
    from tpcheck_cases import FAMILIES
    ops = dialect_ops(args.build)
    routes = routes_of(ops)
    worst = {}   # op -> dtype class -> error
    counts = {}
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in sorted(FAMILIES):
            for mode in ("default", "bf16"):
                cases = run_family(args.build, family, mode,
                                   os.path.join(tmp, family + mode))
                for name, ((used, elem), results) in cases.items():
                    for status, err in results:
                        if status == "FAIL":
                            failed.append(f"{family}/{mode}/{name}")
                        for op in used:
                            counts[op] = counts.get(op, 0) + 1
                            if err is None:
                                continue
                            d = worst.setdefault(op, {})
                            c = dtype_class(elem)
                            d[c] = max(d.get(c, 0.0), err)
    lines = ["| op | route | cases | f32 | f64 | bf16 | f16 | int |",
             "|---|---|---|---|---|---|---|---|"]
    for op in ops:
        d = worst.get(op, {})
        route = ", ".join(routes[op]) or "—"
        lines.append("| %s | %s | %d | %s |" % (
            op, route, counts.get(op, 0),
            " | ".join(fmt(d.get(c)) for c in ("f32", "f64", "bf16", "f16",
                                               "int"))))
    table = "\n".join(lines)
    uncovered = [op for op in ops if not counts.get(op)]
    summary = ("%d ops, %d computed by NumPy-checked cases; not computed by "
               "any: %s" % (len(ops), len(ops) - len(uncovered),
                            ", ".join(uncovered) or "none"))
    if failed:
        summary += "; FAILED cases: " + ", ".join(failed)
    if not args.write:
        print(table)
        print()
        print(summary)
        return 1 if failed else 0
    text = open(args.write).read()
    begin, end = "<!-- op-table -->", "<!-- /op-table -->"
    if begin not in text or end not in text:
        print("no %s ... %s markers in %s" % (begin, end, args.write))
        return 1
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    open(args.write, "w").write(head + begin + "\n" + table + "\n\n" +
                                summary + "\n" + end + tail)
    print(summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
