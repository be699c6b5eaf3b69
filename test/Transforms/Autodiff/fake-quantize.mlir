// fake_quantize_per_tensor_affine's backward: aten's straight-through mask,
// g where round(x / scale) + zero_point lies in [quant_min, quant_max],
// else 0. With scale 0.5, zero_point 1 and [-2, 3], round(2 x) must lie in
// [-3, 2], rounding half to even: -1.75 (2x = -3.5 -> -4) and 1.75 (3.5 ->
// 4) are out, -1.25 (-2.5 -> -2) and 1.25 (2.5 -> 2) in, -1.5 (-3) in,
// 1.5 (3) out. The gradient of sum(w * fq(x)) is w where x is in.
// RUN: tp-opt %s --tp-autodiff -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.array([-1.75, -1.25, -1.5, 1.0, 1.25, 1.75, 1.5, 0.0], np.float32))"
// RUN: tp-run %t.mlir --entry=loss_grad --input=%t.x.npy --print | FileCheck %s
// Under autocast (fake quantization runs in f32) the rule is the same.
// RUN: tp-run %t.mlir --autocast=cpu:bf16 --entry=loss_grad --input=%t.x.npy --print | FileCheck %s

// The rounded x / scale is a fake quantization of scale 1 with the bounds
// minus the zero point, one step wider, compared with the bounds.
// IR-LABEL: func.func @loss_grad(
// IR: %[[T:.*]] = tp.mul %arg0, %{{.*}} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// IR: %[[K:.*]] = tp.fake_quantize_per_tensor_affine %[[T]] {quant_max = 3 : i64, quant_min = -4 : i64, scale = 1.000000e+00 : f64, zero_point = 0 : i64}
// IR: tp.ge %[[K]], %{{.*}}
// IR: tp.le %[[K]], %{{.*}}

// The loss: fq(x) = [-1.5, -1, -1.5, 1, 1, 1, 1, 0] (the levels -2 .. 3
// minus 1, times 0.5), so w . fq(x) = -1.5 - 2 - 4.5 + 4 + 5 + 6 + 7 = 14;
// then the masked weights.
// CHECK: @loss_grad result #0: 14{{$}}
// CHECK: @loss_grad result #1: [0, 2, 3, 4, 5, 0, 0, 8]
func.func @loss(%x: tensor<8xf32>) -> tensor<f32> {
  %w = tp.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %q = tp.fake_quantize_per_tensor_affine %x {quant_max = 3 : i64, quant_min = -2 : i64, scale = 0.5 : f64, zero_point = 1 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %p = tp.mul %q, %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %s = tp.sum %p : (tensor<8xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
