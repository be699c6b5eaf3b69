// Every op that a decomposition or a lowering expands into other ops or
// library calls, over shape variants its verifier accepts: a dimension
// inserted, removed, set to 1, 0 or another size, in one operand, in all,
// and random pairs of operands (test-tp-shape-sweep builds them from the
// templates below through each op's shape rule). Each kept variant must
// compile through tp-lower-to-cpu or be refused with a diagnostic, never
// abort (a verified tp.scaled_dot_product_attention whose batch dimensions
// did not broadcast died in MatmulOp::build).
// RUN: %python %S/../../Integration/CPU/Inputs/shape_sweep.py --tp-opt tp-opt --input %s --tmp %t | FileCheck %s
// CHECK-NOT: ABORT
// CHECK-NOT: NO VARIANT
// CHECK-NOT: NO REASON
// CHECK: shape sweep: {{[1-9][0-9]+}} ops, {{[1-9][0-9]+}} variants verified, {{[0-9]+}} compiled, {{[0-9]+}} refused, 0 aborted

func.func @sdpa(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x5x8xf32>, %v: tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32> {
  %r = tp.scaled_dot_product_attention %q, %k, %v : (tensor<2x3x4x8xf32>, tensor<2x3x5x8xf32>, tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32>
  return %r : tensor<2x3x4x6xf32>
}

func.func @sdpa_mask(%q: tensor<2x3x4x8xf64>, %k: tensor<2x3x5x8xf64>, %v: tensor<2x3x5x6xf64>, %m: tensor<4x5xi1>) -> tensor<2x3x4x6xf64> {
  %r = tp.scaled_dot_product_attention %q, %k, %v mask(%m) {scale = 0.3 : f64} : (tensor<2x3x4x8xf64>, tensor<2x3x5x8xf64>, tensor<2x3x5x6xf64>, tensor<4x5xi1>) -> tensor<2x3x4x6xf64>
  return %r : tensor<2x3x4x6xf64>
}

func.func @sdpa_gqa(%q: tensor<1x4x3x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x4xf32>) -> tensor<1x4x3x4xf32> {
  %r = tp.scaled_dot_product_attention %q, %k, %v {enable_gqa = true, is_causal = true} : (tensor<1x4x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x4xf32>) -> tensor<1x4x3x4xf32>
  return %r : tensor<1x4x3x4xf32>
}

func.func @mha(%q: tensor<2x3x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>, %w: tensor<24x8xf32>, %b: tensor<24xf32>, %pw: tensor<8x8xf32>, %pb: tensor<8xf32>, %m: tensor<2x5xi1>) -> (tensor<2x3x8xf32>, tensor<2x3x5xf32>) {
  %o, %a = tp.native_multi_head_attention %q, %k, %v, %w, %b, %pw, %pb mask(%m) {embed_dim = 8 : i64, num_head = 2 : i64, mask_type = 1 : i64} : (tensor<2x3x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<2x5xi1>) -> (tensor<2x3x8xf32>, tensor<2x3x5xf32>)
  return %o, %a : tensor<2x3x8xf32>, tensor<2x3x5xf32>
}

func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<2x5xf32>) -> tensor<4x5xf32> {
  %r = tp.chain_matmul [%a, %b, %c] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

func.func @multi_dot(%v: tensor<8xf32>, %b: tensor<8x2xf32>, %c: tensor<2x5xf32>) -> tensor<5xf32> {
  %r = tp.multi_dot [%v, %b, %c] : (tensor<8xf32>, tensor<8x2xf32>, tensor<2x5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @conv_tbc(%x: tensor<10x2x3xf32>, %w: tensor<3x3x4xf32>, %b: tensor<4xf32>) -> tensor<8x2x4xf32> {
  %r = tp.conv_tbc %x, %w, %b : (tensor<10x2x3xf32>, tensor<3x3x4xf32>, tensor<4xf32>) -> tensor<8x2x4xf32>
  return %r : tensor<8x2x4xf32>
}

func.func @rnn_cell(%x: tensor<2x8xf32>, %h: tensor<2x4xf32>, %wi: tensor<4x8xf32>, %wh: tensor<4x4xf32>, %bi: tensor<4xf32>, %bh: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = tp.rnn_cell %x, %h, %wi, %wh b_ih(%bi) b_hh(%bh) : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

func.func @gru_cell(%x: tensor<2x8xf32>, %h: tensor<2x4xf32>, %wi: tensor<12x8xf32>, %wh: tensor<12x4xf32>) -> tensor<2x4xf32> {
  %r = tp.gru_cell %x, %h, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<12x8xf32>, tensor<12x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

func.func @lstm_cell(%x: tensor<2x8xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %wi: tensor<16x8xf32>, %wh: tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %hy, %cy = tp.lstm_cell %x, %h, %c, %wi, %wh : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x8xf32>, tensor<16x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return %hy, %cy : tensor<2x4xf32>, tensor<2x4xf32>
}

func.func @rnn_layer(%x: tensor<2x2x4xf32>, %w0: tensor<12x4xf32>, %w1: tensor<12x3xf32>, %b0: tensor<12xf32>, %b1: tensor<12xf32>, %h: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>) {
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %b0, %b1, %h, %c {reverse = true, batch_sizes = array<i64>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return %o, %hy, %cy, %ws : tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>
}

func.func @cross(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = tp.cross %a, %b {dim = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @cdist(%a: tensor<2x5x3xf32>, %b: tensor<2x7x3xf32>) -> tensor<2x5x7xf32> {
  %r = tp.cdist %a, %b : (tensor<2x5x3xf32>, tensor<2x7x3xf32>) -> tensor<2x5x7xf32>
  return %r : tensor<2x5x7xf32>
}

func.func @pdist(%x: tensor<4x3xf32>) -> tensor<6xf32> {
  %r = tp.pdist %x {p = 1.0 : f64} : (tensor<4x3xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func @renorm(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = tp.renorm %x {dim = -1 : i64, maxnorm = 1.0 : f64, p = 2.0 : f64} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

func.func @multi_margin(%x: tensor<4x10xf32>, %t: tensor<4xi64>) -> tensor<f32> {
  %l = tp.multi_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @multilabel_margin(%x: tensor<4x10xf32>, %t: tensor<4x10xi64>) -> tensor<f32> {
  %l = tp.multilabel_margin_loss %x, %t : (tensor<4x10xf32>, tensor<4x10xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @quantile(%x: tensor<3x7xf32>, %q: tensor<2xf32>) -> tensor<2x3xf32> {
  %r = tp.quantile %x, %q {dim = 1 : i64, interpolation = "nearest"} : (tensor<3x7xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @nanquantile(%x: tensor<8xf32>, %q: tensor<f64>) -> tensor<f32> {
  %r = tp.nanquantile %x, %q : (tensor<8xf32>, tensor<f64>) -> tensor<f32>
  return %r : tensor<f32>
}

func.func @pinverse(%a: tensor<4x3xf32>) -> tensor<3x4xf32> {
  %r = tp.pinverse %a {rcond = 1.0e-2 : f64} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @matrix_rank(%a: tensor<2x4x3xf64>) -> tensor<2xi64> {
  %r = tp.linalg_matrix_rank %a : (tensor<2x4x3xf64>) -> tensor<2xi64>
  return %r : tensor<2xi64>
}

func.func @cond(%a: tensor<3x3xf32>) -> tensor<f32> {
  %r = tp.linalg_cond %a {p = 1.0 : f64} : (tensor<3x3xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

func.func @tensorinv(%a: tensor<2x3x6xf32>) -> tensor<6x2x3xf32> {
  %r = tp.linalg_tensorinv %a : (tensor<2x3x6xf32>) -> tensor<6x2x3xf32>
  return %r : tensor<6x2x3xf32>
}

func.func @tensorsolve(%a: tensor<2x3x6xf32>, %b: tensor<2x3xf32>) -> tensor<6xf32> {
  %r = tp.linalg_tensorsolve %a, %b : (tensor<2x3x6xf32>, tensor<2x3xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

func.func @stft(%x: tensor<2x40xf32>, %w: tensor<10xf32>) -> tensor<2x9x7xcomplex<f32>> {
  %r = tp.stft %x window(%w) {hop_length = 4 : i64, n_fft = 16 : i64, win_length = 10 : i64, normalized = true} : (tensor<2x40xf32>, tensor<10xf32>) -> tensor<2x9x7xcomplex<f32>>
  return %r : tensor<2x9x7xcomplex<f32>>
}

func.func @index_put_mask(%x: tensor<5x3xf32>, %m: tensor<5xi1>, %v: tensor<3xf32>) -> tensor<5x3xf32> {
  %r = tp.index_put %x[%m], %v : (tensor<5x3xf32>, tensor<5xi1>, tensor<3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

func.func @grid_sampler(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32> {
  %r = tp.grid_sampler %x, %g {align_corners = false, interpolation_mode = 0 : i64, padding_mode = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @orgqr(%a: tensor<4x3xf32>, %t: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = tp.orgqr %a, %t : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

func.func @ormqr(%a: tensor<4x4xf32>, %t: tensor<4xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = tp.ormqr %a, %t, %c : (tensor<4x4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

func.func @complex_matmul(%a: tensor<2x3x4xcomplex<f32>>, %b: tensor<4x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>> {
  %r = tp.matmul %a, %b : (tensor<2x3x4xcomplex<f32>>, tensor<4x5xcomplex<f32>>) -> tensor<2x3x5xcomplex<f32>>
  return %r : tensor<2x3x5xcomplex<f32>>
}

func.func @matmul(%a: tensor<2x3x4x8xf32>, %b: tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32> {
  %r = tp.matmul %a, %b : (tensor<2x3x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  return %r : tensor<2x3x4x5xf32>
}

func.func @matmul_bf16(%a: tensor<2x4x8xbf16>, %b: tensor<8x5xbf16>) -> tensor<2x4x5xbf16> {
  %r = tp.matmul %a, %b : (tensor<2x4x8xbf16>, tensor<8x5xbf16>) -> tensor<2x4x5xbf16>
  return %r : tensor<2x4x5xbf16>
}

func.func @linear(%x: tensor<2x3x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>) -> tensor<2x3x5xf32> {
  %r = tp.linear %x, %w bias(%b) : (tensor<2x3x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

func.func @addmm(%c: tensor<4x5xf32>, %a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %r = tp.addmm %c, %a, %b : (tensor<4x5xf32>, tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

func.func @baddbmm(%c: tensor<2x4x16xf32>, %a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<2x4x16xf32> {
  %r = tp.baddbmm %c, %a, %b : (tensor<2x4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  return %r : tensor<2x4x16xf32>
}

func.func @addbmm(%c: tensor<4x16xf32>, %a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<4x16xf32> {
  %r = tp.addbmm %c, %a, %b : (tensor<4x16xf32>, tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @bilinear(%x: tensor<4x3xf32>, %y: tensor<4x5xf32>, %w: tensor<7x3x5xf32>) -> tensor<4x7xf32> {
  %r = tp.bilinear %x, %y, %w : (tensor<4x3xf32>, tensor<4x5xf32>, tensor<7x3x5xf32>) -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

func.func @conv2d(%x: tensor<2x4x8x8xf32>, %w: tensor<6x4x1x1xf32>) -> tensor<2x6x4x4xf32> {
  %r = tp.conv2d %x, %w {stride = array<i64: 2>} : (tensor<2x4x8x8xf32>, tensor<6x4x1x1xf32>) -> tensor<2x6x4x4xf32>
  return %r : tensor<2x6x4x4xf32>
}
