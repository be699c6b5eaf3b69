// Small cases whose results are computed by hand, on both matrix-product
// paths (oneDNN when built, tiled linalg) and on serial scalar loops.
// RUN: tp-run %s --print | FileCheck %s
// RUN: tp-run %s --print --pipeline-options="use-onednn=0" | FileCheck %s
// RUN: tp-run %s --print --pipeline-options="parallel=0 vectorize=0" | FileCheck %s

// CHECK: @add_broadcast result #0: {{\[}}[11, 22, 33], [14, 25, 36]]
func.func @add_broadcast() -> tensor<2x3xf32> {
  %a = tp.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tp.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %r = tp.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// CHECK: @unary result #0: [0, 0, 2.5, 0]
// CHECK: @unary result #1: [0.5, 0.5]
// CHECK: @unary result #2: [1, 1]
// CHECK: @unary result #3: [0, 0]
// CHECK: @unary result #4: [0, 0]
func.func @unary() -> (tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %x = tp.constant dense<[-1.0, 0.0, 2.5, 0.0]> : tensor<4xf32>
  %r = tp.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %z = tp.constant dense<0.0> : tensor<2xf32>
  %one = tp.constant dense<1.0> : tensor<2xf32>
  %s = tp.sigmoid %z : (tensor<2xf32>) -> tensor<2xf32>
  %e = tp.exp %z : (tensor<2xf32>) -> tensor<2xf32>
  %l = tp.log %one : (tensor<2xf32>) -> tensor<2xf32>
  %g = tp.gelu %z : (tensor<2xf32>) -> tensor<2xf32>
  return %r, %s, %e, %l, %g : tensor<4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Rounding to bf16 is to nearest, ties to even: 1 + 2^-8 -> 1,
// 1 + 3 * 2^-8 -> 1 + 2^-6; floor division rounds towards -inf.
// CHECK: @casts result #0: [1, 1.015625, -2.5]
// CHECK: @casts result #1: [3, -4]
// CHECK: @casts result #2: [3, -3]
func.func @casts() -> (tensor<3xbf16>, tensor<2xf32>, tensor<2xi32>) {
  %x = tp.constant dense<[1.00390625, 1.01171875, -2.5]> : tensor<3xf32>
  %h = tp.cast %x : tensor<3xf32> to tensor<3xbf16>
  %a = tp.constant dense<[7.0, -7.0]> : tensor<2xf32>
  %b = tp.constant dense<[2.0, 2.0]> : tensor<2xf32>
  %d = tp.div %a, %b {rounding_mode = "floor"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = tp.constant dense<[3.9, -3.9]> : tensor<2xf32>
  %i = tp.cast %t : tensor<2xf32> to tensor<2xi32>
  return %h, %d, %i : tensor<3xbf16>, tensor<2xf32>, tensor<2xi32>
}

// CHECK: @reductions result #0: [4, 6]
// CHECK: @reductions result #1: [2, 3]
// CHECK: @reductions result #2: [3, 8]
// CHECK: @reductions result #3: 4
// CHECK: @reductions result #4: [1, 3, 6, 10]
// CHECK: @reductions result #5: 1
func.func @reductions() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<4xf32>, tensor<i64>) {
  %x = tp.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = tp.sum %x {dim = array<i64: 0>} : (tensor<2x2xf32>) -> tensor<2xf32>
  %m = tp.mean %x {dim = array<i64: 0>} : (tensor<2x2xf32>) -> tensor<2xf32>
  %p = tp.prod %x {dim = 0 : i64} : (tensor<2x2xf32>) -> tensor<2xf32>
  %mx = tp.max %x : (tensor<2x2xf32>) -> tensor<f32>
  %v = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %c = tp.cumsum %v {dim = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %w = tp.constant dense<[1.0, 5.0, 3.0, 5.0]> : tensor<4xf32>
  %am = tp.argmax %w : (tensor<4xf32>) -> tensor<i64>
  return %s, %m, %p, %mx, %c, %am : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<4xf32>, tensor<i64>
}

// 2048 bf16 ones: an f32 accumulator gives 2048; a bf16 one would stop at 256.
// CHECK: @bf16_sum_accumulates_in_f32 result #0: 2048
func.func @bf16_sum_accumulates_in_f32() -> tensor<bf16> {
  %x = tp.constant dense<1.0> : tensor<2048xbf16>
  %s = tp.sum %x : (tensor<2048xbf16>) -> tensor<bf16>
  return %s : tensor<bf16>
}

// softmax of equal logits is uniform; log_softmax is -ln 4; layer_norm of
// [1, 3] is [-1, 1] / sqrt(1 + 1e-5).
// CHECK: @softmax_layernorm result #0: [0.25, 0.25, 0.25, 0.25]
// CHECK: @softmax_layernorm result #1: [-1.386294, -1.386294, -1.386294, -1.386294]
// CHECK: @softmax_layernorm result #2: {{\[}}[-0.999995, 0.999995]]
func.func @softmax_layernorm() -> (tensor<4xf32>, tensor<4xf32>, tensor<1x2xf32>) {
  %z = tp.constant dense<0.5> : tensor<4xf32>
  %s = tp.softmax %z {dim = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %l = tp.log_softmax %z {dim = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %x = tp.constant dense<[[1.0, 3.0]]> : tensor<1x2xf32>
  %n = tp.layer_norm %x {normalized_shape = array<i64: 2>} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %s, %l, %n : tensor<4xf32>, tensor<4xf32>, tensor<1x2xf32>
}

// mse([1, 2], [3, 2]) = 2, l1 = 1; nll picks -logp[i, t_i]: (2 + 3) / 2;
// cross_entropy of equal logits is ln 2.
// CHECK: @losses result #0: 2
// CHECK: @losses result #1: 1
// CHECK: @losses result #2: 2.5
// CHECK: @losses result #3: 0.6931472
func.func @losses() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %a = tp.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = tp.constant dense<[3.0, 2.0]> : tensor<2xf32>
  %mse = tp.mse_loss %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  %l1 = tp.l1_loss %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  %lp = tp.constant dense<[[-1.0, -2.0], [-3.0, -4.0]]> : tensor<2x2xf32>
  %t = tp.constant dense<[1, 0]> : tensor<2xi64>
  %nll = tp.nll_loss %lp, %t : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<f32>
  %z = tp.constant dense<0.0> : tensor<2x2xf32>
  %ce = tp.cross_entropy %z, %t : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<f32>
  return %mse, %l1, %nll, %ce : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// CHECK: @products result #0: {{\[}}[19, 22], [43, 50]]
// CHECK: @products result #1: {{\[}}[13, 27]]
// CHECK: @products result #2: {{\[}}[19, 22], [43, 50]]
// CHECK: @products result #3: {{\[\[}}[-2, -2]]]
func.func @products() -> (tensor<2x2xf32>, tensor<1x2xf32>, tensor<2x2xbf16>, tensor<1x1x2xf32>) {
  %a = tp.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = tp.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %mm = tp.mm %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %x = tp.constant dense<[[1.0, 1.0]]> : tensor<1x2xf32>
  %bias = tp.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %lin = tp.linear %x, %a bias(%bias) : (tensor<1x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %ah = tp.cast %a : tensor<2x2xf32> to tensor<2x2xbf16>
  %bh = tp.cast %b : tensor<2x2xf32> to tensor<2x2xbf16>
  %mmh = tp.matmul %ah, %bh : (tensor<2x2xbf16>, tensor<2x2xbf16>) -> tensor<2x2xbf16>
  %s = tp.constant dense<[[[1.0, 2.0, 3.0, 4.0]]]> : tensor<1x1x4xf32>
  %k = tp.constant dense<[[[1.0, 0.0, -1.0]]]> : tensor<1x1x3xf32>
  %c = tp.conv1d %s, %k : (tensor<1x1x4xf32>, tensor<1x1x3xf32>) -> tensor<1x1x2xf32>
  return %mm, %lin, %mmh, %c : tensor<2x2xf32>, tensor<1x2xf32>, tensor<2x2xbf16>, tensor<1x1x2xf32>
}

// CHECK: @gathers result #0: {{\[}}[5, 6], [1, 2]]
// CHECK: @gathers result #1: {{\[}}[1, 3], [2, 4]]
// CHECK: @gathers result #2: [1, 2, 3, 4, 5]
func.func @gathers() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<5xf32>) {
  %w = tp.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %i = tp.constant dense<[2, 0]> : tensor<2xi64>
  %e = tp.embedding %w, %i : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %a = tp.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = tp.transpose %a {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tp.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = tp.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  %c = tp.cat [%u, %v] : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  return %e, %t, %c : tensor<2x2xf32>, tensor<2x2xf32>, tensor<5xf32>
}
