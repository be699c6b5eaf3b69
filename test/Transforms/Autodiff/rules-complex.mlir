// tp-autodiff's rules of the complex and FFT ops, in IR. A complex value's
// gradient is dL/dRe + i dL/dIm (PyTorch's convention). Each FFT's adjoint
// is the opposite transform with the norm swapped (backward <-> forward),
// over the same dims with the forward's signal sizes: irfft's is rfftn with
// the mirrored bins doubled, rfft's the ifftn of its gradient zero-extended
// to the full signal (in the real domain: view_as_real, cat, view_as_complex),
// a trimmed or padded input fitted back by slice or zeros; a real input gets
// the real part. Products conjugate the other factor (view_as_real times
// [1, -1]); polar's angle gets m Im(G e^{-ia}); a holomorphic function
// G conj(f'(z)), abs G z / |z| (0 at 0). Under cpu:bf16 the FFTs run
// in f32 (the fp32 list), so do their adjoints, and the gradient reaching the
// bf16 product is cast down to it.
// RUN: tp-opt %s --tp-autodiff --canonicalize --cse | FileCheck %s
// RUN: tp-opt %s --autocast=cpu:bf16 --tp-autodiff --canonicalize --cse | FileCheck %s --check-prefix=BF16

// CHECK-LABEL: func.func @rfft_irfft_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<3x8xf32>, %[[W:[^:]*]]: tensor<8x8xf32>)
// CHECK-DAG: %[[TWICE:.*]] = tp.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK: %[[R:.*]] = tp.fft_rfftn %{{.*}} {dim = array<i64: 1>, norm = "backward", s = array<i64: 7>} : (tensor<3x7xf32>) -> tensor<3x4xcomplex<f32>>
// CHECK: %[[RD:.*]] = tp.mul %[[R]], %[[TWICE]] : (tensor<3x4xcomplex<f32>>, tensor<4xf32>) -> tensor<3x4xcomplex<f32>>
// CHECK: %[[P:.*]] = tp.view_as_real %[[RD]]
// CHECK: tp.cat [%[[P]], %{{.*}}] {dim = 1 : i64} : (tensor<3x4x2xf32>, tensor<3x2x2xf32>) -> tensor<3x6x2xf32>
// CHECK: tp.cat [%{{.*}}, %{{.*}}] {dim = 1 : i64} : (tensor<3x6x2xf32>, tensor<3x4x2xf32>) -> tensor<3x10x2xf32>
// CHECK: %[[E:.*]] = tp.view_as_complex %{{.*}} : (tensor<3x10x2xf32>) -> tensor<3x10xcomplex<f32>>
// CHECK: %[[I:.*]] = tp.fft_ifftn %[[E]] {dim = array<i64: 1>, norm = "forward", s = array<i64: 10>}
// CHECK: %[[T:.*]] = tp.slice %[[I]] {dim = 1 : i64, end = 8 : i64, start = 0 : i64} : (tensor<3x10xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
// CHECK: %[[TP:.*]] = tp.view_as_real %[[T]]
// CHECK: %[[RE:.*]] = tp.slice %[[TP]] {dim = 2 : i64, end = 1 : i64, start = 0 : i64}
// CHECK: %[[G:.*]] = tp.reshape %[[RE]] {shape = array<i64: 3, 8>}
// CHECK: %[[WT:.*]] = tp.transpose %[[W]]
// CHECK: %[[GX:.*]] = tp.mm %[[G]], %[[WT]]
// CHECK: return %{{.*}}, %[[GX]], %{{.*}} : tensor<f32>, tensor<3x8xf32>, tensor<8x8xf32>

