//===- OptimizerKernels.cu - Fused SGD / AdamW on the device --------------===//
//
// Multi-tensor kernels applying the element updates of OptimizerMath.h. Each
// block first reads found_inf and returns if it is set; the step counter
// lives on the device and a one-thread kernel enqueued after the update
// increments it only for an applied step. No host round trip. Under a
// GradScaler the gradients are divided by the scale and written back, as on
// the CPU. This file is compiled with --fmad=false: the only fused
// multiply-adds are the fmaf of OptimizerMath.h, so the kernels compute the
// CPU kernels' operations (only the device's double pow in the AdamW bias
// corrections may round differently from the host's).
//
//===----------------------------------------------------------------------===//

#include "OptimizerMath.h"
#include "cuda/MultiTensorApply.cuh"

namespace tensorplay::amp::cuda {
namespace {

using detail::AdamWScalars;
using detail::SgdScalars;

__device__ inline bool skipped(const float *foundInf) {
  return foundInf && *foundInf != 0.0f;
}

/// Gradient i; when `unscale`, divided by `scale` and written back (rounded
/// to T), the update using the unrounded quotient, as on the CPU.
template <typename T>
__device__ inline float loadGrad(T *grad, int64_t i, bool unscale,
                                 float scale) {
  using Element = DeviceElement<T>;
  float value = Element::load(grad[i]);
  if (unscale) {
    value = detail::unscaled(value, scale);
    grad[i] = Element::store(value);
  }
  return value;
}

/// Lists: params, grads[, momentum buffers].
template <typename T, int Depth>
struct SgdFunctor {
  __device__ void operator()(const TensorListMeta<Depth> &meta, SgdScalars s,
                             const int64_t *step, const float *gradScale,
                             const float *foundInf) const {
    if (skipped(foundInf))
      return;
    using Element = DeviceElement<T>;
    Chunk<T> params = chunkOf<T>(meta, 0);
    Chunk<T> grads = chunkOf<T>(meta, 1);
    T *buffers = Depth > 2 ? chunkOf<T>(meta, Depth - 1).data : nullptr;
    const bool firstStep = *step == 0;
    const bool unscale = gradScale != nullptr;
    const float scale = unscale ? *gradScale : 1.0f;
    for (int64_t i = threadIdx.x; i < params.size; i += blockDim.x) {
      float grad = loadGrad(grads.data, i, unscale, scale);
      float param = Element::load(params.data[i]);
      float buf = Depth > 2 ? Element::load(buffers[i]) : 0.0f;
      detail::sgdUpdate<(Depth > 2)>(s, firstStep, param, grad, buf);
      params.data[i] = Element::store(param);
      if (Depth > 2)
        buffers[i] = Element::store(buf);
    }
  }
};

/// Lists: params, grads, exp_avgs, exp_avg_sqs[, max_exp_avg_sqs].
template <typename T, int Depth>
struct AdamWFunctor {
  __device__ void operator()(const TensorListMeta<Depth> &meta, AdamWScalars s,
                             const int64_t *step, const float *gradScale,
                             const float *foundInf) const {
    if (skipped(foundInf))
      return;
    using Element = DeviceElement<T>;
    Chunk<T> params = chunkOf<T>(meta, 0);
    T *grads = chunkOf<T>(meta, 1).data;
    T *expAvgs = chunkOf<T>(meta, 2).data;
    T *expAvgSqs = chunkOf<T>(meta, 3).data;
    T *maxSqs = Depth > 4 ? chunkOf<T>(meta, Depth - 1).data : nullptr;
    const detail::AdamWBiasCorrection bc =
        detail::adamwBiasCorrection(s, *step + 1);
    const bool unscale = gradScale != nullptr;
    const float scale = unscale ? *gradScale : 1.0f;
    for (int64_t i = threadIdx.x; i < params.size; i += blockDim.x) {
      float grad = loadGrad(grads, i, unscale, scale);
      float param = Element::load(params.data[i]);
      float expAvg = Element::load(expAvgs[i]);
      float expAvgSq = Element::load(expAvgSqs[i]);
      float maxSq = Depth > 4 ? Element::load(maxSqs[i]) : 0.0f;
      detail::adamwUpdate<(Depth > 4)>(s, bc, param, grad, expAvg, expAvgSq,
                                       maxSq);
      params.data[i] = Element::store(param);
      expAvgs[i] = Element::store(expAvg);
      expAvgSqs[i] = Element::store(expAvgSq);
      if (Depth > 4)
        maxSqs[i] = Element::store(maxSq);
    }
  }
};

/// Counts an applied step; enqueued after the update kernels.
__global__ void finishStepKernel(int64_t *step, const float *foundInf) {
  if (!skipped(foundInf))
    ++*step;
}

/// The optimizers' scalar arguments are device memory (or null where
/// optional).
Status requireDeviceScalars(const int64_t *step, const float *gradScale,
                            const float *foundInf) {
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(step, "step"));
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(gradScale, "scale"));
  return requireDevicePointer(foundInf, "found_inf");
}

Status finishStep(int64_t *step, const float *foundInf) {
  finishStepKernel<<<1, 1, 0, currentStream()>>>(step, foundInf);
  return checkLaunch("finishStepKernel");
}

} // namespace

Status sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
               TensorList momentumBuffers, int64_t *step,
               const float *gradScale, const float *foundInf) {
  TP_RT_RETURN_IF_ERROR(requireDeviceScalars(step, gradScale, foundInf));
  SgdScalars s = detail::makeSgdScalars(hyper);
  TP_RT_RETURN_IF_ERROR(dispatchDType(params[0].dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (s.hasMomentum) {
      const TensorList lists[3] = {params, grads, momentumBuffers};
      return multiTensorApply<3>(lists, SgdFunctor<T, 3>{}, s,
                                 static_cast<const int64_t *>(step), gradScale,
                                 foundInf);
    }
    const TensorList lists[2] = {params, grads};
    return multiTensorApply<2>(lists, SgdFunctor<T, 2>{}, s,
                               static_cast<const int64_t *>(step), gradScale,
                               foundInf);
  }));
  return finishStep(step, foundInf);
}

Status adamwStep(const AdamWHyperParams &hyper, TensorList params,
                 TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
                 TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
                 const float *foundInf) {
  TP_RT_RETURN_IF_ERROR(requireDeviceScalars(step, gradScale, foundInf));
  AdamWScalars s = detail::makeAdamWScalars(hyper);
  TP_RT_RETURN_IF_ERROR(dispatchDType(params[0].dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (s.amsgrad) {
      const TensorList lists[5] = {params, grads, expAvgs, expAvgSqs,
                                   maxExpAvgSqs};
      return multiTensorApply<5>(lists, AdamWFunctor<T, 5>{}, s,
                                 static_cast<const int64_t *>(step), gradScale,
                                 foundInf);
    }
    const TensorList lists[4] = {params, grads, expAvgs, expAvgSqs};
    return multiTensorApply<4>(lists, AdamWFunctor<T, 4>{}, s,
                               static_cast<const int64_t *>(step), gradScale,
                               foundInf);
  }));
  return finishStep(step, foundInf);
}

} // namespace tensorplay::amp::cuda
