// The linear-algebra ops become tp_rt.call ops of the tp_rt_lapack_*
// wrappers on f32 / f64 tensors: outputs as new tensors, flags as i64
// scalars, unwanted results as zero-element tensors. A vector right-hand
// side of linalg_solve is solved as one column; torch.svd's V is written as
// Vh through a transposed view; i64 LU pivots are narrowed to LAPACK's i32.
// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file | FileCheck %s
// RUN: tp-opt %s --convert-tp-to-runtime="onednn=0" --split-input-file | FileCheck %s

// CHECK-DAG: func.func private @tp_rt_lapack_inv_f32(memref<*xf32>, memref<*xf32>, memref<*xi32>, i64) -> i32
// CHECK-LABEL: func.func @inv(
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<2x3x3xf32>
// CHECK: %[[NOINFO:.*]] = tensor.empty() : tensor<0xi32>
// CHECK: tp_rt.call @tp_rt_lapack_inv_f32(%arg0, %[[NOINFO]], %[[ONE]]) outs(%[[OUT]]) {output_positions = array<i64: 1>}
func.func @inv(%a: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %r = tp.linalg_inv %a : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %r : tensor<2x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @inv_ex(
// CHECK: %[[NOCHECK:.*]] = arith.constant 0 : i64
// CHECK: tp_rt.call @tp_rt_lapack_inv_f64(%arg0, %[[NOCHECK]]) outs(%{{.*}}, %{{.*}}) {output_positions = array<i64: 1, 2>} : (tensor<4x4xf64>, i64), (tensor<4x4xf64>, tensor<i32>) -> tensor<4x4xf64>, tensor<i32>
func.func @inv_ex(%a: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<i32>) {
  %r, %i = tp.linalg_inv_ex %a : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<i32>)
  return %r, %i : tensor<4x4xf64>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @solve_vector(
// CHECK: %[[B:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf64> into tensor<3x1xf64>
// CHECK: %[[X:.*]] = tp_rt.call @tp_rt_lapack_solve_f64(%arg0, %[[B]], %{{.*}}) outs(%{{.*}}) {output_positions = array<i64: 2>} : (tensor<3x3xf64>, tensor<3x1xf64>, i64), (tensor<3x1xf64>) -> tensor<3x1xf64>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<3x1xf64> into tensor<3xf64>
// CHECK: return %[[R]]
func.func @solve_vector(%a: tensor<3x3xf64>, %b: tensor<3xf64>) -> tensor<3xf64> {
  %r = tp.linalg_solve %a, %b : (tensor<3x3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %r : tensor<3xf64>
}

// -----

// CHECK-LABEL: func.func @svd(
// CHECK: %[[REDUCED:.*]] = arith.constant 1 : i64
// CHECK: tp_rt.call @tp_rt_lapack_svd_f32(%arg0, %[[REDUCED]]) outs(%{{.*}}, %{{.*}}, %{{.*}}) {output_positions = array<i64: 1, 2, 3>, views = [array<i64>, array<i64>, array<i64>, array<i64: 1, 0>, array<i64>]}
func.func @svd(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3x3xf32>) {
  %u, %s, %v = tp.svd %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3x3xf32>)
  return %u, %s, %v : tensor<4x3xf32>, tensor<3xf32>, tensor<3x3xf32>
}

// -----

// CHECK-LABEL: func.func @lu_solve(
// CHECK: %[[P:.*]] = tp.cast %arg2 : tensor<4xi64> to tensor<4xi32>
// CHECK: tp_rt.call @tp_rt_lapack_lu_solve_f32(%arg0, %arg1, %[[P]])
func.func @lu_solve(%b: tensor<4x2xf32>, %lu: tensor<4x4xf32>, %p: tensor<4xi64>) -> tensor<4x2xf32> {
  %r = tp.lu_solve %b, %lu, %p : (tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// mode "r": R only; Q is the empty tensor PyTorch returns.
// CHECK-LABEL: func.func @qr_r(
// CHECK: %[[R:.*]] = tp_rt.call @tp_rt_lapack_qr_f32(%arg0, %{{.*}}, %{{.*}}) outs(%{{.*}}) {output_positions = array<i64: 2>}
// CHECK: %[[Q:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<0xf32>) -> tensor<0xf32>
// CHECK: return %[[Q]], %[[R]]
func.func @qr_r(%a: tensor<5x3xf32>) -> (tensor<0xf32>, tensor<3x3xf32>) {
  %q, %r = tp.linalg_qr %a {mode = "r"} : (tensor<5x3xf32>) -> (tensor<0xf32>, tensor<3x3xf32>)
  return %q, %r : tensor<0xf32>, tensor<3x3xf32>
}

// -----

// triangular_solve's cloned_coefficient is A (broadcast to the batch).
// CHECK-LABEL: func.func @triangular(
// CHECK: %[[X:.*]] = tp_rt.call @tp_rt_lapack_triangular_solve_f32(%arg0, %arg1,
// CHECK: %[[C:.*]] = tp.expand %arg1 {size = array<i64: 2, 3, 3>} : (tensor<3x3xf32>) -> tensor<2x3x3xf32>
// CHECK: return %[[X]], %[[C]]
func.func @triangular(%b: tensor<2x3x2xf32>, %a: tensor<3x3xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x3xf32>) {
  %x, %c = tp.triangular_solve %b, %a : (tensor<2x3x2xf32>, tensor<3x3xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x3xf32>)
  return %x, %c : tensor<2x3x2xf32>, tensor<2x3x3xf32>
}

// -----

// linalg_eig: geev with complex outputs; eigvals passes a zero-element
// eigenvector tensor (not wanted).
// CHECK-DAG: func.func private @tp_rt_lapack_eig_f32(memref<*xf32>, memref<*xcomplex<f32>>, memref<*xcomplex<f32>>) -> i32
// CHECK-LABEL: func.func @eig(
// CHECK: %[[W:.*]] = tensor.empty() : tensor<2x4xcomplex<f32>>
// CHECK: %[[V:.*]] = tensor.empty() : tensor<2x4x4xcomplex<f32>>
// CHECK: tp_rt.call @tp_rt_lapack_eig_f32(%arg0) outs(%[[W]], %[[V]]) {output_positions = array<i64: 1, 2>}
// CHECK: %[[NONE:.*]] = tensor.empty() : tensor<0xcomplex<f32>>
// CHECK: tp_rt.call @tp_rt_lapack_eig_f32(%arg0, %[[NONE]]) outs(%{{.*}}) {output_positions = array<i64: 1>}
func.func @eig(%a: tensor<2x4x4xf32>) -> (tensor<2x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>) {
  %w, %v = tp.linalg_eig %a : (tensor<2x4x4xf32>) -> (tensor<2x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>)
  %x = tp.linalg_eigvals %a : (tensor<2x4x4xf32>) -> tensor<2x4xcomplex<f32>>
  return %w, %v, %x : tensor<2x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>
}