// BF16-LABEL: func.func @rfft_irfft_grad(
// BF16: %[[H:.*]] = tp.mm %{{.*}}, %{{.*}} : (tensor<3x8xbf16>, tensor<8x8xbf16>) -> tensor<3x8xbf16>
// BF16: %[[HF:.*]] = tp.cast %[[H]] : tensor<3x8xbf16> to tensor<3x8xf32>
// BF16: tp.fft_rfft %[[HF]]
// BF16: tp.fft_rfftn %{{.*}} : (tensor<3x7xf32>) -> tensor<3x4xcomplex<f32>>
// BF16: tp.fft_ifftn %{{.*}} : (tensor<3x10xcomplex<f32>>) -> tensor<3x10xcomplex<f32>>
// BF16: %[[GF:.*]] = tp.reshape %{{.*}} : (tensor<3x8x1xf32>) -> tensor<3x8xf32>
// BF16: %[[GB:.*]] = tp.cast %[[GF]] : tensor<3x8xf32> to tensor<3x8xbf16>
// BF16: tp.mm %[[GB]], %{{.*}} : (tensor<3x8xbf16>, tensor<8x8xbf16>) -> tensor<3x8xbf16>
func.func @rfft_irfft(%x: tensor<3x8xf32>, %w: tensor<8x8xf32>) -> tensor<f32> {
  %h = tp.mm %x, %w : (tensor<3x8xf32>, tensor<8x8xf32>) -> tensor<3x8xf32>
  %c = tp.fft_rfft %h {n = 10 : i64} : (tensor<3x8xf32>) -> tensor<3x6xcomplex<f32>>
  %y = tp.fft_irfft %c {n = 7 : i64, norm = "forward"} : (tensor<3x6xcomplex<f32>>) -> tensor<3x7xf32>
  %l = tp.sum %y : (tensor<3x7xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @fft2_grad(
// CHECK-SAME: -> (tensor<f32>, tensor<3x4xcomplex<f32>>)
// CHECK: tp.fft_ifftn %{{.*}} {dim = array<i64: 0, 1>, norm = "ortho", s = array<i64: 4, 3>} : (tensor<4x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
// CHECK: tp.slice %{{.*}} {end = 3 : i64, start = 0 : i64} : (tensor<4x3xcomplex<f32>>) -> tensor<3x3xcomplex<f32>>
// CHECK: tp.cat [%{{.*}}, %{{.*}}] {dim = 1 : i64} : (tensor<3x3x2xf32>, tensor<3x1x2xf32>) -> tensor<3x4x2xf32>
func.func @fft2(%z: tensor<3x4xcomplex<f32>>) -> tensor<f32> {
  %f = tp.fft_fft2 %z {s = array<i64: 4, 3>, norm = "ortho"} : (tensor<3x4xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  %r = tp.view_as_real %f : (tensor<4x3xcomplex<f32>>) -> tensor<4x3x2xf32>
  %l = tp.sum %r : (tensor<4x3x2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @hfft_grad(
// CHECK-DAG: %[[TWICE:.*]] = tp.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 1.000000e+00]> : tensor<5xf64>
// CHECK: %[[I:.*]] = tp.fft_ihfft %{{.*}} {dim = 0 : i64, n = 8 : i64, norm = "forward"} : (tensor<8xf64>) -> tensor<5xcomplex<f64>>
// CHECK: tp.mul %[[I]], %[[TWICE]]
func.func @hfft(%z: tensor<5xcomplex<f64>>) -> tensor<f64> {
  %y = tp.fft_hfft %z {n = 8 : i64} : (tensor<5xcomplex<f64>>) -> tensor<8xf64>
  %l = tp.sum %y : (tensor<8xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// CHECK-LABEL: func.func @products_grad(
// CHECK-SAME: %[[A:[^:]*]]: tensor<3x2xf64>, %[[B:[^:]*]]: tensor<3x2xf64>)
// CHECK-DAG: %[[CONJ:.*]] = tp.constant dense<[1.000000e+00, -1.000000e+00]> : tensor<2xf64>
// CHECK-DAG: %[[Z:.*]] = tp.view_as_complex %[[A]]
// CHECK-DAG: %[[W:.*]] = tp.view_as_complex %[[B]]
// CHECK: %[[WP:.*]] = tp.view_as_real %[[W]]
// CHECK: %[[WC:.*]] = tp.mul %[[WP]], %[[CONJ]]
// CHECK: %[[WB:.*]] = tp.view_as_complex %[[WC]]
// CHECK: %[[GZ:.*]] = tp.mul %{{.*}}, %[[WB]] : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
// CHECK: %[[ZP:.*]] = tp.view_as_real %[[Z]]
// CHECK: tp.mul %[[ZP]], %[[CONJ]]
// CHECK: tp.view_as_real %[[GZ]] : (tensor<3xcomplex<f64>>) -> tensor<3x2xf64>
func.func @products(%a: tensor<3x2xf64>, %b: tensor<3x2xf64>) -> tensor<f64> {
  %z = tp.view_as_complex %a : (tensor<3x2xf64>) -> tensor<3xcomplex<f64>>
  %w = tp.view_as_complex %b : (tensor<3x2xf64>) -> tensor<3xcomplex<f64>>
  %p = tp.mul %z, %w : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
  %r = tp.view_as_real %p : (tensor<3xcomplex<f64>>) -> tensor<3x2xf64>
  %l = tp.sum %r : (tensor<3x2xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// CHECK-LABEL: func.func @polar_grad(
// CHECK-SAME: %[[M:[^:]*]]: tensor<3xf64>, %[[T:[^:]*]]: tensor<3xf64>)
// CHECK-DAG: %[[ONES:.*]] = tp.constant dense<1.000000e+00> : tensor<3xf64>
// CHECK: %[[U:.*]] = tp.polar %[[ONES]], %[[T]]
// CHECK: %[[Q:.*]] = tp.mul %{{.*}}, %{{.*}} : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
// CHECK: %[[QP:.*]] = tp.view_as_real %[[Q]]
// CHECK: %[[RE:.*]] = tp.slice %[[QP]] {dim = 1 : i64, end = 1 : i64, start = 0 : i64}
// CHECK: %[[GM:.*]] = tp.reshape %[[RE]]
// CHECK: %[[IM:.*]] = tp.slice %[[QP]] {dim = 1 : i64, end = 2 : i64, start = 1 : i64}
// CHECK: %[[IMR:.*]] = tp.reshape %[[IM]]
// CHECK: %[[GT:.*]] = tp.mul %[[M]], %[[IMR]]
// CHECK: return %{{.*}}, %[[GM]], %[[GT]]
func.func @polar(%m: tensor<3xf64>, %t: tensor<3xf64>) -> tensor<f64> {
  %z = tp.polar %m, %t : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xcomplex<f64>>
  %r = tp.view_as_real %z : (tensor<3xcomplex<f64>>) -> tensor<3x2xf64>
  %l = tp.sum %r : (tensor<3x2xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A magnitude spectrogram: abs gives G z / |z| (|z| = 0 replaced by 1),
// stft's decomposition an rfft whose adjoint reaches the signal.
// CHECK-LABEL: func.func @spectrogram_grad(
// CHECK-DAG: %[[ONE:.*]] = tp.constant dense<1.000000e+00> : tensor<f64>
// CHECK-DAG: %[[ZERO:.*]] = tp.constant dense<0.000000e+00> : tensor<f64>
// CHECK: tp.fft_rfft %{{.*}} : (tensor<1x13x16xf64>) -> tensor<1x13x9xcomplex<f64>>
// CHECK: %[[Z:.*]] = tp.reshape
// CHECK: %[[A:.*]] = tp.abs %[[Z]] : (tensor<9x13xcomplex<f64>>) -> tensor<9x13xf64>
// CHECK: %[[IS0:.*]] = tp.eq %[[A]], %[[ZERO]]
// CHECK: %[[SAFE:.*]] = tp.where %[[IS0]], %[[ONE]], %[[A]]
// CHECK: %[[SGN:.*]] = tp.div %[[Z]], %[[SAFE]] : (tensor<9x13xcomplex<f64>>, tensor<9x13xf64>) -> tensor<9x13xcomplex<f64>>
// CHECK: tp.mul %{{.*}}, %[[SGN]] : (tensor<9x13xf64>, tensor<9x13xcomplex<f64>>) -> tensor<9x13xcomplex<f64>>
// CHECK: tp.fft_ifftn %{{.*}} {dim = array<i64: 2>, norm = "forward", s = array<i64: 16>} : (tensor<1x13x16xcomplex<f64>>) -> tensor<1x13x16xcomplex<f64>>
// CHECK: return %{{.*}}, %{{.*}} : tensor<f64>, tensor<64xf64>
func.func @spectrogram(%x: tensor<64xf64>) -> tensor<f64> {
  %z = tp.stft %x {hop_length = 4 : i64, n_fft = 16 : i64} : (tensor<64xf64>) -> tensor<9x13xcomplex<f64>>
  %a = tp.abs %z : (tensor<9x13xcomplex<f64>>) -> tensor<9x13xf64>
  %l = tp.sum %a : (tensor<9x13xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// CHECK-LABEL: func.func @exp_grad(
// CHECK-SAME: %[[Z:[^:]*]]: tensor<3xcomplex<f64>>)
// CHECK: %[[E:.*]] = tp.exp %[[Z]]
// CHECK: %[[EP:.*]] = tp.view_as_real %[[E]]
// CHECK: %[[EC:.*]] = tp.mul %[[EP]], %{{.*}} : (tensor<3x2xf64>, tensor<2xf64>) -> tensor<3x2xf64>
// CHECK: %[[CONJ:.*]] = tp.view_as_complex %[[EC]]
// CHECK: %[[G:.*]] = tp.mul %{{.*}}, %[[CONJ]]
// CHECK: return %{{.*}}, %[[G]] : tensor<f64>, tensor<3xcomplex<f64>>
func.func @exp(%z: tensor<3xcomplex<f64>>) -> tensor<f64> {
  %e = tp.exp %z : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
  %r = tp.view_as_real %e : (tensor<3xcomplex<f64>>) -> tensor<3x2xf64>
  %l = tp.sum %r : (tensor<3x2xf64>) -> tensor<f64>
  return %l : tensor<f64>
}

// A complex argument the loss does not depend on (only through a
// comparison, which has no gradient) gets complex zeros, built as real
// pairs viewed as complex.
// CHECK-LABEL: func.func @compared_grad(
// CHECK-SAME: %[[X:[^:]*]]: tensor<3x2xf32>, %[[W:[^:]*]]: tensor<3xcomplex<f32>>)
// CHECK: %[[ZERO:.*]] = tp.constant dense<0.000000e+00> : tensor<3x2xf32>
// CHECK: tp.eq %{{.*}}, %[[W]] : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
// CHECK: %[[GW:.*]] = tp.view_as_complex %[[ZERO]] : (tensor<3x2xf32>) -> tensor<3xcomplex<f32>>
// CHECK: return %{{.*}}, %{{.*}}, %[[GW]] : tensor<f32>, tensor<3x2xf32>, tensor<3xcomplex<f32>>
func.func @compared(%x: tensor<3x2xf32>, %w: tensor<3xcomplex<f32>>) -> tensor<f32> {
  %z = tp.view_as_complex %x : (tensor<3x2xf32>) -> tensor<3xcomplex<f32>>
  %e = tp.eq %z, %w : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  %a = tp.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %c = tp.constant dense<0.0> : tensor<f32>
  %s = tp.where %e, %c, %a : (tensor<3xi1>, tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %l = tp.sum %s : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
