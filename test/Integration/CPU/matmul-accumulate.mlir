// Products accumulated into a tensor by oneDNN (TP_RT_EPILOGUE_ACCUMULATE:
// an f32 product whose only user adds it to a tensor of its type) give the
// bits of the separate products and adds. @fused sums four products (a
// recurrence's weight gradient, sum_t dg_t^T h_t: the first product is
// accumulated into by the next, each sum by one more) and adds a linear with
// bias to a tensor computed after it; @separate computes the same but also
// returns the products, so none is accumulated. Both are compared with
// NumPy in float64 (Inputs/matmul_accumulate.py).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/matmul_accumulate.py inputs %t
// RUN: tp-run %s --npy-dir=%t | count 0
// RUN: %python %S/Inputs/matmul_accumulate.py check %t | FileCheck %s
// RUN: tp-opt %s --tp-lower-to-cpu | FileCheck %s --check-prefix=IR
// CHECK: recurrence: bit-identical to the separate adds, error {{[0-9.e-]+}} of the largest float64 element{{$}}
// CHECK: linear: bit-identical to the separate adds, error {{[0-9.e-]+}} of the largest float64 element{{$}}
// The accumulation happens in place: the recurrence's four calls of @fused
// write one C (the 8th argument) with nothing allocated between them.
// IR-LABEL: llvm.func @fused(
// IR: llvm.call @tp_rt_dnnl_matmul_f32_f32({{(%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, )}}%[[C:[0-9]+]], %{{[0-9]+}})
// IR-NOT: aligned_alloc
// IR: llvm.call @tp_rt_dnnl_matmul_f32_f32({{(%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, )}}%[[C]], %{{[0-9]+}})
// IR-NOT: aligned_alloc
// IR: llvm.call @tp_rt_dnnl_matmul_f32_f32({{(%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, )}}%[[C]], %{{[0-9]+}})
// IR-NOT: aligned_alloc
// IR: llvm.call @tp_rt_dnnl_matmul_f32_f32({{(%[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, %[0-9]+, )}}%[[C]], %{{[0-9]+}})
// IR-LABEL: llvm.func @separate(

func.func @fused(%dg0: tensor<16x96xf32>, %dg1: tensor<16x96xf32>, %dg2: tensor<16x96xf32>, %dg3: tensor<16x96xf32>, %h0: tensor<16x96xf32>, %h1: tensor<16x96xf32>, %h2: tensor<16x96xf32>, %h3: tensor<16x96xf32>, %x: tensor<5x40xf32>, %w: tensor<96x40xf32>, %b: tensor<96xf32>, %y: tensor<5x96xf32>) -> (tensor<96x96xf32>, tensor<5x96xf32>) {
  %dt0 = tp.transpose %dg0 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m0 = tp.mm %dt0, %h0 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %dt1 = tp.transpose %dg1 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m1 = tp.mm %dt1, %h1 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %dt2 = tp.transpose %dg2 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m2 = tp.mm %dt2, %h2 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %dt3 = tp.transpose %dg3 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m3 = tp.mm %dt3, %h3 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %s1 = tp.add %m0, %m1 : (tensor<96x96xf32>, tensor<96x96xf32>) -> tensor<96x96xf32>
  %s2 = tp.add %s1, %m2 : (tensor<96x96xf32>, tensor<96x96xf32>) -> tensor<96x96xf32>
  %s3 = tp.add %s2, %m3 : (tensor<96x96xf32>, tensor<96x96xf32>) -> tensor<96x96xf32>
  %l = tp.linear %x, %w bias(%b) : (tensor<5x40xf32>, tensor<96x40xf32>, tensor<96xf32>) -> tensor<5x96xf32>
  %e = tp.exp %y : (tensor<5x96xf32>) -> tensor<5x96xf32>
  %r = tp.add %e, %l : (tensor<5x96xf32>, tensor<5x96xf32>) -> tensor<5x96xf32>
  return %s3, %r : tensor<96x96xf32>, tensor<5x96xf32>
}

func.func @separate(%dg0: tensor<16x96xf32>, %dg1: tensor<16x96xf32>, %dg2: tensor<16x96xf32>, %dg3: tensor<16x96xf32>, %h0: tensor<16x96xf32>, %h1: tensor<16x96xf32>, %h2: tensor<16x96xf32>, %h3: tensor<16x96xf32>, %x: tensor<5x40xf32>, %w: tensor<96x40xf32>, %b: tensor<96xf32>, %y: tensor<5x96xf32>) -> (tensor<96x96xf32>, tensor<5x96xf32>, tensor<96x96xf32>, tensor<96x96xf32>, tensor<96x96xf32>, tensor<96x96xf32>, tensor<5x96xf32>) {
  %dt0 = tp.transpose %dg0 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m0 = tp.mm %dt0, %h0 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %dt1 = tp.transpose %dg1 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m1 = tp.mm %dt1, %h1 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %dt2 = tp.transpose %dg2 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m2 = tp.mm %dt2, %h2 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %dt3 = tp.transpose %dg3 {dim0 = 0 : i64, dim1 = 1 : i64} : (tensor<16x96xf32>) -> tensor<96x16xf32>
  %m3 = tp.mm %dt3, %h3 : (tensor<96x16xf32>, tensor<16x96xf32>) -> tensor<96x96xf32>
  %s1 = tp.add %m0, %m1 : (tensor<96x96xf32>, tensor<96x96xf32>) -> tensor<96x96xf32>
  %s2 = tp.add %s1, %m2 : (tensor<96x96xf32>, tensor<96x96xf32>) -> tensor<96x96xf32>
  %s3 = tp.add %s2, %m3 : (tensor<96x96xf32>, tensor<96x96xf32>) -> tensor<96x96xf32>
  %l = tp.linear %x, %w bias(%b) : (tensor<5x40xf32>, tensor<96x40xf32>, tensor<96xf32>) -> tensor<5x96xf32>
  %e = tp.exp %y : (tensor<5x96xf32>) -> tensor<5x96xf32>
  %r = tp.add %e, %l : (tensor<5x96xf32>, tensor<5x96xf32>) -> tensor<5x96xf32>
  return %s3, %r, %m0, %m1, %m2, %m3, %l : tensor<96x96xf32>, tensor<5x96xf32>, tensor<96x96xf32>, tensor<96x96xf32>, tensor<96x96xf32>, tensor<96x96xf32>, tensor<5x96xf32>
}
