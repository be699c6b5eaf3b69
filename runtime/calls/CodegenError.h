//===- CodegenError.h - The error slot of compiled-code calls ---*- C++ -*-===//
//
// Compiled code ignores the status of the runtime calls it makes; the first
// failure since the last clear is kept for the caller of the compiled
// function (tp_rt_codegen_error), in the calling thread's status (a
// parallel loop's workers record into their launcher's).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_CODEGEN_CODEGENERROR_H
#define TENSORPLAY_RUNTIME_CODEGEN_CODEGENERROR_H

#include "tensorplay/Runtime/CAPI.h"

#include <string>

namespace tensorplay::codegen {

/// Records `message` (if no error is recorded yet) and returns `status`.
/// Never throws: without memory to copy the message, the status's name is
/// recorded instead.
tp_rt_status fail(tp_rt_status status, const std::string &message) noexcept;

/// fail() with the message "<what>: <detail><more>", built without
/// throwing (the form for exception handlers, which may run when memory is
/// exhausted).
tp_rt_status fail(tp_rt_status status, const char *what, const char *detail,
                  const char *more = "") noexcept;

} // namespace tensorplay::codegen

#endif // TENSORPLAY_RUNTIME_CODEGEN_CODEGENERROR_H
