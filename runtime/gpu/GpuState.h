//===- GpuState.h - The GPU codegen runtime's shared state ------*- C++ -*-===//
//
// The one stream compiled GPU code runs on, and CUDA error recording into
// the codegen error slot, shared by GpuRuntime.cpp and CublasLt.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_GPU_GPUSTATE_H
#define TENSORPLAY_RUNTIME_GPU_GPUSTATE_H

#include <cuda_runtime_api.h>

namespace tensorplay::codegen::gpu {

/// True for cudaSuccess; otherwise records "<what>: <error name> (<text>)"
/// in the error slot and returns false.
bool check(cudaError_t error, const char *what);

/// True once an error is recorded (calls then do nothing).
bool failed();

/// The runtime's stream (created on first use; null if that failed).
cudaStream_t stream();

} // namespace tensorplay::codegen::gpu

#endif // TENSORPLAY_RUNTIME_GPU_GPUSTATE_H
