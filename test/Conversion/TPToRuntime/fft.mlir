// The fft ops become one tp_rt.call of tp_rt_fft_{c2c,r2c,c2r,r2r}_*: the
// transformed dimensions as a bit mask, the one-sided dimension and its
// full signal size (r2c), the direction's sign (-1 forward, +1 inverse) and
// norm's scale as an f64 (ortho: 1/sqrt(8); ifftn over dims 0 and 2 of
// 2x4x5: 1/10; irfft2 to 4x8: 1/32; hfft with norm = forward: 1/10). A real
// input of a complex transform takes r2c with a full output; an integer
// one is cast to f32 first; bf16 is an error at the op.
// RUN: tp-opt %s --convert-tp-to-runtime --split-input-file -verify-diagnostics | FileCheck %s
// RUN: tp-opt %s --convert-tp-to-runtime="onednn=0" --split-input-file -verify-diagnostics | FileCheck %s

// CHECK-DAG: func.func private @tp_rt_fft_r2c_f32(memref<*xf32>, memref<*xcomplex<f32>>, i64, i64, i64, i64, f64) -> i32
// CHECK-LABEL: func.func @rfft_ortho(
// CHECK-DAG: %[[FWD:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[LAST:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MASK:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 0.35355339059327373 : f64
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<3x5xcomplex<f32>>
// CHECK: tp_rt.call @tp_rt_fft_r2c_f32(%arg0, %[[MASK]], %[[LAST]], %[[N]], %[[FWD]], %[[SCALE]]) outs(%[[OUT]])
func.func @rfft_ortho(%x: tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>> {
  %r = tp.fft_rfft %x {norm = "ortho"} : (tensor<3x8xf32>) -> tensor<3x5xcomplex<f32>>
  return %r : tensor<3x5xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @fft_real_dim0(
// CHECK-DAG: %[[FWD:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[DIM:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[MASK:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: tp_rt.call @tp_rt_fft_r2c_f64(%arg0, %[[MASK]], %[[DIM]], %[[N]], %[[FWD]], %[[ONE]]) {{.*}} -> tensor<3x8xcomplex<f64>>
func.func @fft_real_dim0(%x: tensor<3x8xf64>) -> tensor<3x8xcomplex<f64>> {
  %r = tp.fft_fft %x {dim = 0 : i64} : (tensor<3x8xf64>) -> tensor<3x8xcomplex<f64>>
  return %r : tensor<3x8xcomplex<f64>>
}

// -----

// CHECK-LABEL: func.func @ifftn(
// CHECK-DAG: %[[INV:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MASK:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 1.000000e-01 : f64
// CHECK: tp_rt.call @tp_rt_fft_c2c_f32(%arg0, %[[MASK]], %[[INV]], %[[SCALE]])
func.func @ifftn(%x: tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x5xcomplex<f32>> {
  %r = tp.fft_ifftn %x {dim = array<i64: 0, 2>} : (tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x5xcomplex<f32>>
  return %r : tensor<2x4x5xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @irfft2(
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MASK:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 3.125000e-02 : f64
// CHECK: tp_rt.call @tp_rt_fft_c2r_f32(%arg0, %[[MASK]], %[[ONE]], %[[ONE]], %[[SCALE]]) {{.*}} -> tensor<4x8xf32>
func.func @irfft2(%x: tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32> {
  %r = tp.fft_irfft2 %x : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @hfft_int(
// CHECK-DAG: %[[FWD:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 1.000000e-01 : f64
// CHECK: %[[X:.*]] = tp.cast %arg0 : tensor<6xi64> to tensor<6xf32>
// CHECK: tp_rt.call @tp_rt_fft_r2r_f32(%[[X]], %{{.*}}, %{{.*}}, %[[FWD]], %[[SCALE]]) {{.*}} -> tensor<10xf32>
func.func @hfft_int(%x: tensor<6xi64>) -> tensor<10xf32> {
  %r = tp.fft_hfft %x {norm = "forward"} : (tensor<6xi64>) -> tensor<10xf32>
  return %r : tensor<10xf32>
}

// -----

func.func @bf16(%x: tensor<8xbf16>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'tp.fft_fft' op runs on f32, f64, complex<f32>, complex<f64> and integer inputs, got 'tensor<8xbf16>' (tensorplay's CPU FFT has no such kernel; under autocast the fft ops run in f32)}}
  %r = tp.fft_fft %x : (tensor<8xbf16>) -> tensor<8xcomplex<f32>>
  return %r : tensor<8xcomplex<f32>>
}
