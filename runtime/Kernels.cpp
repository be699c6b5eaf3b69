//===- Kernels.cpp - Validation and device dispatch of the kernels --------===//
//
// Every public kernel entry point checks its arguments here, then runs the
// CPU implementation (cpu/) or the CUDA one (cuda/) by the tensors' device.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Kernels.h"

#include "NoThrow.h"
#include "cpu/CpuKernels.h"
#include "cuda/CudaBackend.h"

#include <cmath>
#include <string>

namespace tensorplay::amp {
namespace {

Status invalid(const std::string &message) {
  return Status(StatusCode::InvalidArgument, message);
}

Status nullPointer(const char *what) {
  return Status(StatusCode::NullPointer, std::string(what) + " is null");
}

std::string itemName(const char *list, size_t index) {
  return std::string(list) + "[" + std::to_string(index) + "]";
}

/// Checks each tensor of `list` and that all are on one device (returned in
/// `device`); with `dtype`, also that all have that dtype, which `whose` names
/// in the error ("the parameters are", or "grads[0] is" where a list may be
/// narrower than the parameters and has its first tensor's). The kernels treat
/// a list as one flat range, so its total element count must fit in int64.
Status verifyList(TensorList list, const char *name, Device &device,
                  const DType *dtype = nullptr,
                  const std::string &whose = "the parameters are") {
  if (!list.empty() && !list.data())
    return nullPointer(name);
  int64_t total = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string item = itemName(name, i);
    TP_RT_RETURN_IF_ERROR(verifyTensor(list[i], item.c_str()));
    if (__builtin_add_overflow(total, list[i].numel, &total))
      return invalid(std::string("the total element count of ") + name +
                     " overflows int64 at " + item);
    if (i == 0)
      device = list[i].device;
    else if (list[i].device != device)
      return Status(StatusCode::DeviceMismatch,
                    item + " is on " + deviceName(list[i].device) + " but " +
                        name + "[0] is on " + deviceName(device));
    if (dtype && list[i].dtype != *dtype)
      return Status(StatusCode::UnsupportedDType,
                    item + " is " + dtypeName(list[i].dtype) + " but " + whose +
                        " " + dtypeName(*dtype));
  }
  return Status::success();
}

/// Checks that `list` pairs up with the parameters: same length, numel,
/// dtype (or, given `narrow`, that dtype) and device.
Status verifyCompanion(TensorList params, TensorList list, const char *name,
                       const DType *narrow = nullptr) {
  if (list.size() != params.size())
    return Status(StatusCode::SizeMismatch,
                  std::string(name) + " has " + std::to_string(list.size()) +
                      " tensors for " + std::to_string(params.size()) +
                      " parameters");
  Device device = params.empty() ? Device::CPU : params[0].device;
  Device listDevice = device;
  // A narrower list has the dtype of its first tensor (checked against the
  // parameters' by the caller); the others must match that one.
  TP_RT_RETURN_IF_ERROR(
      narrow ? verifyList(list, name, listDevice, narrow,
                          itemName(name, 0) + " is")
             : verifyList(list, name, listDevice, &params[0].dtype));
  if (listDevice != device)
    return Status(StatusCode::DeviceMismatch,
                  std::string(name) + " is on " + deviceName(listDevice) +
                      " but the parameters are on " + deviceName(device));
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].numel != params[i].numel)
      return Status(StatusCode::SizeMismatch,
                    itemName(name, i) + " has " +
                        std::to_string(list[i].numel) + " elements, " +
                        itemName("params", i) + " has " +
                        std::to_string(params[i].numel));
  return Status::success();
}

