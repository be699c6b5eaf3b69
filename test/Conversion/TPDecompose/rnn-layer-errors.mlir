// mkldnn_rnn_layer forms the CPU pipeline refuses.
// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file -verify-diagnostics

func.func @gru(%x: tensor<2x2x4xf32>, %w0: tensor<9x4xf32>, %w1: tensor<9x3xf32>, %b0: tensor<9xf32>, %b1: tensor<9xf32>, %h: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x2x3xf32> {
  // expected-error @+1 {{has no CPU lowering for mode 3: tensorplay's CPU calls mkldnn_rnn_layer for LSTMs (mode 2)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %b0, %b1, %h, %c {reverse = false, batch_sizes = array<i64>, mode = 3 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<9x4xf32>, tensor<9x3xf32>, tensor<9xf32>, tensor<9xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return %o : tensor<2x2x3xf32>
}

// -----

func.func @packed(%x: tensor<2x2x4xf32>, %w0: tensor<12x4xf32>, %w1: tensor<12x3xf32>, %b0: tensor<12xf32>, %b1: tensor<12xf32>, %h: tensor<2x3xf32>, %c: tensor<2x3xf32>) -> tensor<2x2x3xf32> {
  // expected-error @+1 {{has no CPU lowering for packed sequences (batch_sizes)}}
  %o, %hy, %cy, %ws = tp.mkldnn_rnn_layer %x, %w0, %w1, %b0, %b1, %h, %c {reverse = false, batch_sizes = array<i64: 2, 2>, mode = 2 : i64, hidden_size = 3 : i64, num_layers = 1 : i64, has_biases = true, bidirectional = false, batch_first = false, train = false} : (tensor<2x2x4xf32>, tensor<12x4xf32>, tensor<12x3xf32>, tensor<12xf32>, tensor<12xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<0xui8>)
  return %o : tensor<2x2x3xf32>
}
