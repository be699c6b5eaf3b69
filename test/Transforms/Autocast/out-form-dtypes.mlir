// An out= (or in-place) product is not autocast; when autocast changes one
// of its operands to bf16, it is left with two dtypes, which tensorplay
// refuses (also in eager autocast): an error at the op, not a verifier
// failure of the IR autocast produced, nor a crash in the lowering.
// RUN: tp-opt --autocast=cpu:bf16 %s --split-input-file --verify-diagnostics

func.func @mm_out(%a: tensor<6x2xf32>, %b: tensor<2x8xf32>, %w: tensor<8x11xf32>, %o: tensor<6x11xf32>) -> tensor<6x11xf32> {
  %m = tp.mm %a, %b : (tensor<6x2xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
  // expected-error @+2 {{'tp.mm' op operands have incompatible dtypes after autocast: 'bf16', 'f32'}}
  // expected-note @+1 {{in-place and out= forms are not autocast}}
  %r = tp.mm %m, %w out(%o) : (tensor<6x8xf32>, tensor<8x11xf32>, tensor<6x11xf32>) -> tensor<6x11xf32>
  return %r : tensor<6x11xf32>
}

// -----

// Without a dtype conflict the out= form stays as it is.
func.func @add_out(%a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = tp.add %a, %b out(%o) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
