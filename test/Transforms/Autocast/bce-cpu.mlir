// On cpu binary_cross_entropy is on the fp32 list: a bf16 input is cast to f32.
// RUN: tp-opt --autocast=cpu %s | FileCheck %s

// CHECK-LABEL: func.func @bce_cpu
// CHECK: %[[M:.*]] = tp.matmul {{.*}} -> tensor<8xbf16>
// CHECK: %[[C:.*]] = tp.cast %[[M]] : tensor<8xbf16> to tensor<8xf32>
// CHECK: tp.binary_cross_entropy %[[C]], %arg2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
func.func @bce_cpu(%x: tensor<8xf32>, %w: tensor<8x8xf32>, %t: tensor<8xf32>) -> tensor<f32> {
  %p = tp.matmul %x, %w : (tensor<8xf32>, tensor<8x8xf32>) -> tensor<8xf32>
  %l = tp.binary_cross_entropy %p, %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
