//===- TrainingCalls.cpp - GradScaler and optimizer calls of compiled code
//-===//
//
// The tp_rt_codegen_* entry points that the lowering of tp.amp_check_finite,
// tp.amp_update_scale, tp.fused_sgd and tp.fused_adamw calls: each views its
// memrefs as dense tp_rt_buffer descriptors and calls the GradScaler
// runtime's C ABI (CAPI.h), whose kernels update the buffers in place.
// Optional tensors (a momentum buffer, the GradScaler's scale and found_inf)
// arrive as zero-element memrefs when absent. Failures go to the codegen
// error slot with the runtime's message. The tp_rt_codegen_cuda_* twins
// (Gpu.h) pass the buffers as device buffers, after pointing the runtime's
// CUDA kernels at the compiled code's stream.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/Gpu.h"

#include "calls/CodegenError.h"
#include "calls/MemrefView.h"

#include <string>

namespace {

using View = tensorplay::codegen::MemrefView;

size_t elementSize(tp_rt_dtype dtype) {
  switch (dtype) {
#define TP_RUNTIME_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY, CODE)           \
  case TP_RT_##KIND:                                                           \
    return BYTES;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return 0;
}

/// The call's failure: the runtime's own message in the error slot.
tp_rt_status failed(const char *what, tp_rt_status status) {
  const char *detail = tp_rt_last_error_message();
  return tensorplay::codegen::fail(
      status, what, *detail ? detail : tp_rt_status_string(status));
}

/// The device the current call's buffers are on (set by each entry point).
thread_local tp_rt_device currentDevice = TP_RT_CPU;

/// Sets the device of the call's buffers; for CUDA, the kernels go to the
/// compiled code's stream.
tp_rt_status enter(tp_rt_device device) {
  currentDevice = device;
  if (device == TP_RT_CUDA)
    return tp_rt_cuda_set_stream(tp_rt_gpu_stream());
  return TP_RT_SUCCESS;
}

/// `view` as a buffer of `dtype` on the call's device; false (with the
/// error recorded) when it is not dense.
bool toBuffer(const char *what, View view, tp_rt_dtype dtype,
              tp_rt_buffer &buffer) {
  if (!view.dense()) {
    tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT, what,
                              "a tensor is not dense row-major");
    return false;
  }
  buffer.data = static_cast<char *>(view.desc->aligned) +
                view.desc->offset * static_cast<int64_t>(elementSize(dtype));
  buffer.numel = view.numel();
  buffer.dtype = dtype;
  buffer.device = currentDevice;
  return true;
}

/// The f32 scalar of `view`, or null for an absent (zero-element) operand.
const float *optionalScalar(View view) {
  return view.numel() == 0 ? nullptr : view.data<float>();
}

tp_rt_status checkFinite(const char *what, tp_rt_dtype dtype, View grad,
                         View foundInf) {
  tp_rt_buffer buffer;
  if (!toBuffer(what, grad, dtype, buffer))
    return TP_RT_ERROR_INVALID_ARGUMENT;
  tp_rt_status status = tp_rt_check_finite(&buffer, 1, foundInf.data<float>());
  return status == TP_RT_SUCCESS ? status : failed(what, status);
}

/// The gradient and the optional parameter copy of an optimizer step.
struct GradAndCopy {
  tp_rt_buffer grad, copy;
  bool hasCopy;
};

bool gradAndCopy(const char *what, View grad, tp_rt_dtype gradDtype, View copy,
                 tp_rt_dtype copyDtype, GradAndCopy &out) {
  if (!toBuffer(what, grad, gradDtype, out.grad) ||
      !toBuffer(what, copy, copyDtype, out.copy))
    return false;
  out.hasCopy = out.copy.numel != 0;
  return true;
}

tp_rt_status sgdStep(const char *what, tp_rt_dtype dtype, View param, View grad,
                     View momentum, View step, View scale, View foundInf,
                     View copy, tp_rt_dtype gradDtype, tp_rt_dtype copyDtype,
                     const tp_rt_sgd_options &options) {
  tp_rt_buffer p, m;
  GradAndCopy gc;
  if (!toBuffer(what, param, dtype, p) || !toBuffer(what, momentum, dtype, m) ||
      !gradAndCopy(what, grad, gradDtype, copy, copyDtype, gc))
    return TP_RT_ERROR_INVALID_ARGUMENT;
  tp_rt_status status = tp_rt_sgd_step_with_copies(
      &p, &gc.grad, m.numel ? &m : nullptr, 1, &options, step.data<int64_t>(),
      optionalScalar(scale), optionalScalar(foundInf),
      gc.hasCopy ? &gc.copy : nullptr);
  return status == TP_RT_SUCCESS ? status : failed(what, status);
}

tp_rt_status adamwStep(const char *what, tp_rt_dtype dtype, View param,
                       View grad, View expAvg, View expAvgSq, View maxExpAvgSq,
                       View step, View scale, View foundInf, View copy,
                       tp_rt_dtype gradDtype, tp_rt_dtype copyDtype,
                       const tp_rt_adamw_options &options) {
  tp_rt_buffer p, m, v, vmax;
  GradAndCopy gc;
  if (!toBuffer(what, param, dtype, p) || !toBuffer(what, expAvg, dtype, m) ||
      !toBuffer(what, expAvgSq, dtype, v) ||
      !toBuffer(what, maxExpAvgSq, dtype, vmax) ||
      !gradAndCopy(what, grad, gradDtype, copy, copyDtype, gc))
    return TP_RT_ERROR_INVALID_ARGUMENT;
  tp_rt_status status = tp_rt_adamw_step_with_copies(
      &p, &gc.grad, &m, &v, vmax.numel ? &vmax : nullptr, 1, &options,
      step.data<int64_t>(), optionalScalar(scale), optionalScalar(foundInf),
      gc.hasCopy ? &gc.copy : nullptr);
  return status == TP_RT_SUCCESS ? status : failed(what, status);
}

tp_rt_status updateScale(View scale, View tracker, View foundInf,
                         double growthFactor, double backoffFactor,
                         int64_t growthInterval) {
  tp_rt_status status = tp_rt_update_scale(
      currentDevice, scale.data<float>(), tracker.data<int32_t>(),
      foundInf.data<float>(), 1, growthFactor, backoffFactor, growthInterval);
  return status == TP_RT_SUCCESS ? status
                                 : failed("tp.amp_update_scale", status);
}

} // namespace

