// reshape follows PyTorch's infer_size: -1 takes what the other sizes leave,
// also for tensors of 0 elements when the other sizes do not multiply to 0
// (invalid.mlir has the ambiguous and the overflowing cases).
// RUN: tp-opt %s | FileCheck %s

// CHECK-LABEL: func.func @zero_elements(
// CHECK: tp.reshape %{{.*}} {shape = array<i64: -1, 6>} : (tensor<0x6xf32>) -> tensor<0x6xf32>
// CHECK: tp.reshape %{{.*}} {shape = array<i64: 3, 0, 2>} : (tensor<0x6xf32>) -> tensor<3x0x2xf32>
// CHECK: tp.reshape %{{.*}} {shape = array<i64: 2, -1>} : (tensor<?x6xf32>) -> tensor<2x?xf32>
func.func @zero_elements(%x: tensor<0x6xf32>, %d: tensor<?x6xf32>) {
  %a = tp.reshape %x {shape = array<i64: -1, 6>} : (tensor<0x6xf32>) -> tensor<0x6xf32>
  %b = tp.reshape %x {shape = array<i64: 3, 0, 2>} : (tensor<0x6xf32>) -> tensor<3x0x2xf32>
  %c = tp.reshape %d {shape = array<i64: 2, -1>} : (tensor<?x6xf32>) -> tensor<2x?xf32>
  return
}
