// The train-step ops become calls of the GradScaler runtime's kernels, with
// the state they update as updated outputs (`updates`), absent optional
// operands as zero-element tensors and the hyper-parameters as f64 / i64
// scalars; also with onednn=0 (the products then stay for linalg).
// RUN: tp-opt %s --convert-tp-to-runtime | FileCheck %s
// RUN: tp-opt %s --convert-tp-to-runtime="onednn=0" | FileCheck %s --check-prefixes=CHECK,NODNNL

// CHECK-DAG: func.func private @tp_rt_codegen_check_finite_f32(memref<*xf32>, memref<*xf32>) -> i32
// CHECK-DAG: func.func private @tp_rt_codegen_check_finite_bf16(memref<*xbf16>, memref<*xf32>) -> i32
// CHECK-DAG: func.func private @tp_rt_codegen_sgd_step_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi64>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, f64, f64, i64, i64) -> i32
// CHECK-DAG: func.func private @tp_rt_codegen_adamw_step_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xi64>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, f64, f64, f64, f64, f64, i64, i64) -> i32
// Narrow gradients and parameter copies have entry points of their own.
// CHECK-DAG: func.func private @tp_rt_codegen_sgd_step_f32_gbf16_cbf16(memref<*xf32>, memref<*xbf16>, memref<*xf32>, memref<*xi64>, memref<*xf32>, memref<*xf32>, memref<*xbf16>, f64, f64, f64, f64, i64, i64) -> i32
// CHECK-DAG: func.func private @tp_rt_codegen_adamw_step_f32_gf16(memref<*xf32>, memref<*xf16>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xi64>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, f64, f64, f64, i64, i64) -> i32
// CHECK-DAG: func.func private @tp_rt_codegen_update_scale(memref<*xf32>, memref<*xi32>, memref<*xf32>, f64, f64, i64) -> i32

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x8xf32>, %[[GW:[a-z0-9]+]]: tensor<4x8xf32>, %[[MW:[a-z0-9]+]]: tensor<4x8xf32>, %[[N:[a-z0-9]+]]: tensor<i64>, %[[H:[a-z0-9]+]]: tensor<8xbf16>, %[[GH:[a-z0-9]+]]: tensor<8xbf16>, %[[S:[a-z0-9]+]]: tensor<f32>, %[[T:[a-z0-9]+]]: tensor<i32>
// found_inf starts at 0 and each gradient's check updates it.
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
// CHECK: %[[F1:.*]] = tp_rt.call @tp_rt_codegen_check_finite_f32(%[[GW]]) outs(%[[Z]]) {output_positions = array<i64: 1>, updates = array<i64: 0>}
// CHECK: %[[F:.*]] = tp_rt.call @tp_rt_codegen_check_finite_bf16(%[[GH]]) outs(%[[F1]]) {output_positions = array<i64: 1>, updates = array<i64: 0>}
// With a scale, the gradient is updated too (written back unscaled).
// CHECK: %[[SGD:.*]]:4 = tp_rt.call @tp_rt_codegen_sgd_step_f32(%[[S]], %[[F]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) outs(%[[W]], %[[GW]], %[[MW]], %[[N]])
// CHECK-SAME: output_positions = array<i64: 0, 1, 2, 3>, updates = array<i64: 0, 1, 2, 3>
// Without: the gradient is an input, the absent max_exp_avg_sq, scale and
// found_inf are zero-element tensors.
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0xbf16>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: %[[ADAM:.*]]:4 = tp_rt.call @tp_rt_codegen_adamw_step_bf16(%[[GH]], %[[E]], %[[E1]], %[[E2]], %{{.*}}) outs(%[[H]], %[[H]], %[[H]], %[[N]])
// CHECK-SAME: output_positions = array<i64: 0, 2, 3, 5>, updates = array<i64: 0, 1, 2, 3>
// CHECK: %[[U:.*]]:2 = tp_rt.call @tp_rt_codegen_update_scale(%[[F]], %{{.*}}, %{{.*}}, %{{.*}}) outs(%[[S]], %[[T]]) {output_positions = array<i64: 0, 1>, updates = array<i64: 0, 1>}
// CHECK: return %[[SGD]]#0, %[[SGD]]#2, %[[SGD]]#3, %[[ADAM]]#0, %[[U]]#0, %[[U]]#1
// NODNNL-NOT: tp_rt_dnnl
func.func @step(%w: tensor<4x8xf32>, %gw: tensor<4x8xf32>, %mw: tensor<4x8xf32>, %n: tensor<i64>,
                %h: tensor<8xbf16>, %gh: tensor<8xbf16>,
                %scale: tensor<f32>, %tracker: tensor<i32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<8xbf16>, tensor<f32>, tensor<i32>) {
  %found = tp.amp_check_finite %gw, %gh : tensor<4x8xf32>, tensor<8xbf16> -> tensor<f32>
  %w1, %m1, %n1 = tp.fused_sgd %w, %gw momentum_buffer(%mw) step(%n) grad_scale(%scale) found_inf(%found) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>)
  %h1, %hm, %hv, %n2 = tp.fused_adamw %h, %gh, %h, %h step(%n) {lr = 0.001 : f64} : (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<i64>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<8xbf16>, tensor<i64>)
  %s1, %t1 = tp.amp_update_scale %scale, %tracker, %found : (tensor<f32>, tensor<i32>, tensor<f32>) -> (tensor<f32>, tensor<i32>)
  return %w1, %m1, %n1, %h1, %s1, %t1 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>, tensor<8xbf16>, tensor<f32>, tensor<i32>
}

