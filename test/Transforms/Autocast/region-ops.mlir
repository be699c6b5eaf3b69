// Region ops other than scf.for / scf.while / tp.autocast. Ops whose regions
// run at most once and return to the op (RegionBranchOpInterface without
// loops: scf.execute_region, scf.index_switch, scf.if) take the widest type
// their regions yield; any other op keeps its original types at its
// boundary (its operands and terminators are cast back; the tp ops inside
// are autocast). The output always verifies.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s
// RUN: tp-opt --autocast=cuda:fp16 %s | tp-opt --autocast=cuda:fp16 | FileCheck %s

// CHECK-LABEL: func.func @execute_region(
// CHECK-SAME: -> tensor<4x4xf16>
// CHECK: %[[R:.*]] = scf.execute_region -> tensor<4x4xf16> {
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: scf.yield %[[M]] : tensor<4x4xf16>
// CHECK: tp.relu %[[R]] : (tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @execute_region(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.execute_region -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  }
  %s = tp.relu %r : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// Cases that yield f16 and a default that yields the f32 input meet at f32.
// CHECK-LABEL: func.func @index_switch(
// CHECK: scf.index_switch %arg0 -> tensor<4x4xf32>
// CHECK: case 0 {
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[C:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[C]] : tensor<4x4xf32>
// CHECK: case 1 {
// CHECK: tp.matmul {{.*}} -> tensor<4x4xf16>
// CHECK: default {
// CHECK-NEXT: scf.yield %arg1 : tensor<4x4xf32>
func.func @index_switch(%i: index, %a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.index_switch %i -> tensor<4x4xf32>
  case 0 {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  }
  case 1 {
    %n = tp.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  }
  default {
    scf.yield %a : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// All cases f16: the result is f16.
// CHECK-LABEL: func.func @index_switch_same(
// CHECK: scf.index_switch %arg0 -> tensor<4x4xf16>
func.func @index_switch_same(%i: index, %a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.index_switch %i -> tensor<4x4xf32>
  case 0 {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %m : tensor<4x4xf32>
  }
  default {
    %n = tp.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %n : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Block arguments keep their types: branches to them get the original type.
// CHECK-LABEL: func.func @blocks(
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[C:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: cf.cond_br %arg0, ^bb1(%[[C]] : tensor<4x4xf32>), ^bb1(%arg1 : tensor<4x4xf32>)
func.func @blocks(%c: i1, %a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  cf.cond_br %c, ^bb1(%m : tensor<4x4xf32>), ^bb1(%a : tensor<4x4xf32>)
^bb1(%x: tensor<4x4xf32>):
  return %x : tensor<4x4xf32>
}

// scf.forall is neither: the mm inside runs in f16, the values leaving it
// through its terminator are f32 again.
// CHECK-LABEL: func.func @forall(
// CHECK: scf.forall {{.*}} -> (tensor<4x4xf32>) {
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-NEXT: %[[C:.*]] = tp.cast %[[M]] : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK-NEXT: tensor.extract_slice %[[C]]
func.func @forall(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %a) -> (tensor<4x4xf32>) {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %s = tensor.extract_slice %m[%i, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<4x4xf32>
    }
  }
  return %r : tensor<4x4xf32>
}
