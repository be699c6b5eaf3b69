// Ops whose rule wants one floating dtype hold several in their functional
// form: a program captured under eager autocast, before tp-autocast
// resolves it (test/Transforms/Autocast/mixed-dtypes.mlir). The declared
// result dtype is what eager autocast gave and is kept as written.
// RUN: tp-opt %s | tp-opt | FileCheck %s

// CHECK-LABEL: func.func @captured
// CHECK: tp.dot %arg0, %arg1 : (tensor<8xf16>, tensor<8xf32>) -> tensor<f32>
// CHECK: tp.mm %arg2, %arg3 : (tensor<4x8xf16>, tensor<8x16xf32>) -> tensor<4x16xf16>
// CHECK: tp.mm %arg2, %arg3 : (tensor<4x8xf16>, tensor<8x16xf32>) -> tensor<4x16xbf16>
func.func @captured(%a: tensor<8xf16>, %b: tensor<8xf32>, %x: tensor<4x8xf16>, %w: tensor<8x16xf32>) -> (tensor<f32>, tensor<4x16xf16>, tensor<4x16xbf16>) {
  %d = tp.dot %a, %b : (tensor<8xf16>, tensor<8xf32>) -> tensor<f32>
  %m = tp.mm %x, %w : (tensor<4x8xf16>, tensor<8x16xf32>) -> tensor<4x16xf16>
  %n = tp.mm %x, %w : (tensor<4x8xf16>, tensor<8x16xf32>) -> tensor<4x16xbf16>
  return %d, %m, %n : tensor<f32>, tensor<4x16xf16>, tensor<4x16xbf16>
}
