// tp-cast-arguments retypes an f32 argument whose every use is a cast to one
// half type: the weights of an autocast forward. An argument with another
// use, casts to two types, an argument outside `args`, a non-f32 argument
// and a function not listed keep their types.
// RUN: tp-opt %s --tp-cast-arguments="functions=f" | FileCheck %s
// RUN: tp-opt %s --tp-cast-arguments="functions=f args=0,2" | FileCheck %s --check-prefix=SOME
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-cast-arguments="functions=mlp" | FileCheck %s --check-prefix=AUTOCAST

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[W:.*]]: tensor<2x3xbf16>, %[[B:.*]]: tensor<2xbf16>, %[[V:.*]]: tensor<2x3xf32>, %[[U:.*]]: tensor<2x3xf32>, %[[X:.*]]: tensor<4x3xbf16>)
// CHECK-SAME: attributes {tp.cast_arguments = array<i64: 0, 1>}
// CHECK-NEXT: tp.linear %[[X]], %[[W]] bias(%[[B]])
// CHECK-NEXT: tp.cast %[[V]] : tensor<2x3xf32> to tensor<2x3xbf16>
// CHECK-NEXT: tp.cast %[[U]] : tensor<2x3xf32> to tensor<2x3xbf16>
// CHECK-NEXT: tp.cast %[[U]] : tensor<2x3xf32> to tensor<2x3xf16>
// CHECK: tp.add %[[V]]
// SOME-LABEL: func.func @f(
// SOME-SAME: tensor<2x3xbf16>, %{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2x3xf32>
// SOME-SAME: tp.cast_arguments = array<i64: 0>
func.func @f(%w: tensor<2x3xf32>, %b: tensor<2xf32>, %v: tensor<2x3xf32>, %u: tensor<2x3xf32>, %x: tensor<4x3xbf16>) -> (tensor<4x2xbf16>, tensor<2x3xf32>, tensor<2x3xf16>) {
  %wb = tp.cast %w : tensor<2x3xf32> to tensor<2x3xbf16>
  %bb = tp.cast %b : tensor<2xf32> to tensor<2xbf16>
  %h = tp.linear %x, %wb bias(%bb) : (tensor<4x3xbf16>, tensor<2x3xbf16>, tensor<2xbf16>) -> tensor<4x2xbf16>
  %vb = tp.cast %v : tensor<2x3xf32> to tensor<2x3xbf16>
  %ub = tp.cast %u : tensor<2x3xf32> to tensor<2x3xbf16>
  %uh = tp.cast %u : tensor<2x3xf32> to tensor<2x3xf16>
  %s = tp.add %v, %v : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %h, %s, %uh : tensor<4x2xbf16>, tensor<2x3xf32>, tensor<2x3xf16>
}

// CHECK-LABEL: func.func @g(%{{.*}}: tensor<2xf32>)
// CHECK-NOT: tp.cast_arguments
func.func @g(%w: tensor<2xf32>) -> tensor<2xbf16> {
  %wb = tp.cast %w : tensor<2xf32> to tensor<2xbf16>
  return %wb : tensor<2xbf16>
}

// Under autocast the linear layer's weight and bias are cast to bf16 and
// nothing else reads them; the input is cast too and becomes bf16.
// AUTOCAST-LABEL: func.func @mlp(
// AUTOCAST-SAME: %{{.*}}: tensor<4x3xbf16>, %{{.*}}: tensor<2x3xbf16>, %{{.*}}: tensor<2xbf16>)
// AUTOCAST-SAME: tp.cast_arguments = array<i64: 0, 1, 2>
// AUTOCAST-NOT: tp.cast
// AUTOCAST: return
func.func @mlp(%x: tensor<4x3xf32>, %w: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<4x2xf32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %h : tensor<4x2xf32>
}
