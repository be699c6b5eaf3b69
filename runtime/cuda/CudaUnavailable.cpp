//===- CudaUnavailable.cpp - The CUDA half when built without CUDA --------===//
//
// Linked instead of the CUDA sources when TENSORPLAY_ENABLE_CUDA is off:
// every call reports CudaUnavailable.
//
//===----------------------------------------------------------------------===//

#include "cuda/CudaBackend.h"

namespace tensorplay::amp::cuda {
namespace {

Status unavailable() {
  return Status(StatusCode::CudaUnavailable,
                "the runtime was built without CUDA "
                "(TENSORPLAY_ENABLE_CUDA=OFF)");
}

} // namespace

bool compiledIn() { return false; }
Status deviceStatus() { return unavailable(); }
void setStream(void *) {}
void *stream() { return nullptr; }
Status allocate(size_t, void **) { return unavailable(); }
void release(void *) {}
Status memsetAsync(void *, int, size_t) { return unavailable(); }
Status copyFromHost(void *, const void *, size_t) { return unavailable(); }
Status copyToHost(void *, const void *, size_t) { return unavailable(); }
Status copyDeviceToDevice(void *, const void *, size_t) {
  return unavailable();
}
Status synchronize() { return unavailable(); }
Status unscaleAndCheck(TensorList, const float *, float *) {
  return unavailable();
}
Status scaleLoss(const Tensor &, const float *, const Tensor &) {
  return unavailable();
}
Status updateScale(float *, int32_t *, const float *, int64_t, double, double,
                   int64_t) {
  return unavailable();
}
Status sgdStep(const SgdHyperParams &, TensorList, TensorList, TensorList,
               int64_t *, const float *, const float *) {
  return unavailable();
}
Status adamwStep(const AdamWHyperParams &, TensorList, TensorList, TensorList,
                 TensorList, TensorList, int64_t *, const float *,
                 const float *) {
  return unavailable();
}

} // namespace tensorplay::amp::cuda
