//===- CudaBackend.h - The CUDA half of the runtime -------------*- C++ -*-===//
//
// What the device-independent code calls on CUDA. Built from CudaDevice.cpp
// and the .cu files when TENSORPLAY_ENABLE_CUDA is on, from
// CudaUnavailable.cpp (every call fails with CudaUnavailable) otherwise.
// Arguments are already validated by the callers (Kernels.cpp, Buffer.cpp);
// every kernel is enqueued on stream() and nothing waits for the device
// except copyToHost and synchronize.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CUDA_CUDABACKEND_H
#define TENSORPLAY_RUNTIME_CUDA_CUDABACKEND_H

#include "tensorplay/Runtime/Kernels.h"
#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <cstddef>
#include <cstdint>

namespace tensorplay::amp::cuda {

/// Whether the CUDA half was compiled in.
bool compiledIn();
/// Success when a CUDA device is usable (checked once).
Status deviceStatus();

void setStream(void *stream);
void *stream();

Status allocate(size_t bytes, void **out);
void release(void *ptr);
Status memsetAsync(void *dst, int value, size_t bytes);
Status copyFromHost(void *dst, const void *src, size_t bytes);
Status copyToHost(void *dst, const void *src, size_t bytes);
Status copyDeviceToDevice(void *dst, const void *src, size_t bytes);
Status synchronize();

/// Unscales by inverseScale(*scale) (device pointer) or, when `scale` is
/// null, only checks. Sets *foundInf (device) to 1 on inf/NaN.
Status unscaleAndCheck(TensorList grads, const float *scale, float *foundInf);
Status scaleLoss(const Tensor &loss, const float *scale, const Tensor &out);
Status updateScale(float *scale, int32_t *growthTracker, const float *foundInf,
                   int64_t numFoundInf, double growthFactor,
                   double backoffFactor, int64_t growthInterval);
Status sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
               TensorList momentumBuffers, int64_t *step,
               const float *gradScale, const float *foundInf);
Status adamwStep(const AdamWHyperParams &hyper, TensorList params,
                 TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
                 TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
                 const float *foundInf);

} // namespace tensorplay::amp::cuda

#endif // TENSORPLAY_RUNTIME_CUDA_CUDABACKEND_H