// Every entry point once per (PREFIX, DEVICE): tp_rt_codegen_ on the CPU,
// tp_rt_codegen_cuda_ on the GPU.
#define TP_ENTER(DEVICE)                                                       \
  if (tp_rt_status entered = enter(DEVICE); entered != TP_RT_SUCCESS)          \
  return failed("the CUDA stream of compiled code", entered)

#define TP_UPDATE_SCALE_CALL(PREFIX, DEVICE)                                   \
  tp_rt_status PREFIX##update_scale(                                           \
      int64_t sr, tp_rt_memref *scale, int64_t tr, tp_rt_memref *tracker,      \
      int64_t fr, tp_rt_memref *foundInf, double growthFactor,                 \
      double backoffFactor, int64_t growthInterval) {                          \
    TP_ENTER(DEVICE);                                                          \
    return updateScale(View{sr, scale}, View{tr, tracker}, View{fr, foundInf}, \
                       growthFactor, backoffFactor, growthInterval);           \
  }

#define TP_CHECK_FINITE_CALL(PREFIX, DEVICE, SUFFIX, DTYPE)                    \
  tp_rt_status PREFIX##check_finite_##SUFFIX(                                  \
      int64_t gr, tp_rt_memref *grad, int64_t fr, tp_rt_memref *foundInf) {    \
    TP_ENTER(DEVICE);                                                          \
    return checkFinite("tp.amp_check_finite", DTYPE, View{gr, grad},           \
                       View{fr, foundInf});                                    \
  }

