//===- GpuRuntime.cpp - mgpu* wrappers and device management --------------===//
//
// The entry points of Gpu.h over the CUDA runtime API (the static cudart, so
// the library loads where no driver is installed): kernel modules through
// cudaLibraryLoadData (cubin, fatbin or PTX, which the driver JIT-compiles),
// launches with cudaLaunchKernel, stream-ordered allocation on the runtime's
// one stream. A failure is recorded in the codegen error slot; after it,
// launches, copies and allocations do nothing until the slot is cleared.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Gpu.h"

#include "calls/CodegenError.h"
#include "gpu/GpuState.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <string>

using tensorplay::codegen::fail;
namespace gpu = tensorplay::codegen::gpu;

bool gpu::check(cudaError_t error, const char *what) {
  if (error == cudaSuccess)
    return true;
  (void)cudaGetLastError(); // clear a sticky launch error
  fail(error == cudaErrorMemoryAllocation ? TP_RT_ERROR_OUT_OF_MEMORY
                                          : TP_RT_ERROR_CUDA,
       what, cudaGetErrorName(error),
       (std::string(" (") + cudaGetErrorString(error) + ")").c_str());
  return false;
}

bool gpu::failed() { return tp_rt_codegen_error()[0] != '\0'; }

cudaStream_t gpu::stream() {
  static std::once_flag once;
  static cudaStream_t shared = nullptr;
  std::call_once(once, [] {
    if (!check(cudaStreamCreateWithFlags(&shared, cudaStreamNonBlocking),
               "cudaStreamCreateWithFlags"))
      shared = nullptr;
  });
  return shared;
}

extern "C" {

int32_t tp_rt_gpu_device_count(const char **reason) {
  // The static cudart loads the driver itself; when it is absent cudart
  // only says the driver is "insufficient".
  static const bool driver = [] {
    void *so = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return so != nullptr;
  }();
  if (!driver) {
    if (reason)
      *reason = "no CUDA driver is installed (libcuda.so.1 cannot be loaded)";
    return 0;
  }
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    if (reason)
      *reason = error != cudaSuccess ? cudaGetErrorString(error)
                                     : "the driver reports no CUDA device";
    return 0;
  }
  if (reason)
    *reason = "";
  return count;
}

tp_rt_status tp_rt_gpu_alloc(uint64_t bytes, void **out) {
  if (!out)
    return TP_RT_ERROR_INVALID_ARGUMENT;
  *out = nullptr;
  cudaError_t error = cudaMalloc(out, bytes ? bytes : 1);
  if (error != cudaSuccess) {
    (void)cudaGetLastError();
    return error == cudaErrorMemoryAllocation ? TP_RT_ERROR_OUT_OF_MEMORY
                                              : TP_RT_ERROR_CUDA;
  }
  return TP_RT_SUCCESS;
}

tp_rt_status tp_rt_gpu_free(void *ptr) {
  return cudaFree(ptr) == cudaSuccess ? TP_RT_SUCCESS : TP_RT_ERROR_CUDA;
}

tp_rt_status tp_rt_gpu_copy(void *dst, const void *src, uint64_t bytes,
                            int32_t to_device) {
  if (bytes == 0)
    return TP_RT_SUCCESS;
  if (!dst || !src)
    return TP_RT_ERROR_INVALID_ARGUMENT;
  cudaError_t error =
      cudaMemcpy(dst, src, bytes,
                 to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  return error == cudaSuccess ? TP_RT_SUCCESS : TP_RT_ERROR_CUDA;
}

tp_rt_status tp_rt_gpu_synchronize(void) {
  cudaStream_t s = gpu::stream();
  if (!s)
    return TP_RT_ERROR_CUDA;
  return gpu::check(cudaStreamSynchronize(s), "cudaStreamSynchronize")
             ? TP_RT_SUCCESS
             : TP_RT_ERROR_CUDA;
}

void *tp_rt_gpu_stream(void) { return gpu::stream(); }

void *mgpuStreamCreate(void) { return gpu::stream(); }

void mgpuStreamDestroy(void *) {} // the runtime's stream lives on

void mgpuStreamSynchronize(void *stream) {
  if (stream)
    gpu::check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)),
               "cudaStreamSynchronize");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  gpu::check(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream),
                                 static_cast<cudaEvent_t>(event), 0),
             "cudaStreamWaitEvent");
}

