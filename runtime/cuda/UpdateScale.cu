//===- UpdateScale.cu - The dynamic scale update on the device ------------===//
//
// One thread applies updateScaleRule to the scale and growth tracker in
// device memory, reading the found_infs the unscale kernels wrote: a training
// step never waits for the device to decide whether the scale changes.
//
//===----------------------------------------------------------------------===//

#include "HostDevice.h"
#include "cuda/CudaUtils.h"

namespace tensorplay::amp::cuda {
namespace {

__global__ void updateScaleKernel(float *scale, int32_t *growthTracker,
                                  const float *foundInf, int64_t numFoundInf,
                                  double growthFactor, double backoffFactor,
                                  int64_t growthInterval) {
  float found = 0.0f;
  for (int64_t i = 0; i < numFoundInf; ++i)
    found += foundInf[i];
  detail::updateScaleRule(scale, growthTracker, found, growthFactor,
                          backoffFactor, growthInterval);
}

} // namespace

Status updateScale(float *scale, int32_t *growthTracker, const float *foundInf,
                   int64_t numFoundInf, double growthFactor,
                   double backoffFactor, int64_t growthInterval) {
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(scale, "scale"));
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(growthTracker, "growth_tracker"));
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(foundInf, "found_inf"));
  updateScaleKernel<<<1, 1, 0, currentStream()>>>(
      scale, growthTracker, foundInf, numFoundInf, growthFactor, backoffFactor,
      growthInterval);
  return checkLaunch("updateScaleKernel");
}

} // namespace tensorplay::amp::cuda
