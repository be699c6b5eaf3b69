//===- tensorplay/Runtime/Kernels.h - GradScaler kernels --------*- C++ -*-===//
//
// The device kernels behind GradScaler and the C ABI, dispatched on the
// tensors' device (CPU or CUDA), with the controls that choose the CPU
// implementation (AVX-512 or portable, thread count).
//
// All scalar state arguments (scale, found_inf, growth tracker, step) are
// pointers to memory on the tensors' device, so that a CUDA training step
// never synchronises with the host.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_KERNELS_H
#define TENSORPLAY_RUNTIME_KERNELS_H

#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <cstdint>

namespace tensorplay::amp {

//===----------------------------------------------------------------------===//
// Hyper-parameters
//===----------------------------------------------------------------------===//

/// torch.optim.SGD hyper-parameters (torch's defaults).
struct SgdHyperParams {
  double lr = 1e-3;
  double momentum = 0.0;
  double dampening = 0.0;
  double weightDecay = 0.0;
  bool nesterov = false;
  bool maximize = false;
};

/// torch.optim.AdamW hyper-parameters (torch's defaults).
struct AdamWHyperParams {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weightDecay = 1e-2;
  bool amsgrad = false;
  bool maximize = false;
};

/// Checks the ranges torch.optim.SGD checks (lr, momentum, weight decay >= 0;
/// nesterov needs momentum > 0 and dampening == 0).
Status verifySgdHyperParams(const SgdHyperParams &params);
/// Checks the ranges torch.optim.AdamW checks (lr, eps, weight decay >= 0;
/// 0 <= betas < 1).
Status verifyAdamWHyperParams(const AdamWHyperParams &params);
/// The largest growth_interval: the growth tracker is an int32.
inline constexpr int64_t kMaxGrowthInterval = INT32_MAX;

/// Checks growth_factor > 1, 0 < backoff_factor < 1 (both finite) and
/// 1 <= growth_interval <= kMaxGrowthInterval.
Status verifyScaleFactors(double growthFactor, double backoffFactor,
                          int64_t growthInterval);

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// The inverse scale of the unscale kernels: 1/scale computed in double,
/// rounded to float (as tensorplay.amp.GradScaler computes it). Fused
/// optimizer steps divide by the scale instead, as torch's fused kernels.
inline float inverseScale(float scale) {
  return static_cast<float>(1.0 / static_cast<double>(scale));
}

/// out = loss * *scale (f32 arithmetic, rounded to the dtype).
Status scaleLoss(const Tensor &loss, const float *scale, const Tensor &out);

/// Unscales `grads` in place by inverseScale(*scale) and sets *foundInf to
/// 1.0f if any element was non-finite. f16 gradients are refused with
/// StatusCode::Fp16Gradients ("Attempting to unscale FP16 gradients.").
Status unscaleAndCheck(TensorList grads, const float *scale, float *foundInf);

/// Sets *foundInf to 1.0f if any element of `grads` is non-finite; writes
/// nothing else. Accepts f16.
Status checkFinite(TensorList grads, float *foundInf);

/// The dynamic scale rule of torch.amp.GradScaler.update on `device`;
/// found_inf is the sum of `numFoundInf` floats (see tp_rt_update_scale:
/// growth when tracker + 1 == growthInterval). Factors are applied in double
/// and the scale rounded to float. The factors are checked as by
/// verifyScaleFactors; on the CPU a negative *growthTracker is refused (on
/// CUDA it is not read on the host, and counts up from its value as torch's).
Status updateScale(Device device, float *scale, int32_t *growthTracker,
                   const float *foundInf, int64_t numFoundInf,
                   double growthFactor, double backoffFactor,
                   int64_t growthInterval);

/// A fused SGD step (see tp_rt_sgd_step_with_copies): with `gradScale`, the
/// gradients are divided by it and written back (those of the parameters'
/// dtype). `momentumBuffers` is empty iff momentum == 0. `gradScale` and
/// `foundInf` may be null. On the CPU, f32 parameters may have bf16 or f16
/// gradients and `paramCopies` (empty when none): bf16 or f16 tensors that
/// receive the parameters after the step (also a skipped one) rounded to
/// their dtype.
Status sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
               TensorList momentumBuffers, int64_t *step,
               const float *gradScale, const float *foundInf,
               TensorList paramCopies = {});

/// A fused AdamW step (see tp_rt_adamw_step_with_copies). `maxExpAvgSqs` is
/// empty iff !amsgrad. Gradients and copies as for sgdStep.
Status adamwStep(const AdamWHyperParams &hyper, TensorList params,
                 TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
                 TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
                 const float *foundInf, TensorList paramCopies = {});

//===----------------------------------------------------------------------===//
// CPU implementation choice
//===----------------------------------------------------------------------===//

/// The CPU unscale / check implementations.
enum class CpuKernelPath {
  /// AVX-512 when the CPU has it, portable otherwise (the default; the
  /// environment variable TP_RT_CPU_KERNEL=portable|avx512 overrides it).
  Auto,
  /// Plain C++ the compiler vectorises for the baseline ISA.
  Portable,
  /// AVX-512F/BW/VL intrinsics, selected only when the CPU supports them.
  AVX512,
};

/// Whether this CPU (and OS) supports the AVX-512 path.
bool cpuSupportsAvx512();
/// Selects the CPU path; Unsupported if AVX512 is asked for without support.
Status setCpuKernelPath(CpuKernelPath path);
/// The path the next CPU call uses (never Auto).
CpuKernelPath cpuKernelPath();
/// "auto", "portable", "avx512".
const char *cpuKernelPathName(CpuKernelPath path);

/// Sets the number of CPU threads (the caller included) used for large
/// inputs; 0 means std::thread::hardware_concurrency() (or the environment
/// variable TP_RT_NUM_THREADS).
void setCpuThreadCount(unsigned threads);
/// The number of CPU threads large inputs use.
unsigned cpuThreadCount();
/// Inputs of at least this many elements in total are split over the
/// threads; smaller ones run on the calling thread. Default 1 << 18.
void setCpuParallelThreshold(int64_t elements);
int64_t cpuParallelThreshold();
/// The number of threads a CPU kernel over `totalElements` elements uses.
unsigned cpuThreadsFor(int64_t totalElements);

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

/// Whether the runtime was built with CUDA kernels.
bool cudaCompiledIn();
/// Success when a CUDA device is usable; otherwise CudaUnavailable with the
/// reason (not built with CUDA, no driver, no device).
Status cudaDeviceStatus();
/// Sets the cudaStream_t every CUDA call enqueues on (null: default stream).
void setCudaStream(void *stream);
void *cudaStream();
/// Waits until all work of the runtime's stream has finished.
Status synchronizeDevice(Device device);

} // namespace tensorplay::amp

#endif // TENSORPLAY_RUNTIME_KERNELS_H
