// Which explicit dtype= each op accepts, as tensorplay does: sum, prod,
// cumsum and cumprod take integral dtypes; softmax, log_softmax and softmin
// need a floating one, mean and norm a floating or complex one (the
// rejections are in invalid.mlir).
// RUN: tp-opt %s | FileCheck %s

// CHECK-LABEL: func.func @integral_accumulation(
// CHECK: tp.sum %{{.*}} {dtype = i32}
// CHECK: tp.prod %{{.*}} {dim = 1 : i64, dtype = i64}
// CHECK: tp.cumsum %{{.*}} {dim = 1 : i64, dtype = i32}
// CHECK: tp.cumprod %{{.*}} {dim = 0 : i64, dtype = i64}
func.func @integral_accumulation(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  %s = tp.sum %x {dtype = i32} : (tensor<4x8xf32>) -> tensor<i32>
  %p = tp.prod %i {dim = 1 : i64, dtype = i64} : (tensor<4x8xi32>) -> tensor<4xi64>
  %c = tp.cumsum %x {dim = 1 : i64, dtype = i32} : (tensor<4x8xf32>) -> tensor<4x8xi32>
  %d = tp.cumprod %i {dim = 0 : i64, dtype = i64} : (tensor<4x8xi32>) -> tensor<4x8xi64>
  return
}

// CHECK-LABEL: func.func @floating(
// CHECK: tp.softmax %{{.*}} {dim = 1 : i64, dtype = f32}
// CHECK: tp.log_softmax %{{.*}} {dim = 1 : i64, dtype = f64}
// CHECK: tp.softmin %{{.*}} {dim = 1 : i64, dtype = bf16}
// CHECK: tp.mean %{{.*}} {dim = array<i64: 1>, dtype = f32}
// CHECK: tp.mean %{{.*}} {dtype = complex<f32>}
// CHECK: tp.norm %{{.*}} {dtype = f64}
func.func @floating(%x: tensor<4x8xf16>, %c: tensor<4x8xcomplex<f32>>) {
  %s = tp.softmax %x {dim = 1 : i64, dtype = f32} : (tensor<4x8xf16>) -> tensor<4x8xf32>
  %l = tp.log_softmax %x {dim = 1 : i64, dtype = f64} : (tensor<4x8xf16>) -> tensor<4x8xf64>
  %m = tp.softmin %x {dim = 1 : i64, dtype = bf16} : (tensor<4x8xf16>) -> tensor<4x8xbf16>
  %a = tp.mean %x {dim = array<i64: 1>, dtype = f32} : (tensor<4x8xf16>) -> tensor<4xf32>
  %b = tp.mean %c {dtype = complex<f32>} : (tensor<4x8xcomplex<f32>>) -> tensor<complex<f32>>
  %n = tp.norm %x {dtype = f64} : (tensor<4x8xf16>) -> tensor<f64>
  return
}
