// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file -verify-diagnostics
// RUN: not tp-opt %s --convert-tp-to-runtime --split-input-file 2>&1 | FileCheck %s --check-prefix=ALL

// Every tp_rt.call the conversion leaves behind agrees with the runtime's
// declaration of its callee in CodegenCalls.def (the C prototypes come from
// the same entries): a callee the runtime does not declare, or arguments of
// another number or kind, is an internal error at the call, never a call
// that would read garbage at run time.

func.func private @tp_rt_dnnl_matmul_f32_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>) -> i32

// The epilogue code (i64) is missing.
func.func @matmul_without_epilogue(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<0xf32>) -> tensor<4x16xf32> {
  %init = tensor.empty() : tensor<4x16xf32>
  // expected-error @below {{internal error: @tp_rt_dnnl_matmul_f32_f32 takes (memref, memref, memref, memref, i64) in CodegenCalls.def, the call passes (memref, memref, memref, memref)}}
  %c = tp_rt.call @tp_rt_dnnl_matmul_f32_f32(%a, %b, %bias) outs(%init) {output_positions = array<i64: 3>} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<0xf32>), (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %c : tensor<4x16xf32>
}

// -----

func.func private @tp_rt_fft_c2c_f32(memref<*xf32>, memref<*xf32>, i64, i64, i64) -> i32

// The scale is an f64, not an i64.
func.func @fft_with_integer_scale(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %mask = arith.constant 1 : i64
  %sign = arith.constant -1 : i64
  %scale = arith.constant 1 : i64
  %init = tensor.empty() : tensor<8x2xf32>
  // expected-error @below {{internal error: @tp_rt_fft_c2c_f32 takes (memref, memref, i64, i64, f64) in CodegenCalls.def, the call passes (memref, memref, i64, i64, i64)}}
  %y = tp_rt.call @tp_rt_fft_c2c_f32(%x, %mask, %sign, %scale) outs(%init) {output_positions = array<i64: 1>} : (tensor<8x2xf32>, i64, i64, i64), (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

// -----

func.func private @tp_rt_dnnl_matmul_f16_f16(memref<*xf16>, memref<*xf16>, memref<*xf16>, memref<*xf16>, i64) -> i32

// oneDNN products take no f16 in this runtime.
func.func @undeclared(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %bias: tensor<0xf16>) -> tensor<4x16xf16> {
  %code = arith.constant 0 : i64
  %init = tensor.empty() : tensor<4x16xf16>
  // expected-error @below {{internal error: the runtime declares no @tp_rt_dnnl_matmul_f16_f16 (CodegenCalls.def)}}
  %c = tp_rt.call @tp_rt_dnnl_matmul_f16_f16(%a, %b, %bias, %code) outs(%init) {output_positions = array<i64: 3>} : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<0xf16>, i64), (tensor<4x16xf16>) -> tensor<4x16xf16>
  return %c : tensor<4x16xf16>
}

// -----

func.func private @tp_rt_lapack_lstsq_f64(memref<*xf64>, memref<*xf64>, memref<*xf64>, memref<*xf64>, memref<*xi64>, memref<*xf64>, i64, f64) -> i32

// A call as declared passes.
// ALL-LABEL: func.func @declared
// ALL: tp_rt.call @tp_rt_lapack_lstsq_f64
func.func @declared(%a: tensor<3x3xf64>, %b: tensor<3x1xf64>) -> tensor<3x1xf64> {
  %driver = arith.constant 0 : i64
  %rcond = arith.constant 0.0 : f64
  %x = tensor.empty() : tensor<3x1xf64>
  %res = tensor.empty() : tensor<0xf64>
  %rank = tensor.empty() : tensor<0xi64>
  %sv = tensor.empty() : tensor<0xf64>
  %r:4 = tp_rt.call @tp_rt_lapack_lstsq_f64(%a, %b, %driver, %rcond) outs(%x, %res, %rank, %sv) {output_positions = array<i64: 2, 3, 4, 5>} : (tensor<3x3xf64>, tensor<3x1xf64>, i64, f64), (tensor<3x1xf64>, tensor<0xf64>, tensor<0xi64>, tensor<0xf64>) -> tensor<3x1xf64>, tensor<0xf64>, tensor<0xi64>, tensor<0xf64>
  return %r#0 : tensor<3x1xf64>
}
