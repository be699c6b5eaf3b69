// tensorplay's CPU FFT has no half-precision kernels: a bf16 transform is
// an error at the op; under cpu:bf16 autocast (the fp32 list) it runs in
// f32 and gives rfft([1, 2, 3, 4]) = [10, -2 + 2i, -2].
// RUN: not tp-run %S/Inputs/fft-bf16.mlir 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: tp-run %S/Inputs/fft-bf16.mlir --autocast=cpu:bf16 --print | FileCheck %s --check-prefix=AUTOCAST

// BF16: fft-bf16.mlir:4:8: error: 'tp.fft_rfft' op runs on f32, f64, complex<f32>, complex<f64> and integer inputs, got 'tensor<4xbf16>' (tensorplay's CPU FFT has no such kernel; under autocast the fft ops run in f32)
// AUTOCAST: @rfft_bf16 result #0: [(10+0j), (-2+2j), (-2+0j)]
