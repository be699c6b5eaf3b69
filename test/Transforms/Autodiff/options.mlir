// tp-autodiff's options: `functions` picks the functions (each must return
// a 0-d floating loss first), `wrt` the arguments (floating, in range).
// RUN: not tp-opt %s --tp-autodiff=functions=features 2>&1 | FileCheck %s --check-prefix=NOT-LOSS
// RUN: not tp-opt %s --tp-autodiff=functions=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tp-opt %s --tp-autodiff=wrt=5 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tp-opt %s --tp-autodiff=wrt=1 2>&1 | FileCheck %s --check-prefix=INT
// RUN: tp-opt %s --tp-autodiff=wrt=0 | FileCheck %s --check-prefix=WRT

// NOT-LOSS: error: 'func.func' op tp-autodiff: the first result of @features must be a 0-d floating tensor (the loss) to differentiate it
// MISSING: error: tp-autodiff: no function @missing with a body to differentiate
// RANGE: error: 'func.func' op tp-autodiff: wrt index 5 is out of range: @loss has 3 arguments
// INT: error: 'func.func' op tp-autodiff: wrt argument #1 of @loss is not a floating or complex tensor but 'tensor<4xi64>'

// Only the loss function is differentiated by default (@features returns no
// 0-d loss); with wrt=0, only the first argument's gradient is returned.
// WRT-LABEL: func.func @loss_grad(
// WRT-SAME: -> (tensor<f32>, tensor<4x3xf32>)
// WRT-NOT: func.func @features_grad
func.func @loss(%x: tensor<4x3xf32>, %t: tensor<4xi64>, %w: tensor<3xf32>) -> tensor<f32> {
  %y = tp.mul %x, %w : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %l = tp.sum %y : (tensor<4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func @features(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  return %x : tensor<4x3xf32>
}
