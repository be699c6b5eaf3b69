//===- GradScaler.cpp - Dynamic loss scaling ------------------------------===//
//
// The state machine of tensorplay.amp.GradScaler over the device kernels of
// Kernels.h. The scale, the growth tracker and one found_inf per optimizer
// live in device memory and are only read back by the getters.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/GradScaler.h"

#include "tensorplay/Runtime/Kernels.h"

#include "NoThrow.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace tensorplay::amp {
namespace {

constexpr int64_t kInitialSlots = 16;

Status invalidState(const std::string &message) {
  return Status(StatusCode::InvalidState, message);
}

/// A scale must be a positive number that stays finite as a float.
Status verifyScaleValue(double value, const char *what) {
  float asFloat = static_cast<float>(value);
  if (!(std::isfinite(asFloat) && asFloat > 0.0f))
    return Status(StatusCode::InvalidArgument,
                  std::string(what) +
                      " must be a positive, finite float, got " +
                      std::to_string(value));
  return Status::success();
}

} // namespace

Expected<GradScaler> GradScaler::create(Device device,
                                        const GradScalerOptions &options) {
  return detail::catchExceptions([&]() -> Expected<GradScaler> {
    if (!isValidDevice(static_cast<int32_t>(device)))
      return Status(StatusCode::InvalidArgument, "unknown device");
    GradScaler scaler;
    scaler.dev = device;
    scaler.enabled = options.enabled;
    scaler.growthFactor = options.growthFactor;
    scaler.backoffFactor = options.backoffFactor;
    scaler.growthInterval = options.growthInterval;
    if (!scaler.enabled)
      return scaler;

    TP_RT_RETURN_IF_ERROR(verifyScaleFactors(
        options.growthFactor, options.backoffFactor, options.growthInterval));
    TP_RT_RETURN_IF_ERROR(verifyScaleValue(options.initScale, "init_scale"));
    if (device == Device::CUDA) {
      Status cuda = cudaDeviceStatus();
      if (!cuda.ok()) {
        scaler.enabled = false;
        scaler.warningText =
            "tensorplay.amp.GradScaler is enabled, but CUDA is not available. "
            " Disabling. (" +
            cuda.message() + ")";
        return scaler;
      }
    }

    Expected<Buffer> scale = Buffer::allocate(device, sizeof(float));
    if (!scale)
      return scale.status();
    scaler.scaleStorage = scale.take();
    Expected<Buffer> tracker = Buffer::allocate(device, sizeof(int32_t));
    if (!tracker)
      return tracker.status();
    scaler.trackerStorage = tracker.take();
    Expected<Buffer> slots =
        Buffer::allocate(device, kInitialSlots * sizeof(float));
    if (!slots)
      return slots.status();
    scaler.foundInfSlots = slots.take();
    scaler.slotCapacity = kInitialSlots;
    TP_RT_RETURN_IF_ERROR(scaler.writeScale(options.initScale));
    return scaler;
  });
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Status GradScaler::requireScaleUsed(const char *function) const {
  if (scaleUsed)
    return Status::success();
  return invalidState(
      std::string("Attempted ") + function +
      " but _scale is None.  This may indicate your script did not use "
      "scaler.scale(loss or outputs) earlier in the iteration.");
}

Status GradScaler::verifyOptimizer(const Optimizer &optimizer) const {
  if (optimizer.device() != dev)
    return Status(StatusCode::DeviceMismatch,
                  std::string("the optimizer is on ") +
                      deviceName(optimizer.device()) +
                      " but the GradScaler is on " + deviceName(dev));
  return Status::success();
}

GradScaler::OptimizerState *GradScaler::findState(const Optimizer &optimizer) {
  for (OptimizerState &state : states)
    if (state.optimizer == &optimizer)
      return &state;
  return nullptr;
}

const GradScaler::OptimizerState *
GradScaler::findState(const Optimizer &optimizer) const {
  return const_cast<GradScaler *>(this)->findState(optimizer);
}

float *GradScaler::slotData(int64_t slot) const {
  return static_cast<float *>(foundInfSlots.data()) + slot;
}

Expected<int64_t> GradScaler::slotFor(const OptimizerState *state) {
  if (state)
    return state->slot;
  // Make room for the record the caller appends after its kernel ran, so
  // that appending cannot fail once the gradients were changed.
  if (states.size() == states.capacity())
    TP_RT_RETURN_IF_ERROR(detail::catchExceptions([&] {
      states.reserve(states.empty() ? 4 : 2 * states.size());
      return Status::success();
    }));
  int64_t slot = static_cast<int64_t>(states.size());
  if (slot >= slotCapacity) {
    // Grow. On CUDA the copy is ordered after the kernels already enqueued
    // on the old slots, and cudaFree of the old buffer synchronises the
    // device (growth happens only past 16 optimizers per iteration).
    int64_t capacity = slotCapacity * 2;
    Expected<Buffer> grown =
        Buffer::allocate(dev, static_cast<size_t>(capacity) * sizeof(float));
    if (!grown)
      return grown.status();
    TP_RT_RETURN_IF_ERROR(
        grown->copyFrom(foundInfSlots, foundInfSlots.bytes()));
    foundInfSlots = grown.take();
    slotCapacity = capacity;
  }
  TP_RT_RETURN_IF_ERROR(foundInfSlots.zero(
      static_cast<size_t>(slot) * sizeof(float), sizeof(float)));
  return slot;
}

Status GradScaler::writeScale(double value) {
  float asFloat = static_cast<float>(value);
  return scaleStorage.copyFromHost(&asFloat, sizeof(asFloat));
}

const float *GradScaler::scaleData() const {
  return enabled ? static_cast<const float *>(scaleStorage.data()) : nullptr;
}

//===----------------------------------------------------------------------===//
// scale / unscale / step / update
//===----------------------------------------------------------------------===//

Status GradScaler::scale(const Tensor &loss, const Tensor &out) {
  if (!enabled) {
    TP_RT_RETURN_IF_ERROR(verifyTensor(loss, "loss"));
    TP_RT_RETURN_IF_ERROR(verifyTensor(out, "out"));
    if (loss.device != out.device || loss.dtype != out.dtype ||
        loss.numel != out.numel)
      return Status(StatusCode::InvalidArgument,
                    "loss and out must have the same device, dtype and "
                    "element count");
    if (loss.data == out.data || loss.numel == 0)
      return Status::success();
    if (loss.device == Device::CPU) {
      std::memmove(out.data, loss.data, loss.bytes());
      return Status::success();
    }
    // A pass-through on a usable CUDA device: scale by a device 1.0.
    Expected<Buffer> one = Buffer::allocate(loss.device, sizeof(float));
    if (!one)
      return one.status();
    float value = 1.0f;
    TP_RT_RETURN_IF_ERROR(one->copyFromHost(&value, sizeof(value)));
    TP_RT_RETURN_IF_ERROR(
        scaleLoss(loss, static_cast<const float *>(one->data()), out));
    return synchronizeDevice(loss.device);
  }
  if (loss.device != dev)
    return Status(StatusCode::DeviceMismatch,
                  std::string("the loss is on ") + deviceName(loss.device) +
                      " but the GradScaler is on " + deviceName(dev));
  TP_RT_RETURN_IF_ERROR(scaleLoss(loss, scaleData(), out));
  scaleUsed = true;
  return Status::success();
}

Status GradScaler::unscale(Optimizer &optimizer) {
  if (!enabled)
    return Status::success();
  TP_RT_RETURN_IF_ERROR(requireScaleUsed("unscale_"));
  TP_RT_RETURN_IF_ERROR(verifyOptimizer(optimizer));
  OptimizerState *state = findState(optimizer);
  if (state && state->stage == Stage::Unscaled)
    return invalidState("unscale_() has already been called on this "
                        "optimizer since the last update().");
  if (state && state->stage == Stage::Stepped)
    return invalidState("unscale_() is being called after step().");
  Expected<int64_t> slot = slotFor(state);
  if (!slot)
    return slot.status();
  TP_RT_RETURN_IF_ERROR(
      unscaleAndCheck(optimizer.gradients(), scaleData(), slotData(*slot)));
  if (state)
    state->stage = Stage::Unscaled;
  else
    states.push_back(OptimizerState{&optimizer, Stage::Unscaled, *slot});
  return Status::success();
}

Status GradScaler::step(Optimizer &optimizer) {
  if (!enabled)
    return optimizer.step();
  TP_RT_RETURN_IF_ERROR(requireScaleUsed("step"));
  TP_RT_RETURN_IF_ERROR(verifyOptimizer(optimizer));
  if (const OptimizerState *state = findState(optimizer))
    if (state->stage == Stage::Stepped)
      return invalidState(
          "step() has already been called since the last update().");
  AmpStepArgs args;
  const OptimizerState *state = findState(optimizer);
  bool unscaled = state && state->stage == Stage::Unscaled;
  if (optimizer.fused()) {
    // The optimizer unscales: only check here, unless unscale_() ran.
    if (!unscaled) {
      Expected<int64_t> slot = slotFor(state);
      if (!slot)
        return slot.status();
      TP_RT_RETURN_IF_ERROR(
          checkFinite(optimizer.gradients(), slotData(*slot)));
      if (!state)
        states.push_back(OptimizerState{&optimizer, Stage::Ready, *slot});
      args.gradScale = scaleData();
    }
  } else if (!unscaled) {
    TP_RT_RETURN_IF_ERROR(unscale(optimizer));
  }
  OptimizerState *recorded = findState(optimizer);
  args.foundInf = slotData(recorded->slot);
  // torch skips optimizer.step() on the host when found_inf is set. On the
  // CPU reading it costs nothing; on CUDA it waits for the device, which an
  // optimizer that skips by itself spares.
  if (dev == Device::CPU || !optimizer.skipsOnFoundInf()) {
    Expected<float> found = readSlot(recorded->slot);
    if (!found)
      return found.status();
    if (*found != 0.0f) {
      recorded->stage = Stage::Stepped;
      return Status::success();
    }
  }
  TP_RT_RETURN_IF_ERROR(optimizer.step(args));
  recorded->stage = Stage::Stepped;
  return Status::success();
}

Status GradScaler::update(std::optional<double> newScale) {
  if (!enabled)
    return Status::success();
  TP_RT_RETURN_IF_ERROR(requireScaleUsed("update"));
  if (newScale) {
    TP_RT_RETURN_IF_ERROR(verifyScaleValue(*newScale, "new_scale"));
    TP_RT_RETURN_IF_ERROR(writeScale(*newScale));
  } else {
    if (states.empty())
      return invalidState("No inf checks were recorded prior to update.");
    TP_RT_RETURN_IF_ERROR(
        updateScale(dev, static_cast<float *>(scaleStorage.data()),
                    static_cast<int32_t *>(trackerStorage.data()), slotData(0),
                    static_cast<int64_t>(states.size()), growthFactor,
                    backoffFactor, growthInterval));
  }
  states.clear();
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Getters and setters
//===----------------------------------------------------------------------===//

Expected<double> GradScaler::getScale() const {
  if (!enabled)
    return 1.0;
  float value = 0.0f;
  TP_RT_RETURN_IF_ERROR(scaleStorage.copyToHost(&value, sizeof(value)));
  return static_cast<double>(value);
}

Expected<int64_t> GradScaler::getGrowthTracker() const {
  if (!enabled)
    return int64_t(0);
  int32_t value = 0;
  TP_RT_RETURN_IF_ERROR(trackerStorage.copyToHost(&value, sizeof(value)));
  return static_cast<int64_t>(value);
}

Status GradScaler::setGrowthFactor(double factor) {
  TP_RT_RETURN_IF_ERROR(
      verifyScaleFactors(factor, backoffFactor, growthInterval));
  growthFactor = factor;
  return Status::success();
}

Status GradScaler::setBackoffFactor(double factor) {
  TP_RT_RETURN_IF_ERROR(
      verifyScaleFactors(growthFactor, factor, growthInterval));
  backoffFactor = factor;
  return Status::success();
}

Status GradScaler::setGrowthInterval(int64_t interval) {
  TP_RT_RETURN_IF_ERROR(
      verifyScaleFactors(growthFactor, backoffFactor, interval));
  growthInterval = interval;
  return Status::success();
}

Expected<float> GradScaler::foundInf(const Optimizer &optimizer) const {
  const OptimizerState *state = findState(optimizer);
  if (!state)
    return invalidState("no inf check was recorded for this optimizer in "
                        "this iteration");
  return readSlot(state->slot);
}

Expected<float> GradScaler::readSlot(int64_t slot) const {
  float value = 0.0f;
  TP_RT_RETURN_IF_ERROR(foundInfSlots.copyToHost(
      &value, sizeof(value), static_cast<size_t>(slot) * sizeof(float)));
  return value;
}

//===----------------------------------------------------------------------===//
// state_dict
//===----------------------------------------------------------------------===//

Expected<GradScalerState> GradScaler::stateDict() const {
  GradScalerState state;
  if (!enabled)
    return state;
  Expected<double> scaleValue = getScale();
  if (!scaleValue)
    return scaleValue.status();
  Expected<int64_t> tracker = getGrowthTracker();
  if (!tracker)
    return tracker.status();
  state.empty = false;
  state.scale = *scaleValue;
  state.growthFactor = growthFactor;
  state.backoffFactor = backoffFactor;
  state.growthInterval = growthInterval;
  state.growthTracker = *tracker;
  return state;
}

Status GradScaler::loadStateDict(const GradScalerState &state) {
  if (!enabled)
    return Status::success();
  if (state.empty)
    return Status(StatusCode::InvalidArgument,
                  "The source state dict is empty, possibly because it was "
                  "saved from a disabled instance of GradScaler.");
  TP_RT_RETURN_IF_ERROR(verifyScaleFactors(
      state.growthFactor, state.backoffFactor, state.growthInterval));
  TP_RT_RETURN_IF_ERROR(verifyScaleValue(state.scale, "scale"));
  if (state.growthTracker < 0 ||
      state.growthTracker > std::numeric_limits<int32_t>::max())
    return Status(StatusCode::InvalidArgument,
                  "growth tracker out of range: " +
                      std::to_string(state.growthTracker));
  TP_RT_RETURN_IF_ERROR(writeScale(state.scale));
  int32_t tracker = static_cast<int32_t>(state.growthTracker);
  TP_RT_RETURN_IF_ERROR(trackerStorage.copyFromHost(&tracker, sizeof(tracker)));
  growthFactor = state.growthFactor;
  backoffFactor = state.backoffFactor;
  growthInterval = state.growthInterval;
  return Status::success();
}

Status GradScaler::saveState(const std::string &path) const {
  Expected<GradScalerState> state = stateDict();
  if (!state)
    return state.status();
  return writeGradScalerState(path, *state);
}

Status GradScaler::loadState(const std::string &path) {
  Expected<GradScalerState> state = readGradScalerState(path);
  if (!state)
    return state.status();
  return loadStateDict(*state);
}

} // namespace tensorplay::amp
