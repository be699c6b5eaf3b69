//===- CAPI.cpp - The tp_rt_* C ABI ---------------------------------------===//
//
// Thin wrappers over Kernels.h: check the C arguments (null pointers,
// negative counts), call, and turn the Status into a tp_rt_status, keeping
// the message for tp_rt_last_error_message. No exception crosses the ABI.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/CAPI.h"

#include "NoThrow.h"
#include "tensorplay/Runtime/Kernels.h"
#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <cstdint>
#include <new>
#include <string>

using namespace tensorplay::amp;

namespace {

thread_local std::string lastErrorMessage;
/// The last error's message when it could not be copied into
/// lastErrorMessage (host memory exhausted): a static string, else null.
thread_local const char *lastStaticMessage = nullptr;

/// Records a failure with a static message; allocates nothing.
tp_rt_status reportStatic(StatusCode code, const char *message) noexcept {
  lastErrorMessage.clear();
  lastStaticMessage = message;
  return static_cast<tp_rt_status>(code);
}

tp_rt_status report(const Status &status) noexcept {
  tp_rt_status code = static_cast<tp_rt_status>(status.code());
  lastStaticMessage = nullptr;
  if (status.ok()) {
    lastErrorMessage.clear();
    return code;
  }
  // Copying the message may need memory; without it, the code's name.
  return detail::catchAll(
      [&] {
        lastErrorMessage = status.message();
        return code;
      },
      [&](bool) {
        return reportStatic(status.code(), tp_rt_status_string(code));
      });
}

/// Runs `fn` (returning a Status); an exception escaping it becomes an error
/// status whose handling allocates nothing (it may be std::bad_alloc).
template <typename Fn>
tp_rt_status guarded(Fn &&fn) {
  return detail::catchAll(
      [&] { return report(fn()); },
      [](bool outOfMemory) {
        return outOfMemory
                   ? reportStatic(StatusCode::OutOfMemory, "out of host memory")
                   : reportStatic(StatusCode::Internal,
                                  "unexpected C++ exception");
      });
}

/// A list of `count` buffers at `buffers` as a TensorList.
Status toList(const tp_rt_buffer *buffers, int64_t count, const char *name,
              TensorList &list) {
  if (count < 0)
    return Status(StatusCode::InvalidArgument, std::string(name) +
                                                   " count is negative (" +
                                                   std::to_string(count) + ")");
  if (count > 0 && !buffers)
    return Status(StatusCode::NullPointer, std::string(name) + " is null");
  // No array of more descriptors fits in the address space.
  if (static_cast<uint64_t>(count) > PTRDIFF_MAX / sizeof(tp_rt_buffer))
    return Status(StatusCode::InvalidArgument, std::string(name) +
                                                   " count is too large (" +
                                                   std::to_string(count) + ")");
  list = TensorList(reinterpret_cast<const Tensor *>(buffers),
                    static_cast<size_t>(count));
  return Status::success();
}

Status nullPointer(const char *what) {
  return Status(StatusCode::NullPointer, std::string(what) + " is null");
}

} // namespace

