// tp.logsumexp as tensorplay computes it: the kept maximum (0 where it is
// infinite), log(sum(exp(x - m))) + m, in the op's own type; autocast
// leaves the op alone (the tables do not list it, though its parts are).
// RUN: tp-opt %s --tp-decompose-composite-ops | FileCheck %s
// RUN: tp-opt %s --autocast=cuda:fp16 | FileCheck %s --check-prefix=AUTOCAST

// CHECK-LABEL: func.func @lse(
// CHECK-DAG: %[[ZERO:.*]] = tp.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-DAG: %[[INF:.*]] = tp.constant dense<0x7F80> : tensor<bf16>
// CHECK: %[[M:.*]] = tp.amax %arg0 {dim = array<i64: 1>, keepdim = true} : (tensor<4x8xbf16>) -> tensor<4x1xbf16>
// CHECK: %[[A:.*]] = tp.abs %[[M]]
// CHECK: %[[I:.*]] = tp.eq %[[A]], %[[INF]]
// CHECK: %[[S:.*]] = tp.where %[[I]], %[[ZERO]], %[[M]]
// CHECK: %[[D:.*]] = tp.sub %arg0, %[[S]] : (tensor<4x8xbf16>, tensor<4x1xbf16>) -> tensor<4x8xbf16>
// CHECK: %[[E:.*]] = tp.exp %[[D]] : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
// CHECK: %[[T:.*]] = tp.sum %[[E]] {dim = array<i64: 1>}
// CHECK: %[[L:.*]] = tp.log %[[T]]
// CHECK: %[[R:.*]] = tp.reshape %[[S]] {shape = array<i64: 4>}
// CHECK: tp.add %[[L]], %[[R]] : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
// CHECK-NOT: tp.logsumexp
// AUTOCAST-LABEL: func.func @lse(
// AUTOCAST-NEXT: tp.logsumexp %arg0 {dim = array<i64: 1>} : (tensor<4x8xbf16>) -> tensor<4xbf16>
func.func @lse(%x: tensor<4x8xbf16>) -> tensor<4xbf16> {
  %r = tp.logsumexp %x {dim = array<i64: 1>} : (tensor<4x8xbf16>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// keepdim: the maximum is added as kept, with no reshape.
// CHECK-LABEL: func.func @lse_keepdim(
// CHECK: tp.sum %{{.*}} {dim = array<i64: 0>, keepdim = true}
// CHECK-NOT: tp.reshape
// CHECK: tp.add
// AUTOCAST-LABEL: func.func @lse_keepdim(
// AUTOCAST-NEXT: tp.logsumexp %arg0 {dim = array<i64: 0>, keepdim = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
func.func @lse_keepdim(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %r = tp.logsumexp %x {dim = array<i64: 0>, keepdim = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}
