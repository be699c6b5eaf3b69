// RUN: tp-opt %s --tp-join-slice-gradients --split-input-file | FileCheck %s

// An LSTM's gate gradients: four slice gradients along dim 1 covering it,
// summed in a chain, become one concatenation of the pieces plus 0.
// CHECK-LABEL: func.func @gates
// CHECK: %[[Z:.*]] = tp.constant dense<0.000000e+00> : tensor<f32>
// CHECK: %[[I:.*]] = tp.add %arg0, %[[Z]]
// CHECK: %[[F:.*]] = tp.add %arg1, %[[Z]]
// CHECK: %[[G:.*]] = tp.add %arg2, %[[Z]]
// CHECK: %[[O:.*]] = tp.add %arg3, %[[Z]]
// CHECK: %[[C:.*]] = tp.cat [%[[I]], %[[F]], %[[G]], %[[O]]] {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x12xf32>
// CHECK-NOT: slice_backward
// CHECK: return %[[C]]
func.func @gates(%i: tensor<2x3xf32>, %f: tensor<2x3xf32>, %g: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x12xf32> {
  %si = tp.slice_backward %i {dim = 1 : i64, input_sizes = array<i64: 2, 12>, start = 0 : i64, end = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x12xf32>
  %sf = tp.slice_backward %f {dim = 1 : i64, input_sizes = array<i64: 2, 12>, start = 3 : i64, end = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x12xf32>
  %sg = tp.slice_backward %g {dim = -1 : i64, input_sizes = array<i64: 2, 12>, start = 6 : i64, end = 9 : i64} : (tensor<2x3xf32>) -> tensor<2x12xf32>
  %so = tp.slice_backward %o {dim = 1 : i64, input_sizes = array<i64: 2, 12>, start = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x12xf32>
  %a = tp.add %sf, %so : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
  %b = tp.add %sg, %a : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
  %c = tp.add %b, %si : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
  return %c : tensor<2x12xf32>
}

// -----

// Time steps along dim 0 with gaps: the gaps are zeros.
// CHECK-LABEL: func.func @steps_with_gaps
// CHECK-DAG: %[[Z:.*]] = tp.constant dense<0.000000e+00> : tensor<bf16>
// CHECK-DAG: %[[Z0:.*]] = tp.constant dense<0.000000e+00> : tensor<1x3xbf16>
// CHECK-DAG: %[[A:.*]] = tp.add %arg0, %[[Z]] : (tensor<1x3xbf16>, tensor<bf16>)
// CHECK-DAG: %[[Z2:.*]] = tp.constant dense<0.000000e+00> : tensor<1x3xbf16>
// CHECK-DAG: %[[B:.*]] = tp.add %arg1, %[[Z]] : (tensor<1x3xbf16>, tensor<bf16>)
// CHECK-DAG: %[[Z4:.*]] = tp.constant dense<0.000000e+00> : tensor<2x3xbf16>
// CHECK: tp.cat [%[[Z0]], %[[A]], %[[Z2]], %[[B]], %[[Z4]]] : (tensor<1x3xbf16>, tensor<1x3xbf16>, tensor<1x3xbf16>, tensor<1x3xbf16>, tensor<2x3xbf16>) -> tensor<6x3xbf16>
// CHECK-NOT: slice_backward
func.func @steps_with_gaps(%x: tensor<1x3xbf16>, %y: tensor<1x3xbf16>) -> tensor<6x3xbf16> {
  %sy = tp.slice_backward %y {input_sizes = array<i64: 6, 3>, start = 3 : i64, end = 4 : i64} : (tensor<1x3xbf16>) -> tensor<6x3xbf16>
  %sx = tp.slice_backward %x {input_sizes = array<i64: 6, 3>, start = 1 : i64, end = 2 : i64} : (tensor<1x3xbf16>) -> tensor<6x3xbf16>
  %s = tp.add %sy, %sx : (tensor<6x3xbf16>, tensor<6x3xbf16>) -> tensor<6x3xbf16>
  return %s : tensor<6x3xbf16>
}

// -----

// Left alone: overlapping ranges, two dims, a strided slice, alpha, a
// single slice.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tp.cat
// CHECK-COUNT-8: tp.slice_backward
// CHECK-NOT: tp.cat
// CHECK: return
func.func @left_alone(%x: tensor<2x4xf32>, %w: tensor<4x2xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %a0 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 0 : i64, end = 2 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %a1 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 1 : i64, end = 3 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %overlap = tp.add %a0, %a1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %b0 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 0 : i64, end = 2 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %b1 = tp.slice_backward %w {dim = 1 : i64, input_sizes = array<i64: 4, 4>, start = 2 : i64, end = 4 : i64} : (tensor<4x2xf32>) -> tensor<4x4xf32>
  %dims = tp.add %b0, %b1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 0 : i64, end = 4 : i64, step = 2 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %c1 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 1 : i64, end = 4 : i64, step = 2 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %strided = tp.add %c0, %c1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %f0 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 0 : i64, end = 2 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %f1 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 2 : i64, end = 4 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %alpha = tp.add %f0, %f1 {alpha = 2.0 : f64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %overlap, %dims, %strided, %alpha, %f1 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A sum with another user is a term of the sums that use it, not entered:
// it is joined by itself, and the outer sum adds the slice to it.
// CHECK-LABEL: func.func @shared_inner_sum
// CHECK: %[[C:.*]] = tp.cat
// CHECK: %[[E:.*]] = tp.slice_backward %arg1 {end = 4 : i64
// CHECK: %[[S:.*]] = tp.add %[[C]], %[[E]]
// CHECK: return %[[C]], %[[S]]
func.func @shared_inner_sum(%x: tensor<1x4xf32>, %y: tensor<2x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %d0 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 0 : i64, end = 1 : i64} : (tensor<1x4xf32>) -> tensor<4x4xf32>
  %d1 = tp.slice_backward %x {input_sizes = array<i64: 4, 4>, start = 1 : i64, end = 2 : i64} : (tensor<1x4xf32>) -> tensor<4x4xf32>
  %inner = tp.add %d0, %d1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %e0 = tp.slice_backward %y {input_sizes = array<i64: 4, 4>, start = 2 : i64, end = 4 : i64} : (tensor<2x4xf32>) -> tensor<4x4xf32>
  %shared = tp.add %inner, %e0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %inner, %shared : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Complex and bool sums are left alone.
// CHECK-LABEL: func.func @complex_and_bool
// CHECK-NOT: tp.cat
// CHECK-COUNT-4: tp.slice_backward
// CHECK-NOT: tp.cat
func.func @complex_and_bool(%z: tensor<1x2xcomplex<f32>>, %b: tensor<1x2xi1>) -> (tensor<2x2xcomplex<f32>>, tensor<2x2xi1>) {
  %z0 = tp.slice_backward %z {input_sizes = array<i64: 2, 2>, start = 0 : i64, end = 1 : i64} : (tensor<1x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %z1 = tp.slice_backward %z {input_sizes = array<i64: 2, 2>, start = 1 : i64, end = 2 : i64} : (tensor<1x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %zs = tp.add %z0, %z1 : (tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  %b0 = tp.slice_backward %b {input_sizes = array<i64: 2, 2>, start = 0 : i64, end = 1 : i64} : (tensor<1x2xi1>) -> tensor<2x2xi1>
  %b1 = tp.slice_backward %b {input_sizes = array<i64: 2, 2>, start = 1 : i64, end = 2 : i64} : (tensor<1x2xi1>) -> tensor<2x2xi1>
  %bs = tp.add %b0, %b1 : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  return %zs, %bs : tensor<2x2xcomplex<f32>>, tensor<2x2xi1>
}

// -----

// An empty slice adds nothing: no piece of the concatenation.
// CHECK-LABEL: func.func @empty_slice
// CHECK: tp.cat [%{{.*}}, %{{.*}}] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
func.func @empty_slice(%x: tensor<2x3xf32>, %e: tensor<0x3xf32>, %y: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %a = tp.slice_backward %x {input_sizes = array<i64: 4, 3>, start = 0 : i64, end = 2 : i64} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  %b = tp.slice_backward %e {input_sizes = array<i64: 4, 3>, start = 2 : i64, end = 2 : i64} : (tensor<0x3xf32>) -> tensor<4x3xf32>
  %c = tp.slice_backward %y {input_sizes = array<i64: 4, 3>, start = 2 : i64, end = 4 : i64} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  %s = tp.add %a, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %t = tp.add %s, %c : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %t : tensor<4x3xf32>
}
