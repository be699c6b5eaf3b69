// Blocks are processed in dominance order, and block arguments are
// reconciled with what their predecessors pass (BranchOpInterface).
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s
// RUN: tp-opt --autocast=cuda:fp16 %s | tp-opt --verify-each | FileCheck %s --check-prefix=VALID

// VALID-LABEL: func.func @later_block_defines

// A block laid out first uses a value defined by a block laid out after it
// (which dominates it). In layout order the relu was processed before the
// product had become f16 and then read an f16 operand with an f32 result.
// CHECK-LABEL: func.func @later_block_defines
// CHECK-SAME: -> tensor<4x4xf16>
// CHECK: cf.br ^[[DEF:bb[0-9]+]]
// CHECK: ^{{bb[0-9]+}}(%[[ARG:.*]]: tensor<4x4xf16>):
// CHECK-NEXT: %[[R:.*]] = tp.relu %[[P:[0-9]+]] : (tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT: %[[S:.*]] = tp.add %[[R]], %[[ARG]] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK-NEXT: return %[[S]] : tensor<4x4xf16>
// CHECK: ^[[DEF]]:
// CHECK-NEXT: %[[P]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: cf.br ^{{bb[0-9]+}}(%[[P]] : tensor<4x4xf16>)
func.func @later_block_defines(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  cf.br ^def
^use(%m: tensor<4x4xf32>):
  %r = tp.relu %p : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = tp.add %r, %m : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
^def:
  %p = tp.mm %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  cf.br ^use(%p : tensor<4x4xf32>)
}

// Two predecessors passing f16 and f32: the argument takes the widest type,
// the f16 value is cast at its branch.
// CHECK-LABEL: func.func @join_at_merge
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK: %[[W:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: cf.br ^[[MERGE:bb[0-9]+]](%[[W]] : tensor<4x4xf32>)
// CHECK: cf.br ^[[MERGE]](%arg0 : tensor<4x4xf32>)
// CHECK: ^[[MERGE]](%[[X:.*]]: tensor<4x4xf32>):
// CHECK-NEXT: tp.exp %[[X]] : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @join_at_merge(%a: tensor<4x4xf32>, %c: i1) -> tensor<4x4xf32> {
  cf.cond_br %c, ^left, ^right
^left:
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  cf.br ^merge(%m : tensor<4x4xf32>)
^right:
  cf.br ^merge(%a : tensor<4x4xf32>)
^merge(%x: tensor<4x4xf32>):
  %e = tp.exp %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %e : tensor<4x4xf32>
}

// A loop written with branches: the header's argument has a back edge, so
// it keeps its type and the f16 product is cast back to it at the latch;
// the exit block, whose predecessors are all known, takes what they pass.
// CHECK-LABEL: func.func @branch_loop
// CHECK: cf.br ^[[HEAD:bb[0-9]+]](%arg0, %{{.*}} : tensor<4x4xf32>, index)
// CHECK: ^[[HEAD]](%[[H:.*]]: tensor<4x4xf32>, %[[I:.*]]: index):
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK: %[[W:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: cf.cond_br %{{.*}}, ^[[HEAD]](%[[W]], %{{.*}} : tensor<4x4xf32>, index), ^[[EXIT:bb[0-9]+]](%[[M]] : tensor<4x4xf16>)
// CHECK: ^[[EXIT]](%[[X:.*]]: tensor<4x4xf16>):
// CHECK-NEXT: tp.relu %[[X]] : (tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @branch_loop(%a: tensor<4x4xf32>, %n: index) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%a, %c0 : tensor<4x4xf32>, index)
^head(%h: tensor<4x4xf32>, %i: index):
  %m = tp.mm %h, %h : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %next = arith.addi %i, %c1 : index
  %go = arith.cmpi slt, %next, %n : index
  cf.cond_br %go, ^head(%m, %next : tensor<4x4xf32>, index), ^exit(%m : tensor<4x4xf32>)
^exit(%x: tensor<4x4xf32>):
  %r = tp.relu %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// An unreachable block is processed too (after the reachable ones).
// CHECK-LABEL: func.func @unreachable
// CHECK: ^{{bb[0-9]+}}:
// CHECK-NEXT: tp.mm {{.*}} -> tensor<4x4xf16>
func.func @unreachable(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
^dead:
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
