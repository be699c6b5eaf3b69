// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file | FileCheck %s

// linear: the batch folds into M, W is handed over as a transposed view (no
// copy) and the bias goes to oneDNN, so the bf16 result is rounded once.
// CHECK-LABEL: func.func private @tp_rt_dnnl_matmul_bf16_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, i64) -> i32
// CHECK-LABEL: func.func @linear_bf16
// CHECK: %[[NONE:.*]] = arith.constant 0 : i64
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<2x3x8xbf16> into tensor<6x8xbf16>
// CHECK: %[[C:.*]] = tensor.empty() : tensor<6x4xbf16>
// CHECK: %[[T:.*]] = tp_rt.call @tp_rt_dnnl_matmul_bf16_bf16(%[[X]], %arg1, %arg2, %[[NONE]]) outs(%[[C]])
// CHECK-SAME: output_positions = array<i64: 3>
// CHECK-SAME: views = [array<i64>, array<i64: 1, 0>, array<i64>, array<i64>, array<i64>]
// CHECK-SAME: : (tensor<6x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>, i64), (tensor<6x4xbf16>) -> tensor<6x4xbf16>
// CHECK: tensor.expand_shape %[[T]]
func.func @linear_bf16(%x: tensor<2x3x8xbf16>, %w: tensor<4x8xbf16>, %b: tensor<4xbf16>) -> tensor<2x3x4xbf16> {
  %r = tp.linear %x, %w bias(%b) : (tensor<2x3x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
  return %r : tensor<2x3x4xbf16>
}

// -----

// addmm: an f32 product (no bias: an empty tensor), alpha/beta in an
// elementwise epilogue.
// CHECK-LABEL: func.func @addmm
// CHECK: %[[NOBIAS:.*]] = tensor.empty() : tensor<0xf32>
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%arg1, %arg2, %[[NOBIAS]], %{{.*}}) outs(
// CHECK: linalg.generic
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf
func.func @addmm(%c: tensor<4xf32>, %a: tensor<2x8xf32>, %b: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %r = tp.addmm %c, %a, %b {alpha = 2.0 : f64} : (tensor<4xf32>, tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// bf16 addmm accumulates into f32 and rounds in the epilogue.
// CHECK-LABEL: func.func @addmm_bf16
// CHECK: tensor.empty() : tensor<2x4xf32>
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_bf16_f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @addmm_bf16(%c: tensor<2x4xbf16>, %a: tensor<2x8xbf16>, %b: tensor<8x4xbf16>) -> tensor<2x4xbf16> {
  %r = tp.addmm %c, %a, %b : (tensor<2x4xbf16>, tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
  return %r : tensor<2x4xbf16>
}

// -----

// Batched matmul with broadcasting: equal ranks, oneDNN broadcasts.
// CHECK-LABEL: func.func @matmul_4d
// CHECK: tensor.expand_shape %arg1 {{.*}} into tensor<1x3x8x4xf32>
// CHECK: tensor.empty() : tensor<2x3x5x4xf32>
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32
func.func @matmul_4d(%a: tensor<2x1x5x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x3x5x4xf32> {
  %r = tp.matmul %a, %b : (tensor<2x1x5x8xf32>, tensor<3x8x4xf32>) -> tensor<2x3x5x4xf32>
  return %r : tensor<2x3x5x4xf32>
}

// -----

// oneDNN takes f32 and bf16 only: f16 stays for the linalg lowering.
// CHECK-LABEL: func.func @mm_f16
// CHECK: tp.mm
// CHECK-NOT: tp_rt.call
func.func @mm_f16(%a: tensor<2x8xf16>, %b: tensor<8x4xf16>) -> tensor<2x4xf16> {
  %r = tp.mm %a, %b : (tensor<2x8xf16>, tensor<8x4xf16>) -> tensor<2x4xf16>
  return %r : tensor<2x4xf16>
}

// -----

// A bf16 weight that is a cast of an f32 tensor used by nothing else:
// the product takes the f32 weight (as the transposed view) and rounds it
// itself; the cast is gone.
// CHECK-LABEL: func.func @linear_cast_weight
// CHECK-NOT: tp.cast
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_cast_bf16_bf16(%arg0, %arg1, %arg2,
// CHECK-SAME: views = [array<i64>, array<i64: 1, 0>,
// CHECK-SAME: (tensor<6x8xbf16>, tensor<4x8xf32>, tensor<4xbf16>, i64)
// CHECK-NOT: tp.cast
func.func @linear_cast_weight(%x: tensor<6x8xbf16>, %w: tensor<4x8xf32>, %b: tensor<4xbf16>) -> tensor<6x4xbf16> {
  %wc = tp.cast %w : tensor<4x8xf32> to tensor<4x8xbf16>
  %r = tp.linear %x, %wc bias(%b) : (tensor<6x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>) -> tensor<6x4xbf16>
  return %r : tensor<6x4xbf16>
}

// -----

// mm's second matrix cast from f32 with one use: the same fused call (B is
// the plain [K, N] tensor, no transpose).
// CHECK-LABEL: func.func @mm_cast_rhs
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_cast_bf16_bf16(%arg0, %arg1,
// CHECK-NOT: views
// CHECK-SAME: (tensor<2x8xbf16>, tensor<8x4xf32>, tensor<0xbf16>, i64)
func.func @mm_cast_rhs(%a: tensor<2x8xbf16>, %b: tensor<8x4xf32>) -> tensor<2x4xbf16> {
  %bc = tp.cast %b : tensor<8x4xf32> to tensor<8x4xbf16>
  %r = tp.mm %a, %bc : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
  return %r : tensor<2x4xbf16>
}

// -----

// Not fused: the cast weight has a second user (it is returned), the cast
// is an f16 -> bf16 cast, or the cast feeds A rather than B.
// CHECK-LABEL: func.func @cast_weight_not_fused
// CHECK-NOT: tp_rt_dnnl_matmul_cast
// CHECK: tp.cast %arg1
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_bf16_bf16(
// CHECK: tp.cast %arg2
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_bf16_bf16(
// CHECK: tp.cast %arg3
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_bf16_bf16(
// CHECK-NOT: tp_rt_dnnl_matmul_cast
func.func @cast_weight_not_fused(%x: tensor<6x8xbf16>, %w: tensor<4x8xf32>, %h: tensor<4x8xf16>, %a: tensor<6x8xf32>, %b: tensor<8x4xbf16>) -> (tensor<6x4xbf16>, tensor<4x8xbf16>, tensor<6x4xbf16>, tensor<6x4xbf16>) {
  %wc = tp.cast %w : tensor<4x8xf32> to tensor<4x8xbf16>
  %r = tp.linear %x, %wc : (tensor<6x8xbf16>, tensor<4x8xbf16>) -> tensor<6x4xbf16>
  %hc = tp.cast %h : tensor<4x8xf16> to tensor<4x8xbf16>
  %s = tp.linear %x, %hc : (tensor<6x8xbf16>, tensor<4x8xbf16>) -> tensor<6x4xbf16>
  %ac = tp.cast %a : tensor<6x8xf32> to tensor<6x8xbf16>
  %t = tp.mm %ac, %b : (tensor<6x8xbf16>, tensor<8x4xbf16>) -> tensor<6x4xbf16>
  return %r, %wc, %s, %t : tensor<6x4xbf16>, tensor<4x8xbf16>, tensor<6x4xbf16>, tensor<6x4xbf16>
}

// -----

// Activations as oneDNN epilogues: a product whose only user is tp.relu or
// tp.gelu passes TP_RT_EPILOGUE_RELU (1), _GELU_ERF (2) or _GELU_TANH (3)
// and the activation op is gone.
// CHECK-LABEL: func.func @linear_gelu
// CHECK: %[[GELU:.*]] = arith.constant 2 : i64
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_bf16_bf16({{.*}}, %[[GELU]])
// CHECK-NOT: tp.gelu
// CHECK: return
func.func @linear_gelu(%x: tensor<2x3x8xbf16>, %w: tensor<4x8xbf16>, %b: tensor<4xbf16>) -> tensor<2x3x4xbf16> {
  %r = tp.linear %x, %w bias(%b) : (tensor<2x3x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
  %g = tp.gelu %r : (tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
  return %g : tensor<2x3x4xbf16>
}

// -----

// CHECK-LABEL: func.func @mm_relu_matmul_gelu_tanh
// CHECK-DAG: %[[RELU:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[TANH:.*]] = arith.constant 3 : i64
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32({{.*}}, %[[RELU]])
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32({{.*}}, %[[TANH]])
// CHECK-NOT: tp.relu
// CHECK-NOT: tp.gelu
func.func @mm_relu_matmul_gelu_tanh(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %c: tensor<3x2x8xf32>) -> (tensor<2x4xf32>, tensor<3x2x4xf32>) {
  %m = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %r = tp.relu %m : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %n = tp.matmul %c, %b : (tensor<3x2x8xf32>, tensor<8x4xf32>) -> tensor<3x2x4xf32>
  %g = tp.gelu %n {approximate = #tp.approximate<tanh>} : (tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  return %r, %g : tensor<2x4xf32>, tensor<3x2x4xf32>
}

// -----

// No epilogue: the product has a second user, the activation is in place
// or writes an out= destination, or it is an activation oneDNN is not
// handed (sigmoid).
// CHECK-LABEL: func.func @no_epilogue
// CHECK-NOT: arith.constant {{[123]}} : i64
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32
// CHECK: tp.gelu
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32
// CHECK: tp.relu
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32
// CHECK: tp.sigmoid
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32
// CHECK: tp.gelu %{{.*}} out(
func.func @no_epilogue(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %d: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %m = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %g = tp.gelu %m : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %n = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %r = tp.relu %n {inplace} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %o = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %s = tp.sigmoid %o : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %p = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %q = tp.gelu %p out(%d) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m, %g, %r, %s, %q : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// A batched product whose only use permutes its columns innermost (the
// layout of an attention backward's dK^T) is computed as C^T = B^T A^T
// through views of the operands, so that oneDNN writes contiguous rows;
// the permutation is applied to C^T's dims.
// CHECK-LABEL: func.func @permuted_columns
// CHECK: %[[C:.*]] = tensor.empty() : tensor<2x5x3x6xf32>
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%arg1, %arg0, %{{.*}}, %{{.*}}) outs(%[[C]])
// CHECK-SAME: views = [array<i64: 0, 1, 3, 2>, array<i64: 0, 1, 3, 2>, array<i64>, array<i64: 0, 2, 1, 3>, array<i64>]
// CHECK-NOT: tp.permute
// CHECK-NOT: tp.transpose
func.func @permuted_columns(%a: tensor<2x3x6x8xf32>, %b: tensor<2x3x8x5xf32>) -> tensor<2x5x3x6xf32> {
  %s = tp.matmul %a, %b : (tensor<2x3x6x8xf32>, tensor<2x3x8x5xf32>) -> tensor<2x3x6x5xf32>
  %r = tp.permute %s {dims = array<i64: 0, 3, 1, 2>} : (tensor<2x3x6x5xf32>) -> tensor<2x5x3x6xf32>
  return %r : tensor<2x5x3x6xf32>
}

// -----

// Chains of permute / transpose compose into one view of their root; a
// chain that moves the root's contiguous dim into the batch is copied (a
// matrix strided both ways sends oneDNN to its reference kernels).
// CHECK-LABEL: func.func @chained_views
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%arg0, %arg1,
// CHECK-SAME: views = [array<i64>, array<i64: 0, 2, 1, 3>,
// CHECK: %[[KB:.*]] = tp.permute %arg1 {dims = array<i64: 0, 3, 1, 2>}
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%[[KB]], %arg2,
func.func @chained_views(%a: tensor<2x3x5x6xf32>, %k: tensor<2x6x3x8xf32>, %b: tensor<2x8x3x4xf32>) -> (tensor<2x3x5x8xf32>, tensor<2x8x6x4xf32>) {
  %kt = tp.permute %k {dims = array<i64: 0, 2, 3, 1>} : (tensor<2x6x3x8xf32>) -> tensor<2x3x8x6xf32>
  %k2 = tp.transpose %kt {dim0 = 2 : i64, dim1 = 3 : i64} : (tensor<2x3x8x6xf32>) -> tensor<2x3x6x8xf32>
  %r0 = tp.matmul %a, %k2 : (tensor<2x3x5x6xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x5x8xf32>
  %kb = tp.permute %k {dims = array<i64: 0, 3, 1, 2>} : (tensor<2x6x3x8xf32>) -> tensor<2x8x6x3xf32>
  %r1 = tp.matmul %kb, %b : (tensor<2x8x6x3xf32>, tensor<2x8x3x4xf32>) -> tensor<2x8x6x4xf32>
  return %r0, %r1 : tensor<2x3x5x8xf32>, tensor<2x8x6x4xf32>
}

// -----

// Accumulation: an f32 product whose only user adds it to another f32
// tensor of its type is computed into that tensor (TP_RT_EPILOGUE_ACCUMULATE,
// 4, with C an updated operand), at the add: a chain of products summed
// (a recurrence's weight gradient) becomes one product into the first and
// one more product into each sum; a linear's accumulated tensor may be
// defined after the linear.
// CHECK-LABEL: func.func @accumulate
// CHECK-DAG: %[[NONE:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ACC:.*]] = arith.constant 4 : i64
// CHECK: %[[M:.*]] = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%{{arg0|arg2}}, %arg1, %{{.*}}, %[[NONE]]) outs(
// CHECK: %[[S1:.*]] = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%{{arg0|arg2}}, %arg1, %{{.*}}, %[[ACC]]) outs(%[[M]])
// CHECK-SAME: updates = array<i64: 0>
// CHECK: %[[S2:.*]] = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%arg0, %arg3, %{{.*}}, %[[ACC]]) outs(%[[S1]])
// CHECK: %[[E:.*]] = tp.exp %arg4
// CHECK: tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%arg0, %arg5, %arg6, %[[ACC]]) outs(%[[E]])
// CHECK-SAME: views = [array<i64>, array<i64: 1, 0>, array<i64>, array<i64>, array<i64>]
// CHECK-NOT: tp.add
// CHECK: return %[[S2]]
func.func @accumulate(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %c: tensor<2x8xf32>, %d: tensor<8x4xf32>, %x: tensor<2x4xf32>, %w: tensor<4x8xf32>, %bias: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %m0 = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %m1 = tp.mm %c, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %m2 = tp.matmul %a, %d : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %s1 = tp.add %m0, %m1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %s2 = tp.add %m2, %s1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %l = tp.linear %a, %w bias(%bias) : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %e = tp.exp %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tp.add %e, %l : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s2, %r : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// No accumulation: the product has a second user, the add scales it
// (alpha), broadcasts the other operand, is in place, or the product is
// bf16 (rounding the product before the add is its semantics).
// CHECK-LABEL: func.func @no_accumulate
// CHECK-NOT: arith.constant 4 : i64
// CHECK-COUNT-5: tp.add
// CHECK: return
func.func @no_accumulate(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %x: tensor<2x4xf32>, %row: tensor<4xf32>, %ah: tensor<2x8xbf16>, %bh: tensor<8x4xbf16>, %xh: tensor<2x4xbf16>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xbf16>) {
  %m0 = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %s0 = tp.add %x, %m0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %m1 = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %s1 = tp.add %x, %m1 {alpha = 2.0 : f64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %m2 = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %s2 = tp.add %m2, %row : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %m3 = tp.mm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %s3 = tp.add %x, %m3 {inplace} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %m4 = tp.mm %ah, %bh : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
  %s4 = tp.add %xh, %m4 : (tensor<2x4xbf16>, tensor<2x4xbf16>) -> tensor<2x4xbf16>
  return %m0, %s0, %s1, %s2, %s3, %s4 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xbf16>
}
