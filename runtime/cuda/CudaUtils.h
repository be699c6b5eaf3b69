//===- CudaUtils.h - CUDA error handling and element types ------*- C++ -*-===//
//
// Helpers shared by CudaDevice.cpp and the .cu files: cudaError_t to Status,
// the runtime's stream, and (in .cu files) element load / store by dtype.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CUDA_CUDAUTILS_H
#define TENSORPLAY_RUNTIME_CUDA_CUDAUTILS_H

#include "cuda/CudaBackend.h"

#include <cuda_runtime_api.h>

#include <string>

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace tensorplay::amp::cuda {

/// Success, or CudaError naming `what` and the CUDA error.
inline Status checkCuda(cudaError_t error, const char *what) {
  if (error == cudaSuccess)
    return Status::success();
  return Status(error == cudaErrorMemoryAllocation ? StatusCode::OutOfMemory
                                                   : StatusCode::CudaError,
                std::string(what) + ": " + cudaGetErrorName(error) + " (" +
                    cudaGetErrorString(error) + ")");
}

/// The status of the last kernel launch.
inline Status checkLaunch(const char *kernel) {
  return checkCuda(cudaGetLastError(), kernel);
}

/// Success when `ptr` is null (optional arguments; the callers check the
/// required ones) or memory a kernel can read and write: device, managed or
/// mapped pinned host memory. InvalidArgument naming `what` for ordinary
/// host memory, which would fault the CUDA context. A scalar argument (scale,
/// found_inf, growth tracker, step) is checked before anything is enqueued.
Status requireDevicePointer(const void *ptr, const char *what);

inline cudaStream_t currentStream() {
  return static_cast<cudaStream_t>(stream());
}

#ifdef __CUDACC__

/// A dtype as a C++ type, for dispatch.
template <typename T>
struct TypeTag {
  using type = T;
};

/// Calls fn(TypeTag<element type>{}) for `dtype`.
template <typename Fn>
Status dispatchDType(DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::F32:
    return fn(TypeTag<float>{});
  case DType::F16:
    return fn(TypeTag<__half>{});
  case DType::BF16:
    return fn(TypeTag<__nv_bfloat16>{});
  }
  return Status(StatusCode::UnsupportedDType, "unknown dtype");
}

/// f32 view of an element: load widens, store rounds to nearest even.
template <typename T>
struct DeviceElement;
template <>
struct DeviceElement<float> {
  __device__ static float load(float v) { return v; }
  __device__ static float store(float v) { return v; }
};
template <>
struct DeviceElement<__half> {
  __device__ static float load(__half v) { return __half2float(v); }
  __device__ static __half store(float v) { return __float2half_rn(v); }
};
template <>
struct DeviceElement<__nv_bfloat16> {
  __device__ static float load(__nv_bfloat16 v) { return __bfloat162float(v); }
  __device__ static __nv_bfloat16 store(float v) {
    return __float2bfloat16_rn(v);
  }
};

#endif // __CUDACC__

} // namespace tensorplay::amp::cuda

#endif // TENSORPLAY_RUNTIME_CUDA_CUDAUTILS_H
