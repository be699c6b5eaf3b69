// Ops that are not eligible are left exactly as they were.
// RUN: tp-opt --autocast=cuda:fp16 %s | FileCheck %s

// An f64 operand: no cast, the op keeps its types.
// CHECK-LABEL: func.func @f64_operand
// CHECK-NOT: tp.cast
// CHECK: tp.mm %arg0, %arg1 : (tensor<4x8xf64>, tensor<8x16xf64>) -> tensor<4x16xf64>
func.func @f64_operand(%a: tensor<4x8xf64>, %b: tensor<8x16xf64>) -> tensor<4x16xf64> {
  %r = tp.mm %a, %b : (tensor<4x8xf64>, tensor<8x16xf64>) -> tensor<4x16xf64>
  return %r : tensor<4x16xf64>
}

// An f64 operand among f32 ones (fp32 list): still ineligible.
// CHECK-LABEL: func.func @f64_mixed
// CHECK-NOT: tp.cast
// CHECK: tp.add
// CHECK: tp.pow %{{.*}}, %arg1 : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf64>
func.func @f64_mixed(%a: tensor<4xf32>, %e: tensor<4xf64>) -> tensor<4xf64> {
  %b = tp.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = tp.pow %b, %e : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// No floating operand.
// CHECK-LABEL: func.func @integer_matmul
// CHECK-NOT: tp.cast
// CHECK: tp.mm %arg0, %arg1 : (tensor<4x8xi32>, tensor<8x16xi32>) -> tensor<4x16xi32>
func.func @integer_matmul(%a: tensor<4x8xi32>, %b: tensor<8x16xi32>) -> tensor<4x16xi32> {
  %r = tp.mm %a, %b : (tensor<4x8xi32>, tensor<8x16xi32>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// In-place and out= forms.
// CHECK-LABEL: func.func @inplace_and_out
// CHECK-NOT: tp.cast
// CHECK: tp.addmm %arg0, %arg1, %arg2 {inplace} : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK: tp.mm %arg1, %arg2 out(%arg0) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
func.func @inplace_and_out(%c: tensor<4x16xf32>, %a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %r = tp.addmm %c, %a, %b {inplace} : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %s = tp.mm %a, %b out(%c) : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r, %s : tensor<4x16xf32>, tensor<4x16xf32>
}

// An explicit dtype: the result follows it, nothing is cast or set.
// CHECK-LABEL: func.func @explicit_dtype
// CHECK-NOT: tp.cast
// CHECK: tp.softmax %arg0 {dim = 1 : i64, dtype = f16} : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK: tp.sum %arg0 {dtype = f64} : (tensor<4x8xf32>) -> tensor<f64>
func.func @explicit_dtype(%x: tensor<4x8xf32>) -> (tensor<4x8xf16>, tensor<f64>) {
  %s = tp.softmax %x {dim = 1 : i64, dtype = f16} : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %t = tp.sum %x {dtype = f64} : (tensor<4x8xf32>) -> tensor<f64>
  return %s, %t : tensor<4x8xf16>, tensor<f64>
}

// fp32 set-dtype ops with f32 input need nothing; with f16 input they get
// dtype = f32 (no cast).
// CHECK-LABEL: func.func @set_dtype
// CHECK: %[[M:.*]] = tp.mm
// CHECK-NEXT: tp.sum %[[M]] {dtype = f32} : (tensor<4x4xf16>) -> tensor<f32>
// CHECK-NEXT: tp.softmax %arg0 {dim = 0 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @set_dtype(%x: tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>) {
  %m = tp.mm %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = tp.sum %m : (tensor<4x4xf32>) -> tensor<f32>
  %p = tp.softmax %x {dim = 0 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s, %p : tensor<f32>, tensor<4x4xf32>
}
