// Sums of slice gradients over disjoint ranges, compiled as one
// concatenation (tp-join-slice-gradients), give the bits of the sum of the
// zero-padded pieces that NumPy computes in their dtype in the same order,
// -0 (which the sum turns into +0) and subnormals included: @gates joins
// four chunks along dim 1 (an LSTM's gate gradients, f32), @steps three time
// steps along dim 0 with gaps (f64).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/join_slice_gradients.py inputs %t
// RUN: tp-run %s --npy-dir=%t | count 0
// RUN: %python %S/Inputs/join_slice_gradients.py check %t | FileCheck %s
// RUN: tp-opt %s --tp-lower-to-cpu --mlir-print-ir-before=convert-tp-to-runtime 2>&1 | FileCheck %s --check-prefix=IR
// CHECK: gates: bit-identical to NumPy's sum
// CHECK: steps: bit-identical to NumPy's sum
// IR-NOT: slice_backward
// IR: tp.cat

func.func @gates(%i: tensor<4x8xf32>, %f: tensor<4x8xf32>, %g: tensor<4x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x32xf32> {
  %si = tp.slice_backward %i {dim = 1 : i64, input_sizes = array<i64: 4, 32>, start = 0 : i64, end = 8 : i64} : (tensor<4x8xf32>) -> tensor<4x32xf32>
  %sf = tp.slice_backward %f {dim = 1 : i64, input_sizes = array<i64: 4, 32>, start = 8 : i64, end = 16 : i64} : (tensor<4x8xf32>) -> tensor<4x32xf32>
  %sg = tp.slice_backward %g {dim = 1 : i64, input_sizes = array<i64: 4, 32>, start = 16 : i64, end = 24 : i64} : (tensor<4x8xf32>) -> tensor<4x32xf32>
  %so = tp.slice_backward %o {dim = 1 : i64, input_sizes = array<i64: 4, 32>, start = 24 : i64, end = 32 : i64} : (tensor<4x8xf32>) -> tensor<4x32xf32>
  %a = tp.add %so, %sg : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %b = tp.add %a, %sf : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %c = tp.add %b, %si : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %c : tensor<4x32xf32>
}

func.func @steps(%x0: tensor<1x3x5xf64>, %x2: tensor<1x3x5xf64>, %x3: tensor<1x3x5xf64>) -> tensor<6x3x5xf64> {
  %s0 = tp.slice_backward %x0 {input_sizes = array<i64: 6, 3, 5>, start = 0 : i64, end = 1 : i64} : (tensor<1x3x5xf64>) -> tensor<6x3x5xf64>
  %s2 = tp.slice_backward %x2 {input_sizes = array<i64: 6, 3, 5>, start = 2 : i64, end = 3 : i64} : (tensor<1x3x5xf64>) -> tensor<6x3x5xf64>
  %s3 = tp.slice_backward %x3 {input_sizes = array<i64: 6, 3, 5>, start = 3 : i64, end = 4 : i64} : (tensor<1x3x5xf64>) -> tensor<6x3x5xf64>
  %a = tp.add %s3, %s2 : (tensor<6x3x5xf64>, tensor<6x3x5xf64>) -> tensor<6x3x5xf64>
  %b = tp.add %a, %s0 : (tensor<6x3x5xf64>, tensor<6x3x5xf64>) -> tensor<6x3x5xf64>
  return %b : tensor<6x3x5xf64>
}
