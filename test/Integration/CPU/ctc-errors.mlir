// ctc_loss checks its lengths at run time as tensorplay does: a violation
// is an error of the compiled function in tensorplay's words, which tp-run
// prints before exiting non-zero. Log-probabilities of a type the kernel
// does not take are refused at compile time, at the op.
// RUN: not tp-run %s --entry=input_too_long 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not tp-run %s --entry=negative_input 2>&1 | FileCheck %s --check-prefix=NEGINPUT
// RUN: not tp-run %s --entry=negative_target 2>&1 | FileCheck %s --check-prefix=NEGTARGET
// RUN: not tp-run %s --entry=target_too_long 2>&1 | FileCheck %s --check-prefix=PADDED
// RUN: not tp-run %s --entry=concatenated_size 2>&1 | FileCheck %s --check-prefix=CONCAT
// RUN: not tp-run %s --entry=label_range 2>&1 | FileCheck %s --check-prefix=LABEL
// RUN: not tp-run %S/Inputs/ctc-bf16.mlir 2>&1 | FileCheck %s --check-prefix=BF16
// Under autocast (cpu fp32 list) the bf16 log-probabilities run in f32:
// 0.62348426 is the f64 sum over every alignment, (-log p) / 2, of the
// same bf16 values.
// RUN: tp-run %S/Inputs/ctc-bf16.mlir --autocast=cpu:bf16 --print | FileCheck %s --check-prefix=AUTOCAST

// INPUT: runtime error in @input_too_long: ctc_loss: Expected input_lengths to have value at most 4, but got value 5 (while checking arguments for ctc_loss_cpu)
func.func @input_too_long(%lp: tensor<4x2x3xf32>) -> tensor<f32> {
  %t = tp.constant dense<[[1, 2], [2, 1]]> : tensor<2x2xi64>
  %il = tp.constant dense<[4, 5]> : tensor<2xi64>
  %tl = tp.constant dense<[2, 2]> : tensor<2xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<4x2x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// NEGINPUT: runtime error in @negative_input: ctc_loss: Expected input_lengths to have value at least 0, but got value -1 (while checking arguments for ctc_loss_cpu)
func.func @negative_input(%lp: tensor<4x2x3xf32>) -> tensor<f32> {
  %t = tp.constant dense<[[1, 2], [2, 1]]> : tensor<2x2xi64>
  %il = tp.constant dense<[-1, 4]> : tensor<2xi64>
  %tl = tp.constant dense<[2, 2]> : tensor<2xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<4x2x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// NEGTARGET: runtime error in @negative_target: ctc_loss: Expected target_lengths to have value at least 0, but got value -2 (while checking arguments for ctc_loss_cpu)
func.func @negative_target(%lp: tensor<4x2x3xf32>) -> tensor<f32> {
  %t = tp.constant dense<[[1, 2], [2, 1]]> : tensor<2x2xi64>
  %il = tp.constant dense<[4, 4]> : tensor<2xi64>
  %tl = tp.constant dense<[2, -2]> : tensor<2xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<4x2x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// PADDED: runtime error in @target_too_long: ctc_loss: Expected tensor to have size at least 3 at dimension 1, but got size 2 for argument #2 'targets' (while checking arguments for ctc_loss_cpu)
func.func @target_too_long(%lp: tensor<4x2x3xf32>) -> tensor<f32> {
  %t = tp.constant dense<[[1, 2], [2, 1]]> : tensor<2x2xi64>
  %il = tp.constant dense<[4, 4]> : tensor<2xi64>
  %tl = tp.constant dense<[3, 1]> : tensor<2xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<4x2x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// CONCAT: runtime error in @concatenated_size: ctc_loss: Expected tensor to have size 3 at dimension 0, but got size 4 for argument #2 'targets' (the sum of target_lengths) (while checking arguments for ctc_loss_cpu)
func.func @concatenated_size(%lp: tensor<4x2x3xf32>) -> tensor<f32> {
  %t = tp.constant dense<[1, 2, 2, 1]> : tensor<4xi64>
  %il = tp.constant dense<[4, 4]> : tensor<2xi64>
  %tl = tp.constant dense<[2, 1]> : tensor<2xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<4x2x3xf32>, tensor<4xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// LABEL: runtime error in @label_range: ctc_loss: target 3 of sample 1 is not a class index in [0, 3) (while checking arguments for ctc_loss_cpu)
func.func @label_range(%lp: tensor<4x2x3xf32>) -> tensor<f32> {
  %t = tp.constant dense<[[1, 2], [3, 1]]> : tensor<2x2xi64>
  %il = tp.constant dense<[4, 4]> : tensor<2xi64>
  %tl = tp.constant dense<[2, 2]> : tensor<2xi64>
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<4x2x3xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// BF16: ctc-bf16.mlir:{{[0-9]+}}:8: error: 'tp.ctc_loss' op runs on f32 and f64 log_probs, got 'tensor<3x1x3xbf16>' (tensorplay's CPU kernel takes float and double; under autocast ctc_loss runs in f32)
// AUTOCAST: @ctc_bf16 result #0: 0.623484{{[0-9]*$}}
