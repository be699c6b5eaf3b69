// tp.custom_function under --autocast=cuda:fp16, with tensorplay.amp's
// custom_fwd / custom_bwd semantics, one combination per function.
// RUN: tp-opt %s --autocast=cuda:fp16 --verify-diagnostics | FileCheck %s

// custom_fwd(cast_inputs=f32) in an enabled region: the f16 input is cast to
// f32, the forward's mm runs in f32 (autocast disabled inside), and with
// custom_bwd the backward runs as the forward did: disabled, in f32.
// CHECK-LABEL: func.func @cast_inputs(
// CHECK: %[[H:.*]] = tp.mm {{.*}} -> tensor<4x8xf16>
// CHECK: %[[H32:.*]] = tp.cast %[[H]] : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK: tp.custom_function(%[[H32]], %{{.*}}) {{.*}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> forward {
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK: } backward {
// CHECK-NOT: f16
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK: tp.yield {{.*}} : tensor<4x8xf32>, tensor<8x2xf32>
func.func @cast_inputs(%x: tensor<4x16xf32>, %w0: tensor<16x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %h = tp.mm %x, %w0 : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %y = tp.custom_function(%h, %w) {custom_fwd = {device_type = "cuda", cast_inputs = f32}, custom_bwd = {device_type = "cuda"}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  forward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>):
    %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    tp.yield %m : tensor<4x2xf32>
  } backward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %r: tensor<4x2xf32>, %g: tensor<4x2xf32>):
    %bt = tp.transpose %b {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %ga = tp.mm %g, %bt : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
    %at = tp.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %gb = tp.mm %at, %g : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
    tp.yield %ga, %gb : tensor<4x8xf32>, tensor<8x2xf32>
  }
  return %y : tensor<4x2xf32>
}

// custom_fwd without cast_inputs: the forward runs under the surrounding
// state (its mm in f16); custom_bwd runs the backward under the same state,
// so its products are f16 too.
// CHECK-LABEL: func.func @same_state(
// CHECK: tp.custom_function({{.*}}) {{.*}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf16> forward {
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
// CHECK: } backward {
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x2xf16>, tensor<2x8xf16>) -> tensor<4x8xf16>
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<8x4xf16>, tensor<4x2xf16>) -> tensor<8x2xf16>
func.func @same_state(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %y = tp.custom_function(%x, %w) {custom_fwd = {device_type = "cuda"}, custom_bwd = {device_type = "cuda"}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  forward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>):
    %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    tp.yield %m : tensor<4x2xf32>
  } backward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %r: tensor<4x2xf32>, %g: tensor<4x2xf32>):
    %bt = tp.transpose %b {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %ga = tp.mm %g, %bt : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
    %at = tp.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %gb = tp.mm %at, %g : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
    tp.yield %ga, %gb : tensor<4x8xf32>, tensor<8x2xf32>
  }
  return %y : tensor<4x2xf32>
}

// Without custom_bwd the backward runs with autocast disabled while the
// forward ran under it: a warning at the op. Its mm keeps its operands'
// dtypes (f16 gradient and result), where under autocast its f32 weight
// would have been cast too.
// CHECK-LABEL: func.func @no_custom_bwd(
// CHECK: } backward {
// CHECK: %[[S:.*]] = tp.softmax %{{.*}} {dim = 1 : i64} : (tensor<4x2xf16>) -> tensor<4x2xf16>
func.func @no_custom_bwd(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-warning @+1 {{tp-autocast: the forward of this tp.custom_function runs under autocast (cuda_f16) but it has no custom_bwd, so its backward region runs with autocast disabled and its ops may compute in other dtypes than the forward's; add custom_bwd = {device_type = "cuda"} to run it under the forward's autocast state}}
  %y = tp.custom_function(%x, %w) {custom_fwd = {device_type = "cuda"}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  forward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>):
    %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    tp.yield %m : tensor<4x2xf32>
  } backward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %r: tensor<4x2xf32>, %g: tensor<4x2xf32>):
    // Under autocast softmax (fp32 list) would compute in f32.
    %s = tp.softmax %g {dim = 1 : i64} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %bt = tp.transpose %b {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %s32 = tp.cast %s : tensor<4x2xf32> to tensor<4x2xf32>
    %ga = tp.mm %s32, %bt : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
    %at = tp.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %gb = tp.mm %at, %s32 : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
    tp.yield %ga, %gb : tensor<4x8xf32>, tensor<8x2xf32>
  }
  return %y : tensor<4x2xf32>
}

// Outside any enabled region (a cpu function under a cuda target) the
// decorators change nothing and nothing warns.
// CHECK-LABEL: func.func @not_enabled(
// CHECK: tp.custom_function({{.*}}) {{.*}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> forward {
// CHECK: tp.mm %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
func.func @not_enabled(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> attributes {tp.device = "cpu"} {
  %y = tp.custom_function(%x, %w) {custom_fwd = {device_type = "cuda", cast_inputs = f16}} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  forward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>):
    %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    tp.yield %m : tensor<4x2xf32>
  } backward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %r: tensor<4x2xf32>, %g: tensor<4x2xf32>):
    %bt = tp.transpose %b {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %ga = tp.mm %g, %bt : (tensor<4x2xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
    %at = tp.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %gb = tp.mm %at, %g : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
    tp.yield %ga, %gb : tensor<4x8xf32>, tensor<8x2xf32>
  }
  return %y : tensor<4x2xf32>
}
