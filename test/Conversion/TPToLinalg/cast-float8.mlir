// RUN: tp-opt %s --convert-tp-to-linalg --split-input-file | FileCheck %s

// tp.cast to and from the 8-bit floats: arith.truncf / extf in the
// elementwise body (tp-expand-float8 lowers them later); integers go
// through f64 (to f8) or f32 (from f8); `saturate` clamps to the largest
// finite (57344 = 5.734400e+04) before the rounding.

// CHECK-LABEL: func.func @saturating
// CHECK: linalg.generic
// CHECK: %[[MIN:.*]] = arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK: %[[MAX:.*]] = arith.maximumf %[[MIN]], %{{.*}} : f32
// CHECK: arith.truncf %[[MAX]] : f32 to f8E5M2
func.func @saturating(%x: tensor<8xf32>) -> tensor<8xf8E5M2> {
  %y = tp.cast %x {saturate} : tensor<8xf32> to tensor<8xf8E5M2>
  return %y : tensor<8xf8E5M2>
}

// -----

// CHECK-LABEL: func.func @from_int
// CHECK: %[[WIDE:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.truncf %[[WIDE]] : f64 to f8E5M2
func.func @from_int(%x: tensor<8xi32>) -> tensor<8xf8E5M2> {
  %y = tp.cast %x : tensor<8xi32> to tensor<8xf8E5M2>
  return %y : tensor<8xf8E5M2>
}

// -----

// CHECK-LABEL: func.func @to_bool
// CHECK: %[[F32:.*]] = arith.extf %{{.*}} : f8E4M3FN to f32
// CHECK: arith.cmpf une, %[[F32]]
func.func @to_bool(%x: tensor<8xf8E4M3FN>) -> tensor<8xi1> {
  %y = tp.cast %x : tensor<8xf8E4M3FN> to tensor<8xi1>
  return %y : tensor<8xi1>
}

// -----

// Between the two formats: through f32, exactly, then rounded once.
// CHECK-LABEL: func.func @e5m2_to_e4m3
// CHECK: %[[F32:.*]] = arith.extf %{{.*}} : f8E5M2 to f32
// CHECK: arith.truncf %[[F32]] : f32 to f8E4M3FN
func.func @e5m2_to_e4m3(%x: tensor<8xf8E5M2>) -> tensor<8xf8E4M3FN> {
  %y = tp.cast %x : tensor<8xf8E5M2> to tensor<8xf8E4M3FN>
  return %y : tensor<8xf8E4M3FN>
}

// -----

// From an integer, saturating: clamped in f64.
// CHECK-LABEL: func.func @saturating_from_int
// CHECK: %[[WIDE:.*]] = arith.sitofp %{{.*}} : i64 to f64
// CHECK: arith.constant 5.734400e+04 : f64
// CHECK: arith.minimumf %[[WIDE]]
// CHECK: arith.constant -5.734400e+04 : f64
func.func @saturating_from_int(%x: tensor<8xi64>) -> tensor<8xf8E5M2> {
  %y = tp.cast %x {saturate} : tensor<8xi64> to tensor<8xf8E5M2>
  return %y : tensor<8xf8E5M2>
}
