// Functions named like C library symbols (exp, sin) do not capture the libm
// calls compiled code makes: exp of arguments whose results are subnormal
// and sin of huge arguments call libm's f64 exp and sin, and a JIT symbol
// @exp used to receive those calls (a crash). The values are libm's,
// rounded to f32: exp(-100) is 27 subnormal units (3.72e-44 rounded),
// sin(1e10) = -0.4875060.
// RUN: tp-run %s --print | FileCheck %s
// RUN: tp-run %s --print --pipeline-options="parallel=0 vectorize=0" | FileCheck %s

// CHECK: @exp result #0: [3.783506e-44, 2.718282, 8.194009e-40]
// CHECK: @sin result #0: [-0.487506, 0.4794255]
func.func @exp() -> tensor<3xf32> {
  %x = tp.constant dense<[-100.0, 1.0, -90.0]> : tensor<3xf32>
  %r = tp.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @sin() -> tensor<2xf32> {
  %x = tp.constant dense<[1.0e10, 0.5]> : tensor<2xf32>
  %r = tp.sin %x : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
