// Every verifier message of tp_rt.call.
// RUN: tp-opt %s --split-input-file --verify-diagnostics

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @positions(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected one output position per output, got 0 for 1}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @position_range(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{output position 2 is not an argument index (0 to 1)}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 2>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>, memref<*xf32>) -> i32
func.func @position_twice(%a: tensor<4xf32>, %o: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{output position 0 appears twice}}
  %r:2 = tp_rt.call @f(%a) outs(%o, %o) {output_positions = array<i64: 0, 0>} : (tensor<4xf32>), (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32>
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @views_count(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected one view per argument (2), got 1}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 1>, views = [array<i64>]} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(i64, memref<*xf32>) -> i32
func.func @scalar_view(%o: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 1 : i64
  // expected-error @+1 {{argument #0 is a scalar and has no view}}
  %r = tp_rt.call @f(%c) outs(%o) {output_positions = array<i64: 1>, views = [array<i64: 0>, array<i64>]} : (i64), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @not_a_permutation(%a: tensor<4x4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{view of argument #0 is not a permutation of its 2 dimensions}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 1>, views = [array<i64: 1, 1>, array<i64>]} : (tensor<4x4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @no_callee(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{callee @missing is not a func.func declaration}}
  %r = tp_rt.call @missing(%a) outs(%o) {output_positions = array<i64: 1>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf16>) -> i32
func.func @callee_type(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{callee @f has type '(memref<*xf32>, memref<*xf16>) -> i32', the call needs '(memref<*xf32>, memref<*xf32>) -> i32'}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 1>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @result_type(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{expected type of operand #1 ('tensor<4xf32>') to match type of corresponding result ('tensor<5xf32>')}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 1>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @update_index(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{updated output 1 is not an output index (0 to 0)}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 1>, updates = array<i64: 1>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @f(memref<*xf32>, memref<*xf32>) -> i32
func.func @update_twice(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{updated output 0 appears twice}}
  %r = tp_rt.call @f(%a) outs(%o) {output_positions = array<i64: 1>, updates = array<i64: 0, 0>} : (tensor<4xf32>), (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
