/*===- tensorplay/Runtime/CAPI.h - GradScaler runtime C ABI ------*- C -*-===*\
|*                                                                            *|
|* The C ABI that compiled training steps call: loss scaling, fused unscale   *|
|* + inf/NaN check, dynamic scale update and fused optimizer steps, on the    *|
|* CPU or on a CUDA device. Every entry point returns a tp_rt_status; none    *|
|* throws, none aborts on invalid input.                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TENSORPLAY_RUNTIME_CAPI_H
#define TENSORPLAY_RUNTIME_CAPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every tp_rt_* call. 0 is success.
typedef int32_t tp_rt_status;
enum {
  TP_RT_SUCCESS = 0,
  TP_RT_ERROR_NULL_POINTER = 1,
  TP_RT_ERROR_INVALID_ARGUMENT = 2,
  TP_RT_ERROR_UNSUPPORTED_DTYPE = 3,
  TP_RT_ERROR_DEVICE_MISMATCH = 4,
  TP_RT_ERROR_SIZE_MISMATCH = 5,
  TP_RT_ERROR_INVALID_STATE = 6,
  TP_RT_ERROR_FP16_GRADIENTS = 7,
  TP_RT_ERROR_IO = 8,
  TP_RT_ERROR_CORRUPT_FILE = 9,
  TP_RT_ERROR_VERSION_MISMATCH = 10,
  TP_RT_ERROR_CUDA_UNAVAILABLE = 11,
  TP_RT_ERROR_CUDA = 12,
  TP_RT_ERROR_OUT_OF_MEMORY = 13,
  TP_RT_ERROR_UNSUPPORTED = 14,
  TP_RT_ERROR_INTERNAL = 15
};

/// Element types of a buffer: TP_RT_F32 (0), TP_RT_F16 (1), TP_RT_BF16 (2),
/// the rows of ElementTypes.def the runtime takes.
typedef int32_t tp_rt_dtype;
enum {
#define TP_RUNTIME_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY, CODE)           \
  TP_RT_##KIND = CODE,
#include "tensorplay/Runtime/ElementTypes.def"
};

/// Where a buffer lives. CUDA means the current CUDA device.
typedef int32_t tp_rt_device;
enum { TP_RT_CPU = 0, TP_RT_CUDA = 1 };

/// A dense, contiguous buffer descriptor. `data` may be null only when
/// `numel` is 0.
typedef struct tp_rt_buffer {
  void *data;
  int64_t numel;
  tp_rt_dtype dtype;
  tp_rt_device device;
} tp_rt_buffer;

/// torch.optim.SGD hyper-parameters.
typedef struct tp_rt_sgd_options {
  double lr;
  double momentum;
  double dampening;
  double weight_decay;
  int32_t nesterov;
  int32_t maximize;
} tp_rt_sgd_options;

/// torch.optim.AdamW hyper-parameters.
typedef struct tp_rt_adamw_options {
  double lr;
  double beta1;
  double beta2;
  double eps;
  double weight_decay;
  int32_t amsgrad;
  int32_t maximize;
} tp_rt_adamw_options;

/// A static, human-readable name for `status` ("unknown status" if invalid).
const char *tp_rt_status_string(tp_rt_status status);

/// The detailed message of the last failed call on this thread ("" if none).
const char *tp_rt_last_error_message(void);

/// 1 when the runtime was built with CUDA and a CUDA device is present.
int32_t tp_rt_cuda_available(void);

/// Sets the CUDA stream (a cudaStream_t, null for the default stream) that
/// every CUDA call of this runtime enqueues on.
tp_rt_status tp_rt_cuda_set_stream(void *stream);

/// out[i] = loss[i] * *scale, computed in f32 and rounded to out's dtype.
/// loss and out have the same dtype, numel and device (they may alias);
/// `scale` lives on that device.
tp_rt_status tp_rt_scale_loss(const tp_rt_buffer *loss, const float *scale,
                              const tp_rt_buffer *out);

/// Multiplies every element of every gradient by (float)(1.0 / *scale) in
/// place and sets *found_inf to 1.0f if any element was inf or NaN before
/// unscaling (found_inf is left untouched otherwise, so one found_inf may
/// accumulate several calls). f32 and bf16 gradients; f16 gradients are
/// refused (TP_RT_ERROR_FP16_GRADIENTS) as tensorplay.amp.GradScaler does.
/// `scale` and `found_inf` live on the gradients' device.
tp_rt_status tp_rt_unscale_and_check(const tp_rt_buffer *grads,
                                     int64_t num_grads, const float *scale,
                                     float *found_inf);

/// Like tp_rt_unscale_and_check without modifying the gradients: only sets
/// *found_inf. f16 gradients are allowed (the fused-optimizer check).
tp_rt_status tp_rt_check_finite(const tp_rt_buffer *grads, int64_t num_grads,
                                float *found_inf);

/// The dynamic scale rule of torch.amp.GradScaler, run on `device` (no host
/// synchronisation on CUDA): if sum(found_inf[0..num_found_inf)) != 0 then
/// scale *= backoff_factor and growth_tracker = 0; otherwise, if
/// growth_tracker + 1 == growth_interval, scale *= growth_factor (kept only
/// if finite) and growth_tracker = 0, else growth_tracker += 1 (a tracker at
/// or past the interval keeps counting without growth, as torch's; it stops
/// at INT32_MAX). Requires growth_factor > 1, 0 < backoff_factor < 1,
/// 1 <= growth_interval <= INT32_MAX (the tracker is an int32),
/// num_found_inf >= 1, and on the CPU *growth_tracker >= 0 (a CUDA tracker
/// is not read on the host; a negative one counts up as torch's does).
tp_rt_status tp_rt_update_scale(tp_rt_device device, float *scale,
                                int32_t *growth_tracker, const float *found_inf,
                                int64_t num_found_inf, double growth_factor,
                                double backoff_factor, int64_t growth_interval);

/// One fused torch.optim.SGD step over `num_params` parameters, bit-identical
/// to torch's fused=True CPU kernel (its vector loop; docs/Runtime.md). When
/// `found_inf` is non-null and *found_inf != 0 nothing is written at all
/// (gradients included). When `scale` is non-null the gradients are divided
/// by *scale, written back unscaled (rounded to their dtype) and the update
/// uses the unrounded quotients, as torch's fused kernels do; for a
/// power-of-two scale this is bit-identical to tp_rt_unscale_and_check
/// followed by a step with a null scale (which multiplies by the rounded
/// inverse, as torch's unscale_, and may differ in the last bit otherwise).
/// `momentum_buffers` is required iff momentum != 0. `step` (an int64 on the
/// parameters' device) counts applied steps; it tells the first step
/// (momentum buffer initialisation) and is incremented only when the step is
/// applied. Every buffer of one index has the same numel; all buffers share
/// one device and, except the gradients of f32 parameters on the CPU, one
/// dtype: those may be bf16 or f16 (all the same), widened exactly as they
/// are read and never written (the unscaled values exist only in the
/// update), so that a mixed-precision step needs no up-cast of its
/// gradients.
tp_rt_status tp_rt_sgd_step(const tp_rt_buffer *params,
                            const tp_rt_buffer *grads,
                            const tp_rt_buffer *momentum_buffers,
                            int64_t num_params,
                            const tp_rt_sgd_options *options, int64_t *step,
                            const float *scale, const float *found_inf);

/// tp_rt_sgd_step that also writes each f32 parameter, once updated,
/// rounded to nearest even into `param_copies[i]` (bf16 or f16, all one
/// dtype, CPU only): the low-precision weights of the next forward. A
/// skipped step (found_inf) writes the copies from the unchanged
/// parameters, so a copy always equals its parameter rounded. A null
/// `param_copies` is tp_rt_sgd_step.
tp_rt_status tp_rt_sgd_step_with_copies(
    const tp_rt_buffer *params, const tp_rt_buffer *grads,
    const tp_rt_buffer *momentum_buffers, int64_t num_params,
    const tp_rt_sgd_options *options, int64_t *step, const float *scale,
    const float *found_inf, const tp_rt_buffer *param_copies);

/// One fused torch.optim.AdamW step; same conventions as tp_rt_sgd_step.
/// `max_exp_avg_sqs` is required iff amsgrad.
tp_rt_status
tp_rt_adamw_step(const tp_rt_buffer *params, const tp_rt_buffer *grads,
                 const tp_rt_buffer *exp_avgs, const tp_rt_buffer *exp_avg_sqs,
                 const tp_rt_buffer *max_exp_avg_sqs, int64_t num_params,
                 const tp_rt_adamw_options *options, int64_t *step,
                 const float *scale, const float *found_inf);

/// tp_rt_adamw_step with parameter copies, as tp_rt_sgd_step_with_copies.
tp_rt_status tp_rt_adamw_step_with_copies(
    const tp_rt_buffer *params, const tp_rt_buffer *grads,
    const tp_rt_buffer *exp_avgs, const tp_rt_buffer *exp_avg_sqs,
    const tp_rt_buffer *max_exp_avg_sqs, int64_t num_params,
    const tp_rt_adamw_options *options, int64_t *step, const float *scale,
    const float *found_inf, const tp_rt_buffer *param_copies);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORPLAY_RUNTIME_CAPI_H */
