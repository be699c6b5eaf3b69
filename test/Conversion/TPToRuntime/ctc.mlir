// ctc_loss becomes a tp_rt.call of tp_rt_ctc_loss_{f32,f64} on (T, N, C)
// log-probabilities and i64 targets and lengths (integer operands of other
// widths cast, an unbatched input and 0-d lengths reshaped to a batch of
// one), writing the (N) per-sample losses; zero_infinity and the reduction
// are tp ops after it. bf16 log-probabilities are an error at the op.
// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file -verify-diagnostics | FileCheck %s
// RUN: tp-opt %s --convert-tp-to-runtime="onednn=0" --split-input-file -verify-diagnostics | FileCheck %s

// CHECK-DAG: func.func private @tp_rt_ctc_loss_f32(memref<*xf32>, memref<*xi64>, memref<*xi64>, memref<*xi64>, memref<*xf32>, i64) -> i32
// CHECK-LABEL: func.func @padded_mean(
// CHECK-DAG: %[[ONE:.*]] = tp.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG: %[[BLANK:.*]] = arith.constant 3 : i64
// CHECK: %[[T:.*]] = tp.cast %arg1 : tensor<2x3xi32> to tensor<2x3xi64>
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<2xf32>
// CHECK: %[[NLL:.*]] = tp_rt.call @tp_rt_ctc_loss_f32(%arg0, %[[T]], %arg2, %arg3, %[[BLANK]]) outs(%[[OUT]]) {output_positions = array<i64: 4>}
// CHECK: %[[TL:.*]] = tp.cast %arg3 : tensor<2xi64> to tensor<2xf32>
// CHECK: %[[CLAMPED:.*]] = tp.maximum %[[TL]], %[[ONE]]
// CHECK: %[[PER:.*]] = tp.div %[[NLL]], %[[CLAMPED]]
// CHECK: %[[MEAN:.*]] = tp.mean %[[PER]] : (tensor<2xf32>) -> tensor<f32>
// CHECK: return %[[MEAN]]
func.func @padded_mean(%lp: tensor<6x2x4xf32>, %t: tensor<2x3xi32>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<f32> {
  %l = tp.ctc_loss %lp, %t, %il, %tl {blank = 3 : i64} : (tensor<6x2x4xf32>, tensor<2x3xi32>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @concatenated_sum(
// CHECK: %[[NLL:.*]] = tp_rt.call @tp_rt_ctc_loss_f32(%arg0, %arg1, %arg2, %arg3, %{{.*}}) outs(%{{.*}}) {{.*}} : (tensor<6x2x4xf32>, tensor<5xi64>, tensor<2xi64>, tensor<2xi64>, i64), (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[SUM:.*]] = tp.sum %[[NLL]] : (tensor<2xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[SUM]]
func.func @concatenated_sum(%lp: tensor<6x2x4xf32>, %t: tensor<5xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<f32> {
  %l = tp.ctc_loss %lp, %t, %il, %tl {reduction = #tp.reduction<sum>} : (tensor<6x2x4xf32>, tensor<5xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// CHECK-DAG: func.func private @tp_rt_ctc_loss_f64(memref<*xf64>, memref<*xi64>, memref<*xi64>, memref<*xi64>, memref<*xf64>, i64) -> i32
// CHECK-LABEL: func.func @unbatched_zero_infinity(
// CHECK-DAG: %[[ZERO:.*]] = tp.constant dense<0.000000e+00> : tensor<f64>
// CHECK-DAG: %[[INF:.*]] = tp.constant dense<0x7FF0000000000000> : tensor<f64>
// CHECK: %[[LP:.*]] = tp.reshape %arg0 {shape = array<i64: 6, 1, 4>}
// CHECK: %[[IL:.*]] = tp.reshape %arg2 {shape = array<i64: 1>} : (tensor<i64>) -> tensor<1xi64>
// CHECK: %[[TL64:.*]] = tp.cast %arg3 : tensor<i32> to tensor<i64>
// CHECK: %[[TL:.*]] = tp.reshape %[[TL64]] {shape = array<i64: 1>}
// CHECK: %[[NLL:.*]] = tp_rt.call @tp_rt_ctc_loss_f64(%[[LP]], %arg1, %[[IL]], %[[TL]], %{{.*}})
// CHECK: %[[ISINF:.*]] = tp.eq %[[NLL]], %[[INF]]
// CHECK: %[[KEPT:.*]] = tp.where %[[ISINF]], %[[ZERO]], %[[NLL]]
// CHECK: %[[R:.*]] = tp.reshape %[[KEPT]] {shape = array<i64>} : (tensor<1xf64>) -> tensor<f64>
// CHECK: return %[[R]]
func.func @unbatched_zero_infinity(%lp: tensor<6x4xf64>, %t: tensor<3xi64>, %il: tensor<i64>, %tl: tensor<i32>) -> tensor<f64> {
  %l = tp.ctc_loss %lp, %t, %il, %tl {zero_infinity = true, reduction = #tp.reduction<none>} : (tensor<6x4xf64>, tensor<3xi64>, tensor<i64>, tensor<i32>) -> tensor<f64>
  return %l : tensor<f64>
}

// -----

func.func @bf16(%lp: tensor<6x2x4xbf16>, %t: tensor<2x3xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<bf16> {
  // expected-error @+1 {{'tp.ctc_loss' op runs on f32 and f64 log_probs, got 'tensor<6x2x4xbf16>' (tensorplay's CPU kernel takes float and double; under autocast ctc_loss runs in f32)}}
  %l = tp.ctc_loss %lp, %t, %il, %tl : (tensor<6x2x4xbf16>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<bf16>
  return %l : tensor<bf16>
}

// -----

// ctc_loss_backward: a call of tp_rt_ctc_loss_backward_* with the gradient
// first, blank and zero_infinity last; an unbatched input gets a batch of
// one and its result the input's shape back.
// CHECK-DAG: func.func private @tp_rt_ctc_loss_backward_f32(memref<*xf32>, memref<*xf32>, memref<*xi64>, memref<*xi64>, memref<*xi64>, memref<*xf32>, i64, i64) -> i32
// CHECK-LABEL: func.func @backward(
// CHECK-DAG: %[[BLANK:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[ZI:.*]] = arith.constant 1 : i64
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<6x2x4xf32>
// CHECK: %[[G:.*]] = tp_rt.call @tp_rt_ctc_loss_backward_f32(%arg0, %arg1, %arg2, %arg3, %arg4, %[[BLANK]], %[[ZI]]) outs(%[[OUT]]) {output_positions = array<i64: 5>}
// CHECK: return %[[G]]
func.func @backward(%g: tensor<2xf32>, %lp: tensor<6x2x4xf32>, %t: tensor<2x3xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<6x2x4xf32> {
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl {blank = 2 : i64, zero_infinity = true} : (tensor<2xf32>, tensor<6x2x4xf32>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<6x2x4xf32>
  return %r : tensor<6x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @backward_unbatched(
// CHECK: %[[LP:.*]] = tp.reshape %arg1 {shape = array<i64: 6, 1, 4>}
// CHECK: %[[GR:.*]] = tp.reshape %arg0 {shape = array<i64: 1>}
// CHECK: %[[G:.*]] = tp_rt.call @tp_rt_ctc_loss_backward_f64(%[[GR]], %[[LP]],
// CHECK: %[[R:.*]] = tp.reshape %[[G]] {shape = array<i64: 6, 4>} : (tensor<6x1x4xf64>) -> tensor<6x4xf64>
// CHECK: return %[[R]]
func.func @backward_unbatched(%g: tensor<f64>, %lp: tensor<6x4xf64>, %t: tensor<3xi64>, %il: tensor<i64>, %tl: tensor<i64>) -> tensor<6x4xf64> {
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<f64>, tensor<6x4xf64>, tensor<3xi64>, tensor<i64>, tensor<i64>) -> tensor<6x4xf64>
  return %r : tensor<6x4xf64>
}

// -----

func.func @backward_mixed(%g: tensor<2xf64>, %lp: tensor<6x2x4xf32>, %t: tensor<2x3xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<6x2x4xf64> {
  // expected-error @+1 {{'tp.ctc_loss_backward' op expects grad_output in log_probs' dtype 'f32', got 'tensor<2xf64>'}}
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<2xf64>, tensor<6x2x4xf32>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<6x2x4xf64>
  return %r : tensor<6x2x4xf64>
}

// -----

func.func @backward_bf16(%g: tensor<2xbf16>, %lp: tensor<6x2x4xbf16>, %t: tensor<2x3xi64>, %il: tensor<2xi64>, %tl: tensor<2xi64>) -> tensor<6x2x4xbf16> {
  // expected-error @+1 {{'tp.ctc_loss_backward' op runs on f32 and f64 log_probs, got 'tensor<6x2x4xbf16>'}}
  %r = tp.ctc_loss_backward %g, %lp, %t, %il, %tl : (tensor<2xbf16>, tensor<6x2x4xbf16>, tensor<2x3xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<6x2x4xbf16>
  return %r : tensor<6x2x4xbf16>
}
