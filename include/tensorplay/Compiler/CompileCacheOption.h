//===- CompileCacheOption.h - The tools' compile cache options --*- C++ -*-===//
//
// Part of tensorplay-autocast.
//
//===----------------------------------------------------------------------===//
//
// `--cache-dir=<dir>` and `--no-cache` of tp-run and tp-train: defined
// once (CompileCacheOption.cpp, linked into the tools that read them). The
// cache is on by default, in the environment's directory (CompileCache.h).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_COMPILER_COMPILECACHEOPTION_H
#define TENSORPLAY_COMPILER_COMPILECACHEOPTION_H

#include "tensorplay/Compiler/CompileCache.h"

#include <string>

namespace llvm::cl {
class Option;
} // namespace llvm::cl

namespace mlir {
namespace tp {

/// The cache the options and the environment ask for. `error` names a
/// malformed environment variable. (A tool that calls it links the two
/// options into its command line.)
CompileCacheConfig compileCacheFromOptions(std::string &error);

/// Whether `option` is one of the two (a tool that hides the options of the
/// libraries it links keeps these).
bool isCompileCacheOption(const llvm::cl::Option *option);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_COMPILER_COMPILECACHEOPTION_H
