// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file | FileCheck %s

// scaled_dot_product_attention: q @ k^T * scale, causal mask, softmax, @ v,
// all in the op's dtype.
// CHECK-LABEL: func.func @sdpa
// CHECK-DAG: %[[SCALE:.*]] = tp.constant dense<2.500000e-01> : tensor<f32>
// CHECK-DAG: %[[KT:.*]] = tp.transpose %arg1 {dim0 = 2 : i64, dim1 = 3 : i64} : (tensor<2x4x16x8xbf16>) -> tensor<2x4x8x16xbf16>
// CHECK: %[[S:.*]] = tp.matmul %arg0, %[[KT]] : (tensor<2x4x16x8xbf16>, tensor<2x4x8x16xbf16>) -> tensor<2x4x16x16xbf16>
// CHECK: %[[SS:.*]] = tp.mul %[[S]], %[[SCALE]]
// CHECK: %[[M:.*]] = tp.where %{{.*}}, %[[SS]], %{{.*}} : (tensor<16x16xi1>, tensor<2x4x16x16xbf16>, tensor<bf16>)
// CHECK: %[[P:.*]] = tp.softmax %[[M]] {dim = -1 : i64}
// CHECK: tp.matmul %[[P]], %arg2
func.func @sdpa(%q: tensor<2x4x16x8xbf16>, %k: tensor<2x4x16x8xbf16>, %v: tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xbf16> {
  %r = tp.scaled_dot_product_attention %q, %k, %v {is_causal = true, scale = 0.25 : f64} : (tensor<2x4x16x8xbf16>, tensor<2x4x16x8xbf16>, tensor<2x4x16x8xbf16>) -> tensor<2x4x16x8xbf16>
  return %r : tensor<2x4x16x8xbf16>
}

// -----

// CHECK-LABEL: func.func @chain
// CHECK: %[[AB:.*]] = tp.matmul %arg0, %arg1 : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK: tp.matmul %[[AB]], %arg2 : (tensor<4x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<2x5xf32>) -> tensor<4x5xf32> {
  %r = tp.chain_matmul [%a, %b, %c] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// tp.autocast regions are inlined.
// CHECK-LABEL: func.func @region
// CHECK-NOT: tp.autocast
// CHECK: %[[R:.*]] = tp.relu %arg0
// CHECK: return %[[R]]
func.func @region(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tp.autocast "cpu" -> tensor<4xf32> {
    %y = tp.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    tp.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @rnn_cell
// CHECK: tp.linear %arg0, %arg2
// CHECK: tp.linear %arg1, %arg3
// CHECK: tp.add
// CHECK: tp.tanh
func.func @rnn_cell(%x: tensor<2x8xf32>, %h: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %r = tp.rnn_cell %x, %h, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
