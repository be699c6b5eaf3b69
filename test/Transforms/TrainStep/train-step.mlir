// tp-train-step: the train step's signature, the scaled loss, the backward,
// the GradScaler ops and one fused optimizer op per parameter, for SGD with
// momentum and the GradScaler, AdamW without it, and after autocast (the
// backward in the forward's dtypes, f32 gradients for the f32 weights).
// RUN: tp-opt %s --tp-train-step="num-inputs=2 optimizer=sgd lr=0.1 momentum=0.9 grad-scaler=true growth-interval=100" | FileCheck %s --check-prefix=SGD
// RUN: tp-opt %s --tp-train-step="num-inputs=2 optimizer=adamw lr=0.001" | FileCheck %s --check-prefix=ADAMW
// RUN: tp-opt %s --tp-train-step="num-inputs=2 optimizer=adamw amsgrad=true weight-decay=0.5" | FileCheck %s --check-prefix=AMSGRAD
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-train-step="num-inputs=2 grad-scaler=true" | FileCheck %s --check-prefix=BF16
// Every hyper-parameter option reaches its op.
// RUN: tp-opt %s --tp-train-step="num-inputs=2 momentum=0.9 nesterov=true maximize=true lr=0.5 weight-decay=0.1" | FileCheck %s --check-prefix=NESTEROV
// RUN: tp-opt %s --tp-train-step="num-inputs=2 optimizer=adamw beta1=0.8 beta2=0.99 eps=1e-6 maximize=true" | FileCheck %s --check-prefix=BETAS
// RUN: tp-opt %s --tp-train-step="num-inputs=2 momentum=0.9 dampening=0.5 grad-scaler=true backoff-factor=0.25 growth-factor=4" | FileCheck %s --check-prefix=FACTORS

func.func @loss(%x: tensor<4x3xf32>, %y: tensor<4xi64>, %w: tensor<2x3xf32>, %b: tensor<2xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
  %h = tp.linear %x, %w bias(%b) : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = tp.cross_entropy %h, %y : (tensor<4x2xf32>, tensor<4xi64>) -> tensor<f32>
  return %l, %h : tensor<f32>, tensor<4x2xf32>
}

// The loss function stays; the helpers are gone.
// SGD-LABEL: func.func @loss(
// SGD-NOT: func.func @__tp
// SGD-LABEL: func.func @loss_train_step(
// SGD-SAME: %[[X:[a-z0-9]+]]: tensor<4x3xf32>, %[[Y:[a-z0-9]+]]: tensor<4xi64>, %[[W:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<2xf32>,
// SGD-SAME: %[[WM:[a-z0-9]+]]: tensor<2x3xf32>, %[[WN:[a-z0-9]+]]: tensor<i64>, %[[BM:[a-z0-9]+]]: tensor<2xf32>, %[[BN:[a-z0-9]+]]: tensor<i64>,
// SGD-SAME: %[[S:[a-z0-9]+]]: tensor<f32>, %[[T:[a-z0-9]+]]: tensor<i32>)
// SGD-SAME: -> (tensor<f32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<i64>, tensor<2xf32>, tensor<i64>, tensor<f32>, tensor<i32>, tensor<f32>)
// SGD-SAME: attributes {tp.train_step = {function = "loss",
// SGD-SAME: options = {amsgrad = false, backoff_factor = 5.000000e-01 : f64, beta1 = 9.000000e-01 : f64, beta2 = 0.99899999999999999 : f64, dampening = 0.000000e+00 : f64, eps = 1.000000e-08 : f64, grad_scaler = true, growth_factor = 2.000000e+00 : f64, growth_interval = 100 : i64, lr = 1.000000e-01 : f64, maximize = false, momentum = 9.000000e-01 : f64, nesterov = false, num_inputs = 2 : i64, optimizer = "sgd", param_copies = false, weight_decay = -1.000000e+00 : f64},
// SGD-SAME: params = array<i64: 2, 3>, state = ["momentum_buffer", "step"]}}
// SGD: %[[H:.*]] = tp.linear %[[X]], %[[W]] bias(%[[B]])
// SGD: %[[L:.*]] = tp.cross_entropy %[[H]], %[[Y]]
// The backward is seeded by d(loss * scale)/d(loss) = scale.
// SGD: tp.mul %[[L]], %[[S]]
// SGD: %[[SEED:.*]] = tp.mul %{{.*}}, %[[S]]
// SGD: tp.nll_loss_backward %[[SEED]]
// SGD: %[[GW:.*]] = tp.mm
// SGD: %[[GB:.*]] = tp.sum
// SGD: %[[F:.*]] = tp.amp_check_finite %[[GW]], %[[GB]] : tensor<2x3xf32>, tensor<2xf32> -> tensor<f32>
// SGD: %[[W1:.*]], %[[WM1:.*]], %[[WN1:.*]] = tp.fused_sgd %[[W]], %[[GW]] momentum_buffer(%[[WM]]) step(%[[WN]]) grad_scale(%[[S]]) found_inf(%[[F]]) {lr = 1.000000e-01 : f64, momentum = 9.000000e-01 : f64}
// SGD: %[[B1:.*]], %[[BM1:.*]], %[[BN1:.*]] = tp.fused_sgd %[[B]], %[[GB]] momentum_buffer(%[[BM]]) step(%[[BN]]) grad_scale(%[[S]]) found_inf(%[[F]])
// SGD: %[[S1:.*]], %[[T1:.*]] = tp.amp_update_scale %[[S]], %[[T]], %[[F]] {growth_interval = 100 : i64}
// SGD: return %[[L]], %[[W1]], %[[B1]], %[[WM1]], %[[WN1]], %[[BM1]], %[[BN1]], %[[S1]], %[[T1]], %[[F]] :

