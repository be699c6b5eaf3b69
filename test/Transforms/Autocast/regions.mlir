// tp.autocast regions nest like the eager context manager.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s
// Without the option only explicit regions enable autocast.
// RUN: tp-opt --tp-autocast %s | FileCheck %s --check-prefix=EXPLICIT

// An inner enabled=false region switches autocast off; leaving it restores it.
// CHECK-LABEL: func.func @disabled_inner
// CHECK: tp.autocast "cuda" -> tensor<4x4xf32> {
// CHECK-NEXT: %[[OFF:.*]] = tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: tp.yield %[[OFF]]
// CHECK: } attributes {enabled = false}
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @disabled_inner(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %off = tp.autocast "cuda" -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  } attributes {enabled = false}
  %on = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %off, %on : tensor<4x4xf32>, tensor<4x4xf32>
}

// An inner region with another dtype overrides the outer one; the value
// enters the region and is cast once at its entry.
// CHECK-LABEL: func.func @dtype_override
// CHECK: tp.autocast "cuda" dtype(bf16) -> tensor<4x4xbf16> {
// CHECK-NEXT: %[[B:.*]] = tp.cast %arg0 : tensor<4x4xf32> to tensor<4x4xbf16>
// CHECK-NEXT: tp.mm %[[B]], %[[B]] : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @dtype_override(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %in = tp.autocast "cuda" dtype(bf16) -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  }
  %out = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %in, %out : tensor<4x4xf32>, tensor<4x4xf32>
}

// A region for another device changes nothing for this function's ops.
// CHECK-LABEL: func.func @other_device
// CHECK: tp.autocast "cpu" -> tensor<4x4xf16> {
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK: } attributes {enabled = false}
func.func @other_device(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = tp.autocast "cpu" -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  } attributes {enabled = false}
  return %r : tensor<4x4xf32>
}

// Explicit regions are honoured without the option, with the device's
// default dtype; ops outside stay in f32.
// EXPLICIT-LABEL: func.func @explicit_only
// EXPLICIT: tp.autocast "cpu"
// EXPLICIT: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
// EXPLICIT: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @explicit_only(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %in = tp.autocast "cpu" -> tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m : tensor<4x4xf32>
  }
  %out = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %in, %out : tensor<4x4xf32>, tensor<4x4xf32>
}

// Nested enable inside a disabled region, and restoring on exit.
// CHECK-LABEL: func.func @nested
// CHECK: tp.autocast "cuda"
// CHECK: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: tp.autocast "cuda"
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK: attributes {enabled = false}
// CHECK: tp.exp %arg0 : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @nested(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %r:2 = tp.autocast "cuda" -> tensor<4x4xf32>, tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %n = tp.autocast "cuda" -> tensor<4x4xf32> {
      %k = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      tp.yield %k : tensor<4x4xf32>
    }
    tp.yield %m, %n : tensor<4x4xf32>, tensor<4x4xf32>
  } attributes {enabled = false}
  %e = tp.exp %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r#0, %r#1, %e : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// cache_enabled = false: one cast per use instead of a shared one.
// CHECK-LABEL: func.func @no_cache
// CHECK: tp.autocast "cuda"
// CHECK-NEXT: %[[C1:.*]] = tp.cast %arg0 : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: tp.mm %[[C1]], %[[C1]]
// CHECK-NEXT: %[[C2:.*]] = tp.cast %arg0 : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK-NEXT: tp.mm %[[C2]], %[[C2]]
func.func @no_cache(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %r:2 = tp.autocast "cuda" -> tensor<4x4xf32>, tensor<4x4xf32> {
    %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %n = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %m, %n : tensor<4x4xf32>, tensor<4x4xf32>
  } attributes {cache_enabled = false}
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// A function whose tp.device names another device is left alone, except
// for explicit regions of its own device.
// CHECK-LABEL: func.func @cpu_function
// CHECK: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: tp.autocast "cpu"
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
func.func @cpu_function(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {tp.device = "cpu"} {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tp.autocast "cpu" -> tensor<4x4xf32> {
    %k = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %k : tensor<4x4xf32>
  }
  return %m, %r : tensor<4x4xf32>, tensor<4x4xf32>
}
