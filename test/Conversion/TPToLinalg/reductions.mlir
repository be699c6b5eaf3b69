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

// -----

// softmax_backward: sum(g y) along dim in f32, then y (g - s) rounded once
// to bf16.
// CHECK-LABEL: func.func @softmax_backward_bf16
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: %[[D:.*]] = arith.subf %{{.*}}, %{{.*}} : f32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[D]] : f32
// CHECK: arith.truncf %[[P]] : f32 to bf16
func.func @softmax_backward_bf16(%g: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %r = tp.softmax_backward %g, %y {dim = 1 : i64} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}

// -----

// log_softmax_backward: sum(g) along dim (here dim 0), then g - exp(y) s.
// CHECK-LABEL: func.func @log_softmax_backward
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK: %[[M:.*]] = arith.mulf %[[E]], %{{.*}} : f32
// CHECK: arith.subf %{{.*}}, %[[M]] : f32
func.func @log_softmax_backward(%g: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tp.log_softmax_backward %g, %y {dim = 0 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// layer_norm_backward: the moments again (two sums over the normalized
// dim), rstd, then sum(gw) and sum(gw xhat) in one loop of two results and
// grad_input rounded once to bf16; grad_weight sum(g xhat) and grad_bias
// sum(g) over the leading dim.
// CHECK-LABEL: func.func @layer_norm_backward_bf16
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: %[[DX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: %[[DW:.*]] = linalg.generic
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: %[[DB:.*]] = linalg.generic
// CHECK: return %[[DX]], %[[DW]], %[[DB]]
func.func @layer_norm_backward_bf16(%g: tensor<4x8xbf16>, %x: tensor<4x8xbf16>, %w: tensor<8xbf16>) -> (tensor<4x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) {
  %r:3 = tp.layer_norm_backward %g, %x weight(%w) {normalized_shape = array<i64: 8>} : (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<8xbf16>) -> (tensor<4x8xbf16>, tensor<8xbf16>, tensor<8xbf16>)
  return %r#0, %r#1, %r#2 : tensor<4x8xbf16>, tensor<8xbf16>, tensor<8xbf16>
}

// -----

// Results without uses are not computed: only the bias's sum here.
// CHECK-LABEL: func.func @layer_norm_backward_bias_only
// CHECK-NOT: math.rsqrt {{.*}}
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @layer_norm_backward_bias_only(%g: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<8xf32> {
  %r:3 = tp.layer_norm_backward %g, %x {normalized_shape = array<i64: 8>} : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %r#2 : tensor<8xf32>
}
