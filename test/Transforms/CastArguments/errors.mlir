// A function that is not there is an error at the module.
// RUN: tp-opt %s --tp-cast-arguments="functions=missing" -verify-diagnostics

// expected-error @+1 {{tp-cast-arguments: no public function @missing with a body}}
module {
  func.func @f(%w: tensor<2xf32>) -> tensor<2xf32> {
    return %w : tensor<2xf32>
  }
}
