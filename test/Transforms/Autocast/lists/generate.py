#!/usr/bin/env python3
"""Generates the per-list autocast tests (cuda-lower.mlir, ..., cpu-promote.mlir).

Expectations come from the seed document (docs/tensorplay-amp.md), not from
the compiler's own tables: for every op named in a list of a device, one
function applies the op to inputs of the dtype that list must change, and the
CHECK lines state what tensorplay.amp says happens:
  lower list    f32 inputs are cast to the autocast dtype (f16 on cuda/xpu,
                bf16 on cpu); the op runs in and returns that dtype;
  fp32 list     lower-precision inputs are cast to f32 and the op returns f32;
                softmax, log_softmax, sum, prod, cumsum, cumprod and norm
                instead get dtype = f32 (DESIGN.md) and no cast;
  promote list  with one lower-precision input (produced by a lower-list op)
                and f32 others, that input is cast to f32; the op runs in f32.
The op instances are the round-trip test's functions (test/Dialect/TP/
roundtrip.mlir) with their floating types set per case. Run from anywhere:
  python3 test/Transforms/Autocast/lists/generate.py [--check]
--check writes nothing and exits 1 when a generated file is out of date.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))
SEED = os.path.join(ROOT, "docs/tensorplay-amp.md")
TEMPLATES = os.path.join(ROOT, "test/Dialect/TP/roundtrip.mlir")

SPELLING = {"__matmul__": "matmul", "__pow__": "pow", "__rdiv__": "rdiv",
            "__rpow__": "rpow", "__rtruediv__": "rtruediv",
            "GRUCell": "gru_cell", "LSTMCell": "lstm_cell", "RNNCell": "rnn_cell"}
SET_DTYPE = {"softmax", "log_softmax", "sum", "prod", "cumsum", "cumprod", "norm"}
# Ops whose floating operands cannot be lower precision in valid IR: their
# fp32-list case keeps f32 inputs (nothing to cast, the op stays f32).
KEEP_F32_ARGS = {
    "view_as_complex": "view_as_complex needs f32/f64 input (no complex<f16>)",
}

TABLES = [
    ("cuda", "lower", "f16", "CUDA Ops that can autocast to float16"),
    ("cuda", "fp32", "f16", "CUDA Ops that can autocast to float32"),
    ("cuda", "promote", "f16", "CUDA Ops that promote to the widest input type"),
    ("xpu", "lower", "f16", "XPU Ops that can autocast to float16"),
    ("xpu", "fp32", "f16", "XPU Ops that can autocast to float32"),
    ("xpu", "promote", "f16", "XPU Ops that promote to the widest input type"),
    ("cpu", "lower", "bf16", "CPU Ops that can autocast to bfloat16"),
    ("cpu", "fp32", "bf16", "CPU Ops that can autocast to float32"),
    ("cpu", "promote", "bf16", "CPU Ops that promote to the widest input type"),
]


def spell(name):
    return SPELLING.get(name, name.lstrip("_"))


def seed_lists():
    lists, title = {}, None
    for line in open(SEED):
        line = line.rstrip("\n")
        if line.startswith("#### "):
            title = line[5:]
            continue
        if line.startswith("#"):
            title = None
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z_0-9]*),?", line.strip())
        if title and m:
            lists.setdefault(title, []).append(m.group(1))
    return lists


def templates():
    """op name -> its round-trip function, normalized to f32 floating types."""
    text = open(TEMPLATES).read()
    funcs = {}
    for m in re.finditer(r"^func\.func @(\w+)\((.*?)\n\}\n", text, re.S | re.M):
        name = m.group(1)
        body = re.sub(r"(?<!complex<)(?<=[x<])(f16|bf16)>", "f32>", m.group(0))
        op = re.search(r"= tp\.(\w+) ", body)
        if op and op.group(1) == name and name not in funcs:
            funcs[name] = body
    return funcs


def float_args(func):
    """(name, shape prefix) of the real floating arguments, in order."""
    return re.findall(r"%(\w+): tensor<((?:[0-9?]+x)*)f32>",
                      func.split("\n", 1)[0])


def low_types(text, low):
    """Replaces the real f32 element types in `text` by `low`."""
    return re.sub(r"(?<!complex<)(?<=[x<])f32>", low + ">", text)


def op_signature(func):
    """The op line's `(...) -> ...` type signature."""
    line = next(l for l in func.split("\n") if "= tp." in l)
    return line.rpartition(" : ")[2]


def cast_checks(count, src, dst):
    return [f"// CHECK-DAG: tp.cast %{{{{.*}}}} : tensor<{{{{[0-9x]*}}}}{src}> "
            f"to tensor<{{{{[0-9x]*}}}}{dst}>"] * count


