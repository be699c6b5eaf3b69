//===- ScaleKernels.cpp - CPU unscale driver, loss scaling, scale update --===//

#include "HostDevice.h"
#include "cpu/CpuKernels.h"
#include "cpu/FloatConversion.h"
#include "cpu/Parallel.h"
#include "cpu/UnscaleKernels.h"

#include <vector>

namespace tensorplay::amp::cpu {

bool unscaleAndCheck(TensorList grads, float invScale, bool write) {
  const UnscaleKernels &kernels = activeUnscaleKernels();
  // One flag per worker, each on its own cache line.
  struct alignas(64) Flag {
    bool nonFinite = false;
  };
  const unsigned workers = workersFor(grads);
  std::vector<Flag> flags(workers);
  forEachRange(grads, workers, [&](const Range &range) {
    const Tensor &grad = grads[range.tensor];
    char *base = static_cast<char *>(grad.data) +
                 range.begin * static_cast<int64_t>(elementSize(grad.dtype));
    if (kernels.forDType(grad.dtype)(base, range.end - range.begin, invScale,
                                     write))
      flags[range.worker].nonFinite = true;
  });
  for (unsigned w = 0; w < workers; ++w)
    if (flags[w].nonFinite)
      return true;
  return false;
}

namespace {

template <typename Elem>
void scaleLossTyped(const Tensor &loss, float scale, const Tensor &out) {
  using Traits = ElementTraits<Elem>;
  using Storage = typename Traits::Storage;
  const Storage *in = loss.as<Storage>();
  Storage *result = out.as<Storage>();
  for (int64_t i = 0; i < loss.numel; ++i)
    result[i] = Traits::store(Traits::load(in[i]) * scale);
}

} // namespace

void scaleLoss(const Tensor &loss, float scale, const Tensor &out) {
  switch (loss.dtype) {
  case DType::F32:
    return scaleLossTyped<float>(loss, scale, out);
  case DType::F16:
    return scaleLossTyped<F16Tag>(loss, scale, out);
  case DType::BF16:
    return scaleLossTyped<BF16Tag>(loss, scale, out);
  }
}

void updateScale(float *scale, int32_t *growthTracker, const float *foundInf,
                 int64_t numFoundInf, double growthFactor, double backoffFactor,
                 int64_t growthInterval) {
  float found = 0.0f;
  for (int64_t i = 0; i < numFoundInf; ++i)
    found += foundInf[i];
  detail::updateScaleRule(scale, growthTracker, found, growthFactor,
                          backoffFactor, growthInterval);
}

} // namespace tensorplay::amp::cpu
