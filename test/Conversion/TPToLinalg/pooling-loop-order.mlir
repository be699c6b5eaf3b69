// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// The loops of a pool's gather: where the rows of outputs are longer than
// the window's, the window offsets run outside the output positions (the
// innermost loop walks a row of outputs), so the two spatial output loops
// come last. The window tensor is indexed by the offset loops (d2, d3), the
// outputs by the others.
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>
// CHECK-LABEL: func.func @max_pool_rows
// CHECK: linalg.generic {indexing_maps = [#[[WIN]], #[[OUT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel", "parallel"]}
// The input row is read at output position (d4, d5) and offset (d2, d3).
// CHECK-DAG: linalg.index 2 : index
// CHECK-DAG: linalg.index 3 : index
// CHECK-DAG: linalg.index 4 : index
// CHECK-DAG: linalg.index 5 : index
func.func @max_pool_rows(%x: tensor<2x4x16x16xf32>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xi64>) {
  %v, %i = tp.max_pool2d_with_indices %x {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 1>} : (tensor<2x4x16x16xf32>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xi64>)
  return %v, %i : tensor<2x4x8x8xf32>, tensor<2x4x8x8xi64>
}

// -----

// A global pool (one output per plane, a window as large as the plane)
// keeps the offsets innermost: the innermost loop walks a row of the input.
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @global_avg_pool
// CHECK: linalg.generic {indexing_maps = [#[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
func.func @global_avg_pool(%x: tensor<2x4x8x8xf32>) -> tensor<2x4x1x1xf32> {
  %y = tp.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x1x1xf32>
  return %y : tensor<2x4x1x1xf32>
}
