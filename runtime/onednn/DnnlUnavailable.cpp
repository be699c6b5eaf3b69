//===- DnnlUnavailable.cpp - tp_rt_dnnl_* without oneDNN ------------------===//
//
// Built when TENSORPLAY_ENABLE_ONEDNN is OFF: the compiler then lowers
// matrix products and convolutions to linalg and never calls these; they
// exist so that a mismatched build fails with a clear error.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "codegen/CodegenError.h"

namespace {
tp_rt_status unavailable(const char *name) {
  return tensorplay::codegen::fail(
      TP_RT_ERROR_UNSUPPORTED,
      std::string(name) + ": the runtime was built without oneDNN");
}
} // namespace

extern "C" {

int32_t tp_rt_onednn_available(void) { return 0; }

#define TP_UNAVAILABLE(NAME)                                                   \
  tp_rt_status NAME(int64_t, tp_rt_memref *, int64_t, tp_rt_memref *, int64_t, \
                    tp_rt_memref *, int64_t, tp_rt_memref *, int64_t) {        \
    return unavailable(#NAME);                                                 \
  }
TP_UNAVAILABLE(tp_rt_dnnl_matmul_f32_f32)
TP_UNAVAILABLE(tp_rt_dnnl_matmul_bf16_bf16)
TP_UNAVAILABLE(tp_rt_dnnl_matmul_bf16_f32)
TP_UNAVAILABLE(tp_rt_dnnl_matmul_cast_bf16_bf16)
TP_UNAVAILABLE(tp_rt_dnnl_matmul_cast_bf16_f32)
#undef TP_UNAVAILABLE

#define TP_UNAVAILABLE(NAME)                                                   \
  tp_rt_status NAME(int64_t, tp_rt_memref *, int64_t, tp_rt_memref *, int64_t, \
                    tp_rt_memref *, int64_t, tp_rt_memref *, int64_t,          \
                    tp_rt_memref *) {                                          \
    return unavailable(#NAME);                                                 \
  }
TP_UNAVAILABLE(tp_rt_dnnl_conv_f32_f32)
TP_UNAVAILABLE(tp_rt_dnnl_conv_bf16_bf16)
TP_UNAVAILABLE(tp_rt_dnnl_conv_backward_weights_f32)
TP_UNAVAILABLE(tp_rt_dnnl_conv_backward_weights_bf16)
#undef TP_UNAVAILABLE

#define TP_UNAVAILABLE(NAME)                                                   \
  tp_rt_status NAME(int64_t, tp_rt_memref *, int64_t, tp_rt_memref *, int64_t, \
                    tp_rt_memref *, int64_t, int64_t) {                        \
    return unavailable(#NAME);                                                 \
  }
TP_UNAVAILABLE(tp_rt_dnnl_softmax_backward_f32)
TP_UNAVAILABLE(tp_rt_dnnl_softmax_backward_bf16)
#undef TP_UNAVAILABLE

} // extern "C"
