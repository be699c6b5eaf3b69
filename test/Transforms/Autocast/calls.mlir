// A callee's ops see the autocast state of their call site.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s

// Called from an enabled context with unchanged argument types: the callee
// itself is used (and is autocast as its own function).
// Called from a disabled region: a specialization with autocast off.
// CHECK-LABEL: func.func @caller
// CHECK: %[[A:.*]] = call @layer(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf16>
// CHECK: tp.autocast "cuda"
// CHECK: call @layer_autocast_off(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK: attributes {enabled = false}
func.func @caller(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = func.call @layer(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = tp.autocast "cuda" -> tensor<4x8xf32> {
    %c = func.call @layer(%x, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    tp.yield %c : tensor<4x8xf32>
  } attributes {enabled = false}
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @layer(
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
// CHECK: return %{{.*}} : tensor<4x8xf16>
// CHECK-LABEL: func.func private @layer_autocast_off(
// CHECK-SAME: attributes {tp.autocast_state = {cache_enabled = true, device_type = "cuda", enabled = false}}
// CHECK: tp.mm %arg0, %arg1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
func.func @layer(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %m = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = tp.relu %m : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Argument types flow into the callee (eager semantics): an f16 argument
// gives a specialization taking f16.
// CHECK-LABEL: func.func @passes_f16
// CHECK: call @scale_autocast_cuda_f16(%{{.*}}) : (tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @passes_f16(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = func.call @scale(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %arg0: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-LABEL: func.func private @scale_autocast_cuda_f16(
// CHECK-SAME: %arg0: tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK: tp.sigmoid %arg0 : (tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @scale(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = tp.sigmoid %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// Recursion: the callee keeps its signature and calls conform to it.
// CHECK-LABEL: func.func @recurse(
// CHECK-SAME: -> tensor<2x2xf32>
// CHECK: %[[C:.*]] = func.call @recurse
// CHECK: return %{{.*}} : tensor<2x2xf32>
func.func @recurse(%x: tensor<2x2xf32>, %go: i1) -> tensor<2x2xf32> {
  %m = tp.mm %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = scf.if %go -> (tensor<2x2xf32>) {
    %c = func.call @recurse(%m, %go) : (tensor<2x2xf32>, i1) -> tensor<2x2xf32>
    scf.yield %c : tensor<2x2xf32>
  } else {
    scf.yield %m : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
