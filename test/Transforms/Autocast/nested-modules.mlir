// Functions in nested modules are autocast like top-level ones; calls
// resolve (and callees are specialized) within their own module.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s

// CHECK-LABEL: module @inner {
// CHECK-LABEL: func.func @f(
// CHECK: call @g(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf16>
// CHECK: func.call @g_autocast_off(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: tp.add %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-LABEL: func.func private @g(
// CHECK: tp.mm {{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-LABEL: func.func private @g_autocast_off(
// CHECK-NEXT: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-LABEL: module @deeper {
// CHECK-LABEL: func.func @h(
// CHECK: tp.linear {{.*}} -> tensor<2x4xf16>
// The top-level @g is another function.
// CHECK-LABEL: func.func @g(
// CHECK: tp.sigmoid {{.*}} : (tensor<4x4xf32>) -> tensor<4x4xf32>
module @inner {
  func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %c = func.call @g(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %d = tp.autocast "cuda" -> tensor<4x4xf32> {
      %e = func.call @g(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
      tp.yield %e : tensor<4x4xf32>
    } attributes {enabled = false}
    %s = tp.add %c, %d : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %s : tensor<4x4xf32>
  }
  func.func private @g(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    return %m : tensor<4x4xf32>
  }
  module @deeper {
    func.func @h(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> {
      %y = tp.linear %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
      return %y : tensor<2x4xf32>
    }
  }
}
func.func @g(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = tp.sigmoid %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
