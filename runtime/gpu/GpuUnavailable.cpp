//===- GpuUnavailable.cpp - Gpu.h without CUDA ----------------------------===//
//
// A build without TENSORPLAY_ENABLE_CUDA: no device, and the reason why.
// The mgpu* and cuBLASLt entry points are absent (no GPU code can run).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Gpu.h"

extern "C" int32_t tp_rt_gpu_device_count(const char **reason) {
  if (reason)
    *reason = "this build of tensorplay has no CUDA support "
              "(TENSORPLAY_ENABLE_CUDA=OFF)";
  return 0;
}
