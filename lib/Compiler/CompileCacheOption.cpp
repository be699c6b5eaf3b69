//===- CompileCacheOption.cpp - The tools' compile cache options ----------===//
//
// Part of tensorplay-autocast. See CompileCacheOption.h.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Compiler/CompileCacheOption.h"

#include "llvm/Support/CommandLine.h"

using namespace mlir::tp;

static llvm::cl::opt<std::string> cacheDir(
    "cache-dir",
    llvm::cl::desc("The compile cache's directory: machine code of modules "
                   "compiled before, by any process, is reused and what is "
                   "generated kept (default: TENSORPLAY_MLIR_CACHE_DIR, else "
                   "~/.cache/tensorplay-mlir; size bound "
                   "TENSORPLAY_MLIR_CACHE_MAX_MB, default 1024)"),
    llvm::cl::value_desc("dir"));

static llvm::cl::opt<bool>
    noCache("no-cache", llvm::cl::desc("Use no compile cache (as "
                                       "TENSORPLAY_MLIR_CACHE=0 does)"));

CompileCacheConfig mlir::tp::compileCacheFromOptions(std::string &error) {
  if (noCache)
    return {};
  CompileCacheConfig config = CompileCacheConfig::fromEnvironment(&error);
  if (!cacheDir.empty() && !config.directory.empty())
    config.directory = cacheDir;
  return config;
}

bool mlir::tp::isCompileCacheOption(const llvm::cl::Option *option) {
  return option == &cacheDir || option == &noCache;
}
