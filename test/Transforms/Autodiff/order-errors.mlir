// A gradient function that is referenced stays and is autocast by the
// tables, with a warning; a malformed link is an error.
// RUN: tp-opt %s --split-input-file --autocast=cuda:fp16 --verify-diagnostics

func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<f32> {
  %m = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %l = tp.sum %m : (tensor<4x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// expected-warning @+1 {{tp-autocast: @f_grad is referenced, so it is autocast by the tables instead of being built again from the autocast @f}}
func.func @f_grad(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<f32> attributes {tp.gradient_of = {function = @f, wrt = array<i64: 1>}} {
  %l = tp.sum %x : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func @caller(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<f32> {
  %l = call @f_grad(%x, %w) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{malformed tp.gradient_of: expected {function = @f, wrt = array<i64: ...>}}}
func.func @g_grad(%x: tensor<4xf32>) -> tensor<f32> attributes {tp.gradient_of = {function = "g"}} {
  %l = tp.sum %x : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{malformed tp.train_step: expected the layout and options tp-train-step records}}
func.func @h_train_step(%x: tensor<4xf32>) -> tensor<f32> attributes {tp.train_step = {function = "h"}} {
  %l = tp.sum %x : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
