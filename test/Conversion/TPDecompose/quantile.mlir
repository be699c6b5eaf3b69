// quantile as tensorplay's quantile_compute: the values sorted ascending
// (tp.topk of all, smallest first, NaN last), ranks q * (n - 1) (the last
// rank for a row holding a NaN), q outside [0, 1] or NaN masked to rank 0
// and NaN, "nearest" rounding half to even (a fake quantization of scale
// 1), the values gathered at the ranks, [rows, Q] moved to [Q, rows].
// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @nearest
// CHECK-DAG: %[[NAN:.*]] = tp.constant dense<0x7FC00000> : tensor<f32>
// CHECK-DAG: %[[LAST:.*]] = tp.constant dense<6.000000e+00> : tensor<f32>
// CHECK: %[[S:.*]], %{{.*}} = tp.topk %arg0 {k = 7 : i64, largest = false}
// CHECK: %[[ISNAN:.*]] = tp.ne %[[S]], %[[S]]
// CHECK: %[[ANY:.*]] = tp.amax %{{.*}} {dim = array<i64: -1>, keepdim = true}
// CHECK: %[[QR:.*]] = tp.mul %arg1, %[[LAST]]
// CHECK: %[[R:.*]] = tp.where %{{.*}}, %[[LAST]], %[[QR]] : (tensor<3x1xi1>, tensor<f32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK: %[[ABOVE:.*]] = tp.where %{{.*}} : (tensor<2xi1>, tensor<i1>, tensor<2xi1>) -> tensor<2xi1>
// CHECK: %[[BAD:.*]] = tp.where %{{.*}}, %{{.*}}, %[[ABOVE]] : (tensor<2xi1>, tensor<i1>, tensor<2xi1>) -> tensor<2xi1>
// CHECK: %[[R0:.*]] = tp.where %[[BAD]], %{{.*}}, %[[R]]
// CHECK: %[[RN:.*]] = tp.fake_quantize_per_tensor_affine %[[R0]] {quant_max = 6 : i64, quant_min = 0 : i64, scale = 1.000000e+00 : f64, zero_point = 0 : i64}
// CHECK: %[[I:.*]] = tp.cast %[[RN]] : tensor<3x2xf32> to tensor<3x2xi64>
// CHECK: %[[V:.*]] = tp.gather %[[S]], %[[I]] {dim = 1 : i64}
// CHECK: %[[VN:.*]] = tp.where %[[BAD]], %[[NAN]], %[[V]]
// CHECK: tp.permute %[[VN]] {dims = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
func.func @nearest(%x: tensor<3x7xf32>, %q: tensor<2xf32>) -> tensor<2x3xf32> {
  %r = tp.quantile %x, %q {dim = 1 : i64, interpolation = "nearest"} : (tensor<3x7xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
