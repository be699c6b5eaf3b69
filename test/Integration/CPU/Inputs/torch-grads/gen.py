#!/usr/bin/env python3
"""Writes expected.json: PyTorch's gradients of the cases in cases.py.

Run once, with a Python that has torch (bench/cpu/compare-eager.sh makes
.venv-bench/ with it): .venv-bench/bin/python gen.py. The tests read the
file and never import torch.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import CASES  # noqa: E402


DTYPES = {"f64": "float64", "f32": "float32"}


def main():
    out = {"torch": torch.__version__, "cases": {}}
    for name, args, _body, torch_body, dtype in CASES:
        tensors = {}
        for i, (_shape, values) in enumerate(args):
            tensors["a%d" % i] = torch.tensor(
                values, dtype=getattr(torch, DTYPES[dtype]),
                requires_grad=True)
        scope = {"torch": torch, "F": F}
        scope.update(tensors)
        loss = eval(torch_body, scope)
        loss.backward()
        out["cases"][name] = {
            "loss": loss.item(),
            "grads": [tensors["a%d" % i].grad.tolist()
                      for i in range(len(args))],
        }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "expected.json")
    with open(path, "w") as f:
        f.write('{"torch": %s, "cases": {\n' % json.dumps(out["torch"]))
        f.write(",\n".join('  %s: %s' % (json.dumps(k), json.dumps(v))
                           for k, v in out["cases"].items()))
        f.write("\n}}\n")
    print("wrote %d cases to %s" % (len(out["cases"]), path))


if __name__ == "__main__":
    main()
