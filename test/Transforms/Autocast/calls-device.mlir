// A callee runs on its own device: it sees that device's autocast state at
// the call site, as eager code does (a cuda autocast context does nothing to
// cpu ops). A callee without tp.device runs on its caller's device.
// RUN: tp-opt --autocast=cuda %s | FileCheck %s
// RUN: tp-opt --autocast=cuda --autocast-report=- %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// Running the pass again changes nothing more.
// RUN: tp-opt --autocast=cuda %s -o %t.1.mlir
// RUN: tp-opt --autocast=cuda %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// With --autocast=cuda a cpu function is left alone entirely, also when
// cuda code calls it: it is called as it is and keeps its tp.device.
// CHECK-LABEL: func.func private @on_cpu(
// CHECK-SAME: %arg0: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tp.device = "cpu"}
// CHECK-NEXT: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: tp.cast
// CHECK: return
// Its specializations follow it (the newest first): one for the cpu region
// of @cpu_region, recording that state, and one for the f16 argument of
// @passes_f16, still untouched by autocast.
// CHECK-LABEL: func.func private @on_cpu_autocast_cpu_bf16(
// CHECK-SAME: attributes {tp.autocast_state = {cache_enabled = true, device_type = "cpu", dtype = bf16, enabled = true}, tp.device = "cpu"}
// CHECK: tp.mm {{.*}} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
// CHECK-LABEL: func.func private @on_cpu_autocast_off(
// CHECK-SAME: %arg0: tensor<4x4xf16>) -> tensor<4x4xf16> attributes {tp.device = "cpu"}
// CHECK-NEXT: tp.mm %arg0, %arg0 : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func private @on_cpu(%a: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tp.device = "cpu"} {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @on_cpu(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = func.call @on_cpu(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// An f16 argument (from an autocast cuda mm) flows into a copy of the cpu
// function, still untouched by autocast and still on the cpu.
// CHECK-LABEL: func.func @passes_f16(
// CHECK: %[[M:.*]] = tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK: call @on_cpu_autocast_off(%[[M]]) : (tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @passes_f16(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = func.call @on_cpu(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// Inside a cpu autocast region, the cuda mm is unchanged by the region
// (f16 from the option) and the cpu callee runs with cpu autocast on (bf16),
// in a specialization that records the region's state.
// CHECK-LABEL: func.func @cpu_region(
// CHECK: tp.autocast "cpu" -> tensor<4x4xbf16>, tensor<4x4xf16> {
// CHECK: func.call @on_cpu_autocast_cpu_bf16(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xbf16>
// CHECK: tp.mm {{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @cpu_region(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %r:2 = tp.autocast "cpu" -> tensor<4x4xf32>, tensor<4x4xf32> {
    %c = func.call @on_cpu(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %c, %m : tensor<4x4xf32>, tensor<4x4xf32>
  }
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// Explicit cpu regions inside a cpu function are honoured.
// CHECK-LABEL: func.func @cpu_with_region(
// CHECK: tp.autocast "cpu" -> tensor<4x4xbf16> {
// CHECK: tp.mm {{.*}} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
func.func @cpu_with_region(%a: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tp.device = "cpu"} {
  %r = tp.autocast "cpu" -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// A helper without tp.device called from a cpu function runs on the cpu:
// a specialization records that device; the helper itself (a cuda function
// by the option) is autocast for cuda.
// CHECK-LABEL: func.func @cpu_caller(
// CHECK-NEXT: call @helper_autocast_off(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @cpu_caller(%a: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tp.device = "cpu"} {
  %c = func.call @helper(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}
// CHECK-LABEL: func.func private @helper(
// CHECK: tp.mm {{.*}} -> tensor<4x4xf16>
// CHECK-LABEL: func.func private @helper_autocast_off(
// CHECK-SAME: attributes {tp.autocast_state = {cache_enabled = true, device_type = "cpu", enabled = false}}
// CHECK-NEXT: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
func.func private @helper(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// The report names each op's own device; the cpu ops outside an enabled
// cpu region are "device mismatch".
// REPORT: calls-device.mlir:28:8 tp.mm cpu lower f32 device mismatch -
// REPORT-NEXT: calls-device.mlir:28:8 tp.mm cpu lower bf16 lower-precision list #0 f32->bf16, #1 f32->bf16
// REPORT-NEXT: calls-device.mlir:28:8 tp.mm cpu lower f16 device mismatch -
// REPORT-NEXT: calls-device.mlir:45:8 tp.mm cuda lower f16 lower-precision list
// REPORT-NEXT: calls-device.mlir:60:10 tp.mm cuda lower f16 lower-precision list
// REPORT-NEXT: calls-device.mlir:72:10 tp.mm cpu lower bf16 lower-precision list
// REPORT-NEXT: calls-device.mlir:93:8 tp.mm cuda lower f16 lower-precision list
// REPORT-NEXT: calls-device.mlir:93:8 tp.mm cpu lower f32 device mismatch -
