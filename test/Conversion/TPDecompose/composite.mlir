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

// -----

// lstm_cell: one add of the two gate products, gates i, f, g, o as slices,
// every op in the cell's bf16.
// CHECK-LABEL: func.func @lstm_cell
// CHECK: %[[GI:.*]] = tp.linear %arg0, %arg3 : (tensor<2x8xbf16>, tensor<16x8xbf16>) -> tensor<2x16xbf16>
// CHECK: %[[GH:.*]] = tp.linear %arg1, %arg4 : (tensor<2x4xbf16>, tensor<16x4xbf16>) -> tensor<2x16xbf16>
// CHECK: %[[G:.*]] = tp.add %[[GH]], %[[GI]]
// CHECK: %[[I:.*]] = tp.slice %[[G]] {dim = 1 : i64, end = 4 : i64, start = 0 : i64}
// CHECK: tp.sigmoid %[[I]]
// CHECK: tp.slice %[[G]] {dim = 1 : i64, end = 8 : i64, start = 4 : i64}
// CHECK: %[[C:.*]] = tp.slice %[[G]] {dim = 1 : i64, end = 12 : i64, start = 8 : i64}
// CHECK: tp.tanh %[[C]]
// CHECK: tp.slice %[[G]] {dim = 1 : i64, end = 16 : i64, start = 12 : i64}
// CHECK: %[[FC:.*]] = tp.mul %{{.*}}, %arg2 : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
// CHECK: %[[CY:.*]] = tp.add %[[FC]], %{{.*}}
// CHECK: %[[T:.*]] = tp.tanh %[[CY]]
// CHECK: %[[HY:.*]] = tp.mul %{{.*}}, %[[T]]
// CHECK: return %[[HY]], %[[CY]]
func.func @lstm_cell(%x: tensor<2x8xbf16>, %h: tensor<2x4xbf16>, %c: tensor<2x4xbf16>, %wi: tensor<16x8xbf16>, %wh: tensor<16x4xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>) {
  %hy, %cy = tp.lstm_cell %x, %h, %c, %wi, %wh : (tensor<2x8xbf16>, tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<16x8xbf16>, tensor<16x4xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>)
  return %hy, %cy : tensor<2x4xbf16>, tensor<2x4xbf16>
}

// -----

