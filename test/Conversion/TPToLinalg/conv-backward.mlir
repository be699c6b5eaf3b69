// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// Without oneDNN the weight gradient of convolution_backward is one
// batch_matmul over the groups: the gradient [G, C_out/G, N*O] times the
// transposed im2col of the input [G, N*O, C_in/G*K], accumulated in f32 for
// f16 and rounded once; the unused input and bias gradients are not built.
// CHECK-LABEL: func.func @weight_f16
// CHECK-NOT: tp.
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x27xf32>)
// CHECK: %[[P:.*]] = linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x4x24xf16>, tensor<1x24x27xf16>) outs(%[[ACC]] : tensor<1x4x27xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
func.func @weight_f16(%g: tensor<2x4x4x3xf16>, %x: tensor<2x3x7x6xf16>, %w: tensor<4x3x3x3xf16>) -> tensor<4x3x3x3xf16> {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>, transposed = false} : (tensor<2x4x4x3xf16>, tensor<2x3x7x6xf16>, tensor<4x3x3x3xf16>) -> (tensor<2x3x7x6xf16>, tensor<4x3x3x3xf16>, tensor<4xf16>)
  return %gw : tensor<4x3x3x3xf16>
}

// -----

// Grouped: one product per group (G = 2 in the batch dimension).
// CHECK-LABEL: func.func @weight_groups
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x16xf32>, tensor<2x16x6xf32>) outs(%{{.*}} : tensor<2x3x6xf32>)
func.func @weight_groups(%g: tensor<2x6x8xf32>, %x: tensor<2x4x17xf32>, %w: tensor<6x2x3xf32>) -> tensor<6x2x3xf32> {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 2>, groups = 2 : i64, output_padding = array<i64: 0>, padding = array<i64: 1>, stride = array<i64: 2>, transposed = false} : (tensor<2x6x8xf32>, tensor<2x4x17xf32>, tensor<6x2x3xf32>) -> (tensor<2x4x17xf32>, tensor<6x2x3xf32>, tensor<6xf32>)
  return %gw : tensor<6x2x3xf32>
}

// -----

// The input and bias gradients: a transposed convolution (the flipped
// weight, a stride-1 im2col product) and a sum over batch and space.
// CHECK-LABEL: func.func @input_and_bias
// CHECK: linalg.batch_matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<2x4x4x3xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NOT: tp.
func.func @input_and_bias(%g: tensor<2x4x4x3xf32>, %x: tensor<2x3x7x6xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<2x3x7x6xf32>, tensor<4xf32>) {
  %gi, %gw, %gb = tp.convolution_backward %g, %x, %w {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>, transposed = false} : (tensor<2x4x4x3xf32>, tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>) -> (tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>)
  return %gi, %gb : tensor<2x3x7x6xf32>, tensor<4xf32>
}
