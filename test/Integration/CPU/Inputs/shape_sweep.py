"""Lowers every shape variant of the ops of a template file that verifies.

`tp-opt --test-tp-shape-sweep` replaces each template function of the input
by the variants of its op that verify (operand shapes with a dimension
inserted, removed, set to 1, 0 or another size; one function each). They
are lowered with `tp-opt --tp-lower-to-cpu --split-input-file`, a few
hundred per process; a batch whose process dies is lowered again one
variant at a time to name the variant. A variant must compile, or fail with
an error diagnostic that gives a reason (a bare "has no CPU lowering" does
not); never abort. Prints one ABORT line per aborting
variant (its program is saved in the temporary directory), one NO VARIANT
line per template op none of whose variants verify, and
"shape sweep: O ops, V variants verified, C compiled, R refused, A aborted";
exit status 1 on an abort.

Usage: shape_sweep.py --tp-opt PATH --input TEMPLATES.mlir --tmp DIR
"""

import argparse
import bisect
import os
import re
import shutil
import subprocess
import sys

FUNC = re.compile(r"^  func\.func @(\w+)[^\n]*\n(?:.*\n)*?^  }\n", re.M)
SPLIT = "// -----\n"
ABORT_MARKS = ("LLVM ERROR", "Stack dump", "PLEASE submit", "Assertion")
BATCH = 200
# A refusal that names no reason.
BARE = re.compile(r"has no CPU lowering$")


def lower(tp_opt, path):
    return subprocess.run([tp_opt, path, "--split-input-file",
                           "--tp-lower-to-cpu", "-o", os.devnull],
                          capture_output=True, text=True, timeout=600)


def aborted(run):
    return run.returncode < 0 or run.returncode > 1 or any(
        mark in run.stderr for mark in ABORT_MARKS)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tp-opt", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--tmp", required=True)
    args = parser.parse_args()
    if os.path.isdir(args.tmp):
        shutil.rmtree(args.tmp)
    os.makedirs(args.tmp)
    sweep = subprocess.run([args.tp_opt, args.input, "--test-tp-shape-sweep",
                            "--mlir-print-op-on-diagnostic=false"],
                           capture_output=True, text=True)
    if sweep.returncode:
        print("tp-opt --test-tp-shape-sweep failed:\n" + sweep.stderr)
        return 1
    summary = re.search(r"remark: (\d+) ops, (\d+) variants tried", sweep.stderr)
    for line in sweep.stderr.splitlines():
        if "no shape variant verifies" in line:
            print("NO VARIANT: " + line)
    funcs = [(m.group(1), m.group(0)) for m in FUNC.finditer(sweep.stdout)]
    compiled = refused = 0
    aborts = []
    for start in range(0, len(funcs), BATCH):
        batch = funcs[start:start + BATCH]
        path = os.path.join(args.tmp, "batch%d.mlir" % start)
        with open(path, "w") as f:
            f.write(SPLIT.join(text for _, text in batch))
        run = lower(args.tp_opt, path)
        if not aborted(run):
            # The diagnostics carry the batch file's own line numbers: each
            # belongs to the variant whose lines hold it.
            starts, line = [], 1
            for _, text in batch:
                starts.append(line)
                line += text.count("\n") + SPLIT.count("\n")
            errors = {}
            for m in re.finditer(r"^[^\n]*?:(\d+):\d+: error: (.*)$",
                                 run.stderr, re.M):
                chunk = bisect.bisect_right(starts, int(m.group(1))) - 1
                errors.setdefault(chunk, []).append(m.group(2))
            if run.returncode and not errors:
                print("ABORT (failure without a diagnostic) in %s" % path)
                aborts.append(path)
                continue
            for chunk, messages in sorted(errors.items()):
                if all(BARE.search(msg) for msg in messages):
                    print("NO REASON @%s: %s" % (batch[chunk][0], messages[0]))
                    aborts.append(batch[chunk][0])
            refused += len(errors)
            compiled += len(batch) - len(errors)
            continue
        for name, text in batch:
            one = os.path.join(args.tmp, "%s.mlir" % name)
            with open(one, "w") as f:
                f.write(text)
            run = lower(args.tp_opt, one)
            if aborted(run):
                aborts.append(one)
                marks = [l for l in run.stderr.splitlines()
                         if any(m in l for m in ABORT_MARKS[:1])]
                print("ABORT @%s: %s (%s)" % (
                    name, (marks or run.stderr.splitlines() or ["?"])[0], one))
            elif run.returncode:
                messages = re.findall(r"error: (.*)$", run.stderr, re.M)
                if not messages or all(BARE.search(m) for m in messages):
                    aborts.append(one)
                    print("NO REASON @%s: %s" % (name, messages[:1]))
                else:
                    refused += 1
            else:
                compiled += 1
    ops = int(summary.group(1)) if summary else 0
    print("shape sweep: %d ops, %d variants verified, %d compiled, %d refused, "
          "%d aborted" % (ops, len(funcs), compiled, refused, len(aborts)))
    return 1 if aborts else 0


if __name__ == "__main__":
    sys.exit(main())
