//===- JitPerfMap.h - Name the JIT's functions for perf ---------*- C++ -*-===//
//
// Part of tensorplay-autocast.
//
//===----------------------------------------------------------------------===//
//
// With TP_JIT_PERF=1 the CPU executable appends its generated functions to
// /tmp/perf-<pid>.map (perf's map format for JIT code: "address size name"),
// so that `perf report` names them instead of showing bare addresses; with
// TP_JIT_PERF=<path> (a value holding a '/') it appends to that file instead.
// oneDNN names its kernels in the same map with DNNL_JIT_PROFILE=2 but
// truncates the file when it opens it: to have both, write ours to a path
// and append it to /tmp/perf-<pid>.map before `perf report`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_COMPILER_JITPERFMAP_H
#define TENSORPLAY_LIB_COMPILER_JITPERFMAP_H

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <string>

namespace tensorplay::compiler {

/// The file the environment asks the perf map to be appended to: empty
/// where TP_JIT_PERF is unset, empty or "0".
std::string jitPerfMapPath();

/// Appends the functions of the JIT-linked `object` to `mapPath` (from
/// jitPerfMapPath), placed by `lookup` (a symbol's address in the process).
/// Failures are reported on stderr only: a profile is never a reason to
/// fail a run.
void writeJitPerfMap(
    llvm::MemoryBufferRef object,
    llvm::function_ref<llvm::Expected<void *>(llvm::StringRef)> lookup,
    const std::string &mapPath);

} // namespace tensorplay::compiler

#endif // TENSORPLAY_LIB_COMPILER_JITPERFMAP_H
