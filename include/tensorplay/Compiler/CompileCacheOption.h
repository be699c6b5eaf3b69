//===- CompileCacheOption.h - The tools' --compile-cache flag ---*- C++ -*-===//
//
// Part of tensorplay-autocast.
//
//===----------------------------------------------------------------------===//
//
// `--compile-cache` of tp-run and tp-train: one definition (an inline
// variable, registered once per program by whichever of its files includes
// this header) and one reading of it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_COMPILER_COMPILECACHEOPTION_H
#define TENSORPLAY_COMPILER_COMPILECACHEOPTION_H

#include "tensorplay/Compiler/CompileCache.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir {
namespace tp {

inline llvm::cl::opt<bool> compileCacheOption(
    "compile-cache",
    llvm::cl::desc(
        "Reuse the machine code of a module compiled before, by any "
        "process, and keep what is generated (directory: "
        "TP_COMPILE_CACHE_DIR, default ~/.cache/tensorplay-autocast; size "
        "bound TP_COMPILE_CACHE_MAX_MB, default 1024; TP_COMPILE_CACHE=0 "
        "turns it off)"));

/// The cache the flag asks for (the environment's; none without the flag).
/// `error` names a malformed environment variable.
inline CompileCacheConfig compileCacheFromOption(std::string &error) {
  if (!compileCacheOption)
    return {};
  return CompileCacheConfig::fromEnvironment(&error);
}

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_COMPILER_COMPILECACHEOPTION_H
