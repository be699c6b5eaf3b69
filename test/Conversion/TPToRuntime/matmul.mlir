// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file | FileCheck %s

// linear: the batch folds into M, W is handed over as a transposed view (no
// copy) and the bias goes to oneDNN, so the bf16 result is rounded once.
// CHECK-LABEL: func.func private @tp_rt_dnnl_matmul_bf16_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xbf16>, memref<*xbf16>) -> i32
// CHECK-LABEL: func.func @linear_bf16
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<2x3x8xbf16> into tensor<6x8xbf16>
// CHECK: %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only
// CHECK: %[[WB:.*]] = bufferization.to_buffer %arg1 read_only
// CHECK: %[[WT:.*]] = memref.transpose %[[WB]] (d0, d1) -> (d1, d0)
// CHECK: %[[BB:.*]] = bufferization.to_buffer %arg2 read_only
// CHECK: %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x4xbf16>
// CHECK: call @tp_rt_dnnl_matmul_bf16_bf16(
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[C]] restrict writable
// CHECK: tensor.expand_shape %[[T]]
func.func @linear_bf16(%x: tensor<2x3x8xbf16>, %w: tensor<4x8xbf16>, %b: tensor<4xbf16>) -> tensor<2x3x4xbf16> {
  %r = tp.linear %x, %w bias(%b) : (tensor<2x3x8xbf16>, tensor<4x8xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
  return %r : tensor<2x3x4xbf16>
}

// -----

// addmm: an f32 product (no bias: an empty buffer), alpha/beta in an
// elementwise epilogue.
// CHECK-LABEL: func.func @addmm
// CHECK: %[[NOBIAS:.*]] = memref.alloc() {{.*}} : memref<0xf32>
// CHECK: call @tp_rt_dnnl_matmul_f32_f32
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
// CHECK: memref.alloc() {{.*}} : memref<2x4xf32>
// CHECK: call @tp_rt_dnnl_matmul_bf16_f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @addmm_bf16(%c: tensor<2x4xbf16>, %a: tensor<2x8xbf16>, %b: tensor<8x4xbf16>) -> tensor<2x4xbf16> {
  %r = tp.addmm %c, %a, %b : (tensor<2x4xbf16>, tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
  return %r : tensor<2x4xbf16>
}

// -----

// Batched matmul with broadcasting: equal ranks, oneDNN broadcasts.
// CHECK-LABEL: func.func @matmul_4d
// CHECK: tensor.expand_shape %arg1 {{.*}} into tensor<1x3x8x4xf32>
// CHECK: memref.alloc() {{.*}} : memref<2x3x5x4xf32>
// CHECK: call @tp_rt_dnnl_matmul_f32_f32
func.func @matmul_4d(%a: tensor<2x1x5x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x3x5x4xf32> {
  %r = tp.matmul %a, %b : (tensor<2x1x5x8xf32>, tensor<3x8x4xf32>) -> tensor<2x3x5x4xf32>
  return %r : tensor<2x3x5x4xf32>
}

// -----

// oneDNN takes f32 and bf16 only: f16 stays for the linalg lowering.
// CHECK-LABEL: func.func @mm_f16
// CHECK: tp.mm
// CHECK-NOT: call
func.func @mm_f16(%a: tensor<2x8xf16>, %b: tensor<8x4xf16>) -> tensor<2x4xf16> {
  %r = tp.mm %a, %b : (tensor<2x8xf16>, tensor<8x4xf16>) -> tensor<2x4xf16>
  return %r : tensor<2x4xf16>
}
