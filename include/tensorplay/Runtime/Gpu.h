/*===- tensorplay/Runtime/Gpu.h - ABI of compiled tp GPU code -----*- C -*-===*\
|*                                                                            *|
|* What code compiled by `tp-lower-to-nvvm` calls, and what its callers use   *|
|* to run it: the mgpu* wrappers that upstream's gpu-to-llvm lowering calls   *|
|* (kernel modules, launches, stream-ordered device memory), the cuBLASLt     *|
|* matrix products, and device management for tp-run. Built only with CUDA    *|
|* (TENSORPLAY_ENABLE_CUDA); without it tp_rt_gpu_device_count reports the    *|
|* reason. Errors of the mgpu* calls, which cannot return a status, go to    *|
|* the codegen error slot (tp_rt_codegen_error), and the calls after the     *|
|* first failure do nothing, so a failed launch never runs a later kernel   *|
|* on garbage. Valid C99.                                                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TENSORPLAY_RUNTIME_GPU_H
#define TENSORPLAY_RUNTIME_GPU_H

#include "tensorplay/Runtime/Codegen.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The number of CUDA devices (>= 1) or 0, with `*reason` (when not null)
/// saying why there is none: no CUDA in this build, no driver, no device.
int32_t tp_rt_gpu_device_count(const char **reason);

/// Device memory for tp-run and the compiler API (cudaMalloc / cudaFree,
/// synchronous copies; `to_device` picks the direction).
tp_rt_status tp_rt_gpu_alloc(uint64_t bytes, void **out);
tp_rt_status tp_rt_gpu_free(void *ptr);
tp_rt_status tp_rt_gpu_copy(void *dst, const void *src, uint64_t bytes,
                            int32_t to_device);
/// Waits for everything compiled code enqueued on the runtime's stream.
tp_rt_status tp_rt_gpu_synchronize(void);
/// That stream (a cudaStream_t; null without CUDA or when it could not be
/// created).
void *tp_rt_gpu_stream(void);

/* The calls compiled GPU code makes through tp_rt.call, the cuBLASLt
 * products and the train step's tp_rt_codegen_cuda_* kernels, are declared
 * with the CPU ones in Codegen.h (from CodegenCalls.def). */

/// The wrappers upstream MLIR's gpu-to-llvm lowering and the gpu.binary
/// translation call (the signatures of MLIR's CudaRuntimeWrappers.cpp).
/// Streams: every "created" stream is the runtime's one stream, so kernels,
/// copies and cuBLASLt calls run in program order.
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int32_t opt_level);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t grid_x, intptr_t grid_y,
                      intptr_t grid_z, intptr_t block_x, intptr_t block_y,
                      intptr_t block_z, int32_t shared_bytes, void *stream,
                      void **params, void **extra, size_t param_count);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream);
void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* TENSORPLAY_RUNTIME_GPU_H */
