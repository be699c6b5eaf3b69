// An op with mixed floating operands (captured under eager autocast) is
// resolved by autocast as eager autocast does: a promote-list op computes in
// the widest dtype, a lower-precision-list op in the autocast dtype; an op
// on no list is an error, as in eager mode.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s --check-prefix=CUDA
// RUN: tp-opt --autocast=cpu:bf16 %s -split-input-file -verify-diagnostics -o /dev/null

// CUDA-LABEL: func.func @dot_promotes
// CUDA: %[[A:.*]] = tp.cast %arg0 : tensor<8xf16> to tensor<8xf32>
// CUDA: tp.dot %[[A]], %arg1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
func.func @dot_promotes(%a: tensor<8xf16>, %b: tensor<8xf32>) -> tensor<f32> {
  // expected-error @+2 {{'tp.dot' op operands have incompatible dtypes after autocast: 'f16', 'f32'}}
  // expected-note @+1 {{this op is not on a cast list of the active policy and requires matching dtypes}}
  %r = tp.dot %a, %b : (tensor<8xf16>, tensor<8xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// CUDA-LABEL: func.func @mm_lower
// CUDA: %[[W:.*]] = tp.cast %arg1 : tensor<8x16xf32> to tensor<8x16xf16>
// CUDA: tp.mm %arg0, %[[W]] : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
func.func @mm_lower(%x: tensor<4x8xf16>, %w: tensor<8x16xf32>) -> tensor<4x16xf16> {
  %r = tp.mm %x, %w : (tensor<4x8xf16>, tensor<8x16xf32>) -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}
