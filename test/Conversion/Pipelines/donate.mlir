// tp.donate: the donated results of a public function are written into
// their arguments' buffers (the arguments become writable) and leave the
// signature. The fused SGD updates the parameter, the momentum buffer and
// the step counter in place, so no copy is left; the elementwise result
// computed into a fresh buffer is copied into its argument once.
// RUN: tp-opt %s --split-input-file --tp-lower-to-cpu="to-llvm=0" -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @step(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<4x8xf32>, %arg3: memref<i64>, %arg4: memref<f32>) attributes
// CHECK-NOT: memref.copy
// CHECK: call @tp_rt_codegen_sgd_step_f32
// CHECK-NOT: memref.copy
// CHECK: %[[D:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK: memref.copy %[[D]], %arg4
// CHECK-NOT: memref.copy
// CHECK: return
func.func @step(%w: tensor<4x8xf32>, %gw: tensor<4x8xf32>, %mw: tensor<4x8xf32>, %n: tensor<i64>, %d: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<f32>) attributes {tp.donate = array<i64: 0, 2, 3, 4>} {
  %w1, %m1, %n1 = tp.fused_sgd %w, %gw momentum_buffer(%mw) step(%n) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>)
  %two = tp.constant dense<2.0> : tensor<f32>
  %d1 = tp.mul %d, %two : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %w1, %m1, %n1, %d1 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<f32>
}

// -----

// expected-error @+1 {{'func.func' op tp.donate has 1 entries for 2 results}}
func.func @count(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.donate = array<i64: 0>} {
  return %a, %a : tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op tp.donate: result #0 ('tensor<4xf32>') cannot update argument #0 ('tensor<8xf32>')}}
func.func @type(%a: tensor<8xf32>) -> tensor<4xf32> attributes {tp.donate = array<i64: 0>} {
  %r = tp.reshape %a {shape = array<i64: 2, 4>} : (tensor<8xf32>) -> tensor<2x4xf32>
  %s = tp.sum %r {dim = array<i64: 0>} : (tensor<2x4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op tp.donate: argument #0 is donated twice}}
func.func @twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.donate = array<i64: 0, 0>} {
  %e = tp.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %e, %e : tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op tp.donate: result #0 names argument #3, which does not exist}}
func.func @range(%a: tensor<4xf32>) -> tensor<4xf32> attributes {tp.donate = array<i64: 3>} {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op result #1 is the donated argument #0; it cannot be returned as well}}
func.func @aliased(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {tp.donate = array<i64: 0, -1>} {
  %e = tp.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %e, %a : tensor<4xf32>, tensor<4xf32>
}
