// The generic form of tp ops parses and prints back in the custom form.
// RUN: tp-opt %s | FileCheck %s

// CHECK-LABEL: func.func @generic
func.func @generic(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %bias: tensor<4xf32>) -> (tensor<4x16xf16>, tensor<2x4x8x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[MM:.*]] = tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %0 = "tp.mm"(%a, %b) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: tp.cast %[[MM]] : tensor<4x16xf32> to tensor<4x16xf16>
  %1 = "tp.cast"(%0) : (tensor<4x16xf32>) -> tensor<4x16xf16>
  // CHECK: tp.conv2d %{{.*}}, %{{.*}} bias(%{{.*}}) {padding = array<i64: 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
  %2 = "tp.conv2d"(%x, %w, %bias) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, padding = array<i64: 1>}> : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x8x8xf32>
  // CHECK: tp.softmax %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = "tp.softmax"(%a) <{dim = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1, %2, %3 : tensor<4x16xf16>, tensor<2x4x8x8xf32>, tensor<4x8xf32>
}
