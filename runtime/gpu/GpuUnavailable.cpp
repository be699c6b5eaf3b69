//===- GpuUnavailable.cpp - Gpu.h without CUDA ----------------------------===//
//
// A build without TENSORPLAY_ENABLE_CUDA: no device, and the reason why.
// The device-memory calls fail with TP_RT_ERROR_CUDA_UNAVAILABLE; the mgpu*
// and cuBLASLt entry points are absent (no GPU code can run).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Gpu.h"

extern "C" int32_t tp_rt_gpu_device_count(const char **reason) {
  if (reason)
    *reason = "this build of tensorplay has no CUDA support "
              "(TENSORPLAY_ENABLE_CUDA=OFF)";
  return 0;
}

extern "C" tp_rt_status tp_rt_gpu_alloc(uint64_t, void **out) {
  if (out)
    *out = nullptr;
  return TP_RT_ERROR_CUDA_UNAVAILABLE;
}

extern "C" tp_rt_status tp_rt_gpu_free(void *) {
  return TP_RT_ERROR_CUDA_UNAVAILABLE;
}

extern "C" tp_rt_status tp_rt_gpu_copy(void *, const void *, uint64_t,
                                       int32_t) {
  return TP_RT_ERROR_CUDA_UNAVAILABLE;
}

extern "C" tp_rt_status tp_rt_gpu_synchronize(void) {
  return TP_RT_ERROR_CUDA_UNAVAILABLE;
}

extern "C" void *tp_rt_gpu_stream(void) { return nullptr; }
