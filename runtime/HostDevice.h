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

/// The update rule of tensorplay.amp.GradScaler.update, `found` being the sum
/// of the found_infs: back off and reset the tracker on inf/NaN; otherwise
/// count the clean step and grow (if the grown scale is finite) once
/// `growthInterval` clean steps were seen. Factors apply in double.
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
  // With growthInterval <= INT32_MAX (verifyScaleFactors) the tracker is
  // reset before it could pass INT32_MAX. A negative tracker (refused on the
  // CPU, not visible to the host on CUDA) counts as 0.
  int64_t tracker = *growthTracker > 0 ? *growthTracker : 0;
  int64_t successful = tracker + 1;
  if (successful >= growthInterval) {
    float grown =
        static_cast<float>(static_cast<double>(*scale) * growthFactor);
    if (finite(grown))
      *scale = grown;
    *growthTracker = 0;
  } else {
    *growthTracker = static_cast<int32_t>(successful);
  }
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_HOSTDEVICE_H
