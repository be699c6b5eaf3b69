// tp-train-step's errors: bad options and functions it cannot train, each a
// message at the function (or the module) and a failing exit status.
// RUN: not tp-opt %s --tp-train-step="optimizer=adam" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not tp-opt %s --tp-train-step 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// RUN: not tp-opt %s --tp-train-step="function=nope" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tp-opt %s --tp-train-step="function=g num-inputs=1" 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not tp-opt %s --tp-train-step="function=f num-inputs=3" 2>&1 | FileCheck %s --check-prefix=INPUTS
// RUN: not tp-opt %s --tp-train-step="function=f num-inputs=2" 2>&1 | FileCheck %s --check-prefix=NOPARAMS
// RUN: not tp-opt %s --tp-train-step="function=h" 2>&1 | FileCheck %s --check-prefix=NOLOSS
// RUN: not tp-opt %s --tp-train-step="function=e" 2>&1 | FileCheck %s --check-prefix=EXISTS
// RUN: not tp-opt %s --tp-train-step="function=f lr=-1" 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not tp-opt %s --tp-train-step="function=f grad-scaler=true growth-factor=0.5" 2>&1 | FileCheck %s --check-prefix=GROWTH
// RUN: not tp-opt %s --tp-train-step="function=c" 2>&1 | FileCheck %s --check-prefix=RULE

// OPT: error: tp-train-step: unknown optimizer 'adam': expected sgd or adamw
// AMBIGUOUS: error: tp-train-step: the module has 4 loss functions; name one with function=
// MISSING: error: tp-train-step: no function @nope with a body
// PARAM: error: 'func.func' op tp-train-step: argument #1 of @g follows the num-inputs=1 batch arguments, so it is a parameter, but it is 'tensor<4xi64>', not a floating tensor
// INPUTS: error: 'func.func' op tp-train-step: num-inputs=3 but @f has 2 arguments
// NOPARAMS: error: 'func.func' op tp-train-step: @f has no parameters after its 2 batch arguments
// NOLOSS: error: 'func.func' op tp-train-step: the first result of @h must be a 0-d floating tensor (the loss)
// EXISTS: error: 'func.func' op tp-train-step: @e_train_step exists already
// LR: error: 'tp.fused_sgd' op invalid lr -1: expected a finite value >= 0
// GROWTH: error: 'tp.amp_update_scale' op growth_factor must be a finite number > 1, got 0.5
// RULE: error: 'tp.gelu_backward' op tp-autodiff: no backward rule for 'tp.gelu_backward' yet

func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %m : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @g(%x: tensor<4xf32>, %t: tensor<4xi64>, %w: tensor<4xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %m : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @h(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %m = tp.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

func.func @e(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %l = tp.dot %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @e_train_step()

func.func @c(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = tp.gelu_backward %m, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = tp.sum %s : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
