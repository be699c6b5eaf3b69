//===- TPToRuntime.h - tp products/convolutions to oneDNN -------*- C++ -*-===//
//
// Patterns rewriting matrix products and convolutions into calls of the
// runtime's oneDNN wrappers (tp_rt_dnnl_*, tensorplay/Runtime/Codegen.h),
// and the GradScaler and optimizer ops into calls of its kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_TPTORUNTIME_TPTORUNTIME_H
#define TENSORPLAY_CONVERSION_TPTORUNTIME_TPTORUNTIME_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {

/// The library the matrix products call.
enum class ProductLibrary {
  /// tp_rt_dnnl_matmul_* (the CPU runtime, host buffers).
  OneDNN,
  /// tp_rt_cublaslt_matmul_* (the GPU runtime, device buffers).
  CublasLt,
};

/// mm, bmm, matmul, addmm, addbmm, baddbmm, linear -> `library`'s calls.
void populateMatmulToRuntimePatterns(
    RewritePatternSet &patterns,
    ProductLibrary library = ProductLibrary::OneDNN);

/// conv1d/2d/3d, conv_transpose1d/2d/3d, convolution -> tp_rt_dnnl_conv_*.
void populateConvToRuntimePatterns(RewritePatternSet &patterns);

/// softmax_backward, log_softmax_backward -> tp_rt_dnnl_softmax_backward_*.
void populateNormalizationToRuntimePatterns(RewritePatternSet &patterns);

/// amp_check_finite, amp_update_scale, fused_sgd, fused_adamw ->
/// tp_rt_codegen_* (the GradScaler runtime's kernels; no oneDNN needed).
/// Where the train-step kernels run.
enum class TrainingDevice {
  /// tp_rt_codegen_* (CPU kernels, host buffers).
  CPU,
  /// tp_rt_codegen_cuda_* (the CUDA kernels, device buffers).
  CUDA,
};
void populateTrainingToRuntimePatterns(
    RewritePatternSet &patterns, TrainingDevice device = TrainingDevice::CPU);

/// The linear-algebra ops LAPACK computes (inverse, Cholesky, solves, LU,
/// eigh, SVD, QR) on f32 / f64 tensors to tp_rt_lapack_* calls
/// (LinalgToRuntime.cpp); host buffers only.
void populateLinalgToRuntimePatterns(RewritePatternSet &patterns);
/// Whether `op` is one of the ops those patterns take.
bool isLapackOp(Operation *op);
/// For such an op, an error unless the patterns can take it: an element
/// type other than f32 / f64, an SVD driver, LU without pivoting (what
/// PyTorch's CPU kernels refuse too).
LogicalResult checkLapackOp(Operation *op);

/// ctc_loss on f32 / f64 log-probabilities to tp_rt_ctc_loss_* calls
/// (LossToRuntime.cpp); host buffers only.
void populateLossToRuntimePatterns(RewritePatternSet &patterns);
/// For a ctc_loss, an error unless its log-probabilities are f32 or f64.
LogicalResult checkCtcLossOp(Operation *op);

/// The fft_* ops (1-D, 2-D, n-D; complex, real and Hermitian) to
/// tp_rt_fft_* calls (FftToRuntime.cpp); host buffers only.
void populateFftToRuntimePatterns(RewritePatternSet &patterns);
/// For an fft op, an error unless its input is f32, f64, complex or
/// integer (bf16 and f16 have no CPU kernel).
LogicalResult checkFftOp(Operation *op);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_TPTORUNTIME_TPTORUNTIME_H
