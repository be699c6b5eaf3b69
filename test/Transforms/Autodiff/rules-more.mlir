// More of tp-autodiff's rules in IR: the masks of the extrema (built with
// threshold_backward, as the dialect has no comparisons), embedding's
// embedding_dense_backward, the slices of cat, the
// convolution_backward of conv_transpose, the exclusive products of
// prod; and, under cuda:fp16, the dtypes they run in.
// RUN: tp-opt %s --tp-autodiff | FileCheck %s
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-autodiff | FileCheck %s --check-prefix=FP16

// amax shares the gradient between the entries equal to the maximum:
// mask = 1 - threshold_backward(1, |x - max|), divided by its count.
// CHECK-LABEL: func.func @amax_loss_grad(
// CHECK: %[[M:.*]] = tp.amax %arg0
// CHECK: %[[R:.*]] = tp.reshape %[[M]] {shape = array<i64: 4, 1>}
// CHECK: %[[E:.*]] = tp.expand %[[R]] {size = array<i64: 4, 8>}
// CHECK: %[[D:.*]] = tp.sub %arg0, %[[E]]
// CHECK: %[[ONE:.*]] = tp.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[A:.*]] = tp.abs %[[D]]
// CHECK: %[[NZ:.*]] = tp.threshold_backward %[[ONE]], %[[A]]
// CHECK: %[[MASK:.*]] = tp.sub %[[ONE]], %[[NZ]]
// CHECK: %[[N:.*]] = tp.sum %[[MASK]] {dim = array<i64: 1>, keepdim = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK: %[[Q:.*]] = tp.div %{{.*}}, %[[N]]
// CHECK: %[[DX:.*]] = tp.mul %[[MASK]], %[[Q]] : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK: return %{{.*}}, %[[DX]]
func.func @amax_loss(%x: tensor<4x8xf32>) -> tensor<f32> {
  %m = tp.amax %x {dim = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %l = tp.sum %m : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// embedding: dW = tp.embedding_dense_backward(g, indices), aten's
// scatter-add, with the forward's vocabulary and padding_idx.
// CHECK-LABEL: func.func @embedding_loss_grad(
// CHECK: %[[G:.*]] = tp.expand %{{.*}} -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[DW:.*]] = tp.embedding_dense_backward %[[G]], %arg1 {num_weights = 6 : i64, padding_idx = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<6x4xf32>
// CHECK-NEXT: return %{{.*}}, %[[DW]]
func.func @embedding_loss(%w: tensor<6x4xf32>, %i: tensor<2x3xi64>) -> tensor<f32> {
  %e = tp.embedding %w, %i {padding_idx = 2 : i64} : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %l = tp.sum %e : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// cat: each input gets its columns of the gradient (tp.slice).
// CHECK-LABEL: func.func @cat_loss_grad(
// CHECK: %[[G:.*]] = tp.add
// CHECK: %[[DA:.*]] = tp.slice %[[G]] {dim = 1 : i64, end = 3 : i64, start = 0 : i64} : (tensor<2x5xf32>) -> tensor<2x3xf32>
// CHECK: %[[DB:.*]] = tp.slice %[[G]] {dim = 1 : i64, end = 5 : i64, start = 3 : i64} : (tensor<2x5xf32>) -> tensor<2x2xf32>
// CHECK: return %{{.*}}, %[[DA]], %[[DB]]
func.func @cat_loss(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<f32> {
  %c = tp.cat [%a, %b] {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  %s = tp.mul %c, %c : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %l = tp.sum %s : (tensor<2x5xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// conv_transpose2d under cuda:fp16 (a lower-precision op): one f16
// convolution_backward with transposed = true and the forward's stride; its
// input and weight gradients are cast back to f32 (the lowerings compute dx
// as the convolution of g and dw as the correlation of g with x).
// FP16-LABEL: func.func @upsample_loss_grad(
// FP16: %[[W:.*]] = tp.cast %arg1 : tensor<4x2x3x3xf32> to tensor<4x2x3x3xf16>
// FP16: %[[X:.*]] = tp.cast %arg0 : tensor<1x4x5x5xf32> to tensor<1x4x5x5xf16>
// FP16: tp.conv_transpose2d %[[X]], %[[W]] {stride = array<i64: 2>} : (tensor<1x4x5x5xf16>, tensor<4x2x3x3xf16>) -> tensor<1x2x11x11xf16>
// FP16: %[[G:.*]] = tp.expand %{{.*}} -> tensor<1x2x11x11xf16>
// FP16: %[[DX:.*]], %[[DW:.*]], %{{.*}} = tp.convolution_backward %[[G]], %[[X]], %[[W]] {dilation = array<i64: 1, 1>, groups = 1 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>, transposed = true} : (tensor<1x2x11x11xf16>, tensor<1x4x5x5xf16>, tensor<4x2x3x3xf16>) -> (tensor<1x4x5x5xf16>, tensor<4x2x3x3xf16>, tensor<2xf16>)
// FP16: %[[DX32:.*]] = tp.cast %[[DX]] : tensor<1x4x5x5xf16> to tensor<1x4x5x5xf32>
// FP16: %[[DW32:.*]] = tp.cast %[[DW]] : tensor<4x2x3x3xf16> to tensor<4x2x3x3xf32>
// FP16: return %{{.*}}, %[[DX32]], %[[DW32]]
func.func @upsample_loss(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<f32> {
  %y = tp.conv_transpose2d %x, %w {stride = array<i64: 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x11xf32>
  %l = tp.mean %y : (tensor<1x2x11x11xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// smooth_l1_loss (fp32 list under cuda) differentiates in f32: clamp(d /
// beta, -1, 1) over the mean's count; its gradient is cast to f16 for the
// backward of the f16 product.
// FP16-LABEL: func.func @smooth_l1_loss_grad(
// FP16: %[[H:.*]] = tp.cast %{{.*}} : tensor<4x8xf16> to tensor<4x8xf32>
// FP16: %[[D:.*]] = tp.sub %[[H]], %arg2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// FP16: %[[INV:.*]] = tp.constant dense<2.000000e+00> : tensor<f32>
// FP16: %[[S:.*]] = tp.mul %[[D]], %[[INV]]
// FP16: %[[LO:.*]] = tp.minimum %[[S]], %{{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// FP16: %[[C:.*]] = tp.maximum %[[LO]], %{{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// FP16: %[[N:.*]] = tp.constant dense<3.125000e-02> : tensor<f32>
// FP16: %[[DH:.*]] = tp.mul %[[C]], %{{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// FP16: %[[DT:.*]] = tp.mul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// FP16: %[[DH16:.*]] = tp.cast %[[DH]] : tensor<4x8xf32> to tensor<4x8xf16>
// FP16: tp.mm %[[DH16]], %{{.*}} : (tensor<4x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
// FP16: return {{.*}}, %[[DT]] :
func.func @smooth_l1_loss(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %t: tensor<4x8xf32>) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %l = tp.smooth_l1_loss %h, %t {beta = 0.5 : f64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// prod: the product of the exclusive cumulative products from the left
// (cumprod of [1, x_0, .., x_{n-2}]) and from the right (the same on the
// reversed rows, reversed back), exact where x has zeros.
// CHECK-LABEL: func.func @prod_loss_grad(
// CHECK: %[[ONES:.*]] = tp.constant dense<1.000000e+00> : tensor<3x1xf32>
// CHECK: %[[FIRST:.*]] = tp.slice %arg0 {dim = 1 : i64, end = 3 : i64, start = 0 : i64} : (tensor<3x4xf32>) -> tensor<3x3xf32>
// CHECK: %[[L:.*]] = tp.cat [%[[ONES]], %[[FIRST]]] {dim = 1 : i64} : (tensor<3x1xf32>, tensor<3x3xf32>) -> tensor<3x4xf32>
// CHECK: %[[BEFORE:.*]] = tp.cumprod %[[L]] {dim = 1 : i64}
// CHECK: %[[REV:.*]] = tp.constant dense<[3, 2, 1, 0]> : tensor<4xi64>
// CHECK: %[[ONES2:.*]] = tp.constant dense<1.000000e+00> : tensor<3x1xf32>
// CHECK: tp.cat [%[[ONES2]], %{{.*}}] {dim = 1 : i64}
// CHECK: tp.cumprod
// CHECK: tp.constant dense<[3, 2, 1, 0]> : tensor<4xi64>
// CHECK: %[[AFTER:.*]] = tp.permute
// CHECK: %[[P:.*]] = tp.mul %[[BEFORE]], %[[AFTER]]
// CHECK: %[[DX:.*]] = tp.mul %[[P]], %{{.*}} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: return %{{.*}}, %[[DX]]
func.func @prod_loss(%x: tensor<3x4xf32>) -> tensor<f32> {
  %p = tp.prod %x {dim = 1 : i64} : (tensor<3x4xf32>) -> tensor<3xf32>
  %l = tp.sum %p : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// cumprod: dx_j = prod_{k<j} x_k * sum_{i>=j} g_i prod_{j<k<=i} x_k, the
// inner products one cumprod of an n x n spread of x (ones at and below
// the diagonal), the sum masked to i >= j; exact where x has zeros. Under
// cuda:fp16 cumprod runs in f32 (its list sets dtype = f32): so does its
// backward, and the gradient reaching the f16 mm is cast back to f16.
// CHECK-LABEL: func.func @cumprod_loss_grad(
// CHECK: %[[XT:.*]] = tp.transpose %{{.*}} {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %[[AFTER:.*]] = tp.constant dense<{{\[\[}}false, true], [false, false]]> : tensor<2x2xi1>
// CHECK: %[[ROWS:.*]] = tp.reshape %[[XT]] {shape = array<i64: 3, 1, 2>}
// CHECK: %[[SPREAD:.*]] = tp.where %[[AFTER]], %[[ROWS]], %{{.*}} : (tensor<2x2xi1>, tensor<3x1x2xf32>, tensor<f32>) -> tensor<3x2x2xf32>
// CHECK: %[[RUNNING:.*]] = tp.cumprod %[[SPREAD]] {dim = 2 : i64}
// CHECK: %[[FROM:.*]] = tp.constant dense<{{\[\[}}true, true], [false, true]]> : tensor<2x2xi1>
// CHECK: %[[TERMS:.*]] = tp.mul %[[RUNNING]], %{{.*}} : (tensor<3x2x2xf32>, tensor<3x1x2xf32>) -> tensor<3x2x2xf32>
// CHECK: %[[MASKED:.*]] = tp.where %[[FROM]], %[[TERMS]], %{{.*}}
// CHECK: %[[LATER:.*]] = tp.sum %[[MASKED]] {dim = array<i64: 2>} : (tensor<3x2x2xf32>) -> tensor<3x2xf32>
// CHECK: %[[BEFORE:.*]] = tp.cumprod %{{.*}} {dim = 1 : i64} : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: %[[DX:.*]] = tp.mul %[[BEFORE]], %[[LATER]]
// CHECK: tp.transpose %[[DX]] {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// FP16-LABEL: func.func @cumprod_loss_grad(
// FP16: %[[H:.*]] = tp.mm {{.*}} -> tensor<2x3xf16>
// FP16: tp.cumprod %[[H]] {dim = 0 : i64, dtype = f32} : (tensor<2x3xf16>) -> tensor<2x3xf32>
// FP16: tp.cast %[[H]] : tensor<2x3xf16> to tensor<2x3xf32>
// FP16: tp.cumprod %{{.*}} {dim = 2 : i64} : (tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
// FP16: %[[DX:.*]] = tp.transpose %{{.*}} : (tensor<3x2xf32>) -> tensor<2x3xf32>
// FP16: %[[DX16:.*]] = tp.cast %[[DX]] : tensor<2x3xf32> to tensor<2x3xf16>
// FP16: tp.mm %[[DX16]], %{{.*}} : (tensor<2x3xf16>, tensor<3x3xf16>) -> tensor<2x3xf16>
func.func @cumprod_loss(%x: tensor<2x3xf32>, %w: tensor<3x3xf32>) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %c = tp.cumprod %h {dim = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = tp.sum %c : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// kl_div of a probability target: dx = -t, and for the target log(t) + 1 -
// x where t > 0 (0 where t = 0, as PyTorch's mask), both scaled by the
// mean's 1/4.
// CHECK-LABEL: func.func @kl_div_target_grad(
// CHECK: %[[DX:.*]] = tp.neg %arg1 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[LOG:.*]] = tp.log %arg1
// CHECK: %[[L1:.*]] = tp.add %[[LOG]], %{{.*}}
// CHECK: %[[D:.*]] = tp.sub %[[L1]], %arg0
// CHECK: %[[DT:.*]] = tp.threshold_backward %[[D]], %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: tp.mul %[[DX]]
// CHECK: tp.mul %[[DT]]
func.func @kl_div_target(%x: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<f32> {
  %l = tp.kl_div %x, %t : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// cosine_embedding_loss: per row dL/dcos = -1 where t = 1, 1 where t = -1
// and cos > margin, times (x2 / sqrt(m1 m2) - cos x1 / m1) for x1 (m1 =
// sum(x1 x1) + 1e-12); an integer target is cast to select.
// CHECK-LABEL: func.func @cosine_embedding_grad(
// CHECK: %[[ROOT:.*]] = tp.sqrt %{{.*}} : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK: %[[COS:.*]] = tp.div %{{.*}}, %[[ROOT]] : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK: tp.cast %arg2 : tensor<2xi64> to tensor<2xf32>
// CHECK: %[[ABOVE:.*]] = tp.sub %[[COS]], %{{.*}}
// CHECK: tp.threshold_backward %{{.*}}, %[[ABOVE]] : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK: tp.div %arg1, %[[ROOT]] : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK: tp.mul %[[COS]], %arg0 : (tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK: tp.div %arg0, %[[ROOT]] : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK: return
func.func @cosine_embedding(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>, %t: tensor<2xi64>) -> tensor<f32> {
  %l = tp.cosine_embedding_loss %a, %b, %t {margin = 0.5 : f64} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<f32>
  return %l : tensor<f32>
}

// triplet_margin_loss with swap: the distances ||u - v + eps|| again, the
// hinge's mask, then d(a, n) and d(p, n) share the gradient of their
// minimum (halves on ties, as minimum's rule).
// CHECK-LABEL: func.func @triplet_grad(
// CHECK: %[[AP:.*]] = tp.norm %{{.*}} {dim = array<i64: 1>, p = 2.000000e+00 : f64} : (tensor<2x4xf32>) -> tensor<2xf32>
// CHECK: %[[AN:.*]] = tp.norm
// CHECK: %[[PN:.*]] = tp.norm
// CHECK: %[[MIN:.*]] = tp.minimum %[[AN]], %[[PN]]
// CHECK: %[[Z0:.*]] = tp.sub %[[AP]], %[[MIN]]
// CHECK: %[[Z:.*]] = tp.add %[[Z0]]
// CHECK: tp.threshold_backward %{{.*}}, %[[Z]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: tp.sub %[[AN]], %[[PN]]
// CHECK: return
func.func @triplet(%a: tensor<2x4xf32>, %p: tensor<2x4xf32>, %n: tensor<2x4xf32>) -> tensor<f32> {
  %l = tp.triplet_margin_loss %a, %p, %n {swap = true} : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
