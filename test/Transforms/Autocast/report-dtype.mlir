// The report's dtype column is the dtype an op computes in, not its first
// result's element type: matrix_rank on the cpu fp32 list computes in f32
// (after the bf16 -> f32 cast) and returns i64; an fft of f32 computes in
// f32 and returns complex<f32>; argmax of bf16 computes in bf16.
// RUN: tp-opt --autocast=cpu:bf16 --autocast-report=- %s -o /dev/null | FileCheck %s

// CHECK: autocast report
// CHECK: tp.linalg_matrix_rank cpu fp32 f32 fp32 list #0 bf16->f32
// CHECK: tp.fft_rfft cpu {{[a-z0-9]+}} f32
// CHECK: tp.argmax cpu unlisted bf16
// CHECK: summary: 4 ops (bf16: 2, f32: 2)
func.func @f(%a: tensor<2x4x4xbf16>, %x: tensor<8xf32>) -> (tensor<2xi64>, tensor<5xcomplex<f32>>, tensor<i64>) {
  %r = tp.linalg_matrix_rank %a : (tensor<2x4x4xbf16>) -> tensor<2xi64>
  %f = tp.fft_rfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %n = tp.neg %a : (tensor<2x4x4xbf16>) -> tensor<2x4x4xbf16>
  %i = tp.argmax %n : (tensor<2x4x4xbf16>) -> tensor<i64>
  return %r, %f, %i : tensor<2xi64>, tensor<5xcomplex<f32>>, tensor<i64>
}
