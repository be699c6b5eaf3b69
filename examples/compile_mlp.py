"""tensorplay.compile(model, backend="mlir") on a small MLP: inference in f32
and under CPU autocast, then a few GradScaler training steps on the digits.

  build/python-venv-1.0/bin/python examples/compile_mlp.py

(the venv that tools/scripts/run-python-tests.sh creates, or any Python with
tensorplay and `pip install ./python`).
"""

import time

import numpy as np
import tensorplay
import tensorplay.nn as nn
import tensorplay.nn.functional as F


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x, labels):
        logits = self.fc2(F.gelu(self.fc1(x)))
        return logits, F.cross_entropy(logits, labels)


def main():
    tensorplay.manual_seed(0)
    model = MLP()
    fast = tensorplay.compile(model, backend="mlir")
    x = tensorplay.randn(128, 64)
    labels = tensorplay.randint(0, 10, (128,))
    for autocast in (False, True):
        with tensorplay.no_grad(), tensorplay.autocast("cpu", enabled=autocast):
            t0 = time.perf_counter()
            logits, loss = fast(x, labels)
            first = time.perf_counter() - t0
            want, _ = model(x, labels)
        err = float(np.abs(logits.float().numpy() - want.float().numpy()).max())
        print(f"{'cpu:bf16' if autocast else 'f32':8} logits {logits.dtype}, "
              f"loss {float(loss):.4f}, max |compiled - eager| {err:.2e}, "
              f"first call {first * 1e3:.0f} ms")

    opt = tensorplay.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scaler = tensorplay.amp.GradScaler(device="cpu", init_scale=1024.0)
    for step in range(30):
        opt.zero_grad()
        with tensorplay.autocast("cpu"):
            _, loss = fast(x, labels)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        if step % 10 == 0 or step == 29:
            print(f"step {step:2} loss {float(loss):.4f} "
                  f"scale {scaler.get_scale():.0f}")


if __name__ == "__main__":
    main()
