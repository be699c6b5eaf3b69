// An argument number past the function's arguments is an error at it.
// RUN: tp-opt %s --tp-cast-arguments="functions=f args=3" -verify-diagnostics

// expected-error @+1 {{tp-cast-arguments: argument 3 out of range (@f has 1)}}
func.func @f(%w: tensor<2xf32>) -> tensor<2xf32> {
  return %w : tensor<2xf32>
}
