// Loops and branches: loop-carried values keep consistent types, casts of
// loop-invariant values sit outside the loop.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s

// The weight is cast once before the loop; the carried value starts as f32,
// the body yields f16: it stays f32 (the wider type) and the yield widens.
// CHECK-LABEL: func.func @rnn_like
// CHECK: %[[W:.*]] = tp.cast %arg1 : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[H:.*]] = %arg0) -> (tensor<4x4xf32>) {
// CHECK-NEXT: %[[HC:.*]] = tp.cast %[[H]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: %[[M:.*]] = tp.mm %[[HC]], %[[W]] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT: %[[T:.*]] = tp.tanh %[[M]] : (tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT: %[[Y:.*]] = tp.cast %[[T]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[Y]] : tensor<4x4xf32>
// CHECK: return %[[R]] : tensor<4x4xf32>
func.func @rnn_like(%h0: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %h0) -> (tensor<4x4xf32>) {
    %m = tp.mm %h, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = tp.tanh %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %t : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// A carried value that starts f16 (from a matmul) but receives f32 in the
// body (softmax is on the fp32 list) widens to f32: the initial value is cast
// on entry and the body is processed with the wider type.
// CHECK-LABEL: func.func @widening_loop
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK: %[[M32:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %[[M32]]) -> (tensor<4x4xf32>) {
// CHECK-NEXT: %[[E:.*]] = tp.exp %[[X]] : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[E]] : tensor<4x4xf32>
func.func @widening_loop(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %m) -> (tensor<4x4xf32>) {
    %e = tp.exp %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %e : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Branches that yield different dtypes meet at the wider one.
// CHECK-LABEL: func.func @branches
// CHECK: %[[R:.*]] = scf.if %arg0 -> (tensor<4x4xf32>) {
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[C:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[C]] : tensor<4x4xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg1 : tensor<4x4xf32>
// CHECK: return %[[R]]
func.func @branches(%c: i1, %a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.if %c -> (tensor<4x4xf32>) {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  } else {
    scf.yield %a : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Both branches f16: the result is f16.
// CHECK-LABEL: func.func @branches_same
// CHECK: scf.if %arg0 -> (tensor<4x4xf16>)
func.func @branches_same(%c: i1, %a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.if %c -> (tensor<4x4xf32>) {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  } else {
    %n = tp.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// scf.while: the carried value keeps one type through both regions.
// CHECK-LABEL: func.func @while_loop
// CHECK: scf.while (%[[X:.*]] = %arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK: scf.condition(%{{.*}}) %[[X]] : tensor<4x4xf32>
// CHECK: ^bb0(%[[Y:.*]]: tensor<4x4xf32>):
// CHECK: tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK: %[[W:.*]] = tp.cast %{{.*}} : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: scf.yield %[[W]] : tensor<4x4xf32>
func.func @while_loop(%a: tensor<4x4xf32>, %go: i1) -> tensor<4x4xf32> {
  %r = scf.while (%x = %a) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    scf.condition(%go) %x : tensor<4x4xf32>
  } do {
  ^bb0(%y: tensor<4x4xf32>):
    %m = tp.mm %y, %y : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Unstructured control flow: a block argument takes the type its
// predecessors pass (test/Transforms/Autocast/block-order.mlir has more), and
// several returns meet at the widest type.
// CHECK-LABEL: func.func @multi_block
// CHECK-SAME: -> tensor<4x4xf32>
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK: cf.cond_br %arg1, ^bb1(%[[M]] : tensor<4x4xf16>), ^bb2
// CHECK: ^bb1(%[[X:.*]]: tensor<4x4xf16>):
// CHECK-NEXT: %[[X32:.*]] = tp.cast %[[X]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: tp.exp %[[X32]]
// CHECK: return %{{.*}} : tensor<4x4xf32>
func.func @multi_block(%a: tensor<4x4xf32>, %c: i1) -> tensor<4x4xf32> {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  cf.cond_br %c, ^bb1(%m : tensor<4x4xf32>), ^bb2
^bb1(%x: tensor<4x4xf32>):
  %e = tp.exp %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %e : tensor<4x4xf32>
^bb2:
  return %m : tensor<4x4xf32>
}

// A loop inside an explicit region: the weight enters the region and is cast
// once at its entry, outside the loop.
// CHECK-LABEL: func.func @loop_in_region
// CHECK: tp.autocast "cuda" dtype(bf16)
// CHECK-NEXT: %[[W:.*]] = tp.cast %arg1 : tensor<4x4xf32> to tensor<4x4xbf16>
// CHECK: scf.for
// CHECK-NOT: tp.cast %arg1
// CHECK: tp.mm %{{.*}}, %[[W]] : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
func.func @loop_in_region(%h0: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tp.device = "cuda"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = tp.autocast "cuda" dtype(bf16) -> tensor<4x4xf32> {
    %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%h = %h0) -> (tensor<4x4xf32>) {
      %m = tp.mm %h, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      scf.yield %m : tensor<4x4xf32>
    }
    tp.yield %l : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
