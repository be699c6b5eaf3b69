//===- CodegenError.h - The error slot of compiled-code calls ---*- C++ -*-===//
//
// Compiled code ignores the status of the runtime calls it makes; the first
// failure since the last clear is kept here for the caller of the compiled
// function (tp_rt_codegen_error).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CODEGEN_CODEGENERROR_H
#define TENSORPLAY_RUNTIME_CODEGEN_CODEGENERROR_H

#include "tensorplay/Runtime/CAPI.h"

#include <string>

namespace tensorplay::codegen {

/// Records `message` (if no error is recorded yet) and returns `status`.
tp_rt_status fail(tp_rt_status status, const std::string &message);

} // namespace tensorplay::codegen

#endif // TENSORPLAY_RUNTIME_CODEGEN_CODEGENERROR_H