// Without the GradScaler: no scale, no check, the unscaled loss seeds the
// backward. AdamW's state: exp_avg, exp_avg_sq, step; weight decay 0.01
// (the default, so not printed).
// ADAMW-LABEL: func.func @loss_train_step(
// ADAMW-SAME: tensor<4x3xf32>, %{{[a-z0-9]+}}: tensor<4xi64>, %[[W:[a-z0-9]+]]: tensor<2x3xf32>, %{{[a-z0-9]+}}: tensor<2xf32>,
// ADAMW-SAME: %[[WM:[a-z0-9]+]]: tensor<2x3xf32>, %[[WV:[a-z0-9]+]]: tensor<2x3xf32>, %[[WN:[a-z0-9]+]]: tensor<i64>, %{{[a-z0-9]+}}: tensor<2xf32>, %{{[a-z0-9]+}}: tensor<2xf32>, %{{[a-z0-9]+}}: tensor<i64>)
// ADAMW-SAME: -> (tensor<f32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<i64>)
// ADAMW-SAME: state = ["exp_avg", "exp_avg_sq", "step"]
// ADAMW-NOT: tp.amp_check_finite
// ADAMW: %[[ONE:.*]] = tp.constant dense<1.000000e+00> : tensor<f32>
// ADAMW-NEXT: tp.log_softmax
// ADAMW-NEXT: tp.nll_loss_backward %[[ONE]],
// ADAMW: tp.fused_adamw %[[W]], %{{.*}}, %[[WM]], %[[WV]] step(%[[WN]]) {lr = 1.000000e-03 : f64}
// ADAMW: tp.fused_adamw
// ADAMW-NOT: tp.amp_update_scale
// ADAMW: return

// AMSGRAD: state = ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
// AMSGRAD: tp.fused_adamw {{.*}} max_exp_avg_sq({{.*}}) step({{.*}}) {amsgrad = true, lr = 1.000000e-03 : f64, weight_decay = 5.000000e-01 : f64}

// After autocast: the forward product in bf16, its backward products in
// bf16 too, and the weight's gradient cast back to f32 before the check and
// the optimizer, which work on the f32 master weights.
// BF16-LABEL: func.func @loss_train_step(
// BF16: tp.linear {{.*}} : (tensor<4x3xbf16>, tensor<2x3xbf16>, tensor<2xbf16>) -> tensor<4x2xbf16>
// BF16: tp.mm {{.*}} -> tensor<2x3xbf16>
// BF16: %[[GW:.*]] = tp.cast {{.*}} : tensor<2x3xbf16> to tensor<2x3xf32>
// BF16: %[[F:.*]] = tp.amp_check_finite %[[GW]], %{{.*}} : tensor<2x3xf32>, tensor<2xf32>
// BF16: tp.fused_sgd %{{.*}}, %[[GW]] step

// NESTEROV: tp.fused_sgd {{.*}} {lr = 5.000000e-01 : f64, maximize = true, momentum = 9.000000e-01 : f64, nesterov = true, weight_decay = 1.000000e-01 : f64}
// BETAS: tp.fused_adamw {{.*}} {beta1 = 8.000000e-01 : f64, beta2 = 0.98999999999999999 : f64, eps = 9.9999999999999995E-7 : f64, lr = 1.000000e-03 : f64, maximize = true}
// FACTORS: tp.fused_sgd {{.*}} {dampening = 5.000000e-01 : f64, lr = 1.000000e-03 : f64, momentum = 9.000000e-01 : f64}
// FACTORS: tp.amp_update_scale {{.*}} {backoff_factor = 2.500000e-01 : f64, growth_factor = 4.000000e+00 : f64}
