//===- tensorplay/Runtime/Optimizers.h - SGD and AdamW ----------*- C++ -*-===//
//
// Optimizers over lists of (parameter, gradient) tensors with their state in
// device memory, in the form GradScaler drives: step() takes the gradient
// scale and found_inf as device pointers and skips the update on the device
// when found_inf is set.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_OPTIMIZERS_H
#define TENSORPLAY_RUNTIME_OPTIMIZERS_H

#include "tensorplay/Runtime/Buffer.h"
#include "tensorplay/Runtime/Kernels.h"
#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <memory>
#include <vector>

namespace tensorplay::amp {

/// What GradScaler hands to Optimizer::step (torch's optimizer.grad_scale
/// and optimizer.found_inf). Both point to floats on the optimizer's device.
struct AmpStepArgs {
  /// When non-null, the gradients are still scaled by *gradScale: the step
  /// divides them by it and writes the unscaled gradients back, as torch's
  /// fused optimizers do (fused optimizers only).
  const float *gradScale = nullptr;
  /// When non-null and *foundInf != 0, the step changes nothing (see
  /// Optimizer::skipsOnFoundInf).
  const float *foundInf = nullptr;
};

/// The interface GradScaler drives.
class Optimizer {
public:
  virtual ~Optimizer();
  /// The device of every parameter, gradient and state buffer.
  virtual Device device() const = 0;
  /// The gradients, in the order of the parameters.
  virtual TensorList gradients() const = 0;
  /// True when step() can unscale the gradients itself (torch's
  /// _step_supports_amp_scaling): GradScaler then only checks them for
  /// inf/NaN and passes the scale, and the step unscales them in its own
  /// pass (writing them back, as torch's fused kernels).
  virtual bool fused() const { return false; }
  /// True when step(args) itself changes nothing while *args.foundInf != 0,
  /// reading it where it lives (SGD and AdamW do, on the device). On CUDA,
  /// GradScaler::step then calls step() without waiting for the device. For
  /// any other optimizer (the default) it reads found_inf on the host first
  /// (a device synchronisation on CUDA) and does not call step() when it is
  /// set, as torch does. On the CPU, where found_inf is host memory,
  /// GradScaler never calls step() when it is set.
  virtual bool skipsOnFoundInf() const { return false; }
  /// Applies one update (see AmpStepArgs).
  virtual Status step(const AmpStepArgs &args = {}) = 0;
};

/// torch.optim.SGD options.
struct SgdOptions : SgdHyperParams {
  /// Let GradScaler fuse the unscale into the step.
  bool fused = false;
};

/// torch.optim.SGD.
class SGD final : public Optimizer {
public:
  /// Parameters and gradients pair up by index: same numel, and one dtype and
  /// device for all. Allocates the momentum buffers when momentum != 0.
  static Expected<std::unique_ptr<SGD>> create(std::vector<Tensor> params,
                                               std::vector<Tensor> grads,
                                               const SgdOptions &options);

  Device device() const override { return dev; }
  TensorList gradients() const override { return grads; }
  bool fused() const override { return opts.fused; }
  bool skipsOnFoundInf() const override { return true; }
  Status step(const AmpStepArgs &args = {}) override;

  TensorList parameters() const { return params; }
  /// Empty when momentum == 0.
  TensorList momentumBuffers() const { return momentumViews; }
  /// The number of applied (not skipped) steps.
  Expected<int64_t> stepCount() const;
  const SgdOptions &options() const { return opts; }

private:
  SGD() = default;

  std::vector<Tensor> params, grads, momentumViews;
  std::vector<Buffer> momentumStorage;
  Buffer stepStorage;
  SgdOptions opts;
  Device dev = Device::CPU;
};

/// torch.optim.AdamW options.
struct AdamWOptions : AdamWHyperParams {
  /// Let GradScaler fuse the unscale into the step.
  bool fused = false;
};

/// torch.optim.AdamW.
class AdamW final : public Optimizer {
public:
  /// As SGD::create; allocates exp_avg, exp_avg_sq (and max_exp_avg_sq).
  static Expected<std::unique_ptr<AdamW>> create(std::vector<Tensor> params,
                                                 std::vector<Tensor> grads,
                                                 const AdamWOptions &options);

  Device device() const override { return dev; }
  TensorList gradients() const override { return grads; }
  bool fused() const override { return opts.fused; }
  bool skipsOnFoundInf() const override { return true; }
  Status step(const AmpStepArgs &args = {}) override;

  TensorList parameters() const { return params; }
  TensorList expAvgs() const { return expAvgViews; }
  TensorList expAvgSqs() const { return expAvgSqViews; }
  /// Empty unless amsgrad.
  TensorList maxExpAvgSqs() const { return maxExpAvgSqViews; }
  /// The number of applied (not skipped) steps.
  Expected<int64_t> stepCount() const;
  const AdamWOptions &options() const { return opts; }

private:
  AdamW() = default;

  std::vector<Tensor> params, grads, expAvgViews, expAvgSqViews,
      maxExpAvgSqViews;
  std::vector<Buffer> stateStorage;
  Buffer stepStorage;
  AdamWOptions opts;
  Device dev = Device::CPU;
};

} // namespace tensorplay::amp

#endif // TENSORPLAY_RUNTIME_OPTIMIZERS_H
