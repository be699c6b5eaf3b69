// tp-train-step param-copies: the f32 weights an autocast forward casts down
// become state (the step reads the copy, the optimizer writes the next one),
// in both pass orders; and canonicalization folds the gradients' up-casts
// into the optimizer and the inf/NaN check. What is left of the step's
// casts: the batch's down-cast and the loss's up-cast.
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-train-step="num-inputs=2 momentum=0.9 grad-scaler=true param-copies=true" --canonicalize --cse | FileCheck %s --check-prefix=SGD
// RUN: tp-opt %s --tp-train-step="num-inputs=2 momentum=0.9 grad-scaler=true param-copies=true" --autocast=cpu:bf16 --canonicalize --cse | FileCheck %s --check-prefix=SGD
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-train-step="num-inputs=2 optimizer=adamw param-copies=true" --canonicalize --cse | FileCheck %s --check-prefix=ADAMW
// Without the option the layout has no copies, and canonicalization still
// folds the gradients' up-casts.
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-train-step="num-inputs=2 grad-scaler=true" --canonicalize --cse | FileCheck %s --check-prefix=PLAIN
// Without autocast nothing is cast, so nothing is copied.
// RUN: tp-opt %s --tp-train-step="num-inputs=2 param-copies=true" | FileCheck %s --check-prefix=F32

// %w and %b feed the bf16 linear (cast down); %g the layer_norm, which reads
// its f32 weight as it is.
func.func @loss(%x: tensor<4x3xf32>, %y: tensor<4xi64>, %w: tensor<2x3xf32>, %b: tensor<2xf32>, %g: tensor<2xf32>) -> tensor<f32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %n = tp.layer_norm %h weight(%g) {normalized_shape = array<i64: 2>} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = tp.cross_entropy %n, %y : (tensor<4x2xf32>, tensor<4xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// The copies come after the GradScaler state, the new ones after the next
// scale and tracker, before found_inf.
// SGD-LABEL: func.func @loss_train_step(
// SGD-SAME: %[[X:[a-z0-9]+]]: tensor<4x3xf32>, %{{[a-z0-9]+}}: tensor<4xi64>, %[[W:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<2xf32>, %[[G:[a-z0-9]+]]: tensor<2xf32>,
// SGD-SAME: %[[S:[a-z0-9]+]]: tensor<f32>, %[[T:[a-z0-9]+]]: tensor<i32>, %[[WC:[a-z0-9]+]]: tensor<2x3xbf16>, %[[BC:[a-z0-9]+]]: tensor<2xbf16>)
// SGD-SAME: -> (tensor<f32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>, tensor<i64>, tensor<2xf32>, tensor<i64>, tensor<2xf32>, tensor<i64>, tensor<f32>, tensor<i32>, tensor<2x3xbf16>, tensor<2xbf16>, tensor<f32>)
// SGD-SAME: param_copies = array<i64: 0, 1>
// No parameter is cast: the forward reads the copies.
// SGD-NOT: tp.cast %[[W]]
// SGD-NOT: tp.cast %[[B]]
// SGD: %[[XB:.*]] = tp.cast %[[X]] : tensor<4x3xf32> to tensor<4x3xbf16>
// SGD: tp.linear %[[XB]], %[[WC]] bias(%[[BC]]) : (tensor<4x3xbf16>, tensor<2x3xbf16>, tensor<2xbf16>) -> tensor<4x2xbf16>
// The bf16 gradients go to the check and the optimizer without a cast.
// SGD: %[[GW:.*]] = tp.mm {{.*}} -> tensor<2x3xbf16>
// SGD: %[[GB:.*]] = tp.sum {{.*}} -> tensor<2xbf16>
// SGD: %[[F:.*]] = tp.amp_check_finite %[[GW]], %[[GB]], %{{.*}} : tensor<2x3xbf16>, tensor<2xbf16>, tensor<2xf32> -> tensor<f32>
// SGD: %[[W1:.*]], %[[WS:.*]]:2, %[[WN:.*]] = tp.fused_sgd %[[W]], %[[GW]] momentum_buffer(%{{.*}}) param_copy(%[[WC]]) step(%{{.*}}) grad_scale(%[[S]]) found_inf(%[[F]]) {{.*}} : (tensor<2x3xf32>, tensor<2x3xbf16>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<i64>)
// SGD: %[[B1:.*]], %[[BS:.*]]:2, %[[BN:.*]] = tp.fused_sgd %[[B]], %[[GB]] momentum_buffer(%{{.*}}) param_copy(%[[BC]])
// The layer_norm weight is not cast: no copy.
// SGD: %[[G1:.*]], %[[GM:.*]], %[[GN:.*]] = tp.fused_sgd %[[G]], %{{.*}} momentum_buffer(%{{.*}}) step
// SGD: %[[S1:.*]], %[[T1:.*]] = tp.amp_update_scale
// SGD: return %{{.*}}, %[[W1]], %[[B1]], %[[G1]], %[[WS]]#0, %[[WN]], %[[BS]]#0, %[[BN]], %[[GM]], %[[GN]], %[[S1]], %[[T1]], %[[WS]]#1, %[[BS]]#1, %[[F]] :
// SGD-NOT: tp.cast {{.*}} to tensor<2x3xf32>

// AdamW: the copy is the result before the step counter.
// ADAMW-LABEL: func.func @loss_train_step(
// ADAMW-SAME: %[[WC:[a-z0-9]+]]: tensor<2x3xbf16>, %[[BC:[a-z0-9]+]]: tensor<2xbf16>)
// ADAMW-SAME: param_copies = array<i64: 0, 1>
// ADAMW: tp.fused_adamw %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} param_copy(%[[WC]]) step(%{{.*}}) {{.*}} -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xbf16>, tensor<i64>)

// PLAIN-LABEL: func.func @loss_train_step(
// PLAIN-SAME: %{{[a-z0-9]+}}: tensor<f32>, %{{[a-z0-9]+}}: tensor<i32>)
// PLAIN-SAME: param_copies = array<i64>
// PLAIN: tp.cast %{{.*}} : tensor<2x3xf32> to tensor<2x3xbf16>
// PLAIN: %[[GW:.*]] = tp.mm {{.*}} -> tensor<2x3xbf16>
// PLAIN-NOT: tp.cast %[[GW]]
// PLAIN: tp.amp_check_finite %[[GW]]
// PLAIN: tp.fused_sgd %{{.*}}, %[[GW]] step

// F32-LABEL: func.func @loss_train_step(
// F32-SAME: param_copies = array<i64>
// F32-NOT: param_copy(
