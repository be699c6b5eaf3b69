#!/usr/bin/env python3
"""Checks tp-train runs (train-digits.mlir, train-encoder.mlir):

  check-training.py MIN_ACCURACY REFERENCE.txt OTHER.txt...
  check-training.py ratio=R REFERENCE.txt OTHER.txt...

Each file is one run's output. With MIN_ACCURACY every run must print a
test accuracy of at least that many percent; with ratio=R (runs without
test data) every run's last printed loss must be at most R times its first.
The loss curves of the other runs must follow the reference's (f32): at
every printed step the mean loss of the last interval differs from the
reference's by at most 0.05 + 25% of it. Prints each run's final loss,
accuracy (or loss ratio) and largest deviation.
"""
import re
import sys

STEP = re.compile(r"^step\s+(\d+)\s+loss\s+([0-9.eE+-]+|nan|inf)")
ACCURACY = re.compile(r"^test accuracy ([0-9.]+)%")


def parse(path, need_accuracy=True):
    curve, accuracy = {}, None
    with open(path) as f:
        for line in f:
            m = STEP.match(line)
            if m:
                curve[int(m.group(1))] = float(m.group(2))
            m = ACCURACY.match(line)
            if m:
                accuracy = float(m.group(1))
    if not curve or (need_accuracy and accuracy is None):
        sys.exit(f"{path}: no loss curve or no test accuracy in the output")
    return curve, accuracy


def main():
    ratio = None
    if sys.argv[1].startswith("ratio="):
        ratio = float(sys.argv[1][len("ratio="):])
    else:
        minimum = float(sys.argv[1])
    ref_path, others = sys.argv[2], sys.argv[3:]
    ref, ref_acc = parse(ref_path, ratio is None)
    failed = False
    for path in [ref_path] + others:
        curve, acc = parse(path, ratio is None)
        worst = 0.0
        if curve.keys() != ref.keys():
            print(f"FAIL {path}: printed steps differ from {ref_path}")
            failed = True
            continue
        for step, loss in curve.items():
            bound = 0.05 + 0.25 * ref[step]
            dev = abs(loss - ref[step])
            worst = max(worst, dev / bound)
            if not dev <= bound:
                print(f"FAIL {path}: step {step} loss {loss:.4f} vs "
                      f"{ref[step]:.4f} in {ref_path} (bound {bound:.4f})")
                failed = True
        last, first = max(curve), min(curve)
        if ratio is not None:
            achieved = curve[last] / curve[first]
            if not achieved <= ratio:
                print(f"FAIL {path}: loss went from {curve[first]:.4f} to "
                      f"{curve[last]:.4f}, more than {ratio} times the first")
                failed = True
            outcome = f"loss ratio {achieved:.3f}"
        else:
            if acc < minimum:
                print(f"FAIL {path}: test accuracy {acc:.2f}% < {minimum}%")
                failed = True
            outcome = f"test accuracy {acc:.2f}%"
        print(f"{path.rsplit('/', 1)[-1]}: final loss {curve[last]:.4f}, "
              f"{outcome}, worst deviation {worst:.2f} of the bound")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
