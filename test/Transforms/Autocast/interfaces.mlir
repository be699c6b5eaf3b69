// The pass knows functions, calls and control flow through MLIR's
// interfaces (FunctionOpInterface, CallOpInterface, RegionBranchOpInterface,
// BranchOpInterface), not by op name: ops of dialects it never names (affine,
// gpu) are autocast like their func and scf counterparts.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=- %s -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT

// A loop carries the type of the values that reach it: the initial value is
// an f16 product and the body yields f16, so the loop carries f16 with no
// cast (eager autocast carries the f16 tensor too).
// CHECK-LABEL: func.func @affine_loop
// CHECK-SAME: -> tensor<4x4xf16>
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[R:.*]] = affine.for %{{.*}} = 0 to 8 iter_args(%[[H:.*]] = %[[M]]) -> (tensor<4x4xf16>) {
// CHECK-NEXT: %[[N:.*]] = tp.mm %[[H]], %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT: affine.yield %[[N]] : tensor<4x4xf16>
// CHECK: return %[[R]] : tensor<4x4xf16>
func.func @affine_loop(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = affine.for %i = 0 to 8 iter_args(%h = %m) -> (tensor<4x4xf32>) {
    %n = tp.mm %h, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    affine.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// The same with scf.for: the same rule, not a second implementation.
// CHECK-LABEL: func.func @scf_loop
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: scf.for {{.*}} iter_args(%[[H:.*]] = %[[M]]) -> (tensor<4x4xf16>) {
// CHECK-NEXT: tp.mm %[[H]], %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @scf_loop(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = tp.mm %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%h = %m) -> (tensor<4x4xf32>) {
    %n = tp.mm %h, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// The body yields f32 (softmax is on the fp32 list) where the initial value
// is f16: the carried value widens to f32, the initial value is cast once on
// entry and the body is processed again with the wider type (no cast left
// inside; softmax of f32 needs no dtype). The report gives softmax the
// decision of the last round, not one read from the dtype the first round
// set.
// CHECK-LABEL: func.func @affine_widen
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[M32:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: affine.for {{.*}} iter_args(%[[H:.*]] = %[[M32]]) -> (tensor<4x4xf32>) {
// CHECK-NEXT: %[[S:.*]] = tp.softmax %[[H]] {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: affine.yield %[[S]] : tensor<4x4xf32>
// REPORT: interfaces.mlir:[[@LINE+4]]:10 tp.softmax cuda fp32 f32 fp32 list: dtype=f32 -
func.func @affine_widen(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = affine.for %i = 0 to 8 iter_args(%h = %m) -> (tensor<4x4xf32>) {
    %n = tp.softmax %h {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    affine.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// affine.if: the result takes the widest type its branches yield.
// CHECK-LABEL: func.func @affine_branch
// CHECK: affine.if #{{.*}}(%arg2) -> tensor<4x4xf32> {
// CHECK-NEXT: %[[P:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[P32:.*]] = tp.cast %[[P]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: affine.yield %[[P32]] : tensor<4x4xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[E:.*]] = tp.exp %arg0 : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: affine.yield %[[E]] : tensor<4x4xf32>
func.func @affine_branch(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %n: index) -> tensor<4x4xf32> {
  %r = affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) -> tensor<4x4xf32> {
    %m = tp.mm %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    affine.yield %m : tensor<4x4xf32>
  } else {
    %e = tp.exp %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
    affine.yield %e : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// scf.forall's results come from tensor.parallel_insert_slice, which its
// successor edges do not describe: it is an opaque op, its shared output
// keeps its f32 type.
// CHECK-LABEL: func.func @forall_opaque
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[M32:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %[[M32]]) -> (tensor<4x4xf32>)
// CHECK: return %{{.*}} : tensor<4x4xf32>
func.func @forall_opaque(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %m) -> (tensor<4x4xf32>) {
    %s = tensor.extract_slice %o[%i, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<4x4xf32>
    }
  }
  return %r : tensor<4x4xf32>
}

// gpu.func is a FunctionOpInterface op and gpu.return its return: the
// result takes the product's f16 type, as func.func's does.
// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @g(%[[A:.*]]: tensor<4x4xf32>) -> tensor<4x4xf16>
// CHECK-NEXT: %[[C:.*]] = tp.cast %[[A]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: %[[P:.*]] = tp.mm %[[C]], %[[C]] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT: gpu.return %[[P]] : tensor<4x4xf16>
gpu.module @kernels {
  gpu.func @g(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    gpu.return %m : tensor<4x4xf32>
  }
}

// scf.while: the condition's values reach both the after region and the
// results, so each after-region argument and its result form one group; the
// before-region argument is fed by the initial value and the after yield.
// CHECK-LABEL: func.func @while_groups
// CHECK-SAME: -> (tensor<4x4xf16>, tensor<4x4xf32>)
// CHECK: scf.while (%[[X:.*]] = %arg0) : (tensor<4x4xf32>) -> (tensor<4x4xf16>, tensor<4x4xf32>) {
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: scf.condition(%arg2) %[[M]], %[[X]] : tensor<4x4xf16>, tensor<4x4xf32>
// CHECK: ^bb0(%[[Y:.*]]: tensor<4x4xf16>, %{{.*}}: tensor<4x4xf32>):
// CHECK-NEXT: %[[S:.*]] = tp.softmax %[[Y]] {dim = 1 : i64, dtype = f32} : (tensor<4x4xf16>) -> tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[S]] : tensor<4x4xf32>
// CHECK: return %{{.*}}#0, %{{.*}}#1 : tensor<4x4xf16>, tensor<4x4xf32>
func.func @while_groups(%a: tensor<4x4xf32>, %w: tensor<4x4xf32>, %go: i1) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %r:2 = scf.while (%x = %a) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
    %m = tp.mm %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.condition(%go) %m, %x : tensor<4x4xf32>, tensor<4x4xf32>
  } do {
  ^bb0(%y: tensor<4x4xf32>, %z: tensor<4x4xf32>):
    %s = tp.softmax %y {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %s : tensor<4x4xf32>
  }
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xf32>
}
