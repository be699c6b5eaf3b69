// index_put with one boolean mask and values of one selected row becomes
// where(mask, values, self) (self + where(mask, values, 0) to accumulate),
// the mask reshaped to broadcast over the remaining dimensions and the
// values converted to self's type; values of several rows stay an
// index_put (their count is data; the CPU lowering refuses it).
// RUN: tp-opt %s --tp-decompose-composite-ops | FileCheck %s

// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[X:[^:]*]]: tensor<5x3xf32>, %[[M:[^:]*]]: tensor<5xi1>, %[[V:[^:]*]]: tensor<3xf32>)
// CHECK: %[[S:.*]] = tp.reshape %[[M]] {shape = array<i64: 5, 1>} : (tensor<5xi1>) -> tensor<5x1xi1>
// CHECK: %[[R:.*]] = tp.where %[[S]], %[[V]], %[[X]] : (tensor<5x1xi1>, tensor<3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
// CHECK: return %[[R]]
func.func @rows(%x: tensor<5x3xf32>, %m: tensor<5xi1>, %v: tensor<3xf32>) -> tensor<5x3xf32> {
  %r = tp.index_put %x[%m], %v : (tensor<5x3xf32>, tensor<5xi1>, tensor<3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x3xbf16>, %[[M:[^:]*]]: tensor<4x3xi1>, %[[V:[^:]*]]: tensor<1xf32>)
// CHECK-DAG: %[[Z:.*]] = tp.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-DAG: %[[C:.*]] = tp.cast %[[V]] : tensor<1xf32> to tensor<1xbf16>
// CHECK: %[[ROW:.*]] = tp.reshape %[[C]] {shape = array<i64>} : (tensor<1xbf16>) -> tensor<bf16>
// CHECK: %[[W:.*]] = tp.where %[[M]], %[[ROW]], %[[Z]]
// CHECK: %[[R:.*]] = tp.add %[[X]], %[[W]] : (tensor<4x3xbf16>, tensor<4x3xbf16>) -> tensor<4x3xbf16>
// CHECK: return %[[R]]
func.func @accumulate(%x: tensor<4x3xbf16>, %m: tensor<4x3xi1>, %v: tensor<1xf32>) -> tensor<4x3xbf16> {
  %r = tp.index_put %x[%m], %v {accumulate = true} : (tensor<4x3xbf16>, tensor<4x3xi1>, tensor<1xf32>) -> tensor<4x3xbf16>
  return %r : tensor<4x3xbf16>
}

// CHECK-LABEL: func.func @several_rows(
// CHECK: tp.index_put
func.func @several_rows(%x: tensor<5x3xf32>, %m: tensor<5xi1>, %v: tensor<2x3xf32>) -> tensor<5x3xf32> {
  %r = tp.index_put %x[%m], %v : (tensor<5x3xf32>, tensor<5xi1>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
