//===- Compiler.cpp - The compiler's C++ API, stage by stage --------------===//

#include "tensorplay/Compiler/Compiler.h"

#include "tensorplay/Pipelines/CPUPipeline.h"
#include "tensorplay/Pipelines/NVVMPipeline.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"

using namespace mlir;

void mlir::tp::registerCompilerDialects(DialectRegistry &registry) {
  // The GPU pipeline's dialects include the CPU pipeline's.
  registerNVVMCodegenDialects(registry);
}

void mlir::tp::prepareCompilerContext(MLIRContext &context) {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}

OwningOpRef<ModuleOp> mlir::tp::parseModule(MLIRContext &context,
                                            llvm::SourceMgr &sourceMgr) {
  prepareCompilerContext(context);
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

OwningOpRef<ModuleOp> mlir::tp::parseModuleString(MLIRContext &context,
                                                  llvm::StringRef source) {
  prepareCompilerContext(context);
  return parseSourceString<ModuleOp>(source, &context);
}

OwningOpRef<ModuleOp> mlir::tp::parseModuleFile(MLIRContext &context,
                                                llvm::StringRef path) {
  prepareCompilerContext(context);
  return parseSourceFile<ModuleOp>(path, &context);
}

std::unique_ptr<tp::SourceFileModule>
mlir::tp::parseSourceFileModule(MLIRContext &context, llvm::StringRef path,
                                std::string &error) {
  auto file = openInputFile(path, &error);
  if (!file)
    return nullptr;
  auto result = std::make_unique<SourceFileModule>();
  result->sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  result->diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(result->sourceMgr, &context);
  result->module = parseModule(context, result->sourceMgr);
  if (!result->module) {
    error = ("cannot parse " + path).str();
    return nullptr;
  }
  return result;
}

/// Runs the one module pass `pass` on `module`.
static LogicalResult runModulePass(ModuleOp module,
                                   std::unique_ptr<Pass> pass) {
  PassManager pm(module->getContext());
  pm.addPass(std::move(pass));
  return pm.run(module);
}

LogicalResult mlir::tp::autocastModule(ModuleOp module, llvm::StringRef target,
                                       bool keepIoTypes) {
  AutocastPassOptions options;
  options.target = target.str();
  options.keepIoTypes = keepIoTypes;
  return runModulePass(module, createAutocastPass(options));
}

LogicalResult mlir::tp::autodiffModule(ModuleOp module,
                                       llvm::ArrayRef<std::string> functions,
                                       llvm::ArrayRef<unsigned> wrt) {
  AutodiffPassOptions options;
  options.functions.assign(functions.begin(), functions.end());
  options.wrt.assign(wrt.begin(), wrt.end());
  return runModulePass(module, createAutodiffPass(options));
}

LogicalResult
mlir::tp::castArgumentsModule(ModuleOp module,
                              llvm::ArrayRef<std::string> functions,
                              llvm::ArrayRef<unsigned> args) {
  CastArgumentsPassOptions options;
  options.functions.assign(functions.begin(), functions.end());
  options.args.assign(args.begin(), args.end());
  return runModulePass(module, createCastArgumentsPass(options));
}

LogicalResult mlir::tp::trainStepModule(ModuleOp module,
                                        const TrainStepPassOptions &options) {
  return runModulePass(module, createTrainStepPass(options));
}

bool mlir::tp::cpuLoweringHasOneDNN() { return isOneDNNAvailable(); }

/// Parses `pipelineOptions` as `Options`, checks them with `verify`, lets
/// `adjust` set what the JIT needs and runs `build`'s pipeline on `module`;
/// `name` is the pipeline's and `target` what it lowers to, for the
/// messages.
template <typename Options>
static llvm::Error
lowerModule(ModuleOp module, llvm::StringRef name, llvm::StringRef target,
            llvm::StringRef pipelineOptions,
            LogicalResult (*verify)(const Options &,
                                    function_ref<LogicalResult(const Twine &)>),
            void (*build)(OpPassManager &, const Options &),
            function_ref<void(Options &)> adjust) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  auto options = Options::createFromString(pipelineOptions);
  if (!options)
    return error("invalid " + name + " options '" + pipelineOptions + "'");
  std::string invalid;
  if (failed(verify(*options, [&](const llvm::Twine &message) {
        invalid = message.str();
        return failure();
      })))
    return error(invalid);
  adjust(*options);
  PassManager pm(module->getContext());
  build(pm, *options);
  if (failed(pm.run(module)))
    return error("lowering to " + target + " failed (" + name + ")");
  return llvm::Error::success();
}

llvm::Error mlir::tp::lowerModuleForCPU(ModuleOp module,
                                        llvm::StringRef pipelineOptions,
                                        bool forJit) {
  return lowerModule<TPLowerToCPUOptions>(
      module, "tp-lower-to-cpu", "the CPU", pipelineOptions,
      verifyTPLowerToCPUOptions, buildTPLowerToCPUPipeline,
      [&](TPLowerToCPUOptions &options) {
        if (forJit) {
          options.emitCInterface = true;
          options.toLLVM = true;
        }
      });
}

llvm::Error mlir::tp::lowerModuleForNVVM(ModuleOp module,
                                         llvm::StringRef pipelineOptions,
                                         bool forJit) {
  return lowerModule<TPLowerToNVVMOptions>(
      module, "tp-lower-to-nvvm", "the GPU", pipelineOptions,
      verifyTPLowerToNVVMOptions, buildTPLowerToNVVMPipeline,
      [&](TPLowerToNVVMOptions &options) {
        if (forJit) {
          options.emitCInterface = true;
          options.toLLVM = true;
          // The JIT loads the module it embeds: cubin + PTX.
          if (options.format != "isa")
            options.format = "fatbin";
        }
      });
}
