// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// Without oneDNN: linalg.matmul widening bf16 to an f32 accumulator, one
// rounding epilogue.
// CHECK-LABEL: func.func @mm_bf16
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xbf16>, tensor<8x16xbf16>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<4x16xbf16>)
// CHECK: arith.truncf
func.func @mm_bf16(%a: tensor<4x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<4x16xbf16> {
  %r = tp.mm %a, %b : (tensor<4x8xbf16>, tensor<8x16xbf16>) -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}

// -----

// linear folds the batch into M; the bias is added in the epilogue.
// CHECK-LABEL: func.func @linear
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x3x8xf32> into tensor<6x8xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x8xf32>, tensor<8x4xf32>)
// CHECK: tensor.expand_shape
// CHECK: linalg.generic
// CHECK: arith.addf
func.func @linear(%x: tensor<2x3x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %r = tp.linear %x, %w bias(%b) : (tensor<2x3x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// Batched products with broadcast batch dimensions.
// CHECK-LABEL: func.func @matmul_bcast
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<6x5x8xf32>, tensor<6x8x4xf32>)
func.func @matmul_bcast(%a: tensor<2x1x5x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x3x5x4xf32> {
  %r = tp.matmul %a, %b : (tensor<2x1x5x8xf32>, tensor<3x8x4xf32>) -> tensor<2x3x5x4xf32>
  return %r : tensor<2x3x5x4xf32>
}

// -----

// Convolutions: im2col gather, then one batch_matmul over the groups.
// CHECK-LABEL: func.func @conv2d_groups
// CHECK: tensor.pad
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x4x10x10xf32>) outs(%{{.*}} : tensor<2x2x3x3x1x8x8xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x18xf32>, tensor<2x18x64xf32>)
func.func @conv2d_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32> {
  %r = tp.conv2d %x, %w {padding = array<i64: 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32>
  return %r : tensor<1x6x8x8xf32>
}
