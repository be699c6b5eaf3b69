// tp-train-step with world-size > 1 (data parallel under MPI): the gradients
// are summed over the ranks by tp.all_reduce and divided by the number of
// ranks before the optimizer, in buckets from the last parameter back; the
// last all-reduce (the first parameters', the backward's last gradients)
// also carries this rank's found_inf flag and the loss; found_inf is any rank's flag (the summed flags, at most 1) or a
// non-finite averaged gradient, and the optimizer and the scale update read
// it and the averaged gradients. bucket-bytes splits the gradients into
// several all-reduces; world-size=1 adds none; autocast after the pass
// rebuilds the step with the recorded world size.
// RUN: tp-opt %s --tp-train-step="num-inputs=2 world-size=4 grad-scaler=true" | FileCheck %s
// RUN: tp-opt %s --tp-train-step="num-inputs=2 world-size=2 bucket-bytes=20" | FileCheck %s --check-prefix=BUCKETS
// RUN: tp-opt %s --tp-train-step="num-inputs=2" | FileCheck %s --check-prefix=ONE
// RUN: tp-opt %s --tp-train-step="num-inputs=2 world-size=2" --autocast=cpu:bf16 | FileCheck %s --check-prefix=AUTOCAST
// RUN: tp-opt %s --tp-train-step="function=deep num-inputs=2 world-size=2 grad-scaler=true overlap=true bucket-bytes=48" | FileCheck %s --check-prefix=OVERLAP
// RUN: not tp-opt %s --tp-train-step="num-inputs=2 world-size=0" 2>&1 | FileCheck %s --check-prefix=RANKS
// RUN: not tp-opt %s --tp-train-step="num-inputs=2 world-size=2 bucket-bytes=0" 2>&1 | FileCheck %s --check-prefix=BUCKET0
// RUN: not tp-opt %s --tp-train-step="function=mixed num-inputs=1 world-size=2" 2>&1 | FileCheck %s --check-prefix=MIXED

// CHECK-LABEL: func.func @loss_train_step
// CHECK-SAME: world_size = 4 : i64
// CHECK: %[[LOSS:.*]] = tp.cross_entropy
// CHECK: %[[GW:.*]] = tp.mm
// CHECK: %[[GB:.*]] = tp.sum
// CHECK: %[[FLAG:.*]] = tp.amp_check_finite %[[GW]], %[[GB]]
// CHECK: %[[R:.*]]:4 = tp.all_reduce "sum" %[[GB]], %[[GW]], %[[FLAG]], %[[LOSS]] : tensor<2xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>
// CHECK: %[[N:.*]] = tp.constant dense<4.000000e+00> : tensor<f32>
// CHECK: %[[MB:.*]] = tp.div %[[R]]#0, %[[N]]
// CHECK: %[[MW:.*]] = tp.div %[[R]]#1, %[[N]]
// CHECK: %[[MLOSS:.*]] = tp.div %[[R]]#3, %[[N]]
// CHECK-NOT: tp.all_reduce
// CHECK: %[[UNIT:.*]] = tp.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[ANY:.*]] = tp.minimum %[[R]]#2, %[[UNIT]]
// CHECK: %[[INMEAN:.*]] = tp.amp_check_finite %[[MW]], %[[MB]]
// CHECK: %[[FOUND:.*]] = tp.maximum %[[ANY]], %[[INMEAN]]
// CHECK: tp.fused_sgd %{{.*}}, %[[MW]] step(%{{.*}}) grad_scale(%{{.*}}) found_inf(%[[FOUND]])
// CHECK: tp.fused_sgd %{{.*}}, %[[MB]] step(%{{.*}}) grad_scale(%{{.*}}) found_inf(%[[FOUND]])
// CHECK: tp.amp_update_scale %{{.*}}, %{{.*}}, %[[FOUND]]
// CHECK: return %[[MLOSS]],
// CHECK-SAME: %[[FOUND]] :