/// Checks a list that may be narrower than f32 parameters (the gradients, or
/// with `copies` the parameter copies, which must be): bf16 or f16, one
/// dtype for the list, on the CPU. Otherwise as verifyCompanion.
Status verifyNarrowCompanion(TensorList params, TensorList list,
                             const char *name, bool copies) {
  DType first = list.empty() ? params[0].dtype : list[0].dtype;
  if (!copies && first == params[0].dtype)
    return verifyCompanion(params, list, name);
  if (list.size() == params.size()) {
    if (copies && first == DType::F32)
      return Status(StatusCode::UnsupportedDType,
                    itemName(name, 0) + " is f32: parameter copies are bf16 "
                                        "or f16 copies of f32 parameters");
    if (params[0].dtype != DType::F32 || first == DType::F32)
      return Status(StatusCode::UnsupportedDType,
                    itemName(name, 0) + " is " + dtypeName(first) +
                        " but the parameters are " +
                        dtypeName(params[0].dtype) +
                        (copies ? ": parameter copies are bf16 or f16 "
                                  "copies of f32 parameters"
                                : ": gradients have the parameters' dtype "
                                  "(only f32 parameters also take bf16 or "
                                  "f16 gradients)"));
    if (params[0].device != Device::CPU)
      return Status(StatusCode::Unsupported,
                    std::string(name) + ": " +
                        (copies ? "parameter copies" : "narrower gradients") +
                        " are supported on the CPU only");
  }
  return verifyCompanion(params, list, name, &first);
}

/// The gradients and (when not empty) the parameter copies of an optimizer
/// step.
Status verifyOptimizerGrads(TensorList params, TensorList grads,
                            TensorList copies) {
  TP_RT_RETURN_IF_ERROR(verifyNarrowCompanion(params, grads, "grads", false));
  if (copies.empty())
    return Status::success();
  return verifyNarrowCompanion(params, copies, "param_copies", true);
}

/// Checks the parameter list (non-empty callers only) and returns its device.
Status verifyParams(TensorList params, Device &device) {
  TP_RT_RETURN_IF_ERROR(
      verifyList(params, "params", device, &params[0].dtype, "params[0] is"));
  return Status::success();
}

Status requireCuda() { return cuda::deviceStatus(); }

bool nonNegativeFinite(double value) {
  return std::isfinite(value) && value >= 0.0;
}

} // namespace

//===----------------------------------------------------------------------===//
// Hyper-parameter checks
//===----------------------------------------------------------------------===//

Status verifyScaleFactors(double growthFactor, double backoffFactor,
                          int64_t growthInterval) {
  if (!(std::isfinite(growthFactor) && growthFactor > 1.0))
    return invalid("growth_factor must be a finite number > 1, got " +
                   std::to_string(growthFactor));
  if (!(backoffFactor > 0.0 && backoffFactor < 1.0))
    return invalid("backoff_factor must be in (0, 1), got " +
                   std::to_string(backoffFactor));
  // The growth tracker that counts up to the interval is an int32 (as
  // torch's), so a larger interval could never be reached.
  if (growthInterval < 1 || growthInterval > kMaxGrowthInterval)
    return invalid("growth_interval must be in [1, " +
                   std::to_string(kMaxGrowthInterval) + "], got " +
                   std::to_string(growthInterval));
  return Status::success();
}

Status verifySgdHyperParams(const SgdHyperParams &h) {
  if (!nonNegativeFinite(h.lr))
    return invalid("Invalid learning rate: " + std::to_string(h.lr));
  if (!nonNegativeFinite(h.momentum))
    return invalid("Invalid momentum value: " + std::to_string(h.momentum));
  if (!std::isfinite(h.dampening))
    return invalid("Invalid dampening value: " + std::to_string(h.dampening));
  if (!nonNegativeFinite(h.weightDecay))
    return invalid("Invalid weight_decay value: " +
                   std::to_string(h.weightDecay));
  if (h.nesterov && (h.momentum <= 0.0 || h.dampening != 0.0))
    return invalid("Nesterov momentum requires a momentum and zero dampening");
  return Status::success();
}

