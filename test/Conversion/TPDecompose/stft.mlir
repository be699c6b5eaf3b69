// stft decomposes into one gather of every frame's positions, the window
// zero-padded to n_fft on both sides ((16 - 10) / 2 = 3 left), the
// product, one rfft per frame (norm "ortho" when normalized) and the
// (.., freq, frames) transpose; an unbatched two-sided stft takes fft, as
// does a complex signal.
// RUN: tp-opt %s --tp-decompose-composite-ops --split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @windowed(
// CHECK-DAG: %[[POS:.*]] = tp.constant dense<"0x{{[0-9A-F]+}}"> : tensor<112xi64>
// CHECK-DAG: %[[PAD:.*]] = tp.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: %[[IDX:.*]] = tp.expand %{{.*}} {size = array<i64: 2, 112>}
// CHECK: %[[G:.*]] = tp.gather %arg0, %[[IDX]] {dim = 1 : i64}
// CHECK: %[[FRAMES:.*]] = tp.reshape %[[G]] {shape = array<i64: 2, 7, 16>}
// CHECK: %[[W:.*]] = tp.cat [%[[PAD]], %arg1, %[[PAD]]] : (tensor<3xf32>, tensor<10xf32>, tensor<3xf32>) -> tensor<16xf32>
// CHECK: %[[P:.*]] = tp.mul %[[FRAMES]], %[[W]]
// CHECK: %[[S:.*]] = tp.fft_rfft %[[P]] {norm = "ortho"} : (tensor<2x7x16xf32>) -> tensor<2x7x9xcomplex<f32>>
// CHECK: %[[T:.*]] = tp.transpose %[[S]] {dim0 = 1 : i64, dim1 = 2 : i64} : (tensor<2x7x9xcomplex<f32>>) -> tensor<2x9x7xcomplex<f32>>
// CHECK: return %[[T]]
func.func @windowed(%x: tensor<2x40xf32>, %w: tensor<10xf32>) -> tensor<2x9x7xcomplex<f32>> {
  %r = tp.stft %x window(%w) {hop_length = 4 : i64, n_fft = 16 : i64, win_length = 10 : i64, normalized = true} : (tensor<2x40xf32>, tensor<10xf32>) -> tensor<2x9x7xcomplex<f32>>
  return %r : tensor<2x9x7xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @two_sided(
// CHECK: %[[F:.*]] = tp.fft_fft %{{.*}} : (tensor<1x5x16xf32>) -> tensor<1x5x16xcomplex<f32>>
// CHECK: %[[T:.*]] = tp.transpose %[[F]]
// CHECK: %[[R:.*]] = tp.reshape %[[T]] {shape = array<i64: 16, 5>}
// CHECK: return %[[R]]
func.func @two_sided(%x: tensor<40xf32>) -> tensor<16x5xcomplex<f32>> {
  %r = tp.stft %x {hop_length = 5 : i64, n_fft = 16 : i64, onesided = false} : (tensor<40xf32>) -> tensor<16x5xcomplex<f32>>
  return %r : tensor<16x5xcomplex<f32>>
}

// -----

// A complex signal is two-sided by default: the frames of the complex
// signal gathered as they are, the window's zeros real, and one fft.
// CHECK-LABEL: func.func @complex(
// CHECK: %[[F:.*]] = tp.gather %{{.*}}, %{{.*}} {dim = 1 : i64} : (tensor<1x40xcomplex<f32>>, tensor<1x80xi64>) -> tensor<1x80xcomplex<f32>>
// CHECK: %[[R:.*]] = tp.reshape %[[F]] {shape = array<i64: 1, 5, 16>}
// CHECK: tp.fft_fft %[[R]] : (tensor<1x5x16xcomplex<f32>>) -> tensor<1x5x16xcomplex<f32>>
func.func @complex(%x: tensor<40xcomplex<f32>>) -> tensor<16x5xcomplex<f32>> {
  %r = tp.stft %x {hop_length = 5 : i64, n_fft = 16 : i64} : (tensor<40xcomplex<f32>>) -> tensor<16x5xcomplex<f32>>
  return %r : tensor<16x5xcomplex<f32>>
}