// 20 bytes a bucket: the bias gradient (8 bytes) first, the weight gradient
// (24 bytes, more than a bucket alone) second, with the loss.
// BUCKETS-LABEL: func.func @loss_train_step
// BUCKETS: tp.all_reduce "sum" %{{.*}} : tensor<2xf32>
// BUCKETS: tp.all_reduce "sum" %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<f32>
// BUCKETS-NOT: tp.all_reduce

// ONE-LABEL: func.func @loss_train_step
// ONE-NOT: world_size
// ONE-NOT: tp.all_reduce
// ONE: return

// AUTOCAST-LABEL: func.func @loss_train_step
// AUTOCAST-SAME: world_size = 2 : i64
// AUTOCAST: tp.all_reduce "sum"
// AUTOCAST-SAME: tensor<2xf32>, tensor<2x3xf32>

// With overlap each bucket's all-reduce comes right after its last
// gradient: the second layer's (bias and weight, 48 bytes) before the
// ReLU's backward and the first layer's gradients; the last bucket (the
// first layer's weight, with the flag and the loss) after the flag. The
// means come after all of them.
// OVERLAP-LABEL: func.func @deep_train_step
// OVERLAP-SAME: overlap = true
// OVERLAP: %[[GW2:.*]] = tp.mm %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
// OVERLAP: %[[GB2:.*]] = tp.sum
// OVERLAP-NEXT: %[[R2:.*]]:2 = tp.all_reduce "sum" overlap %[[GB2]], %[[GW2]] : tensor<2xf32>, tensor<2x5xf32>
// OVERLAP-NEXT: tp.threshold_backward
// OVERLAP: %[[GW1:.*]] = tp.mm %{{.*}}, %{{.*}} : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// OVERLAP: %[[GB1:.*]] = tp.sum
// OVERLAP-NEXT: %[[R1:.*]] = tp.all_reduce "sum" overlap %[[GB1]] : tensor<5xf32>
// OVERLAP-NEXT: %[[FLAG:.*]] = tp.amp_check_finite %[[GW1]], %[[GB1]], %[[GW2]], %[[GB2]]
// OVERLAP-NEXT: %[[R0:.*]]:3 = tp.all_reduce "sum" overlap %[[GW1]], %[[FLAG]], %{{.*}} : tensor<5x3xf32>, tensor<f32>, tensor<f32>
// OVERLAP-NOT: tp.all_reduce
// OVERLAP: tp.div %[[R2]]#0
// OVERLAP: tp.fused_sgd

// RANKS: error: tp-train-step: world-size must be from 1 to 2^24, got 0
// BUCKET0: error: tp-train-step: bucket-bytes must be > 0, got 0
// MIXED: error: 'func.func' op tp-train-step: world-size=2 averages the gradients in one buffer: the parameters must all be f32 or all f64, got 'f32' and 'f64'

func.func @loss(%x: tensor<4x3xf32>, %y: tensor<4xi64>, %w: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<f32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = tp.cross_entropy %h, %y : (tensor<4x2xf32>, tensor<4xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @mixed(%x: tensor<3xf32>, %w: tensor<3xf32>, %v: tensor<3xf64>) -> tensor<f32> {
  %p = tp.mul %x, %w : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %v32 = tp.cast %v : tensor<3xf64> to tensor<3xf32>
  %q = tp.mul %p, %v32 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = tp.sum %q : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

func.func private @deep(%x: tensor<4x3xf32>, %y: tensor<4xi64>, %w1: tensor<5x3xf32>, %b1: tensor<5xf32>, %w2: tensor<2x5xf32>, %b2: tensor<2xf32>) -> tensor<f32> {
  %h = tp.linear %x, %w1 bias(%b1) : (tensor<4x3xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %a = tp.relu %h : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %o = tp.linear %a, %w2 bias(%b2) : (tensor<4x5xf32>, tensor<2x5xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %l = tp.cross_entropy %o, %y : (tensor<4x2xf32>, tensor<4xi64>) -> tensor<f32>
  return %l : tensor<f32>
}
