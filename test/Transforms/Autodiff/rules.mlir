// tp-autodiff's backward IR: the rules' ops and, after tp-autocast, their
// dtypes (the cast-reversal rule: each backward op runs in the dtype of the
// forward values it reads, and gradients reach arguments in their types).
// RUN: tp-opt %s --tp-autodiff | FileCheck %s
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-autodiff | FileCheck %s --check-prefix=FP16

// The two products of mm's backward: g @ b^T and a^T @ g.
// CHECK-LABEL: func.func @mm_loss_grad(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> (tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32>)
// CHECK: %[[M:.*]] = tp.mm %arg0, %arg1
// CHECK-NEXT: %[[L:.*]] = tp.sum %[[M]]
// CHECK-NEXT: %[[ONE:.*]] = tp.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = tp.reshape %[[ONE]] {shape = array<i64: 1, 1>}
// CHECK-NEXT: %[[G:.*]] = tp.expand %[[R]] {size = array<i64: 4, 16>} : (tensor<1x1xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[BT:.*]] = tp.transpose %arg1 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<8x16xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %[[DA:.*]] = tp.mm %[[G]], %[[BT]] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[AT:.*]] = tp.transpose %arg0 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[DB:.*]] = tp.mm %[[AT]], %[[G]] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[L]], %[[DA]], %[[DB]]
func.func @mm_loss(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<f32> {
  %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %l = tp.sum %m : (tensor<4x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Under cuda:fp16 the linear runs in f16 and softmax (fp32 list) in f32:
// softmax's backward is f32 from its f32 output, its input's gradient is
// cast to f16, gelu's backward and the two products are f16, the bias
// gradient is summed in f16, and each gradient is cast back to its f32
// argument's type (the forward's casts reversed).
// FP16-LABEL: func.func @mlp_grad(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<16xf32>) -> (tensor<f32>, tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>)
// FP16-DAG: %[[B16:.*]] = tp.cast %arg2 : tensor<16xf32> to tensor<16xf16>
// FP16-DAG: %[[W16:.*]] = tp.cast %arg1 : tensor<16x8xf32> to tensor<16x8xf16>
// FP16-DAG: %[[X16:.*]] = tp.cast %arg0 : tensor<4x8xf32> to tensor<4x8xf16>
// FP16: %[[H:.*]] = tp.linear %[[X16]], %[[W16]] bias(%[[B16]]) : (tensor<4x8xf16>, tensor<16x8xf16>, tensor<16xf16>) -> tensor<4x16xf16>
// FP16: %[[S:.*]] = tp.softmax %{{.*}} {dim = 1 : i64, dtype = f32} : (tensor<4x16xf16>) -> tensor<4x16xf32>
// FP16: %[[GS:.*]] = tp.mul %[[S]], %{{.*}} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// FP16-NEXT: %[[GS16:.*]] = tp.cast %[[GS]] : tensor<4x16xf32> to tensor<4x16xf16>
// FP16-NEXT: %[[GH:.*]] = tp.gelu_backward %[[GS16]], %[[H]] : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// FP16-NEXT: %[[DX:.*]] = tp.mm %[[GH]], %[[W16]] : (tensor<4x16xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
// FP16-NEXT: %[[GT:.*]] = tp.transpose %[[GH]]
// FP16-NEXT: %[[DW:.*]] = tp.mm %[[GT]], %[[X16]] : (tensor<16x4xf16>, tensor<4x8xf16>) -> tensor<16x8xf16>
// FP16-NEXT: %[[DB:.*]] = tp.sum %[[GH]] {dim = array<i64: 0>} : (tensor<4x16xf16>) -> tensor<16xf16>
// FP16-NEXT: %[[DX32:.*]] = tp.cast %[[DX]] : tensor<4x8xf16> to tensor<4x8xf32>
// FP16-NEXT: %[[DW32:.*]] = tp.cast %[[DW]] : tensor<16x8xf16> to tensor<16x8xf32>
// FP16-NEXT: %[[DB32:.*]] = tp.cast %[[DB]] : tensor<16xf16> to tensor<16xf32>
// FP16-NEXT: return %{{.*}}, %[[DX32]], %[[DW32]], %[[DB32]]
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<f32> {
  %h = tp.linear %x, %w bias(%b) : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %a = tp.gelu %h : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = tp.softmax %a {dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = tp.mean %s : (tensor<4x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Only what a differentiated argument reaches is differentiated: the
// integer labels are not, the cross_entropy of constants has no gradient to
// give, and an argument the loss does not use gets zeros. A value used twice
// sums its contributions; broadcasting sums back to the operand's shape.
// CHECK-LABEL: func.func @partial_grad(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xi64>, %arg3: tensor<2xf32>) -> (tensor<f32>, tensor<4x3xf32>, tensor<3xf32>, tensor<2xf32>)
// CHECK-NOT: tp.nll_loss_backward
// CHECK: %[[G:.*]] = tp.expand %{{.*}} {size = array<i64: 4, 3>} : (tensor<1x1xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[GX:.*]] = tp.mul %[[G]], %arg1 : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[SUM:.*]] = tp.add %[[G]], %[[GX]] : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[GW:.*]] = tp.mul %[[G]], %arg0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[GWS:.*]] = tp.sum %[[GW]] {dim = array<i64: 0>, keepdim = true} : (tensor<4x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[GWR:.*]] = tp.reshape %[[GWS]] {shape = array<i64: 3>} : (tensor<1x3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[ZERO:.*]] = tp.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %{{.*}}, %[[SUM]], %[[GWR]], %[[ZERO]]
func.func @partial(%x: tensor<4x3xf32>, %w: tensor<3xf32>, %labels: tensor<4xi64>, %unused: tensor<2xf32>) -> tensor<f32> {
  %y = tp.mul %x, %w : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %z = tp.add %y, %x : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %c = tp.constant dense<1.0> : tensor<4x3xf32>
  %ce = tp.cross_entropy %c, %labels : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<f32>
  %s = tp.sum %z : (tensor<4x3xf32>) -> tensor<f32>
  %l = tp.add %s, %ce : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %l : tensor<f32>
}