// One SGD and one AdamW entry point per (parameter, gradient, copy) dtype
// combination; COPY is the parameter's dtype for the variants without a
// copy (whose copy memref has zero elements).
#define TP_OPTIMIZER_CALLS(PREFIX, DEVICE, NAME, PARAM, GRAD, COPY)            \
  tp_rt_status PREFIX##sgd_step_##NAME(                                        \
      int64_t pr, tp_rt_memref *param, int64_t gr, tp_rt_memref *grad,         \
      int64_t mr, tp_rt_memref *momentum, int64_t nr, tp_rt_memref *step,      \
      int64_t sr, tp_rt_memref *scale, int64_t fr, tp_rt_memref *foundInf,     \
      int64_t cr, tp_rt_memref *copy, double lr, double momentumFactor,        \
      double dampening, double weightDecay, int64_t nesterov,                  \
      int64_t maximize) {                                                      \
    tp_rt_sgd_options options = {                                              \
        lr,          momentumFactor,    dampening,                             \
        weightDecay, (int32_t)nesterov, (int32_t)maximize};                    \
    TP_ENTER(DEVICE);                                                          \
    return sgdStep("tp.fused_sgd", PARAM, View{pr, param}, View{gr, grad},     \
                   View{mr, momentum}, View{nr, step}, View{sr, scale},        \
                   View{fr, foundInf}, View{cr, copy}, GRAD, COPY, options);   \
  }                                                                            \
  tp_rt_status PREFIX##adamw_step_##NAME(                                      \
      int64_t pr, tp_rt_memref *param, int64_t gr, tp_rt_memref *grad,         \
      int64_t mr, tp_rt_memref *expAvg, int64_t vr, tp_rt_memref *expAvgSq,    \
      int64_t xr, tp_rt_memref *maxExpAvgSq, int64_t nr, tp_rt_memref *step,   \
      int64_t sr, tp_rt_memref *scale, int64_t fr, tp_rt_memref *foundInf,     \
      int64_t cr, tp_rt_memref *copy, double lr, double beta1, double beta2,   \
      double eps, double weightDecay, int64_t amsgrad, int64_t maximize) {     \
    tp_rt_adamw_options options = {lr,                                         \
                                   beta1,                                      \
                                   beta2,                                      \
                                   eps,                                        \
                                   weightDecay,                                \
                                   (int32_t)amsgrad,                           \
                                   (int32_t)maximize};                         \
    TP_ENTER(DEVICE);                                                          \
    return adamwStep("tp.fused_adamw", PARAM, View{pr, param}, View{gr, grad}, \
                     View{mr, expAvg}, View{vr, expAvgSq},                     \
                     View{xr, maxExpAvgSq}, View{nr, step}, View{sr, scale},   \
                     View{fr, foundInf}, View{cr, copy}, GRAD, COPY, options); \
  }

#define TP_TRAINING_CALLS(PREFIX, DEVICE)                                      \
  TP_UPDATE_SCALE_CALL(PREFIX, DEVICE)                                         \
  TP_CHECK_FINITE_CALL(PREFIX, DEVICE, f32, TP_RT_F32)                         \
  TP_CHECK_FINITE_CALL(PREFIX, DEVICE, bf16, TP_RT_BF16)                       \
  TP_CHECK_FINITE_CALL(PREFIX, DEVICE, f16, TP_RT_F16)                         \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32, TP_RT_F32, TP_RT_F32, TP_RT_F32)     \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, bf16, TP_RT_BF16, TP_RT_BF16, TP_RT_BF16) \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f16, TP_RT_F16, TP_RT_F16, TP_RT_F16)     \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_gbf16, TP_RT_F32, TP_RT_BF16,         \
                     TP_RT_F32)                                                \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_gf16, TP_RT_F32, TP_RT_F16,           \
                     TP_RT_F32)                                                \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_cbf16, TP_RT_F32, TP_RT_F32,          \
                     TP_RT_BF16)                                               \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_gbf16_cbf16, TP_RT_F32, TP_RT_BF16,   \
                     TP_RT_BF16)                                               \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_gf16_cbf16, TP_RT_F32, TP_RT_F16,     \
                     TP_RT_BF16)                                               \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_cf16, TP_RT_F32, TP_RT_F32,           \
                     TP_RT_F16)                                                \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_gbf16_cf16, TP_RT_F32, TP_RT_BF16,    \
                     TP_RT_F16)                                                \
  TP_OPTIMIZER_CALLS(PREFIX, DEVICE, f32_gf16_cf16, TP_RT_F32, TP_RT_F16,      \
                     TP_RT_F16)

extern "C" {
TP_TRAINING_CALLS(tp_rt_codegen_, TP_RT_CPU)
TP_TRAINING_CALLS(tp_rt_codegen_cuda_, TP_RT_CUDA)
} // extern "C"

#undef TP_TRAINING_CALLS
#undef TP_UPDATE_SCALE_CALL
#undef TP_ENTER
#undef TP_CHECK_FINITE_CALL
#undef TP_OPTIMIZER_CALLS
