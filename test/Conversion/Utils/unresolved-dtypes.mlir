// An op with mixed floating operands that autocast did not resolve is
// refused by every lowering out of tp, with one error naming its dtypes
// (tp-decompose-composite-ops, a tp -> tp rewrite, passes it on).
// RUN: tp-opt %s --tp-lower-to-cpu -verify-diagnostics -o /dev/null
// RUN: tp-opt %s --convert-tp-to-runtime -verify-diagnostics=only-expected -o /dev/null
// RUN: tp-opt %s --convert-tp-to-linalg -verify-diagnostics=only-expected -o /dev/null

func.func @dot(%a: tensor<8xf16>, %b: tensor<8xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.dot' op has operands of dtypes 'f16' and 'f32', which only autocast resolves: run tp-autocast (--autocast=<device>[:<dtype>]) before}}
  %r = tp.dot %a, %b : (tensor<8xf16>, tensor<8xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

func.func @mm(%x: tensor<4x8xbf16>, %w: tensor<8x16xf16>) -> tensor<4x16xbf16> {
  // expected-error @+1 {{'tp.mm' op has operands of dtypes 'bf16' and 'f16'}}
  %r = tp.mm %x, %w : (tensor<4x8xbf16>, tensor<8x16xf16>) -> tensor<4x16xbf16>
  return %r : tensor<4x16xbf16>
}
