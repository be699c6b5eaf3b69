// RUN: tp-opt %s --convert-tp-to-linalg --canonicalize --tp-fuse-elementwise --split-input-file | FileCheck %s

// Casts fuse with their elementwise neighbours: one loop, no standalone
// cast generic.
// CHECK-LABEL: func.func @casts_fuse
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: math.erf
// CHECK: arith.addf
// CHECK: return
func.func @casts_fuse(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %h = tp.cast %x : tensor<64x128xf32> to tensor<64x128xbf16>
  %g = tp.gelu %h : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %f = tp.cast %g : tensor<64x128xbf16> to tensor<64x128xf32>
  %r = tp.add %f, %y : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// A cast shared by two consumers is recomputed in each (it is one
// truncf), so neither reads a materialized bf16 copy.
// CHECK-LABEL: func.func @shared_cast
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<64x128xf32>)
// CHECK: arith.truncf
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<64x128xf32>)
// CHECK: arith.truncf
// CHECK: math.tanh
// CHECK-NOT: linalg.generic
func.func @shared_cast(%x: tensor<64x128xf32>) -> (tensor<64x128xbf16>, tensor<64x128xbf16>) {
  %h = tp.cast %x : tensor<64x128xf32> to tensor<64x128xbf16>
  %a = tp.relu %h : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  %b = tp.tanh %h : (tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %a, %b : tensor<64x128xbf16>, tensor<64x128xbf16>
}

// -----

// An expensive producer (exp) with two consumers is computed once.
// CHECK-LABEL: func.func @shared_exp
// CHECK-COUNT-1: math.exp
// CHECK-NOT: math.exp
func.func @shared_exp(%x: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %e = tp.exp %x : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %a = tp.relu %e : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %b = tp.neg %e : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %a, %b : tensor<64x128xf32>, tensor<64x128xf32>
}

// -----

// A convolution's im2col product stays a linalg.batch_matmul (the form
// tp-tile-and-vectorize tiles into register blocks): the reshapes around
// it and the output transpose are not folded into it, which would turn it
// into an 8-D linalg.generic contraction with scalar accumulators.
// CHECK-LABEL: func.func @conv_keeps_batch_matmul
// CHECK: tensor.collapse_shape
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<1x16x288xf32>, tensor<1x288x1024xf32>)
// CHECK-SAME: outs({{.*}} : tensor<1x16x1024xf32>)
// CHECK: tensor.expand_shape
// CHECK-NOT: "reduction"
// CHECK: return
func.func @conv_keeps_batch_matmul(%x: tensor<4x32x16x16xf32>, %w: tensor<16x32x3x3xf32>) -> tensor<4x16x16x16xf32> {
  %r = tp.conv2d %x, %w {padding = array<i64: 1>} : (tensor<4x32x16x16xf32>, tensor<16x32x3x3xf32>) -> tensor<4x16x16x16xf32>
  return %r : tensor<4x16x16x16xf32>
}