// gru_cell: h' = (h - n) * z + n.
// CHECK-LABEL: func.func @gru_cell
// CHECK: %[[N:.*]] = tp.tanh
// CHECK: %[[D:.*]] = tp.sub %arg1, %[[N]]
// CHECK: %[[DZ:.*]] = tp.mul %[[D]], %{{.*}}
// CHECK: %[[HY:.*]] = tp.add %[[DZ]], %[[N]]
// CHECK: return %[[HY]]
func.func @gru_cell(%x: tensor<2x8xf32>, %h: tensor<2x4xf32>, %wi: tensor<12x8xf32>, %wh: tensor<12x4xf32>) -> tensor<2x4xf32> {
  %r = tp.gru_cell %x, %h, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Grouped-query attention: each of the 2 key / value heads serves 4
// consecutive query heads (unsqueeze, expand, reshape).
// CHECK-LABEL: func.func @gqa
// CHECK: %[[K1:.*]] = tp.unsqueeze %arg1 {dim = 2 : i64} : (tensor<2x2x5x16xf32>) -> tensor<2x2x1x5x16xf32>
// CHECK: %[[K4:.*]] = tp.expand %[[K1]] {size = array<i64: 2, 2, 4, 5, 16>}
// CHECK: %[[K:.*]] = tp.reshape %[[K4]] {shape = array<i64: 2, 8, 5, 16>}
// CHECK: %[[V:.*]] = tp.reshape %{{.*}} {shape = array<i64: 2, 8, 5, 16>}
// CHECK: tp.transpose %[[K]]
// CHECK: %[[P:.*]] = tp.softmax
// CHECK: tp.matmul %[[P]], %[[V]] : (tensor<2x8x6x5xf32>, tensor<2x8x5x16xf32>) -> tensor<2x8x6x16xf32>
func.func @gqa(%q: tensor<2x8x6x16xf32>, %k: tensor<2x2x5x16xf32>, %v: tensor<2x2x5x16xf32>) -> tensor<2x8x6x16xf32> {
  %r = tp.scaled_dot_product_attention %q, %k, %v {enable_gqa = true} : (tensor<2x8x6x16xf32>, tensor<2x2x5x16xf32>, tensor<2x2x5x16xf32>) -> tensor<2x8x6x16xf32>
  return %r : tensor<2x8x6x16xf32>
}

// -----

// renorm of bf16: the norms in f32 over the other dimensions, the factor
// rounded to bf16, the product in bf16.
// CHECK-LABEL: func.func @renorm
// CHECK: %[[N:.*]] = tp.norm %arg0 {dim = array<i64: 0>, dtype = f32, keepdim = true, p = 2.000000e+00 : f64} : (tensor<3x5xbf16>) -> tensor<1x5xf32>
// CHECK: %[[GT:.*]] = tp.gt %[[N]]
// CHECK: %[[F:.*]] = tp.where %[[GT]]
// CHECK: %[[FB:.*]] = tp.cast %[[F]] : tensor<1x5xf32> to tensor<1x5xbf16>
// CHECK: tp.mul %arg0, %[[FB]] : (tensor<3x5xbf16>, tensor<1x5xbf16>) -> tensor<3x5xbf16>
func.func @renorm(%x: tensor<3x5xbf16>) -> tensor<3x5xbf16> {
  %r = tp.renorm %x {dim = -1 : i64, maxnorm = 1.0 : f64, p = 2.0 : f64} : (tensor<3x5xbf16>) -> tensor<3x5xbf16>
  return %r : tensor<3x5xbf16>
}

// -----

// pdist: the rows of the pairs i < j gathered by constant indices.
// CHECK-LABEL: func.func @pdist
// CHECK-DAG: %[[J:.*]] = tp.constant dense<[1, 2, 3, 2, 3, 3]> : tensor<6xi64>
// CHECK-DAG: %[[I:.*]] = tp.constant dense<[0, 0, 0, 1, 1, 2]> : tensor<6xi64>
// CHECK: %[[A:.*]] = tp.embedding %arg0, %[[I]]
// CHECK: %[[B:.*]] = tp.embedding %arg0, %[[J]]
// CHECK: %[[D:.*]] = tp.sub %[[A]], %[[B]]
// CHECK: tp.norm %[[D]] {dim = array<i64: 1>, p = 1.000000e+00 : f64} : (tensor<6x3xf32>) -> tensor<6xf32>
func.func @pdist(%x: tensor<4x3xf32>) -> tensor<6xf32> {
  %r = tp.pdist %x {p = 1.0 : f64} : (tensor<4x3xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// _native_multi_head_attention: q, k, v projected by the rows of qkv_weight
// (q scaled by 1/sqrt(head_dim)), heads split, a key padding mask
// (mask_type 1) set to -inf before the softmax and its weights zeroed after,
// heads joined, the output projection, the weights averaged over the heads.
// CHECK-LABEL: func.func @native_mha
// CHECK-DAG: %[[TWO:.*]] = tp.constant dense<2.000000e+00> : tensor<f32>
// CHECK-DAG: %[[NINF:.*]] = tp.constant dense<0xFF800000> : tensor<f32>
// CHECK-DAG: %[[HALF:.*]] = tp.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[WQ:.*]] = tp.slice %arg3 {end = 8 : i64, start = 0 : i64}
// CHECK: %[[Q0:.*]] = tp.linear %arg0, %[[WQ]]
// CHECK: %[[BQ:.*]] = tp.slice %arg4 {end = 8 : i64, start = 0 : i64}
// CHECK: %[[Q1:.*]] = tp.add %[[Q0]], %[[BQ]]
// CHECK: %[[Q2:.*]] = tp.mul %[[Q1]], %[[HALF]]
// CHECK: %[[Q3:.*]] = tp.reshape %[[Q2]] {shape = array<i64: 2, 3, 2, 4>}
// CHECK: %[[Q:.*]] = tp.transpose %[[Q3]] {dim0 = 1 : i64, dim1 = 2 : i64} : (tensor<2x3x2x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK: tp.slice %arg3 {end = 16 : i64, start = 8 : i64}
// CHECK: tp.linear %arg1
// CHECK: tp.slice %arg3 {end = 24 : i64, start = 16 : i64}
// CHECK: tp.linear %arg2
// CHECK: %[[V:.*]] = tp.transpose %{{.*}} {dim0 = 1 : i64, dim1 = 2 : i64} : (tensor<2x5x2x4xf32>) -> tensor<2x2x5x4xf32>
// CHECK: %[[S:.*]] = tp.matmul %[[Q]], %{{.*}} : (tensor<2x2x3x4xf32>, tensor<2x2x4x5xf32>) -> tensor<2x2x3x5xf32>
// CHECK: %[[M:.*]] = tp.reshape %arg7 {shape = array<i64: 2, 1, 1, 5>}
// CHECK: %[[SM:.*]] = tp.where %[[M]], %[[NINF]], %[[S]]
// CHECK: %[[P0:.*]] = tp.softmax %[[SM]] {dim = -1 : i64}
// CHECK: %[[P:.*]] = tp.masked_fill %[[P0]], %[[M]] {value = 0.000000e+00 : f64}
// CHECK: %[[C:.*]] = tp.matmul %[[P]], %[[V]]
// CHECK: %[[CT:.*]] = tp.transpose %[[C]] {dim0 = 1 : i64, dim1 = 2 : i64}
// CHECK: %[[CJ:.*]] = tp.reshape %[[CT]] {shape = array<i64: 2, 3, 8>}
// CHECK: %[[O:.*]] = tp.linear %[[CJ]], %arg5 bias(%arg6)
// CHECK: %[[WS:.*]] = tp.sum %[[P]] {dim = array<i64: 1>}
// CHECK: %[[W:.*]] = tp.div %[[WS]], %[[TWO]]
// CHECK: return %[[O]], %[[W]]
func.func @native_mha(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>, %pw: tensor<8x8xf32>, %pb: tensor<8xf32>, %m: tensor<2x5xi1>) -> (tensor<2x3x8xf32>, tensor<2x3x5xf32>) {
  %o, %a = tp.native_multi_head_attention %q, %k, %v, %w, %b, %pw, %pb mask(%m) {embed_dim = 8 : i64, num_head = 2 : i64, mask_type = 1 : i64} : (tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<2x5xi1>) -> (tensor<2x3x8xf32>, tensor<2x3x5xf32>)
  return %o, %a : tensor<2x3x8xf32>, tensor<2x3x5xf32>
}

// -----

// mkldnn_rnn_layer (LSTM, reverse): one lstm_cell per step from the last,
// each step's h stacked at its time position; the workspace is zeros.
// CHECK-LABEL: func.func @rnn_layer_reverse
// CHECK: %[[WS:.*]] = tp.constant dense<0> : tensor<0xui8>
// CHECK: %[[X2:.*]] = tp.slice %arg0 {end = 2 : i64, start = 1 : i64}
// CHECK: %[[X1:.*]] = tp.slice %arg0 {end = 1 : i64, start = 0 : i64}
// CHECK: %[[H:.*]] = tp.stack [%[[HA:.*]], %[[HB:.*]]] {{.*}} -> tensor<2x2x3xf32>
// CHECK: return %[[H]], %[[HA]], %{{.*}}, %[[WS]]
func.func @rnn_layer_reverse(%x: tensor<2x2x4xf32>, %w0: tensor<12x4xf32>, %w1: tensor<12x3xf32>, %b0: tensor<12xf32>, %b1: tensor<12xf32>, %h: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>) {
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %b0, %b1, %h, %c {reverse = true, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return %o, %hy, %cy, %ws : tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>
}