// A bf16 gradient of an f32 parameter is only read (not updated, also with
// a scale); the parameter copy is updated, and the op's results put it
// before the step counter.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %[[W:[a-z0-9]+]]: tensor<4x8xf32>, %[[G:[a-z0-9]+]]: tensor<4x8xbf16>, %[[M:[a-z0-9]+]]: tensor<4x8xf32>, %[[C:[a-z0-9]+]]: tensor<4x8xbf16>, %[[N:[a-z0-9]+]]: tensor<i64>, %[[H:[a-z0-9]+]]: tensor<4x8xf16>, %[[S:[a-z0-9]+]]: tensor<f32>, %[[F:[a-z0-9]+]]: tensor<f32>
// CHECK: %[[SGD:.*]]:4 = tp_rt.call @tp_rt_codegen_sgd_step_f32_gbf16_cbf16(%[[G]], %[[S]], %[[F]], %{{.*}}) outs(%[[W]], %[[M]], %[[N]], %[[C]])
// CHECK-SAME: output_positions = array<i64: 0, 2, 3, 6>, updates = array<i64: 0, 1, 2, 3>
// CHECK: %[[ADAM:.*]]:4 = tp_rt.call @tp_rt_codegen_adamw_step_f32_gf16(%[[H]], %{{.*}}) outs(%[[W]], %[[W]], %[[W]], %[[N]])
// CHECK: return %[[SGD]]#0, %[[SGD]]#1, %[[SGD]]#3, %[[SGD]]#2, %[[ADAM]]#0
func.func @mixed(%w: tensor<4x8xf32>, %g: tensor<4x8xbf16>, %m: tensor<4x8xf32>, %c: tensor<4x8xbf16>, %n: tensor<i64>,
                 %h: tensor<4x8xf16>, %scale: tensor<f32>, %found: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>, tensor<4x8xf32>) {
  %w1, %m1, %c1, %n1 = tp.fused_sgd %w, %g momentum_buffer(%m) param_copy(%c) step(%n) grad_scale(%scale) found_inf(%found) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>)
  %w2, %a, %v, %n2 = tp.fused_adamw %w, %h, %w, %w step(%n) {lr = 0.001 : f64} : (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>)
  return %w1, %m1, %c1, %n1, %w2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>, tensor<i64>, tensor<4x8xf32>
}
