// Unlisted ops run in their inputs' types, re-inferred downstream; function
// results take the new types, or keep theirs with keep-io-types.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s
// RUN: tp-opt --autocast=cuda:fp16 --autocast-keep-io-types %s | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @relu_after_mm
// CHECK-SAME: -> (tensor<4x16xf16>, tensor<4x16xf32>)
// CHECK: %[[M:.*]] = tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
// CHECK: %[[R:.*]] = tp.relu %[[M]] : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %[[S:.*]] = tp.add %[[R]], %arg2 : (tensor<4x16xf16>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK: return %[[R]], %[[S]] : tensor<4x16xf16>, tensor<4x16xf32>
// KEEP-LABEL: func.func @relu_after_mm
// KEEP-SAME: -> (tensor<4x16xf32>, tensor<4x16xf32>)
// KEEP: %[[R:.*]] = tp.relu
// KEEP-NEXT: %[[C:.*]] = tp.cast %[[R]] : tensor<4x16xf16> to tensor<4x16xf32>
// KEEP-NEXT: %[[S:.*]] = tp.add %[[R]], %arg2
// KEEP: return %[[C]], %[[S]] : tensor<4x16xf32>, tensor<4x16xf32>
func.func @relu_after_mm(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %r = tp.relu %m : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = tp.add %r, %bias : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %r, %s : tensor<4x16xf32>, tensor<4x16xf32>
}

// A 0-d f32 operand does not promote an f16 tensor (tensorplay's rule).
// CHECK-LABEL: func.func @zero_dim_scale
// CHECK: tp.mul %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<f32>) -> tensor<4x4xf16>
func.func @zero_dim_scale(%a: tensor<4x4xf32>, %s: tensor<f32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tp.mul %m, %s : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// Ops of other dialects keep their original operand types.
// CHECK-LABEL: func.func @foreign_user
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<2x2xf16>
// CHECK: %[[C:.*]] = tp.cast %[[M]] : tensor<2x2xf16> to tensor<2x2xf32>
// CHECK: tensor.extract %[[C]]
func.func @foreign_user(%a: tensor<2x2xf32>) -> f32 {
  %m = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %m[%c0, %c0] : tensor<2x2xf32>
  return %e : f32
}

// A same-dtype op downstream of a lower-precision op and an f32 value is an
// error, as in eager autocast.
// RUN: not tp-opt --autocast=xpu:fp16 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: error: 'tp.prelu' op operands have incompatible dtypes after autocast: 'f16', 'f32'
// MIXED: note: this op is not on a cast list of the active policy
func.func @mixed_same_dtype(%a: tensor<2x3xf32>, %sq: tensor<3x3xf32>, %w: tensor<3xf32>) -> tensor<2x3xf32> {
  %m = tp.mm %a, %sq : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %r = tp.prelu %m, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
