//===- CpuKernels.h - The CPU half of the runtime ---------------*- C++ -*-===//
//
// CPU kernels; arguments are validated by Kernels.cpp. Scalars live in host
// memory.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CPU_CPUKERNELS_H
#define TENSORPLAY_RUNTIME_CPU_CPUKERNELS_H

#include "tensorplay/Runtime/Kernels.h"
#include "tensorplay/Runtime/Tensor.h"

namespace tensorplay::amp::cpu {

/// Checks every gradient for inf/NaN and, when `write`, multiplies it by
/// `invScale` in place, with the kernels cpuKernelPath() selects, over
/// cpuThreadsFor(total) threads. Returns true if anything was non-finite.
bool unscaleAndCheck(TensorList grads, float invScale, bool write);
void scaleLoss(const Tensor &loss, float scale, const Tensor &out);
void updateScale(float *scale, int32_t *growthTracker, const float *foundInf,
                 int64_t numFoundInf, double growthFactor, double backoffFactor,
                 int64_t growthInterval);
/// The fused optimizer steps; `paramCopies` (empty when none) receive the
/// updated parameters rounded to their dtype.
void sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
             TensorList momentumBuffers, int64_t *step, const float *gradScale,
             const float *foundInf, TensorList paramCopies);
void adamwStep(const AdamWHyperParams &hyper, TensorList params,
               TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
               TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
               const float *foundInf, TensorList paramCopies);
/// Whether sgdStep / adamwStep run their AVX2 + FMA build of the loops (the
/// default on x86-64 CPUs with both) rather than the baseline build (where
/// fmaf is a library call). Both give the same bits; tests select each.
/// Enabling has no effect where the CPU or compiler lacks the build.
bool optimizerFmaLoops();
void setOptimizerFmaLoops(bool enabled);

} // namespace tensorplay::amp::cpu

#endif // TENSORPLAY_RUNTIME_CPU_CPUKERNELS_H
