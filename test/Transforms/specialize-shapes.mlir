// tp-specialize-shapes gives the ? argument dimensions their sizes and
// infers every op's result types again: tp ops by their rules, tp.cast
// from its operand's shape, region ops from what they yield; the function
// type follows. An op whose rules refuse the sizes is an error at the op.
// RUN: tp-opt %s --tp-specialize-shapes="sizes=5" --split-input-file -verify-diagnostics | FileCheck %s
// RUN: tp-opt %s --tp-specialize-shapes="functions=two sizes=3,7,7" --split-input-file | FileCheck %s --check-prefix=TWO

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %{{.*}}: tensor<5x64xf32>, %{{.*}}: tensor<32x64xf32>, %{{.*}}: tensor<32xf32>) -> tensor<5x32xf32>
// CHECK: tp.linear {{.*}} -> tensor<5x32xf32>
// CHECK: tp.cast %{{.*}} : tensor<5x32xf32> to tensor<5x32xbf16>
// CHECK: tp.autocast "cpu" -> tensor<5x32xbf16>
// CHECK: tp.softmax {{.*}} : (tensor<5x32xbf16>) -> tensor<5x32xbf16>
// CHECK: return %{{.*}} : tensor<5x32xf32>
func.func @mlp(%x: tensor<?x64xf32>, %w: tensor<32x64xf32>, %b: tensor<32xf32>) -> tensor<?x32xf32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<?x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  %c = tp.cast %h : tensor<?x32xf32> to tensor<?x32xbf16>
  %s = tp.autocast "cpu" -> tensor<?x32xbf16> {
    %t = tp.softmax %c {dim = 1 : i64} : (tensor<?x32xbf16>) -> tensor<?x32xbf16>
    tp.yield %t : tensor<?x32xbf16>
  } attributes {enabled = false}
  %o = tp.cast %s : tensor<?x32xbf16> to tensor<?x32xf32>
  return %o : tensor<?x32xf32>
}

// -----

// TWO-LABEL: func.func @two(
// TWO-SAME: tensor<3x7xf32>, %{{.*}}: tensor<7xf32>) -> tensor<3x7xf32>
// CHECK-LABEL: func.func @two(
// CHECK-SAME: tensor<5x5xf32>, %{{.*}}: tensor<5xf32>) -> tensor<5x5xf32>
func.func @two(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = tp.add %x, %y : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

func.func @fixed_reshape(%x: tensor<?x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+2 {{'tp.reshape' op shape [4, 16] is invalid for an input of 40 elements}}
  // expected-error @+1 {{tp-specialize-shapes: the op's shape rules refuse the shapes of @fixed_reshape specialized to (tensor<5x8xf32>)}}
  %r = tp.reshape %x {shape = array<i64: 4, 16>} : (tensor<?x8xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
