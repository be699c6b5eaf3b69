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
// FP16: %[[GS:.*]] = tp.softmax_backward %{{.*}}, %[[S]] {dim = 1 : i64} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
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

// Batched products and the normalizations. Under cuda:fp16 the 4-D
// matmuls run in f16 and so do their four backward products (each g @ b^T
// with the last two dims transposed); softmax's backward is f32 from its
// f32 output; layer_norm (fp32 list) has one layer_norm_backward in f32
// from its f32 input (which recomputes the statistics), and its input's gradient is cast
// back to the f16 of the product that made it (the forward's cast
// reversed). The weight and bias gradients sum over the leading dims.
// FP16-LABEL: func.func @attention_loss_grad(
// FP16: %[[V16:.*]] = tp.cast %arg2 : tensor<2x4x8x16xf32> to tensor<2x4x8x16xf16>
// FP16: %[[K16:.*]] = tp.cast %arg1 : tensor<2x4x16x8xf32> to tensor<2x4x16x8xf16>
// FP16: %[[Q16:.*]] = tp.cast %arg0 : tensor<2x4x8x16xf32> to tensor<2x4x8x16xf16>
// FP16: %[[P:.*]] = tp.softmax %{{.*}} {dim = -1 : i64, dtype = f32} : (tensor<2x4x8x8xf16>) -> tensor<2x4x8x8xf32>
// FP16: %[[P16:.*]] = tp.cast %[[P]] : tensor<2x4x8x8xf32> to tensor<2x4x8x8xf16>
// FP16: %[[O32:.*]] = tp.cast %{{.*}} : tensor<2x4x8x16xf16> to tensor<2x4x8x16xf32>
// FP16: tp.layer_norm %[[O32]] weight(%arg3) bias(%arg4)
// FP16: %[[DN:.*]], %[[DG:.*]], %[[DB:.*]] = tp.layer_norm_backward %{{.*}}, %[[O32]] weight(%arg3) {normalized_shape = array<i64: 16>} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<16xf32>) -> (tensor<2x4x8x16xf32>, tensor<16xf32>, tensor<16xf32>)
// FP16-NEXT: %[[DO:.*]] = tp.cast %[[DN]] : tensor<2x4x8x16xf32> to tensor<2x4x8x16xf16>
// FP16-NEXT: %[[VT:.*]] = tp.transpose %[[V16]] {dim0 = 2 : i64, dim1 = 3 : i64} : (tensor<2x4x8x16xf16>) -> tensor<2x4x16x8xf16>
// FP16-NEXT: %[[DP:.*]] = tp.matmul %[[DO]], %[[VT]] : (tensor<2x4x8x16xf16>, tensor<2x4x16x8xf16>) -> tensor<2x4x8x8xf16>
// FP16-NEXT: %[[PT:.*]] = tp.transpose %[[P16]] {dim0 = 2 : i64, dim1 = 3 : i64}
// FP16-NEXT: %[[DV:.*]] = tp.matmul %[[PT]], %[[DO]] : (tensor<2x4x8x8xf16>, tensor<2x4x8x16xf16>) -> tensor<2x4x8x16xf16>
// FP16-NEXT: %[[DP32:.*]] = tp.cast %[[DP]] : tensor<2x4x8x8xf16> to tensor<2x4x8x8xf32>
// FP16: %[[DS:.*]] = tp.cast %{{.*}} : tensor<2x4x8x8xf32> to tensor<2x4x8x8xf16>
// FP16-NEXT: %[[KT:.*]] = tp.transpose %[[K16]] {dim0 = 2 : i64, dim1 = 3 : i64}
// FP16-NEXT: %[[DQ:.*]] = tp.matmul %[[DS]], %[[KT]] : (tensor<2x4x8x8xf16>, tensor<2x4x8x16xf16>) -> tensor<2x4x8x16xf16>
// FP16-NEXT: %[[QT:.*]] = tp.transpose %[[Q16]] {dim0 = 2 : i64, dim1 = 3 : i64}
// FP16-NEXT: %[[DK:.*]] = tp.matmul %[[QT]], %[[DS]] : (tensor<2x4x16x8xf16>, tensor<2x4x8x8xf16>) -> tensor<2x4x16x8xf16>
// FP16-NEXT: %[[DQ32:.*]] = tp.cast %[[DQ]] : tensor<2x4x8x16xf16> to tensor<2x4x8x16xf32>
// FP16-NEXT: %[[DK32:.*]] = tp.cast %[[DK]] : tensor<2x4x16x8xf16> to tensor<2x4x16x8xf32>
// FP16-NEXT: %[[DV32:.*]] = tp.cast %[[DV]] : tensor<2x4x8x16xf16> to tensor<2x4x8x16xf32>
// FP16-NEXT: return %{{.*}}, %[[DQ32]], %[[DK32]], %[[DV32]], %[[DG]], %[[DB]]
func.func @attention_loss(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<f32> {
  %s = tp.matmul %q, %k : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %p = tp.softmax %s {dim = -1 : i64} : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o = tp.matmul %p, %v : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  %n = tp.layer_norm %o weight(%g) bias(%b) {normalized_shape = array<i64: 16>} : (tensor<2x4x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x4x8x16xf32>
  %l = tp.mean %n : (tensor<2x4x8x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// batch_norm of an f16 input (not on a list: it runs in f16) differentiates
// through one batch_norm_backward (which computes in f32, as PyTorch's
// kernels accumulate), handing the f16 producer an f16 gradient and the f32
// weight and bias f32 gradients, as PyTorch's mixed-type kernel; group_norm
// and pow (fp32 list) differentiate in f32, group_norm's through one
// group_norm_backward. In f32 pow's derivative is 3 x^2.
// CHECK-LABEL: func.func @norms_loss_grad(
// CHECK: tp.pow %{{.*}} {scalar_exponent = 2.000000e+00 : f64} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
// CHECK: tp.group_norm_backward %{{.*}}, %{{.*}} {num_groups = 2 : i64} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> (tensor<2x4x1xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: tp.batch_norm_backward %{{.*}}, %{{.*}} weight(%arg2) : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
// FP16-LABEL: func.func @norms_loss_grad(
// FP16: %[[H:.*]] = tp.linear %{{.*}}, %{{.*}} : (tensor<2x8xf16>, tensor<4x8xf16>) -> tensor<2x4xf16>
// FP16: tp.batch_norm %[[H]] weight(%arg2) bias(%arg3) {training = true} : (tensor<2x4xf16>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf16>
// FP16: %[[G:.*]] = tp.group_norm %{{.*}} {num_groups = 2 : i64} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
// FP16: tp.pow %[[G]] {scalar_exponent = 2.000000e+00 : f64} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
// FP16: %[[DG:.*]], %{{.*}}, %{{.*}} = tp.group_norm_backward %{{.*}}, %{{.*}} {num_groups = 2 : i64} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>)
// FP16: %[[DR:.*]] = tp.cast %[[DG]] : tensor<2x4x1xf32> to tensor<2x4x1xf16>
// FP16: %[[DH:.*]], %[[DW:.*]], %[[DB:.*]] = tp.batch_norm_backward %{{.*}}, %[[H]] weight(%arg2) : (tensor<2x4xf16>, tensor<2x4xf16>, tensor<4xf32>) -> (tensor<2x4xf16>, tensor<4xf32>, tensor<4xf32>)
// FP16-NOT: tp.cast %[[DW]]
// FP16: tp.mm %[[DH]], %{{.*}} : (tensor<2x4xf16>, tensor<4x8xf16>) -> tensor<2x8xf16>
func.func @norms_loss(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %h = tp.linear %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  %n = tp.batch_norm %h weight(%g) bias(%b) {training = true} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %r = tp.reshape %n {shape = array<i64: 2, 4, 1>} : (tensor<2x4xf32>) -> tensor<2x4x1xf32>
  %m = tp.group_norm %r {num_groups = 2 : i64} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %e = tp.pow %m {scalar_exponent = 3.0 : f64} : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %l = tp.sum %e : (tensor<2x4x1xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// conv2d under cuda:fp16 (lower-precision list): one f16
// convolution_backward (aten::convolution_backward) on the f16 gradient,
// the forward's f16 input and weight with the forward's geometry; each of
// its three results is cast back to its f32 argument.
// FP16-LABEL: func.func @conv_loss_grad(
// FP16: %[[W16:.*]] = tp.cast %arg1 : tensor<4x3x3x3xf32> to tensor<4x3x3x3xf16>
// FP16: %[[X16:.*]] = tp.cast %arg0 : tensor<2x3x7x6xf32> to tensor<2x3x7x6xf16>
// FP16: %[[G:.*]] = tp.cast %{{.*}} : tensor<2x4x4x3xf32> to tensor<2x4x4x3xf16>
// FP16-NEXT: %[[DX:.*]], %[[DW:.*]], %[[DB:.*]] = tp.convolution_backward %[[G]], %[[X16]], %[[W16]] {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>, transposed = false} : (tensor<2x4x4x3xf16>, tensor<2x3x7x6xf16>, tensor<4x3x3x3xf16>) -> (tensor<2x3x7x6xf16>, tensor<4x3x3x3xf16>, tensor<4xf16>)
// FP16-NEXT: %[[DX32:.*]] = tp.cast %[[DX]] : tensor<2x3x7x6xf16> to tensor<2x3x7x6xf32>
// FP16-NEXT: %[[DW32:.*]] = tp.cast %[[DW]] : tensor<4x3x3x3xf16> to tensor<4x3x3x3xf32>
// FP16-NEXT: %[[DB32:.*]] = tp.cast %[[DB]] : tensor<4xf16> to tensor<4xf32>
// FP16-NEXT: return %{{.*}}, %[[DX32]], %[[DW32]], %[[DB32]]
func.func @conv_loss(%x: tensor<2x3x7x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<f32> {
  %c = tp.conv2d %x, %w bias(%b) {padding = array<i64: 1>, stride = array<i64: 2>} : (tensor<2x3x7x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x4x3xf32>
  %l = tp.sum %c : (tensor<2x4x4x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Composite ops are differentiated through the tp ops they decompose into
// (the CPU pipeline's rewrites): the gradient function's forward is the
// decomposed attention (the saved activations: scores, causal mask,
// softmax), and the backward masks the softmax gradient with the same
// causal mask.
// CHECK-LABEL: func.func @sdpa_loss(
// CHECK: tp.scaled_dot_product_attention
// CHECK-LABEL: func.func @sdpa_loss_grad(
// CHECK-NOT: tp.scaled_dot_product_attention
// CHECK: %[[MASK:.*]] = tp.constant dense<{{.*}}> : tensor<8x8xi1>
// CHECK: %[[P:.*]] = tp.softmax
// CHECK: tp.softmax_backward %{{.*}}, %[[P]] {dim = 3 : i64} : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
// CHECK: tp.where %[[MASK]], %{{.*}}, %{{.*}} : (tensor<8x8xi1>, tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8x8xf32>
// CHECK: return
func.func @sdpa_loss(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<f32> {
  %a = tp.scaled_dot_product_attention %q, %k, %v {is_causal = true} : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  %l = tp.sum %a : (tensor<2x4x8x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
