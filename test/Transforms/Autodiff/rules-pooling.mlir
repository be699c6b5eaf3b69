// tp-autodiff's rules of the pools, in IR: aten's backward ops with the
// forward's attributes; max_pool (no indices) gets them from a
// max_pool_with_indices of its input. Under cpu:bf16 the unlisted 2-D pools
// and their backward ops run in bf16 (the conv's dtype), the fp32-listed
// max_pool3d and its backward in f32.
// RUN: tp-opt %s --tp-autodiff | FileCheck %s
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-autodiff | FileCheck %s --check-prefix=BF16

// CHECK-LABEL: func.func @pools_loss_grad(
// CHECK: %[[C:.*]] = tp.conv2d
// CHECK: %[[M:.*]] = tp.max_pool2d %[[C]] {kernel_size = array<i64: 2>}
// CHECK: %[[A:.*]] = tp.avg_pool2d %[[M]]
// CHECK: %{{.*}}, %[[I3:.*]] = tp.max_pool3d_with_indices %arg2 {kernel_size = array<i64: 2>}
// CHECK: %[[D3:.*]] = tp.max_pool3d_with_indices_backward %{{.*}}, %arg2, %[[I3]] {kernel_size = array<i64: 2>} : (tensor<1x1x2x2x2xf32>, tensor<1x1x4x4x4xf32>, tensor<1x1x2x2x2xi64>) -> tensor<1x1x4x4x4xf32>
// CHECK: %[[GA:.*]] = tp.adaptive_avg_pool2d_backward %{{.*}}, %[[A]] : (tensor<1x2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[GM:.*]] = tp.avg_pool2d_backward %[[GA]], %[[M]] {count_include_pad = false, kernel_size = array<i64: 2>, padding = array<i64: 1>, stride = array<i64: 1>}
// CHECK: %{{.*}}, %[[I2:.*]] = tp.max_pool2d_with_indices %[[C]] {kernel_size = array<i64: 2>}
// CHECK: %[[GC:.*]] = tp.max_pool2d_with_indices_backward %[[GM]], %[[C]], %[[I2]] {kernel_size = array<i64: 2>}
// CHECK: tp.convolution_backward %[[GC]]
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %[[D3]]

// BF16-LABEL: func.func @pools_loss_grad(
// BF16: tp.max_pool3d_with_indices_backward {{.*}} : (tensor<1x1x2x2x2xf32>, tensor<1x1x4x4x4xf32>, tensor<1x1x2x2x2xi64>) -> tensor<1x1x4x4x4xf32>
// BF16: tp.adaptive_avg_pool2d_backward {{.*}} : (tensor<1x2x1x1xbf16>, tensor<1x2x4x4xbf16>) -> tensor<1x2x4x4xbf16>
// BF16: tp.avg_pool2d_backward {{.*}} : (tensor<1x2x4x4xbf16>, tensor<1x2x3x3xbf16>) -> tensor<1x2x3x3xbf16>
// BF16: tp.max_pool2d_with_indices {{.*}} : (tensor<1x2x6x6xbf16>) -> (tensor<1x2x3x3xbf16>, tensor<1x2x3x3xi64>)
// BF16: tp.max_pool2d_with_indices_backward {{.*}} -> tensor<1x2x6x6xbf16>
// BF16: tp.convolution_backward {{.*}} : (tensor<1x2x6x6xbf16>,
func.func @pools_loss(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x1x1xf32>, %v: tensor<1x1x4x4x4xf32>) -> tensor<f32> {
  %c = tp.conv2d %x, %w : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %m = tp.max_pool2d %c {kernel_size = array<i64: 2>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  %a = tp.avg_pool2d %m {kernel_size = array<i64: 2>, stride = array<i64: 1>, padding = array<i64: 1>, count_include_pad = false} : (tensor<1x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %g = tp.adaptive_avg_pool2d %a {output_size = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  %l = tp.sum %g : (tensor<1x2x1x1xf32>) -> tensor<f32>
  %p = tp.max_pool3d %v {kernel_size = array<i64: 2>} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x2x2x2xf32>
  %s = tp.sum %p : (tensor<1x1x2x2x2xf32>) -> tensor<f32>
  %t = tp.add %l, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %t : tensor<f32>
}

// The indices of max_pool2d_with_indices and adaptive_max_pool3d feed
// their backward ops directly.
// CHECK-LABEL: func.func @indexed_loss_grad(
// CHECK: %{{.*}}, %[[I:.*]] = tp.max_pool2d_with_indices %arg0
// CHECK: %{{.*}}, %[[J:.*]] = tp.adaptive_max_pool3d %arg1
// CHECK-NOT: tp.max_pool2d_with_indices %arg0
// CHECK: tp.adaptive_max_pool3d_backward %{{.*}}, %arg1, %[[J]] :
// CHECK: tp.max_pool2d_with_indices_backward %{{.*}}, %arg0, %[[I]] {ceil_mode = true, kernel_size = array<i64: 3>, stride = array<i64: 2>}
func.func @indexed_loss(%x: tensor<1x2x6x6xf32>, %v: tensor<1x1x4x4x4xf32>) -> tensor<f32> {
  %m, %i = tp.max_pool2d_with_indices %x {kernel_size = array<i64: 3>, stride = array<i64: 2>, ceil_mode = true} : (tensor<1x2x6x6xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  %p, %j = tp.adaptive_max_pool3d %v {output_size = array<i64: 2, 3, 2>} : (tensor<1x1x4x4x4xf32>) -> (tensor<1x1x2x3x2xf32>, tensor<1x1x2x3x2xi64>)
  %l = tp.sum %m : (tensor<1x2x3x3xf32>) -> tensor<f32>
  %s = tp.sum %p : (tensor<1x1x2x3x2xf32>) -> tensor<f32>
  %t = tp.add %l, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %t : tensor<f32>
}
