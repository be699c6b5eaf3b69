// Results computed in their out-params (Conversion/Pipelines/result-
// buffers.mlir) hold the right values: a value returned twice, an argument
// returned, a view of a result, a result read after it is computed, and a
// result whose buffer bufferization reuses for a temporary first; against
// NumPy.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t/f.arg0.npy', r.uniform(-2, 2, (8, 16)).astype(np.float32)); np.save('%t/f.arg1.npy', r.uniform(-0.5, 0.5, (16, 16)).astype(np.float32))"
// RUN: tp-run %s --entry=f --npy-dir=%t
// RUN: %python %S/Inputs/result_buffers.py %t | FileCheck %s
// RUN: tp-run %s --entry=f --npy-dir=%t --num-threads=2 --no-cache
// RUN: %python %S/Inputs/result_buffers.py %t | FileCheck %s
// CHECK: 7 results match NumPy

func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<128xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>) {
  %h = tp.linear %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %e = tp.exp %h : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = tp.relu %e : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %v = tp.reshape %e {shape = array<i64: 128>} : (tensor<8x16xf32>) -> tensor<128xf32>
  %t = tp.tanh %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = tp.mul %t, %h : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %h, %e, %e, %v, %s, %w, %r : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<128xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>
}
