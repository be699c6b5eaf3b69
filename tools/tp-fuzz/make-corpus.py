#!/usr/bin/env python3
"""Seed corpus and dictionary of tp-fuzz, from the lit inputs.

  make-corpus.py --out DIR [--max-len N] [--stamp FILE] SRC_ROOT
      Splits every test/**/*.mlir and examples/*.mlir of SRC_ROOT at
      `// -----` into chunks, drops the comment lines (RUN/CHECK/expected-*),
      splits a chunk longer than N bytes at its top-level func.func
      definitions (packing them into pieces of at most N bytes), and writes
      each distinct piece to DIR/<sha1 of its bytes> (libFuzzer's naming).
      DIR is emptied first, so the corpus is exactly the lit inputs'.

  make-corpus.py --dict FILE SRC_ROOT
      Writes the libFuzzer dictionary: every tp / tp_rt op name of the ODS
      files and the lit inputs, and the keywords, types and attributes the
      inputs use.
"""

import argparse
import hashlib
import os
import re
import sys


def mlir_inputs(root):
    for sub in ("test", "examples"):
        base = os.path.join(root, sub)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".mlir"):
                    yield os.path.join(dirpath, name)


def strip_comments(text):
    lines = [l for l in text.splitlines() if not l.lstrip().startswith("//")]
    # Drop leading/trailing blank lines and runs of blank lines.
    out, blank = [], False
    for l in lines:
        if not l.strip():
            if out and not blank:
                out.append("")
            blank = True
            continue
        blank = False
        out.append(l.rstrip())
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def top_level_items(text):
    """Splits at lines starting (column 0) a top-level func.func."""
    items, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("func.func") and cur:
            items.append("".join(cur))
            cur = []
        cur.append(line)
    if cur:
        items.append("".join(cur))
    return items


def pieces(chunk, max_len):
    if len(chunk.encode()) <= max_len:
        return [chunk]
    out, cur = [], ""
    for item in top_level_items(chunk):
        if cur and len((cur + item).encode()) > max_len:
            out.append(cur)
            cur = ""
        cur += item
    if cur:
        out.append(cur)
    # An item alone longer than max_len is kept whole: libFuzzer truncates
    # it, which still seeds the parser.
    return out


def printed_module_body(text):
    """A module as tp-opt prints it (`module {` and two-space indented
    functions) as top-level functions."""
    lines = text.splitlines()
    body = [l[2:] if l.startswith("  ") else l for l in lines
            if l.strip() not in ("module {", "}") or l.startswith("  ")]
    return "\n".join(body) + "\n"


def make_corpus(root, out_dir, max_len, extra=()):
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, name))
    seen = set()
    files = 0
    for path in list(mlir_inputs(root)) + list(extra):
        files += 1
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if path in extra:
            text = printed_module_body(text)
        for chunk in re.split(r"^// -----.*$", text, flags=re.M):
            chunk = strip_comments(chunk)
            if not chunk.strip():
                continue
            for piece in pieces(chunk, max_len):
                data = piece.encode()
                digest = hashlib.sha1(data).hexdigest()
                if digest in seen:
                    continue
                seen.add(digest)
                with open(os.path.join(out_dir, digest), "wb") as f:
                    f.write(data)
    return files, len(seen)


KEYWORDS = [
    # structure
    "module", "func.func", "func.call", "return", "func.return", "private",
    "attributes", "loc(", "{", "}", "(", ")", "<", ">", "[", "]", ":", "->",
    ",", "=", "%", "@", "^bb0", "#", "\"",
    # types
    "tensor<", "tensor<*x", "tensor<?x", "f16", "bf16", "f32", "f64", "i1",
    "i8", "i32", "i64", "index", "complex<f32>", "x", "1x", "2x", "4x", "8x",
    "16x", "0x",
    # attributes and literals
    "dense<", "dense_resource<", "array<i64:", "true", "false", "unit",
    "0.0", "1.0", "-1", "0", "1", "2", "-1.0e+00", "0x7FC00000", "inf",
    "nan", ": i64", ": f32",
    # tp syntax
    "tp.device", "\"cuda\"", "\"cpu\"", "\"xpu\"", "out(", "bias(", "inplace",
    "dtype", "dim", "keepdim", "enabled", "fp16", "cuda:fp16", "cpu:bf16",
    "xpu:bf16",
    # upstream ops that appear with tp
    "arith.constant", "arith.addf", "arith.mulf", "scf.for", "scf.if",
    "scf.yield", "cf.br", "cf.cond_br", "tensor.empty", "tensor.cast",
    "tensor.extract", "tensor.insert",
]


def make_dict(root, out_path):
    ops = set()
    op_def = re.compile(r"Op<\s*\"([a-z_0-9.]+)\"")
    for base in ("include/tensorplay/Dialect/TP", "include/tensorplay/Dialect/TPRuntime"):
        for dirpath, _, filenames in os.walk(os.path.join(root, base)):
            for name in filenames:
                if not name.endswith(".td"):
                    continue
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    text = f.read()
                prefix = "tp_rt." if "TPRuntime" in dirpath else "tp."
                for m in op_def.finditer(text):
                    ops.add(prefix + m.group(1))
    attrs = set()
    use = re.compile(r"\b(tp(?:_rt)?\.[a-z_0-9]+)")
    attr = re.compile(r"[{,]\s*([a-z_][a-z_0-9]*)\s*=")
    for path in mlir_inputs(root):
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
        ops.update(m.group(1) for m in use.finditer(text))
        attrs.update(m.group(1) for m in attr.finditer(text))
    tokens = sorted(ops) + sorted(a + " = " for a in attrs) + KEYWORDS
    seen, lines = set(), []
    for t in tokens:
        if t in seen:
            continue
        seen.add(t)
        esc = t.replace("\\", "\\\\").replace('"', '\\"')
        lines.append('"%s"' % esc)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# libFuzzer dictionary of tp-fuzz. Generated by\n"
                "# tools/tp-fuzz/make-corpus.py --dict tools/tp-fuzz/tp.dict .\n")
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("root", help="source root of tensorplay-autocast")
    p.add_argument("--out", help="corpus directory to (re)create")
    p.add_argument("--max-len", type=int, default=4096)
    p.add_argument("--stamp", help="file to touch when done")
    p.add_argument("--dict", help="write the dictionary to this file")
    p.add_argument("--extra", action="append", default=[],
                   help="a module printed by tp-opt (the shape sweep's "
                        "variants) whose functions are seeds too")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args()
    if not args.out and not args.dict:
        p.error("give --out and/or --dict")
    if args.dict:
        n = make_dict(args.root, args.dict)
        if not args.quiet:
            print("tp-fuzz dictionary: %d entries -> %s" % (n, args.dict))
    if args.out:
        files, n = make_corpus(args.root, args.out, args.max_len, args.extra)
        if not args.quiet:
            print("tp-fuzz corpus: %d inputs from %d files -> %s" % (n, files, args.out))
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write("")
    return 0


if __name__ == "__main__":
    sys.exit(main())
