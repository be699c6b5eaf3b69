//===- DnnlUnavailable.cpp - tp_rt_dnnl_* without oneDNN ------------------===//
//
// Built when TENSORPLAY_ENABLE_ONEDNN is OFF: the compiler then lowers
// matrix products and convolutions to linalg and never calls these; they
// exist so that a mismatched build fails with a clear error.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "calls/CodegenError.h"

namespace {
tp_rt_status unavailable(const char *name) {
  return tensorplay::codegen::fail(
      TP_RT_ERROR_UNSUPPORTED,
      std::string(name) + ": the runtime was built without oneDNN");
}
} // namespace

extern "C" {

int32_t tp_rt_onednn_available(void) { return 0; }

// A stub for every oneDNN call of CodegenCalls.def, with its signature.
#define TP_RT_MEMREF(name) int64_t, tp_rt_memref *
#define TP_RT_I64(name) int64_t
#define TP_RT_F64(name) double
#define TP_RT_CALL(NAME, ARGS)
#define TP_RT_DNNL_CALL(NAME, ARGS)                                            \
  tp_rt_status NAME ARGS { return unavailable(#NAME); }
#include "tensorplay/Runtime/CodegenCalls.def"

} // extern "C"