def case(op, kind, low, func):
    """Returns (input function, check lines) for one op."""
    args = float_args(func)
    sig = op_signature(func)
    checks = [f"// CHECK-LABEL: func.func @{op}("]
    if kind == "lower":
        # f32 inputs: each is cast to `low`, the op runs in and returns `low`.
        checks += cast_checks(len(args), "f32", low)
        checks.append(f"// CHECK: tp.{op} {{{{.*}}}} : {low_types(sig, low)}")
        return func, checks
    if kind == "fp32":
        if op in KEEP_F32_ARGS or not args:
            why = KEEP_F32_ARGS.get(op, "complex input, nothing to cast")
            checks.append(f"// {op} keeps its inputs: {why}.")
            checks.append("// CHECK-NOT: tp.cast")
            checks.append(f"// CHECK: tp.{op} {{{{.*}}}} : {sig}")
            return func, checks
        # Inputs in `low`; the input IR's results follow them.
        header, rest = func.split("\n", 1)
        src = low_types(header, low) + "\n" + rest.replace(sig, low_types(sig, low))
        if op in SET_DTYPE:
            inputs = low_types(sig, low).partition(" -> ")[0]
            checks.append("// CHECK-NOT: tp.cast")
            checks.append(f"// CHECK: tp.{op} {{{{.*}}}}dtype = f32{{{{.*}}}} : "
                          f"{inputs} -> {sig.partition(' -> ')[2]}")
            return src, checks
        checks += cast_checks(len(args), low, "f32")
        checks.append(f"// CHECK: tp.{op} {{{{.*}}}} : {sig}")
        return src, checks
    if kind == "promote":
        # The first floating operand becomes lower precision the way it does
        # in real programs: it is produced by a lower-list op (matmul with a
        # square f32 matrix keeps its shape). The other floating operands are
        # f32, so the op runs in f32.
        first, shape = args[0]
        n = shape.rstrip("x").split("x")[-1]
        sq = f"tensor<{n}x{n}xf32>"
        ty = f"tensor<{shape}f32>"
        header, rest = func.split("\n", 1)
        header = header.replace("(", f"(%sq: {sq}, ", 1)
        op_line, tail = rest.split("\n", 1)
        pre = f"  %low = tp.matmul %{first}, %sq : ({ty}, {sq}) -> {ty}"
        op_line = re.sub(r"%" + first + r"\b", "%low", op_line, count=1)
        src = header + "\n" + pre + "\n" + op_line + "\n" + tail
        checks.append(f"// CHECK: %[[LOW:.*]] = tp.matmul {{{{.*}}}} -> "
                      f"tensor<{{{{[0-9x]*}}}}{low}>")
        checks.append(f"// CHECK: %[[UP:.*]] = tp.cast %[[LOW]] : "
                      f"tensor<{{{{[0-9x]*}}}}{low}> to tensor<{{{{[0-9x]*}}}}f32>")
        checks.append(f"// CHECK: tp.{op} {{{{.*}}}}%[[UP]]{{{{.*}}}} : {sig}")
        return src, checks
    raise ValueError(kind)


def main():
    # --check: write nothing, fail when a file differs from what it would be
    # (the lit test lists-current.mlir runs it).
    check = "--check" in sys.argv[1:]
    stale = []
    lists, funcs = seed_lists(), templates()
    for device, kind, low, title in TABLES:
        ops = []
        for seed_name in lists[title]:
            if spell(seed_name) not in ops:
                ops.append(spell(seed_name))
        target = f"{device}:{'bf16' if low == 'bf16' else 'fp16'}"
        out = [f"// Every op of the seed's list \"{title}\"",
               f"// ({len(ops)} distinct ops). Generated by generate.py from",
               "// docs/tensorplay-amp.md: expectations follow the seed's tables.",
               f"// RUN: tp-opt --autocast={target} %s | FileCheck %s", ""]
        for op in ops:
            src, checks = case(op, kind, low, funcs[op])
            out.extend(checks)
            out.append(src)
        path = os.path.join(HERE, f"{device}-{kind}.mlir")
        text = "\n".join(out)
        if check:
            current = open(path).read() if os.path.exists(path) else None
            if current != text:
                stale.append(os.path.relpath(path, ROOT))
            continue
        open(path, "w").write(text)
        print(f"wrote {os.path.relpath(path, ROOT)}: {len(ops)} ops")
    if check:
        for path in stale:
            print(f"out of date: {path} (run test/Transforms/Autocast/lists/generate.py)")
        print(f"{len(TABLES)} list files, {len(stale)} out of date")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