extern "C" {

const char *tp_rt_status_string(tp_rt_status status) {
  if (status < TP_RT_SUCCESS || status > TP_RT_ERROR_INTERNAL)
    return "unknown status";
  return statusCodeName(static_cast<StatusCode>(status));
}

const char *tp_rt_last_error_message(void) {
  return lastStaticMessage ? lastStaticMessage : lastErrorMessage.c_str();
}

int32_t tp_rt_cuda_available(void) {
  // cudaDeviceStatus() copies a Status whose message may need memory.
  return detail::catchAll(
      [] { return cudaDeviceStatus().ok() ? int32_t(1) : 0; },
      [](bool) { return int32_t(0); });
}

tp_rt_status tp_rt_cuda_set_stream(void *stream) {
  return guarded([&] {
    if (!cudaCompiledIn())
      return cudaDeviceStatus();
    setCudaStream(stream);
    return Status::success();
  });
}

tp_rt_status tp_rt_scale_loss(const tp_rt_buffer *loss, const float *scale,
                              const tp_rt_buffer *out) {
  return guarded([&] {
    if (!loss)
      return nullPointer("loss");
    if (!out)
      return nullPointer("out");
    return scaleLoss(*reinterpret_cast<const Tensor *>(loss), scale,
                     *reinterpret_cast<const Tensor *>(out));
  });
}

tp_rt_status tp_rt_unscale_and_check(const tp_rt_buffer *grads,
                                     int64_t num_grads, const float *scale,
                                     float *found_inf) {
  return guarded([&] {
    TensorList list;
    TP_RT_RETURN_IF_ERROR(toList(grads, num_grads, "grads", list));
    return unscaleAndCheck(list, scale, found_inf);
  });
}

tp_rt_status tp_rt_check_finite(const tp_rt_buffer *grads, int64_t num_grads,
                                float *found_inf) {
  return guarded([&] {
    TensorList list;
    TP_RT_RETURN_IF_ERROR(toList(grads, num_grads, "grads", list));
    return checkFinite(list, found_inf);
  });
}

tp_rt_status tp_rt_update_scale(tp_rt_device device, float *scale,
                                int32_t *growth_tracker, const float *found_inf,
                                int64_t num_found_inf, double growth_factor,
                                double backoff_factor,
                                int64_t growth_interval) {
  return guarded([&] {
    return updateScale(static_cast<Device>(device), scale, growth_tracker,
                       found_inf, num_found_inf, growth_factor, backoff_factor,
                       growth_interval);
  });
}

tp_rt_status tp_rt_sgd_step(const tp_rt_buffer *params,
                            const tp_rt_buffer *grads,
                            const tp_rt_buffer *momentum_buffers,
                            int64_t num_params,
                            const tp_rt_sgd_options *options, int64_t *step,
                            const float *scale, const float *found_inf) {
  return tp_rt_sgd_step_with_copies(params, grads, momentum_buffers, num_params,
                                    options, step, scale, found_inf, nullptr);
}

tp_rt_status tp_rt_sgd_step_with_copies(
    const tp_rt_buffer *params, const tp_rt_buffer *grads,
    const tp_rt_buffer *momentum_buffers, int64_t num_params,
    const tp_rt_sgd_options *options, int64_t *step, const float *scale,
    const float *found_inf, const tp_rt_buffer *param_copies) {
  return guarded([&] {
    if (!options)
      return nullPointer("options");
    SgdHyperParams hyper;
    hyper.lr = options->lr;
    hyper.momentum = options->momentum;
    hyper.dampening = options->dampening;
    hyper.weightDecay = options->weight_decay;
    hyper.nesterov = options->nesterov != 0;
    hyper.maximize = options->maximize != 0;
    TensorList paramList, gradList, bufferList;
    TP_RT_RETURN_IF_ERROR(toList(params, num_params, "params", paramList));
    TP_RT_RETURN_IF_ERROR(toList(grads, num_params, "grads", gradList));
    if (hyper.momentum != 0.0)
      TP_RT_RETURN_IF_ERROR(
          toList(momentum_buffers, num_params, "momentum_buffers", bufferList));
    TensorList copyList;
    if (param_copies)
      TP_RT_RETURN_IF_ERROR(
          toList(param_copies, num_params, "param_copies", copyList));
    return sgdStep(hyper, paramList, gradList, bufferList, step, scale,
                   found_inf, copyList);
  });
}

tp_rt_status
tp_rt_adamw_step(const tp_rt_buffer *params, const tp_rt_buffer *grads,
                 const tp_rt_buffer *exp_avgs, const tp_rt_buffer *exp_avg_sqs,
                 const tp_rt_buffer *max_exp_avg_sqs, int64_t num_params,
                 const tp_rt_adamw_options *options, int64_t *step,
                 const float *scale, const float *found_inf) {
  return tp_rt_adamw_step_with_copies(params, grads, exp_avgs, exp_avg_sqs,
                                      max_exp_avg_sqs, num_params, options,
                                      step, scale, found_inf, nullptr);
}

tp_rt_status tp_rt_adamw_step_with_copies(
    const tp_rt_buffer *params, const tp_rt_buffer *grads,
    const tp_rt_buffer *exp_avgs, const tp_rt_buffer *exp_avg_sqs,
    const tp_rt_buffer *max_exp_avg_sqs, int64_t num_params,
    const tp_rt_adamw_options *options, int64_t *step, const float *scale,
    const float *found_inf, const tp_rt_buffer *param_copies) {
  return guarded([&] {
    if (!options)
      return nullPointer("options");
    AdamWHyperParams hyper;
    hyper.lr = options->lr;
    hyper.beta1 = options->beta1;
    hyper.beta2 = options->beta2;
    hyper.eps = options->eps;
    hyper.weightDecay = options->weight_decay;
    hyper.amsgrad = options->amsgrad != 0;
    hyper.maximize = options->maximize != 0;
    TensorList paramList, gradList, avgList, sqList, maxList;
    TP_RT_RETURN_IF_ERROR(toList(params, num_params, "params", paramList));
    TP_RT_RETURN_IF_ERROR(toList(grads, num_params, "grads", gradList));
    TP_RT_RETURN_IF_ERROR(toList(exp_avgs, num_params, "exp_avgs", avgList));
    TP_RT_RETURN_IF_ERROR(
        toList(exp_avg_sqs, num_params, "exp_avg_sqs", sqList));
    if (hyper.amsgrad)
      TP_RT_RETURN_IF_ERROR(
          toList(max_exp_avg_sqs, num_params, "max_exp_avg_sqs", maxList));
    TensorList copyList;
    if (param_copies)
      TP_RT_RETURN_IF_ERROR(
          toList(param_copies, num_params, "param_copies", copyList));
    return adamwStep(hyper, paramList, gradList, avgList, sqList, maxList, step,
                     scale, found_inf, copyList);
  });
}

} // extern "C"