Status verifyAdamWHyperParams(const AdamWHyperParams &h) {
  if (!nonNegativeFinite(h.lr))
    return invalid("Invalid learning rate: " + std::to_string(h.lr));
  if (!nonNegativeFinite(h.eps))
    return invalid("Invalid epsilon value: " + std::to_string(h.eps));
  if (!(h.beta1 >= 0.0 && h.beta1 < 1.0))
    return invalid("Invalid beta parameter at index 0: " +
                   std::to_string(h.beta1));
  if (!(h.beta2 >= 0.0 && h.beta2 < 1.0))
    return invalid("Invalid beta parameter at index 1: " +
                   std::to_string(h.beta2));
  if (!nonNegativeFinite(h.weightDecay))
    return invalid("Invalid weight_decay value: " +
                   std::to_string(h.weightDecay));
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

Status scaleLoss(const Tensor &loss, const float *scale, const Tensor &out) {
  return detail::catchExceptions([&] {
    TP_RT_RETURN_IF_ERROR(verifyTensor(loss, "loss"));
    TP_RT_RETURN_IF_ERROR(verifyTensor(out, "out"));
    if (!scale)
      return nullPointer("scale");
    if (loss.device != out.device)
      return Status(StatusCode::DeviceMismatch,
                    "loss and out are on different devices");
    if (loss.dtype != out.dtype)
      return Status(StatusCode::UnsupportedDType,
                    "loss and out have different dtypes");
    if (loss.numel != out.numel)
      return Status(StatusCode::SizeMismatch,
                    "loss and out have different element counts");
    if (loss.numel == 0)
      return Status::success();
    if (loss.device == Device::CUDA) {
      TP_RT_RETURN_IF_ERROR(requireCuda());
      return cuda::scaleLoss(loss, scale, out);
    }
    cpu::scaleLoss(loss, *scale, out);
    return Status::success();
  });
}

namespace {

Status unscaleOrCheck(TensorList grads, const float *scale, float *foundInf,
                      bool allowFp16) {
  if (!foundInf)
    return nullPointer("found_inf");
  Device device = Device::CPU;
  TP_RT_RETURN_IF_ERROR(verifyList(grads, "grads", device));
  if (!allowFp16)
    for (const Tensor &grad : grads)
      if (grad.dtype == DType::F16)
        return Status(StatusCode::Fp16Gradients,
                      "Attempting to unscale FP16 gradients.");
  if (grads.empty())
    return Status::success();
  if (device == Device::CUDA) {
    TP_RT_RETURN_IF_ERROR(requireCuda());
    return cuda::unscaleAndCheck(grads, scale, foundInf);
  }
  bool write = scale != nullptr;
  if (cpu::unscaleAndCheck(grads, write ? inverseScale(*scale) : 1.0f, write))
    *foundInf = 1.0f;
  return Status::success();
}

} // namespace

Status unscaleAndCheck(TensorList grads, const float *scale, float *foundInf) {
  return detail::catchExceptions([&] {
    if (!scale)
      return nullPointer("scale");
    return unscaleOrCheck(grads, scale, foundInf, /*allowFp16=*/false);
  });
}

Status checkFinite(TensorList grads, float *foundInf) {
  return detail::catchExceptions([&] {
    return unscaleOrCheck(grads, nullptr, foundInf, /*allowFp16=*/true);
  });
}

Status updateScale(Device device, float *scale, int32_t *growthTracker,
                   const float *foundInf, int64_t numFoundInf,
                   double growthFactor, double backoffFactor,
                   int64_t growthInterval) {
  return detail::catchExceptions([&] {
    if (!isValidDevice(static_cast<int32_t>(device)))
      return invalid("unknown device " +
                     std::to_string(static_cast<int32_t>(device)));
    if (!scale)
      return nullPointer("scale");
    if (!growthTracker)
      return nullPointer("growth_tracker");
    if (!foundInf)
      return nullPointer("found_inf");
    if (numFoundInf < 1)
      return invalid("update needs at least one found_inf (got " +
                     std::to_string(numFoundInf) + ")");
    TP_RT_RETURN_IF_ERROR(
        verifyScaleFactors(growthFactor, backoffFactor, growthInterval));
    if (device == Device::CUDA) {
      TP_RT_RETURN_IF_ERROR(requireCuda());
      return cuda::updateScale(scale, growthTracker, foundInf, numFoundInf,
                               growthFactor, backoffFactor, growthInterval);
    }
    if (*growthTracker < 0)
      return invalid("growth_tracker must be >= 0, got " +
                     std::to_string(*growthTracker));
    cpu::updateScale(scale, growthTracker, foundInf, numFoundInf, growthFactor,
                     backoffFactor, growthInterval);
    return Status::success();
  });
}

Status sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
               TensorList momentumBuffers, int64_t *step,
               const float *gradScale, const float *foundInf,
               TensorList paramCopies) {
  return detail::catchExceptions([&] {
    TP_RT_RETURN_IF_ERROR(verifySgdHyperParams(hyper));
    if (!step)
      return nullPointer("step");
    if (params.empty())
      return Status::success();
    Device device = Device::CPU;
    TP_RT_RETURN_IF_ERROR(verifyParams(params, device));
    TP_RT_RETURN_IF_ERROR(verifyOptimizerGrads(params, grads, paramCopies));
    bool momentum = hyper.momentum != 0.0;
    if (momentum)
      TP_RT_RETURN_IF_ERROR(
          verifyCompanion(params, momentumBuffers, "momentum_buffers"));
    TensorList buffers = momentum ? momentumBuffers : TensorList();
    if (device == Device::CUDA) {
      TP_RT_RETURN_IF_ERROR(requireCuda());
      return cuda::sgdStep(hyper, params, grads, buffers, step, gradScale,
                           foundInf);
    }
    cpu::sgdStep(hyper, params, grads, buffers, step, gradScale, foundInf,
                 paramCopies);
    return Status::success();
  });
}

