//===- CudaDevice.cpp - CUDA memory, streams and device discovery ---------===//

#include "cuda/CudaUtils.h"

#include <atomic>

namespace tensorplay::amp::cuda {
namespace {

std::atomic<void *> runtimeStream{nullptr};

} // namespace

bool compiledIn() { return true; }

Status deviceStatus() {
  static const Status status = [] {
    int count = 0;
    cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
      (void)cudaGetLastError(); // Do not leave the error for later calls.
      return Status(StatusCode::CudaUnavailable,
                    std::string("no usable CUDA device: ") +
                        cudaGetErrorName(error) + " (" +
                        cudaGetErrorString(error) + ")");
    }
    if (count == 0)
      return Status(StatusCode::CudaUnavailable, "no CUDA device found");
    return Status::success();
  }();
  return status;
}

Status requireDevicePointer(const void *ptr, const char *what) {
  if (!ptr)
    return Status::success();
  cudaPointerAttributes attributes{};
  cudaError_t error = cudaPointerGetAttributes(&attributes, ptr);
  if (error != cudaSuccess) {
    (void)cudaGetLastError(); // Do not leave the error for later calls.
    return Status(StatusCode::InvalidArgument,
                  std::string(what) +
                      " is not CUDA memory (cudaPointerGetAttributes: " +
                      cudaGetErrorName(error) + ")");
  }
  if (attributes.type == cudaMemoryTypeUnregistered ||
      !attributes.devicePointer)
    return Status(StatusCode::InvalidArgument,
                  std::string(what) +
                      " points to host memory; a CUDA call takes it in "
                      "device memory");
  return Status::success();
}

void setStream(void *stream) { runtimeStream = stream; }
void *stream() { return runtimeStream.load(); }

Status allocate(size_t bytes, void **out) {
  return checkCuda(cudaMalloc(out, bytes), "cudaMalloc");
}

void release(void *ptr) { (void)cudaFree(ptr); }

Status memsetAsync(void *dst, int value, size_t bytes) {
  return checkCuda(cudaMemsetAsync(dst, value, bytes, currentStream()),
                   "cudaMemsetAsync");
}

Status copyFromHost(void *dst, const void *src, size_t bytes) {
  // From pageable memory the source is staged before the call returns.
  return checkCuda(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, currentStream()),
      "cudaMemcpyAsync (host to device)");
}

Status copyToHost(void *dst, const void *src, size_t bytes) {
  TP_RT_RETURN_IF_ERROR(checkCuda(
      cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, currentStream()),
      "cudaMemcpyAsync (device to host)"));
  return synchronize();
}

Status copyDeviceToDevice(void *dst, const void *src, size_t bytes) {
  return checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                   currentStream()),
                   "cudaMemcpyAsync (device to device)");
}

Status synchronize() {
  return checkCuda(cudaStreamSynchronize(currentStream()),
                   "cudaStreamSynchronize");
}

} // namespace tensorplay::amp::cuda
