// RUN: tp-opt %s --tp-fuse-siblings --split-input-file | FileCheck %s
// RUN: tp-opt %s --tp-fuse-siblings=max-ops=2 --split-input-file | FileCheck %s --check-prefix=MAX2
// RUN: tp-opt %s --tp-fuse-siblings=max-operands=5 --split-input-file | FileCheck %s --check-prefix=OPERANDS5
// RUN: not tp-opt %s --split-input-file --tp-lower-to-cpu="fuse-siblings=maybe" 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: not tp-opt %s --split-input-file --tp-fuse-siblings="max-ops=-1" 2>&1 | FileCheck %s --check-prefix=BADCOUNT
// BADBOOL: for the --fuse-siblings option: 'maybe' is invalid value for boolean argument
// BADCOUNT: for the --max-ops option: '-1' value invalid for uint argument

#nsc = affine_map<(n, c, s) -> (n, c, s)>
#c = affine_map<(n, c, s) -> (c)>

// Three sums over (N, S) of products of the same operands (a batch norm's
// backward): one generic with three results, each computed by its own ops;
// the fills of the later initial values move before the first.
// CHECK-LABEL: func.func @sibling_sums
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.0
// CHECK: %[[F0:.*]] = linalg.fill ins(%[[Z]] : f32)
// CHECK: %[[F1:.*]] = linalg.fill ins(%[[Z]] : f32)
// CHECK: %[[F2:.*]] = linalg.fill ins(%[[Z]] : f32)
// CHECK: %[[R:.*]]:3 = linalg.generic
// CHECK-SAME: ins(%arg0, %arg0, %arg1, %arg0, %arg1 : {{.*}}) outs(%[[F0]], %[[F1]], %[[F2]] :
// CHECK-NEXT: ^bb0(%[[G0:[^:]*]]: f32, %[[G1:[^:]*]]: f32, %[[X1:[^:]*]]: f32, %[[G2:[^:]*]]: f32, %[[X2:[^:]*]]: f32, %[[A0:[^:]*]]: f32, %[[A1:[^:]*]]: f32, %[[A2:[^:]*]]: f32):
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[G0]], %[[A0]]
// CHECK-NEXT: %[[P1:.*]] = arith.mulf %[[G1]], %[[X1]]
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[P1]], %[[A1]]
// CHECK-NEXT: %[[P2:.*]] = arith.mulf %[[G2]], %[[X2]]
// CHECK-NEXT: %[[Q2:.*]] = arith.mulf %[[P2]], %[[P2]]
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[Q2]], %[[A2]]
// CHECK-NEXT: linalg.yield %[[S0]], %[[S1]], %[[S2]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
// MAX2-LABEL: func.func @sibling_sums
// MAX2: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
// MAX2: linalg.generic {{.*}} outs(%{{.*}} : tensor<4xf32>)
// The first two sums have 2 + 3 operands: with at most 5, the third stays
// apart.
// OPERANDS5-LABEL: func.func @sibling_sums
// OPERANDS5: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
// OPERANDS5: linalg.generic {{.*}} outs(%{{.*}} : tensor<4xf32>)
func.func @sibling_sums(%g: tensor<2x4x8xf32>, %x: tensor<2x4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %s0 = linalg.generic {indexing_maps = [#nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%g : tensor<2x4x8xf32>) outs(%i0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %s1 = linalg.generic {indexing_maps = [#nsc, #nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%g, %x : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%i1 : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %s2 = linalg.generic {indexing_maps = [#nsc, #nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%g, %x : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%i2 : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %p : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s0, %s1, %s2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

#nsc = affine_map<(n, c, s) -> (n, c, s)>
#c = affine_map<(n, c, s) -> (c)>

// A reduction reading the one before (a variance after its mean) stays
// apart, and so does one whose operand comes from an op between them.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT: linalg.generic
func.func @dependent(%x: tensor<2x4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [#nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<2x4x8xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %var = linalg.generic {indexing_maps = [#nsc, #c, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x, %mean : tensor<2x4x8xf32>, tensor<4xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %ex = tensor.empty() : tensor<2x4x8xf32>
  %sq = linalg.generic {indexing_maps = [#nsc, #nsc], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x8xf32>) outs(%ex : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %q = arith.mulf %a, %a : f32
    linalg.yield %q : f32
  } -> tensor<2x4x8xf32>
  %s = linalg.generic {indexing_maps = [#nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%sq : tensor<2x4x8xf32>) outs(%i : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %mean, %var, %s : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

#nsc = affine_map<(n, c, s) -> (n, c, s)>
#c = affine_map<(n, c, s) -> (c)>
#sc = affine_map<(n, c, s) -> (n, s)>
#ij = affine_map<(i, j) -> (i, j)>

// Loops over other spaces stay apart: other sizes, other iterator types
// (a reduction beside an elementwise op), other output maps. Two
// elementwise ops over one space with an index fuse, each keeping its
// linalg.index.
// CHECK-LABEL: func.func @spaces
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<3xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} outs(%{{.*}} : tensor<2x8xf32>)
// CHECK: %[[E:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} outs(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xi64>)
// CHECK: linalg.index 1
// CHECK: math.exp
// CHECK: linalg.index 0
// CHECK: arith.index_cast
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
func.func @spaces(%x: tensor<2x4x8xf32>, %y: tensor<2x3x8xf32>, %m: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<3xf32>, tensor<2x8xf32>, tensor<4x4xf32>, tensor<4x4xi64>) {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %i4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %a = linalg.generic {indexing_maps = [#nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<2x4x8xf32>) outs(%i4 : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %b = linalg.generic {indexing_maps = [#nsc, #c], iterator_types = ["reduction", "parallel", "reduction"]} ins(%y : tensor<2x3x8xf32>) outs(%i3 : tensor<3xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  %e28 = tensor.empty() : tensor<2x8xf32>
  %i28 = linalg.fill ins(%zero : f32) outs(%e28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %c = linalg.generic {indexing_maps = [#nsc, #sc], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<2x4x8xf32>) outs(%i28 : tensor<2x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x8xf32>
  %em = tensor.empty() : tensor<4x4xf32>
  %d = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%em : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %j = linalg.index 1 : index
    %jf = arith.index_cast %j : index to i64
    %jj = arith.sitofp %jf : i64 to f32
    %s = arith.addf %v, %jj : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %ei = tensor.empty() : tensor<4x4xi64>
  %f = linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]} outs(%ei : tensor<4x4xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %r = arith.index_cast %i : index to i64
    linalg.yield %r : i64
  } -> tensor<4x4xi64>
  return %a, %b, %c, %d, %f : tensor<4xf32>, tensor<3xf32>, tensor<2x8xf32>, tensor<4x4xf32>, tensor<4x4xi64>
}

// -----

#ij = affine_map<(i, j) -> (i, j)>

// A body reading a value from above counts as an operand: a scalar taken
// from the first loop's result keeps its loop apart, an argument does not.
// A gather (tensor.extract in the body) stays apart: it runs as a scalar
// loop, and fused it would make its siblings scalar too.
// CHECK-LABEL: func.func @captured
// CHECK: %[[A:.*]]:2 = linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf %{{.*}}, %arg2
// CHECK: linalg.yield
// CHECK: %[[S:.*]] = tensor.extract %[[A]]#0
// CHECK: linalg.generic
// CHECK: arith.subf %{{.*}}, %[[S]]
// CHECK: linalg.generic
// CHECK: tensor.extract %arg1
// CHECK-NOT: linalg.generic
func.func @captured(%x: tensor<4x4xf32>, %src: tensor<4x4xf32>, %k: f32) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %e0 = tensor.empty() : tensor<4x4xf32>
  %a = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %s = tensor.extract %a[%c0, %c0] : tensor<4x4xf32>
  %b = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.subf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %c = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %k : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#ij], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 0 : index
    %r = tensor.extract %src[%i, %j] : tensor<4x4xf32>
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %a, %b, %c, %g : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
