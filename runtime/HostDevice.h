//===- HostDevice.h - Code shared by the CPU and CUDA kernels ---*- C++ -*-===//
//
// TP_RT_HOST_DEVICE marks functions compiled for the host and, in .cu files,
// for the device; the scale rules both halves of the runtime apply.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_HOSTDEVICE_H
#define TENSORPLAY_RUNTIME_HOSTDEVICE_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define TP_RT_HOST_DEVICE __host__ __device__
#else
#define TP_RT_HOST_DEVICE
#endif

namespace tensorplay::amp::detail {

/// 1/scale computed in double, rounded to float.
TP_RT_HOST_DEVICE inline float inverseOf(float scale) {
  return static_cast<float>(1.0 / static_cast<double>(scale));
}

/// True unless `value` is inf or NaN (x - x is NaN exactly for those).
TP_RT_HOST_DEVICE inline bool finite(float value) {
  return value - value == 0.0f;
}

/// The update rule of torch.amp.GradScaler.update (torch's
/// _amp_update_scale_cpu_ and its CUDA kernel), `found` being the sum of the
/// found_infs: on inf/NaN back off and reset the tracker; otherwise count the
/// clean step and, when the count equals `growthInterval`, grow (if the
/// grown scale is finite) and reset the tracker. A tracker already at or past
/// the interval (loaded so, or the interval lowered) keeps counting and the
/// scale does not grow, as in torch. Factors apply in double.
TP_RT_HOST_DEVICE inline void updateScaleRule(float *scale,
                                              int32_t *growthTracker,
                                              float found, double growthFactor,
                                              double backoffFactor,
                                              int64_t growthInterval) {
  if (found != 0.0f) {
    *scale = static_cast<float>(static_cast<double>(*scale) * backoffFactor);
    *growthTracker = 0;
    return;
  }
  int64_t successful = static_cast<int64_t>(*growthTracker) + 1;
  if (successful == growthInterval) {
    float grown =
        static_cast<float>(static_cast<double>(*scale) * growthFactor);
    if (finite(grown))
      *scale = grown;
    *growthTracker = 0;
  } else {
    // Where torch's int32 tracker would overflow (undefined behaviour), this
    // one stays at INT32_MAX.
    *growthTracker =
        static_cast<int32_t>(successful < INT32_MAX ? successful : INT32_MAX);
  }
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_HOSTDEVICE_H
