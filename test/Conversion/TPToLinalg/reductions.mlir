// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// A bf16 sum accumulates in f32 and rounds once.
// CHECK-LABEL: func.func @sum_bf16
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%{{.*}} : tensor<4x8xbf16>) outs(%[[ACC]] : tensor<4xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @sum_bf16(%a: tensor<4x8xbf16>) -> tensor<4xbf16> {
  %r = tp.sum %a {dim = array<i64: 1>} : (tensor<4x8xbf16>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}

// -----

// keepdim reinserts the reduced dimension as a view.
// CHECK-LABEL: func.func @mean_keepdim
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.divf
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
func.func @mean_keepdim(%a: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %r = tp.mean %a {dim = array<i64: 0>, keepdim = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

// softmax: max, sum of exp(x - max), normalize; bf16 in f32.
// CHECK-LABEL: func.func @softmax_bf16
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @softmax_bf16(%a: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %r = tp.softmax %a {dim = -1 : i64} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// cumsum is a scan: an scf.for over the positions of the dim.
// CHECK-LABEL: func.func @cumsum
// CHECK: scf.for
// CHECK: tensor.extract_slice
// CHECK: arith.addf
// CHECK: tensor.insert_slice
func.func @cumsum(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tp.cumsum %a {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
