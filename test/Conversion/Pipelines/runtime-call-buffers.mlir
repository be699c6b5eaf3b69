// RUN: tp-opt %s --split-input-file --tp-lower-to-cpu="to-llvm=0" | FileCheck %s

// The pattern of the bug fixed in 821d380: %w is read by two products, and an op of
// %w's type and shape (tanh) sits between them. Before tp_rt.call, the two
// read-only bufferization.to_buffer of %w were merged by CSE, bufferization
// no longer saw the second read and wrote tanh into %w's buffer.
// CHECK-LABEL: func.func @shared_weight
// CHECK: vector.transfer_write %{{.*}}, %[[W:[a-z_0-9]+]][
// CHECK: %[[WS:.*]] = memref.cast %[[W]] : memref<12x12xf32> to memref<12x12xf32, strided
// CHECK: %[[WT:.*]] = memref.transpose %[[WS]]
// CHECK: %[[WU:.*]] = memref.cast %[[WT]] {{.*}} to memref<*xf32>
// CHECK: call @tp_rt_dnnl_matmul_f32_f32(%{{.*}}, %[[WU]],
// CHECK-NOT: %[[W]]{{[^_0-9]}}
// CHECK: call @tp_rt_dnnl_matmul_f32_f32(%{{.*}}, %[[WU]],
func.func @shared_weight(%x: tensor<12x12xf32>, %v: tensor<12x12xf32>) -> tensor<12x12xf32> {
  %w = tp.neg %v : (tensor<12x12xf32>) -> tensor<12x12xf32>
  %p = tp.linear %x, %w : (tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
  %q = tp.gelu %p : (tensor<12x12xf32>) -> tensor<12x12xf32>
  %e = tp.tanh %q : (tensor<12x12xf32>) -> tensor<12x12xf32>
  %r = tp.linear %e, %w : (tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
  return %r : tensor<12x12xf32>
}

// -----

// The same with autocast's casts: the bf16 cast of %x is read by two
// products with a sigmoid of the first product's type between them. (The
// cast is computed in the result's out-param, which the program writes
// last.)
// CHECK-LABEL: func.func @two_products
// CHECK: arith.truncf
// CHECK: vector.transfer_write %{{.*}}, %[[X:[a-z_0-9]+]][
// CHECK: %[[XU:.*]] = memref.cast %[[X]] : memref<64x64xbf16> to memref<*xbf16>
// CHECK: call @tp_rt_dnnl_matmul_cast_bf16_bf16(%[[XU]],
// CHECK-NOT: %[[X]]{{[^_0-9]}}
// CHECK: call @tp_rt_dnnl_matmul_cast_bf16_bf16(%[[XU]],
func.func @two_products(%x: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<64x64xbf16> {
  %xb = tp.cast %x : tensor<64x64xf32> to tensor<64x64xbf16>
  %w1b = tp.cast %w1 : tensor<64x64xf32> to tensor<64x64xbf16>
  %w2b = tp.cast %w2 : tensor<64x64xf32> to tensor<64x64xbf16>
  %a = tp.linear %xb, %w1b : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %s = tp.sigmoid %a : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %b = tp.linear %xb, %w2b : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %r = tp.mul %s, %b : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %r : tensor<64x64xbf16>
}
