// RUN: tp-opt %s --tp-expand-bf16 --canonicalize --split-input-file | FileCheck %s
// RUN: tp-opt %s --tp-lower-to-cpu --split-input-file | FileCheck %s --check-prefix=LLVM

// tp-expand-bf16: arith.truncf from f32 / f64 to bf16 becomes integer
// operations with the host's NaN rule (FloatRounding.h): the numbers are
// checked on every f32 bit pattern by test/Unit/NarrowFloatCastTest.cpp;
// here the structure.

// Rounding: bits + 0x7fff + the kept half's lowest bit, shifted; a NaN
// (magnitude above 0x7f800000) gives (bits | 0x400000) >> 16, its sign and
// payload kept, not arith-expand's constant 0x7fc0 (32704).
// CHECK-LABEL: func.func @from_f32
// CHECK-NOT: arith.truncf
// CHECK-NOT: 32704
// CHECK-DAG: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK-DAG: %[[QUIET:.*]] = arith.constant 4194304 : i32
// CHECK-DAG: %[[INF:.*]] = arith.constant 2139095040 : i32
// CHECK-DAG: arith.constant 32767 : i32
// CHECK-DAG: %[[ABS:.*]] = arith.constant 2147483647 : i32
// CHECK-DAG: %[[MAG:.*]] = arith.andi %[[BITS]], %[[ABS]] : i32
// CHECK-DAG: %[[ISNAN:.*]] = arith.cmpi ugt, %[[MAG]], %[[INF]] : i32
// CHECK-DAG: %[[Q:.*]] = arith.ori %[[BITS]], %[[QUIET]] : i32
// CHECK-DAG: %[[QS:.*]] = arith.shrui %[[Q]], %{{.*}} : i32
// CHECK: %[[PICK:.*]] = arith.select %[[ISNAN]], %[[QS]], %{{.*}} : i32
// CHECK: %[[HALF:.*]] = arith.trunci %[[PICK]] : i32 to i16
// CHECK: arith.bitcast %[[HALF]] : i16 to bf16
// The whole CPU pipeline: no bf16 conversion reaches LLVM (whose x86
// backend would round with its own NaN rule, or call __truncsfbf2).
// LLVM-LABEL: llvm.func @from_f32
// LLVM-NOT: llvm.fptrunc
// LLVM: %[[HALF:.*]] = llvm.trunc %{{.*}} : i32 to i16
// LLVM: llvm.bitcast %[[HALF]] : i16 to bf16
func.func @from_f32(%x: f32) -> bf16 {
  %y = arith.truncf %x : f32 to bf16
  return %y : bf16
}

// -----

// f64: rounded to f32 by round-to-odd (toward zero, last bit set when
// inexact), then as f32; vectors keep their shape.
// CHECK-LABEL: func.func @from_f64_vector
// CHECK: %[[NEAR:.*]] = arith.truncf %{{.*}} : vector<8xf64> to vector<8xf32>
// CHECK: arith.cmpf one
// CHECK: arith.ori %{{.*}} : vector<8xi32>
// CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi16>
// CHECK: arith.bitcast %{{.*}} : vector<8xi16> to vector<8xbf16>
// CHECK-NOT: to vector<8xbf16>
// LLVM-LABEL: llvm.func @from_f64_vector
// LLVM: llvm.fptrunc %{{.*}} : vector<8xf64> to vector<8xf32>
// LLVM-NOT: llvm.fptrunc
// LLVM: llvm.bitcast %{{.*}} : vector<8xi16> to vector<8xbf16>
func.func @from_f64_vector(%x: vector<8xf64>) -> vector<8xbf16> {
  %y = arith.truncf %x : vector<8xf64> to vector<8xbf16>
  return %y : vector<8xbf16>
}

// -----

// Left alone: other targets and the widening (arith-expand's shift).
// CHECK-LABEL: func.func @untouched
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : bf16 to f32
func.func @untouched(%x: f32, %h: bf16) -> (f16, f32) {
  %a = arith.truncf %x : f32 to f16
  %c = arith.extf %h : bf16 to f32
  return %a, %c : f16, f32
}
