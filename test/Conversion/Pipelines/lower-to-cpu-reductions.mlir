// Full reductions of broadcast products through the whole pipeline: they
// compile (no invalid vector.contract) and stay vectorized, one product
// row and one horizontal add per iteration; long ones (at least 4096 terms)
// accumulate in f64.
// RUN: tp-opt %s --tp-lower-to-cpu | FileCheck %s
// RUN: tp-opt %s --tp-lower-to-cpu="parallel=0" | FileCheck %s

// CHECK-LABEL: llvm.func @sum_rows
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : vector<1024xf32>
// CHECK: llvm.fpext %{{.*}} : vector<1024xf32> to vector<1024xf64>
// CHECK: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) {{.*}} : (f64, vector<1024xf64>) -> f64
func.func @sum_rows(%x: tensor<256x1024xf32>, %w: tensor<1024xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<256x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  %r = tp.sum %m : (tensor<256x1024xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// CHECK-LABEL: llvm.func @mean_3d
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : vector<512xf32>
// CHECK: llvm.fpext %{{.*}} : vector<512xf32> to vector<512xf64>
// CHECK: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) {{.*}} : (f64, vector<512xf64>) -> f64
func.func @mean_3d(%x: tensor<8x128x512xf32>, %w: tensor<512xf32>) -> tensor<f32> {
  %m = tp.mul %x, %w : (tensor<8x128x512xf32>, tensor<512xf32>) -> tensor<8x128x512xf32>
  %r = tp.mean %m : (tensor<8x128x512xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// binary_cross_entropy with a weight: the weighted loss is summed into one
// scalar.
// CHECK-LABEL: llvm.func @bce_weight_mean
// CHECK: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) {{.*}} : (f32, vector<7xf32>) -> f32
func.func @bce_weight_mean(%p: tensor<4x7xf32>, %t: tensor<4x7xf32>, %w: tensor<7xf32>) -> tensor<f32> {
  %r = tp.binary_cross_entropy %p, %t weight(%w) : (tensor<4x7xf32>, tensor<4x7xf32>, tensor<7xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