Status adamwStep(const AdamWHyperParams &hyper, TensorList params,
                 TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
                 TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
                 const float *foundInf, TensorList paramCopies) {
  return detail::catchExceptions([&] {
    TP_RT_RETURN_IF_ERROR(verifyAdamWHyperParams(hyper));
    if (!step)
      return nullPointer("step");
    if (params.empty())
      return Status::success();
    Device device = Device::CPU;
    TP_RT_RETURN_IF_ERROR(verifyParams(params, device));
    TP_RT_RETURN_IF_ERROR(verifyOptimizerGrads(params, grads, paramCopies));
    TP_RT_RETURN_IF_ERROR(verifyCompanion(params, expAvgs, "exp_avgs"));
    TP_RT_RETURN_IF_ERROR(verifyCompanion(params, expAvgSqs, "exp_avg_sqs"));
    if (hyper.amsgrad)
      TP_RT_RETURN_IF_ERROR(
          verifyCompanion(params, maxExpAvgSqs, "max_exp_avg_sqs"));
    TensorList maxSqs = hyper.amsgrad ? maxExpAvgSqs : TensorList();
    if (device == Device::CUDA) {
      TP_RT_RETURN_IF_ERROR(requireCuda());
      return cuda::adamwStep(hyper, params, grads, expAvgs, expAvgSqs, maxSqs,
                             step, gradScale, foundInf);
    }
    cpu::adamwStep(hyper, params, grads, expAvgs, expAvgSqs, maxSqs, step,
                   gradScale, foundInf, paramCopies);
    return Status::success();
  });
}

//===----------------------------------------------------------------------===//
// CUDA controls
//===----------------------------------------------------------------------===//

bool cudaCompiledIn() { return cuda::compiledIn(); }
Status cudaDeviceStatus() { return cuda::deviceStatus(); }
void setCudaStream(void *stream) { cuda::setStream(stream); }
void *cudaStream() { return cuda::stream(); }

Status synchronizeDevice(Device device) {
  if (device == Device::CPU)
    return Status::success();
  TP_RT_RETURN_IF_ERROR(requireCuda());
  return cuda::synchronize();
}

} // namespace tensorplay::amp