void *mgpuEventCreate(void) {
  cudaEvent_t event = nullptr;
  if (!gpu::check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
                  "cudaEventCreate"))
    return nullptr;
  return event;
}

void mgpuEventDestroy(void *event) {
  if (event)
    gpu::check(cudaEventDestroy(static_cast<cudaEvent_t>(event)),
               "cudaEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  if (event)
    gpu::check(cudaEventSynchronize(static_cast<cudaEvent_t>(event)),
               "cudaEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  if (event)
    gpu::check(cudaEventRecord(static_cast<cudaEvent_t>(event),
                               static_cast<cudaStream_t>(stream)),
               "cudaEventRecord");
}

void *mgpuModuleLoad(void *data, size_t) {
  cudaLibrary_t library = nullptr;
  if (!gpu::check(cudaLibraryLoadData(&library, data, nullptr, nullptr, 0,
                                      nullptr, nullptr, 0),
                  "cudaLibraryLoadData"))
    return nullptr;
  return library;
}

void *mgpuModuleLoadJIT(void *data, int32_t) { return mgpuModuleLoad(data, 0); }

void mgpuModuleUnload(void *module) {
  if (module)
    gpu::check(cudaLibraryUnload(static_cast<cudaLibrary_t>(module)),
               "cudaLibraryUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module)
    return nullptr;
  cudaKernel_t kernel = nullptr;
  if (!gpu::check(cudaLibraryGetKernel(
                      &kernel, static_cast<cudaLibrary_t>(module), name),
                  "cudaLibraryGetKernel"))
    return nullptr;
  return kernel;
}

void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                      intptr_t grid_z, intptr_t block_x, intptr_t block_y,
                      intptr_t block_z, int32_t shared_bytes, void *stream,
                      void **params, void **, size_t) {
  if (gpu::failed())
    return;
  if (!function) {
    fail(TP_RT_ERROR_CUDA, "mgpuLaunchKernel: the kernel module did not load");
    return;
  }
  dim3 grid(grid_x, grid_y, grid_z), block(block_x, block_y, block_z);
  gpu::check(cudaLaunchKernel(function, grid, block, params, shared_bytes,
                              static_cast<cudaStream_t>(stream)),
             "cudaLaunchKernel");
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared) {
  if (gpu::failed())
    return nullptr;
  void *ptr = nullptr;
  if (host_shared) {
    if (!gpu::check(cudaMallocManaged(&ptr, bytes ? bytes : 1),
                    "cudaMallocManaged"))
      return nullptr;
    return ptr;
  }
  if (!gpu::check(cudaMallocAsync(&ptr, bytes ? bytes : 1,
                                  static_cast<cudaStream_t>(stream)),
                  "cudaMallocAsync"))
    return nullptr;
  return ptr;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (ptr)
    gpu::check(cudaFreeAsync(ptr, static_cast<cudaStream_t>(stream)),
               "cudaFreeAsync");
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (gpu::failed() || bytes == 0)
    return;
  gpu::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault,
                             static_cast<cudaStream_t>(stream)),
             "cudaMemcpyAsync");
}

/// cudaMemsetAsync sets bytes: a 16/32-bit pattern whose bytes are all
/// equal (zero, all ones: what compiled code fills with) is one call.
static void memsetPattern(void *dst, const void *value, size_t width,
                          size_t count, void *stream) {
  if (gpu::failed() || count == 0)
    return;
  const unsigned char *bytes = static_cast<const unsigned char *>(value);
  for (size_t i = 1; i < width; ++i)
    if (bytes[i] != bytes[0]) {
      fail(TP_RT_ERROR_UNSUPPORTED, "mgpuMemset: a pattern of unequal bytes "
                                    "is not supported");
      return;
    }
  gpu::check(cudaMemsetAsync(dst, bytes[0], width * count,
                             static_cast<cudaStream_t>(stream)),
             "cudaMemsetAsync");
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  memsetPattern(dst, &value, sizeof(value), count, stream);
}

void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  memsetPattern(dst, &value, sizeof(value), count, stream);
}

void mgpuSetDefaultDevice(int32_t device) {
  gpu::check(cudaSetDevice(device), "cudaSetDevice");
}

} // extern "C"
