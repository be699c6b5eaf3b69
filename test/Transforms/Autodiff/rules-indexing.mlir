// tp-autodiff's rules of gather, scatter_add, index_copy and topk, in IR:
// gather's and topk's gradients are scatter-added into zeros at the
// (forward's) indices, scatter_add's src gets the gather of its gradient
// (padded with tp.slice_backward where src is larger than the index),
// index_copy's self its gradient without the copied rows and its source
// the rows at the index. Under cuda:fp16 the gather of the f16 product
// keeps f16 and its gradient's scatter runs in f16; scatter_add (on the
// CUDA promote list) runs in f32, and so does its backward.
// RUN: tp-opt %s --tp-autodiff | FileCheck %s
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-autodiff | FileCheck %s --check-prefix=FP16

// CHECK-LABEL: func.func @indexed_loss_grad(
// CHECK: %[[M:.*]] = tp.mm %arg0, %arg3
// CHECK: %[[IX:.*]] = tp.constant dense<{{\[\[}}0, 5, 2]
// CHECK: %[[SI:.*]] = tp.constant dense<{{\[\[}}0, 3, 3, 1]
// CHECK: %[[CI:.*]] = tp.constant dense<[2, 0]>
// CHECK: %{{.*}}, %[[I:.*]] = tp.topk %[[IC:.*]] {k = 3 : i64}
// CHECK: %[[Z:.*]] = tp.constant dense<0.000000e+00> : tensor<4x6xf32>
// CHECK: %[[GT:.*]] = tp.scatter_add %[[Z]], %[[I]], %{{.*}} {dim = 1 : i64} : (tensor<4x6xf32>, tensor<4x3xi64>, tensor<4x3xf32>) -> tensor<4x6xf32>
// CHECK: %[[Z2:.*]] = tp.constant dense<0.000000e+00> : tensor<2x6xf32>
// CHECK: %[[GS:.*]] = tp.index_copy %[[GT]], %[[CI]], %[[Z2]] {dim = 0 : i64}
// CHECK: %[[R:.*]] = tp.reshape %[[CI]] {shape = array<i64: 2, 1>}
// CHECK: %[[E:.*]] = tp.expand %[[R]] {size = array<i64: 2, 6>}
// CHECK: %[[GC:.*]] = tp.gather %[[GT]], %[[E]] {dim = 0 : i64} : (tensor<4x6xf32>, tensor<2x6xi64>) -> tensor<2x6xf32>
// CHECK: %[[GSRC:.*]] = tp.gather %[[GS]], %[[SI]] {dim = 0 : i64} : (tensor<4x6xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
// CHECK: %[[PAD:.*]] = tp.slice_backward %[[GSRC]] {dim = 1 : i64, end = 4 : i64, input_sizes = array<i64: 3, 5>, start = 0 : i64}
// CHECK: %[[Z3:.*]] = tp.constant dense<0.000000e+00> : tensor<4x6xf32>
// CHECK: %[[GG:.*]] = tp.scatter_add %[[Z3]], %[[IX]], %{{.*}} {dim = 1 : i64}
// CHECK: %[[GM:.*]] = tp.add %[[GS]], %[[GG]]
// CHECK: return %{{.*}}, %{{.*}}, %[[PAD]], %[[GC]], %{{.*}} :

// FP16-LABEL: func.func @indexed_loss_grad(
// FP16: tp.gather %{{.*}} {dim = 1 : i64} : (tensor<4x6xf16>, tensor<4x3xi64>) -> tensor<4x3xf16>
// FP16: tp.scatter_add %{{.*}} {dim = 0 : i64} : (tensor<4x6xf32>, tensor<3x4xi64>, tensor<3x5xf32>) -> tensor<4x6xf32>
// FP16: tp.topk %{{.*}} : (tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
// FP16: tp.scatter_add %{{.*}} {dim = 1 : i64} : (tensor<4x6xf32>, tensor<4x3xi64>, tensor<4x3xf32>) -> tensor<4x6xf32>
// FP16: tp.gather %{{.*}} {dim = 0 : i64} : (tensor<4x6xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
// FP16: tp.scatter_add %{{.*}} {dim = 1 : i64} : (tensor<4x6xf16>, tensor<4x3xi64>, tensor<4x3xf16>) -> tensor<4x6xf16>
// FP16: tp.cast %{{.*}} : tensor<4x6xf32> to tensor<4x6xf16>
// FP16: tp.mm %{{.*}} : (tensor<4x6xf16>, tensor<6x6xf16>) -> tensor<4x6xf16>
func.func @indexed_loss(%x: tensor<4x6xf32>, %s: tensor<3x5xf32>, %c: tensor<2x6xf32>, %w: tensor<6x6xf32>) -> tensor<f32> {
  %m = tp.mm %x, %w : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
  %ix = tp.constant dense<[[0, 5, 2], [1, 1, 4], [3, 0, 0], [5, 2, 1]]> : tensor<4x3xi64>
  %g = tp.gather %m, %ix {dim = 1 : i64} : (tensor<4x6xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  %si = tp.constant dense<[[0, 3, 3, 1], [2, 0, 3, 3], [1, 1, 0, 2]]> : tensor<3x4xi64>
  %sa = tp.scatter_add %m, %si, %s {dim = 0 : i64} : (tensor<4x6xf32>, tensor<3x4xi64>, tensor<3x5xf32>) -> tensor<4x6xf32>
  %ci = tp.constant dense<[2, 0]> : tensor<2xi64>
  %ic = tp.index_copy %sa, %ci, %c {dim = 0 : i64} : (tensor<4x6xf32>, tensor<2xi64>, tensor<2x6xf32>) -> tensor<4x6xf32>
  %v, %i = tp.topk %ic {k = 3 : i64} : (tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  %a = tp.sum %g : (tensor<4x3xf32>) -> tensor<f32>
  %b = tp.sum %v : (tensor<4x3xf32>) -> tensor<f32>
  %t = tp.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %t : tensor<f32>
}
