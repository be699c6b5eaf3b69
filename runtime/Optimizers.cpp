//===- Optimizers.cpp - SGD and AdamW over device state -------------------===//

#include "tensorplay/Runtime/Optimizers.h"

#include "NoThrow.h"

#include <string>

namespace tensorplay::amp {

Optimizer::~Optimizer() = default;

namespace {

/// Checks the (parameter, gradient) pairs and returns their device.
Status verifyPairs(const std::vector<Tensor> &params,
                   const std::vector<Tensor> &grads, Device &device) {
  if (params.size() != grads.size())
    return Status(StatusCode::SizeMismatch,
                  std::to_string(params.size()) + " parameters but " +
                      std::to_string(grads.size()) + " gradients");
  for (size_t i = 0; i < params.size(); ++i) {
    std::string index = "[" + std::to_string(i) + "]";
    TP_RT_RETURN_IF_ERROR(verifyTensor(params[i], ("params" + index).c_str()));
    TP_RT_RETURN_IF_ERROR(verifyTensor(grads[i], ("grads" + index).c_str()));
    if (params[i].numel != grads[i].numel)
      return Status(StatusCode::SizeMismatch,
                    "params" + index + " and grads" + index +
                        " have different element counts");
    for (const auto &[list, tensor] :
         {std::pair{"params", &params[i]}, std::pair{"grads", &grads[i]}})
      if (tensor->dtype != params[0].dtype)
        return Status(StatusCode::UnsupportedDType,
                      list + index + " is " + dtypeName(tensor->dtype) +
                          " but params[0] is " + dtypeName(params[0].dtype) +
                          ": an optimizer's parameters and gradients have "
                          "one dtype");
    if (params[i].device != params[0].device ||
        grads[i].device != params[0].device)
      return Status(StatusCode::DeviceMismatch,
                    "params" + index + " and grads" + index +
                        " must be on the device of params[0]");
  }
  device = params.empty() ? Device::CPU : params[0].device;
  return Status::success();
}

/// Allocates one zeroed state tensor per parameter, like it.
Status allocateLike(const std::vector<Tensor> &params,
                    std::vector<Buffer> &storage, std::vector<Tensor> &views) {
  for (const Tensor &param : params) {
    Expected<Buffer> buffer =
        Buffer::allocate(param.device, param.dtype, param.numel);
    if (!buffer)
      return buffer.status();
    views.push_back(buffer->tensor(param.dtype, param.numel));
    storage.push_back(buffer.take());
  }
  return Status::success();
}

Expected<int64_t> readStep(const Buffer &storage) {
  int64_t step = 0;
  TP_RT_RETURN_IF_ERROR(storage.copyToHost(&step, sizeof(step)));
  return step;
}

} // namespace

//===----------------------------------------------------------------------===//
// SGD
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<SGD>> SGD::create(std::vector<Tensor> params,
                                           std::vector<Tensor> grads,
                                           const SgdOptions &options) {
  return detail::catchExceptions([&]() -> Expected<std::unique_ptr<SGD>> {
    TP_RT_RETURN_IF_ERROR(verifySgdHyperParams(options));
    std::unique_ptr<SGD> sgd(new SGD());
    TP_RT_RETURN_IF_ERROR(verifyPairs(params, grads, sgd->dev));
    if (options.momentum != 0.0)
      TP_RT_RETURN_IF_ERROR(
          allocateLike(params, sgd->momentumStorage, sgd->momentumViews));
    Expected<Buffer> step = Buffer::allocate(sgd->dev, sizeof(int64_t));
    if (!step)
      return step.status();
    sgd->stepStorage = step.take();
    sgd->params = std::move(params);
    sgd->grads = std::move(grads);
    sgd->opts = options;
    return Expected<std::unique_ptr<SGD>>(std::move(sgd));
  });
}

Status SGD::step(const AmpStepArgs &args) {
  return sgdStep(opts, params, grads, momentumViews,
                 static_cast<int64_t *>(stepStorage.data()), args.gradScale,
                 args.foundInf);
}

Expected<int64_t> SGD::stepCount() const { return readStep(stepStorage); }

//===----------------------------------------------------------------------===//
// AdamW
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<AdamW>> AdamW::create(std::vector<Tensor> params,
                                               std::vector<Tensor> grads,
                                               const AdamWOptions &options) {
  return detail::catchExceptions([&]() -> Expected<std::unique_ptr<AdamW>> {
    TP_RT_RETURN_IF_ERROR(verifyAdamWHyperParams(options));
    std::unique_ptr<AdamW> adamw(new AdamW());
    TP_RT_RETURN_IF_ERROR(verifyPairs(params, grads, adamw->dev));
    TP_RT_RETURN_IF_ERROR(
        allocateLike(params, adamw->stateStorage, adamw->expAvgViews));
    TP_RT_RETURN_IF_ERROR(
        allocateLike(params, adamw->stateStorage, adamw->expAvgSqViews));
    if (options.amsgrad)
      TP_RT_RETURN_IF_ERROR(
          allocateLike(params, adamw->stateStorage, adamw->maxExpAvgSqViews));
    Expected<Buffer> step = Buffer::allocate(adamw->dev, sizeof(int64_t));
    if (!step)
      return step.status();
    adamw->stepStorage = step.take();
    adamw->params = std::move(params);
    adamw->grads = std::move(grads);
    adamw->opts = options;
    return Expected<std::unique_ptr<AdamW>>(std::move(adamw));
  });
}

Status AdamW::step(const AmpStepArgs &args) {
  return adamwStep(opts, params, grads, expAvgViews, expAvgSqViews,
                   maxExpAvgSqViews, static_cast<int64_t *>(stepStorage.data()),
                   args.gradScale, args.foundInf);
}

Expected<int64_t> AdamW::stepCount() const { return readStep(stepStorage); }

} // namespace tensorplay::amp
