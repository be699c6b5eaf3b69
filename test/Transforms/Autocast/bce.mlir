// binary_cross_entropy is banned in enabled cuda and xpu regions (bce-cpu.mlir:
// on cpu it runs in f32).
// RUN: tp-opt --autocast=cuda:fp16 %s -split-input-file -verify-diagnostics
// RUN: tp-opt --autocast=xpu %s -split-input-file -verify-diagnostics

func.func @bce(%p: tensor<8xf32>, %t: tensor<8xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tp.binary_cross_entropy' op is banned in an enabled}}
  %l = tp.binary_cross_entropy %p, %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The message names the fix.
func.func @bce_fix(%p: tensor<8xf32>, %t: tensor<8xf32>) -> tensor<f32> {
  // expected-error @+1 {{use binary_cross_entropy_with_logits (sigmoid and binary cross entropy in one op), which is safe to autocast}}
  %l = tp.binary_cross_entropy %p, %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Allowed where autocast is off: the region of the run's own device
// disables it (the other device's region changes nothing).
func.func @bce_disabled(%p: tensor<8xf32>, %t: tensor<8xf32>) -> tensor<f32> {
  %r = tp.autocast "cuda" -> tensor<f32> {
    %s = tp.autocast "xpu" -> tensor<f32> {
      %l = tp.binary_cross_entropy %p, %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
      tp.yield %l : tensor<f32>
    } attributes {enabled = false}
    tp.yield %s : tensor<f32>
  } attributes {enabled = false}
  return %r : tensor<f32>
}

// -----

// A disabled region of another device does not help.
func.func @bce_other_device(%p: tensor<8xf32>, %t: tensor<8xf32>) -> tensor<f32> {
  %r = tp.autocast "cpu" -> tensor<f32> {
    // expected-error @+1 {{'tp.binary_cross_entropy' op is banned in an enabled}}
    %l = tp.binary_cross_entropy %p, %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
    tp.yield %l : tensor<f32>
  } attributes {enabled = false}
  return %r : tensor<f32>
}
