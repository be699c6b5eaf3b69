//===- Compiler.h - The compiler's C++ API, stage by stage ------*- C++ -*-===//
//
// What tools, tests and the Python backend call: set up a context, parse
// (or build) a module, run autocast on it, lower it for a target, and JIT
// and run it on host tensors (Executable.h, which chains the stages for
// the CPU). Each stage reports its diagnostics through the context and
// fails cleanly on bad input.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_COMPILER_COMPILER_H
#define TENSORPLAY_COMPILER_COMPILER_H

#include "tensorplay/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir {
namespace tp {

/// Registers every dialect the stages produce or consume (tp, tp_rt, the
/// upstream dialects of the CPU pipeline, their interfaces and LLVM IR
/// translations).
void registerCompilerDialects(DialectRegistry &registry);

/// Appends those dialects to `context` and loads them.
void prepareCompilerContext(MLIRContext &context);

/// Parses the module held by `sourceMgr`'s main buffer (diagnostics with
/// source lines when the caller installed a SourceMgrDiagnosticHandler);
/// null on errors, which have been reported.
OwningOpRef<ModuleOp> parseModule(MLIRContext &context,
                                  llvm::SourceMgr &sourceMgr);
/// Parses a module from its text; null on errors.
OwningOpRef<ModuleOp> parseModuleString(MLIRContext &context,
                                        llvm::StringRef source);
/// Parses the module in file `path`; null on errors.
OwningOpRef<ModuleOp> parseModuleFile(MLIRContext &context,
                                      llvm::StringRef path);

/// A module parsed from a file for a tool: the source manager and the
/// handler that prints the context's diagnostics with their source lines
/// live as long as the module.
struct SourceFileModule {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
};

/// Reads and parses `path` ("-": stdin) into `context`, reporting
/// diagnostics through a SourceMgrDiagnosticHandler. Returns null with
/// `error` set when the file cannot be read or does not parse (the parse
/// errors have been printed).
std::unique_ptr<SourceFileModule> parseSourceFileModule(MLIRContext &context,
                                                        llvm::StringRef path,
                                                        std::string &error);

/// tp-autocast for `target` ("cuda:fp16", "cpu:bf16", ...; keepIoTypes: the
/// public functions keep their signatures).
LogicalResult autocastModule(ModuleOp module, llvm::StringRef target,
                             bool keepIoTypes = false);

/// tp-autodiff: @f_grad for each of `functions` (empty: every loss
/// function) with respect to `wrt` (empty: every floating or complex argument).
LogicalResult autodiffModule(ModuleOp module,
                             llvm::ArrayRef<std::string> functions = {},
                             llvm::ArrayRef<unsigned> wrt = {});

/// tp-cast-arguments: in each of `functions`, the f32 arguments among
/// `args` (empty: all) used only by casts to one bf16/f16 type take that
/// type; each function's `tp.cast_arguments` lists them.
LogicalResult castArgumentsModule(ModuleOp module,
                                  llvm::ArrayRef<std::string> functions,
                                  llvm::ArrayRef<unsigned> args = {});

/// tp-train-step with `options`: adds @f_train_step (its layout in the
/// function's `tp.train_step` attribute). Run autocastModule first for
/// mixed precision.
LogicalResult trainStepModule(ModuleOp module,
                              const TrainStepPassOptions &options);

/// Whether the CPU lowering can call oneDNN (the build has it); the default
/// of tp-lower-to-cpu's use-onednn option.
bool cpuLoweringHasOneDNN();

/// tp-lower-to-cpu with `pipelineOptions` ("use-onednn=0 parallel=1", ...),
/// to the LLVM dialect with C interfaces when `forJit`. The error names bad
/// options or the failing stage.
llvm::Error lowerModuleForCPU(ModuleOp module, llvm::StringRef pipelineOptions,
                              bool forJit);

/// tp-lower-to-nvvm with `pipelineOptions` ("chip=sm_80", ...): host LLVM
/// code calling the GPU runtime plus the kernels in gpu.binary ops (a
/// fatbin, or PTX with format=isa, when `forJit`).
llvm::Error lowerModuleForNVVM(ModuleOp module, llvm::StringRef pipelineOptions,
                               bool forJit);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_COMPILER_COMPILER_H
