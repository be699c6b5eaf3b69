// cross_entropy (the functional, named by the cuda table) is implemented by
// cross_entropy_loss (named by the cpu table): either name is on the list.
// RUN: tp-opt --autocast=cpu %s | FileCheck %s --check-prefix=CPU
// RUN: tp-opt --autocast=cuda %s | FileCheck %s --check-prefix=CUDA

// CPU-LABEL: func.func @logits_loss
// CPU: %[[L:.*]] = tp.linear {{.*}} -> tensor<4x10xbf16>
// CPU: %[[C:.*]] = tp.cast %[[L]] : tensor<4x10xbf16> to tensor<4x10xf32>
// CPU: tp.cross_entropy %[[C]], %arg2 : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
// CPU: tp.cross_entropy_loss %[[C]], %arg2 : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
// CUDA-LABEL: func.func @logits_loss
// CUDA: %[[L:.*]] = tp.linear {{.*}} -> tensor<4x10xf16>
// CUDA: %[[C:.*]] = tp.cast %[[L]] : tensor<4x10xf16> to tensor<4x10xf32>
// CUDA: tp.cross_entropy %[[C]], %arg2 : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
// CUDA: tp.cross_entropy_loss %[[C]], %arg2 : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
func.func @logits_loss(%x: tensor<4x8xf32>, %w: tensor<10x8xf32>, %t: tensor<4xi64>) -> (tensor<f32>, tensor<f32>) {
  %l = tp.linear %x, %w : (tensor<4x8xf32>, tensor<10x8xf32>) -> tensor<4x10xf32>
  %a = tp.cross_entropy %l, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  %b = tp.cross_entropy_loss %l, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %a, %b : tensor<f32>, tensor<f32>
}
