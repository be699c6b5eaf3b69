//===- ScalerRig.h - A minimal training loop for GradScaler tests -*- C++
//-*-===//

#ifndef TENSORPLAY_TEST_RUNTIME_SCALERRIG_H
#define TENSORPLAY_TEST_RUNTIME_SCALERRIG_H

#include "RuntimeTestUtils.h"

#include "tensorplay/Runtime/GradScaler.h"
#include "tensorplay/Runtime/Optimizers.h"

#include <limits>
#include <memory>
#include <optional>

namespace tensorplay::amp::test {

/// Four f32 parameters trained by SGD under a CPU GradScaler: each
/// iteration scales a loss, writes gradients (all 1, or one inf), steps and
/// updates.
struct ScalerRig {
  std::vector<float> param{1.0f, 2.0f, 3.0f, 4.0f};
  std::vector<float> grad = std::vector<float>(4, 0.0f);
  std::vector<float> loss{0.5f};
  std::vector<float> scaledLoss{0.0f};
  std::unique_ptr<SGD> sgd;
  std::optional<GradScaler> scaler;

  Status init(const GradScalerOptions &options,
              const SgdOptions &sgdOptions = SgdOptions()) {
    Expected<GradScaler> created = GradScaler::create(Device::CPU, options);
    if (!created)
      return created.status();
    scaler.emplace(created.take());
    Expected<std::unique_ptr<SGD>> opt =
        SGD::create({cpuTensor(param)}, {cpuTensor(grad)}, sgdOptions);
    if (!opt)
      return opt.status();
    sgd = opt.take();
    return Status::success();
  }

  /// Gradients of the scaled loss: the scale times 1, or inf at index 1.
  Status writeGradients(bool inf) {
    Expected<double> scale = scaler->getScale();
    if (!scale)
      return scale.status();
    for (float &g : grad)
      g = static_cast<float>(*scale);
    if (inf)
      grad[1] = std::numeric_limits<float>::infinity();
    return Status::success();
  }

  Status iterate(bool inf) {
    TP_RT_RETURN_IF_ERROR(
        scaler->scale(cpuTensor(loss), cpuTensor(scaledLoss)));
    TP_RT_RETURN_IF_ERROR(writeGradients(inf));
    TP_RT_RETURN_IF_ERROR(scaler->step(*sgd));
    return scaler->update();
  }

  double scale() { return *scaler->getScale(); }
  int64_t tracker() { return *scaler->getGrowthTracker(); }
};

} // namespace tensorplay::amp::test

#endif // TENSORPLAY_TEST_RUNTIME_SCALERRIG_H
