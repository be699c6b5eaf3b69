#!/usr/bin/env python3
"""Data for train-encoder.mlir: 32 random (128, 512) sequences and, as the
target, each row normalized (a mapping the post-norm encoder block can
learn: its residual path starts near it).

Usage: make-encoder-data.py PREFIX   (writes PREFIX.x.npy, PREFIX.y.npy)
"""
import sys

import numpy as np

r = np.random.RandomState(3)
x = r.randn(32, 128, 512).astype(np.float32)
y = (x - x.mean(-1, keepdims=True)) / x.std(-1, keepdims=True)
np.save(sys.argv[1] + ".x.npy", x)
np.save(sys.argv[1] + ".y.npy", y.astype(np.float32))
