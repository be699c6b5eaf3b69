#!/usr/bin/env python3
"""The arguments of @digits_cnn_loss_grad (examples/digits_cnn.mlir) for
grad-precision.mlir, the same values in f32 and in f64:

  cnn-args.py F32_DIR F64_DIR

Images uniform in [0, 1], labels in [0, 10), weights uniform in
+-1/sqrt(fan-in), biases small.
"""
import os
import sys

import numpy as np

r = np.random.RandomState(5)
shapes = [(64, 64), (64,), (8, 1, 3, 3), (8,), (16, 8, 3, 3), (16,),
          (10, 256), (10,)]
args = []
for i, shape in enumerate(shapes):
    if i == 1:
        args.append(r.randint(0, 10, shape).astype(np.int64))
    elif i == 0:
        args.append(r.uniform(0, 1, shape).astype(np.float32))
    else:
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 16
        bound = 1 / np.sqrt(fan_in)
        args.append(r.uniform(-bound, bound, shape).astype(np.float32))
for directory, dtype in ((sys.argv[1], np.float32), (sys.argv[2], np.float64)):
    os.makedirs(directory, exist_ok=True)
    for i, a in enumerate(args):
        a = a if a.dtype == np.int64 else a.astype(dtype)
        np.save(os.path.join(directory, "digits_cnn_loss_grad.arg%d.npy" % i),
                a)
