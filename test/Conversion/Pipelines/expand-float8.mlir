// RUN: tp-opt %s --tp-expand-float8 --split-input-file -verify-diagnostics | FileCheck %s

// tp-expand-float8: arith.truncf to and arith.extf from f8E4M3FN and f8E5M2
// become f32 / i32 operations and an i8 bitcast (LLVM has no 8-bit floats).
// The numbers are checked exhaustively by test/Unit/Float8CastTest.cpp; here
// the structure: no f8 conversion is left, the rounding constants are the
// format's.

// CHECK-LABEL: func.func @to_e4m3
// CHECK-NOT: arith.truncf
// E4M3FN: the exponent rebased by 127 - 7 = 120 (1006632960 = 120 << 23),
// the magic 2^14 (1182793728 = 141 << 23) for subnormals, an overflow
// clamped to the largest finite 0x7e (tensorplay saturates E4M3FN), NaN
// 0x7f.
// CHECK-DAG: arith.constant 1006632960 : i32
// CHECK-DAG: arith.constant 1182793728 : i32
// CHECK-DAG: %[[MAX:.*]] = arith.constant 126 : i32
// CHECK: arith.minui %{{.*}}, %[[MAX]] : i32
// CHECK: %[[NAN:.*]] = arith.constant 127 : i32
// CHECK: arith.select %{{.*}}, %[[NAN]], %{{.*}} : i32
// CHECK: %[[BYTE:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
func.func @to_e4m3(%x: f32) -> f8E4M3FN {
  %y = arith.truncf %x : f32 to f8E4M3FN
  return %y : f8E4M3FN
}

// -----

// E5M2 overflows to infinity (0x7c).
// CHECK-LABEL: func.func @to_e5m2
// CHECK: %[[INF:.*]] = arith.constant 124 : i32
// CHECK: arith.minui %{{.*}}, %[[INF]] : i32
func.func @to_e5m2(%x: f32) -> f8E5M2 {
  %y = arith.truncf %x : f32 to f8E5M2
  return %y : f8E5M2
}

// -----

// From f64: round-to-odd into f32 first.
// CHECK-LABEL: func.func @to_e5m2_from_f64
// CHECK: %[[NEAR:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: arith.extf %[[NEAR]] : f32 to f64
// CHECK: arith.cmpf one
// CHECK: arith.ori
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
func.func @to_e5m2_from_f64(%x: f64) -> f8E5M2 {
  %y = arith.truncf %x : f64 to f8E5M2
  return %y : f8E5M2
}

// -----

// Vectors keep their shape.
// CHECK-LABEL: func.func @vector
// CHECK: arith.bitcast %{{.*}} : vector<16xi8> to vector<16xf8E5M2>
// CHECK: arith.bitcast %{{.*}} : vector<16xf8E4M3FN> to vector<16xi8>
// CHECK-NOT: arith.extf {{.*}}f8
func.func @vector(%x: vector<16xbf16>, %c: vector<16xf8E4M3FN>) -> (vector<16xf8E5M2>, vector<16xf16>) {
  %y = arith.truncf %x : vector<16xbf16> to vector<16xf8E5M2>
  %z = arith.extf %c : vector<16xf8E4M3FN> to vector<16xf16>
  return %y, %z : vector<16xf8E5M2>, vector<16xf16>
}

// -----

// Widening: decoded into f32 bits; to f16 or bf16 the exact f32 is rounded
// (exactly) once more.
// CHECK-LABEL: func.func @from_e4m3
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK: arith.extui %[[BITS]] : i8 to i32
// CHECK: arith.uitofp
// CHECK: %[[F32:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.truncf %[[F32]] : f32 to bf16
func.func @from_e4m3(%x: f8E4M3FN) -> bf16 {
  %y = arith.extf %x : f8E4M3FN to bf16
  return %y : bf16
}

// -----

// Any other arith op on f8 values has no lowering.
func.func @add(%x: f8E5M2) -> f8E5M2 {
  // expected-error @below {{'arith.addf' op has no lowering for 'f8E5M2' (tp computes on f8 values only through tp.cast)}}
  %y = arith.addf %x, %x : f8E5M2
  return %y : f8E5M2
}

// -----

// Integer conversions (canonicalization folds tp.cast's path through f64
// into one sitofp): through f64 to f8, through f32 from f8.
// CHECK-LABEL: func.func @integers
// CHECK: %[[WIDE:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.truncf %[[WIDE]] : f64 to f32
// CHECK: arith.bitcast %{{.*}} : i8 to f8E5M2
// CHECK: %[[F32:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.fptoui %[[F32]] : f32 to i16
func.func @integers(%i: i32, %q: f8E4M3FN) -> (f8E5M2, i16) {
  %y = arith.sitofp %i : i32 to f8E5M2
  %z = arith.fptoui %q : f8E4M3FN to i16
  return %y, %z : f8E5M2, i16
}

// -----

// Vectors of f8 too.
func.func @vector_mul(%x: vector<8xf8E4M3FN>) -> vector<8xf8E4M3FN> {
  // expected-error @below {{'arith.mulf' op has no lowering for 'vector<8xf8E4M3FN>' (tp computes on f8 values only through tp.cast)}}
  %y = arith.mulf %x, %x : vector<8xf8E4M3FN>
  return %y : vector<8xf8E4M3FN>
}

// -----

// Without f8 values the pass changes nothing (no folding, no other
// rewrite of the module's ops).
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[C]] : f32
// CHECK-NEXT: return %[[S]] : f32
func.func @untouched() -> f32 {
  %c = arith.constant 1.0 : f32
  %s = arith.addf %c, %c : f32
  return %s : f32
}
