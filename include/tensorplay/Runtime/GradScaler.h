//===- tensorplay/Runtime/GradScaler.h - Dynamic loss scaling ---*- C++ -*-===//
//
// tensorplay::amp::GradScaler, the C++ form of tensorplay.amp.GradScaler /
// torch.amp.GradScaler: loss scaling, unscale + inf/NaN check, step skipping
// and the dynamic scale, on the CPU or a CUDA device. The scale, the growth
// tracker and found_inf live on the scaler's device; on CUDA nothing in
// scale / unscale / step / update waits for the device.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_GRADSCALER_H
#define TENSORPLAY_RUNTIME_GRADSCALER_H

#include "tensorplay/Runtime/Buffer.h"
#include "tensorplay/Runtime/GradScalerState.h"
#include "tensorplay/Runtime/Optimizers.h"
#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace tensorplay::amp {

/// Constructor arguments, with tensorplay.amp.GradScaler's defaults.
struct GradScalerOptions {
  double initScale = 65536.0;
  double growthFactor = 2.0;
  double backoffFactor = 0.5;
  int64_t growthInterval = 2000;
  bool enabled = true;
};

/// Dynamic loss scaling. Per optimizer and per iteration the stages are
/// READY -> (unscale) UNSCALED -> (step) STEPPED; update() starts the next
/// iteration. Misuse returns StatusCode::InvalidState.
class GradScaler {
public:
  /// Checks the options (growthFactor > 1, 0 < backoffFactor < 1,
  /// 1 <= growthInterval <= kMaxGrowthInterval (INT32_MAX: the growth tracker
  /// is an int32), 0 < initScale < inf when enabled). As in
  /// tensorplay, a CUDA scaler created where no CUDA device is usable is
  /// disabled, with warning() saying why.
  static Expected<GradScaler> create(Device device,
                                     const GradScalerOptions &options = {});

  GradScaler(GradScaler &&) noexcept = default;
  GradScaler &operator=(GradScaler &&) noexcept = default;

  /// out = loss * scale (loss and out: same dtype, numel, device; they may
  /// alias). Disabled: out = loss.
  Status scale(const Tensor &loss, const Tensor &out);
  /// unscale_(optimizer): divides the optimizer's gradients by the scale in
  /// place and records found_inf for it. At most once per optimizer per
  /// iteration, before step(). f16 gradients are refused.
  Status unscale(Optimizer &optimizer);
  /// step(optimizer): unscales first when unscale() was not called (or lets
  /// a fused optimizer do it), then steps, skipping the update when this
  /// optimizer's gradients held inf/NaN: on the host (step() is not called)
  /// on the CPU and for optimizers without skipsOnFoundInf(), which on CUDA
  /// waits for the device; on the device otherwise.
  Status step(Optimizer &optimizer);
  /// update(new_scale): with a value, sets the scale to it; otherwise applies
  /// the dynamic rule with found_inf summed over all optimizers of this
  /// iteration. Starts a new iteration.
  Status update(std::optional<double> newScale = std::nullopt);

  /// The current scale (waits for the device); 1.0 when disabled.
  Expected<double> getScale() const;
  /// The growth tracker (waits for the device); 0 when disabled.
  Expected<int64_t> getGrowthTracker() const;
  double getGrowthFactor() const { return growthFactor; }
  Status setGrowthFactor(double factor);
  double getBackoffFactor() const { return backoffFactor; }
  Status setBackoffFactor(double factor);
  int64_t getGrowthInterval() const { return growthInterval; }
  Status setGrowthInterval(int64_t interval);
  bool isEnabled() const { return enabled; }
  Device device() const { return dev; }
  /// Why the scaler disabled itself at creation (empty otherwise).
  const std::string &warning() const { return warningText; }

  /// The found_inf recorded for `optimizer` this iteration (waits for the
  /// device); InvalidState when it was neither unscaled nor stepped.
  Expected<float> foundInf(const Optimizer &optimizer) const;
  /// The device address of the scale (for callers that launch their own
  /// kernels; null when disabled).
  const float *scaleData() const;

  /// state_dict(): empty when disabled.
  Expected<GradScalerState> stateDict() const;
  /// load_state_dict(): no-op when disabled; an empty state is an error.
  Status loadStateDict(const GradScalerState &state);
  /// state_dict() written to a versioned file.
  Status saveState(const std::string &path) const;
  /// load_state_dict() from a file written by saveState.
  Status loadState(const std::string &path);

private:
  enum class Stage { Ready, Unscaled, Stepped };
  struct OptimizerState {
    const Optimizer *optimizer;
    Stage stage;
    int64_t slot;
  };

  GradScaler() = default;
  Status requireScaleUsed(const char *function) const;
  Status verifyOptimizer(const Optimizer &optimizer) const;
  OptimizerState *findState(const Optimizer &optimizer);
  const OptimizerState *findState(const Optimizer &optimizer) const;
  /// The found_inf slot of `state`, or a zeroed new one (the next free
  /// index) when `state` is null. The state itself is recorded by the caller
  /// once the operation succeeded; slotFor reserves the room for it.
  Expected<int64_t> slotFor(const OptimizerState *state);
  float *slotData(int64_t slot) const;
  /// The found_inf of `slot` on the host (waits for the device on CUDA).
  Expected<float> readSlot(int64_t slot) const;
  Status writeScale(double value);

  Device dev = Device::CPU;
  bool enabled = true;
  bool scaleUsed = false;
  std::string warningText;
  double growthFactor = 2.0;
  double backoffFactor = 0.5;
  int64_t growthInterval = 2000;
  /// One float: the scale.
  Buffer scaleStorage;
  /// One int32: the growth tracker.
  Buffer trackerStorage;
  /// One float per optimizer of this iteration.
  Buffer foundInfSlots;
  int64_t slotCapacity = 0;
  std::vector<OptimizerState> states;
};

} // namespace tensorplay::amp

#endif // TENSORPLAY_RUNTIME_GRADSCALER_H
