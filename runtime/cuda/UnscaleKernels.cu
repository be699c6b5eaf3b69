//===- UnscaleKernels.cu - CUDA unscale + check and loss scaling ----------===//
//
// The multi-tensor unscale: every block reads the scale from device memory,
// unscales its chunk in place and, if it saw an inf/NaN, writes 1.0f to
// found_inf on the device. Nothing is copied to or from the host.
//
//===----------------------------------------------------------------------===//

#include "HostDevice.h"
#include "cuda/MultiTensorApply.cuh"

#include <vector>

namespace tensorplay::amp::cuda {
namespace {

template <typename T>
struct UnscaleFunctor {
  /// `scale` null: check only.
  __device__ void operator()(const TensorListMeta<1> &meta, const float *scale,
                             float *foundInf) const {
    using Element = DeviceElement<T>;
    Chunk<T> chunk = chunkOf<T>(meta, 0);
    const bool write = scale != nullptr;
    const float invScale = write ? detail::inverseOf(*scale) : 1.0f;
    bool nonFinite = false;
    for (int64_t i = threadIdx.x; i < chunk.size; i += blockDim.x) {
      float value = Element::load(chunk.data[i]);
      nonFinite |= !detail::finite(value);
      if (write)
        chunk.data[i] = Element::store(value * invScale);
    }
    if (nonFinite)
      *foundInf = 1.0f;
  }
};

template <typename T>
__global__ void scaleLossKernel(const T *loss, T *out, int64_t n,
                                const float *scale) {
  using Element = DeviceElement<T>;
  const float factor = *scale;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<int64_t>(blockDim.x) * gridDim.x)
    out[i] = Element::store(Element::load(loss[i]) * factor);
}

} // namespace

Status unscaleAndCheck(TensorList grads, const float *scale, float *foundInf) {
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(scale, "scale"));
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(foundInf, "found_inf"));
  // Gradients of several dtypes: one multi-tensor pass per dtype. The groups
  // are built before the first launch, so that a failed host allocation
  // leaves every gradient as it was.
  const DType dtypes[3] = {DType::F32, DType::F16, DType::BF16};
  std::vector<Tensor> groups[3];
  for (int d = 0; d < 3; ++d)
    for (const Tensor &grad : grads)
      if (grad.dtype == dtypes[d])
        groups[d].push_back(grad);
  for (int d = 0; d < 3; ++d) {
    if (groups[d].empty())
      continue;
    const TensorList lists[1] = {TensorList(groups[d])};
    TP_RT_RETURN_IF_ERROR(dispatchDType(dtypes[d], [&](auto tag) {
      using T = typename decltype(tag)::type;
      return multiTensorApply<1>(lists, UnscaleFunctor<T>{}, scale, foundInf);
    }));
  }
  return Status::success();
}

Status scaleLoss(const Tensor &loss, const float *scale, const Tensor &out) {
  TP_RT_RETURN_IF_ERROR(requireDevicePointer(scale, "scale"));
  return dispatchDType(loss.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    int64_t blocks = (loss.numel + kBlockSize - 1) / kBlockSize;
    if (blocks > 1024)
      blocks = 1024;
    scaleLossKernel<T>
        <<<static_cast<unsigned>(blocks), kBlockSize, 0, currentStream()>>>(
            static_cast<const T *>(loss.data), static_cast<T *>(out.data),
            loss.numel, scale);
    return checkLaunch("scaleLossKernel");
  });
}

} // namespace tensorplay::amp::cuda
