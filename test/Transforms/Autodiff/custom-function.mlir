// tp-autodiff uses a tp.custom_function's backward region instead of
// differentiating its forward region: the forward below has an op without
// a backward rule (cumsum), and the gradient is the region's (a reversed
// cumsum: the row sum minus the cumsum plus the value). Under autocast the backward region is
// inlined in the dtypes autocast gave it (custom_bwd: the forward's state),
// and either order of the passes gives the same program.
// RUN: tp-opt %s --tp-autodiff | FileCheck %s
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-autodiff | FileCheck %s --check-prefix=FP16
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-autodiff --canonicalize --cse > %t.first
// RUN: tp-opt %s --tp-autodiff --autocast=cuda:fp16 --canonicalize --cse > %t.second
// RUN: diff %t.first %t.second

// CHECK-LABEL: func.func @f_grad(
// CHECK: %[[Y:.*]] = tp.custom_function
// CHECK: } backward {
// CHECK: tp.yield
// CHECK: }
// The backward region, inlined after the return's operands are computed:
// the reversed cumsum of g * w, and g * cumsum(x).
// CHECK: %[[GB:.*]] = tp.mul %{{.*}}, %arg1
// CHECK: %[[S:.*]] = tp.sum %[[GB]] {dim = array<i64: 1>, keepdim = true}
// CHECK: %[[C:.*]] = tp.cumsum %[[GB]] {dim = 1 : i64}
// CHECK: %[[T:.*]] = tp.sub %[[S]], %[[C]]
// CHECK: %[[GX:.*]] = tp.add %[[T]], %[[GB]]
// CHECK: return %{{.*}}, %[[GX]], %{{.*}} : tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>
func.func @f(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<f32> {
  %y = tp.custom_function(%x, %w) {custom_fwd = {device_type = "cuda"}, custom_bwd = {device_type = "cuda"}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  forward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %c = tp.cumsum %a {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = tp.mul %c, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    tp.yield %m : tensor<4x8xf32>
  } backward {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<4x8xf32>):
    %gb = tp.mul %g, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = tp.sum %gb {dim = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
    %cs = tp.cumsum %gb {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %t = tp.sub %s, %cs : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %f2 = tp.add %t, %gb : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %c = tp.cumsum %a {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %gw = tp.mul %g, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    tp.yield %f2, %gw : tensor<4x8xf32>, tensor<4x8xf32>
  }
  %l = tp.sum %y : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Under cuda:fp16 the forward's cumsum (fp32 list) runs in f32, and the
// inlined backward region computes in f32 for the f32 inputs.
// FP16-LABEL: func.func @f_grad(
// FP16: } backward {
// FP16: }
// FP16: tp.cumsum %{{.*}} {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// FP16: tp.sub
// FP16: tp.add
// FP16: return {{.*}} : tensor<f32>, tensor<4x8xf32>, tensor<4x8xf32>
