//===- tp-opt.cpp - The tensorplay optimizer driver -----------------------===//
//
// mlir-opt for tensorplay: parses tp IR, runs the project's passes and the
// upstream passes it builds on, and prints the result. Besides the usual
// pass flags and --pass-pipeline it takes
//   --autocast=<device>[:<dtype>]   run tp-autocast first with that target
//   --autocast-report=<path|->      its decision report (JSON, or a table)
//   --autocast-policy=<file>        policy edits (JSON)
//   --autocast-keep-io-types        keep the functions' result types
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/Policy/AutocastPolicy.h"
#include "tensorplay/Transforms/Passes.h"
// CPU code generation.
#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Dialect/TP/Transforms/Passes.h"
#include "tensorplay/Pipelines/CPUPipeline.h"
#include "tensorplay/Pipelines/NVVMPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace mlir::tp::test {
/// test-tp-infer-result-types (test/lib).
void registerTestInferResultTypes();
/// test-tp-shape-sweep (test/lib).
void registerTestShapeSweep();
} // namespace mlir::tp::test

static llvm::cl::OptionCategory
    autocastCategory("Autocast (tensorplay.amp mixed precision)");

static llvm::cl::opt<std::string> autocastTarget(
    "autocast",
    llvm::cl::desc("Rewrite into mixed precision for <device>[:<dtype>]: "
                   "device cuda|xpu|cpu, dtype fp16|bf16 (default cuda:fp16, "
                   "xpu:fp16, cpu:bf16; cpu:fp16 uses the bf16 lists). Runs "
                   "before the other passes"),
    llvm::cl::value_desc("device[:dtype]"), llvm::cl::cat(autocastCategory));

static llvm::cl::opt<std::string> autocastReport(
    "autocast-report",
    llvm::cl::desc("Write the autocast decision of every op: a JSON file, or "
                   "'-' for a table on stdout"),
    llvm::cl::value_desc("path|-"), llvm::cl::cat(autocastCategory));

static llvm::cl::opt<std::string> autocastPolicy(
    "autocast-policy",
    llvm::cl::desc("JSON file adding ops to or removing ops from the policy "
                   "lists: {\"cuda\": {\"fp32\": {\"add\": [...], "
                   "\"remove\": [...]}}}"),
    llvm::cl::value_desc("file"), llvm::cl::cat(autocastCategory));

static llvm::cl::opt<bool> autocastKeepIoTypes(
    "autocast-keep-io-types",
    llvm::cl::desc("Cast function results back to their original types"),
    llvm::cl::init(false), llvm::cl::cat(autocastCategory));

namespace {
/// Collects the autocast reports of the chunks and writes them as one JSON
/// file: the report itself for a single chunk, {"chunks": [...]} (one
/// report per chunk, in input order) for several.
class ReportCollector : public tp::AutocastReportSink {
public:
  void addReport(std::string json) override {
    reports.push_back(std::move(json));
  }

  bool write(StringRef path) const {
    if (reports.empty())
      return true;
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
    if (!out) {
      llvm::errs() << "tp-opt: cannot write the autocast report: " << error
                   << "\n";
      return false;
    }
    if (reports.size() == 1) {
      out->os() << reports.front();
    } else {
      out->os() << "{\"chunks\": [\n";
      for (size_t i = 0; i < reports.size(); ++i)
        out->os() << (i ? ",\n" : "") << StringRef(reports[i]).rtrim();
      out->os() << "\n]}\n";
    }
    out->keep();
    return true;
  }

private:
  std::vector<std::string> reports;
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerTransformsPasses();
  bufferization::registerBufferizationPasses();
  tp::registerTensorplayPasses();

  DialectRegistry registry;
  registry.insert<tp::TPDialect, func::FuncDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, scf::SCFDialect,
                  tensor::TensorDialect, gpu::GPUDialect>();
  // CPU code generation: the conversions, the tp-lower-to-cpu
  // pipeline and its passes, and the dialects they produce.
  tp::registerTensorplayConversionPasses();
  tp::registerTPTransformsPasses();
  tp::test::registerTestInferResultTypes();
  tp::test::registerTestShapeSweep();
  tp::registerCPUCodegenPassesAndPipelines();
  tp::registerCPUCodegenDialects(registry);
  // GPU code generation: tp-lower-to-nvvm and its passes.
  tp::registerNVVMCodegenPassesAndPipelines();
  tp::registerNVVMCodegenDialects(registry);

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "tensorplay optimizer driver\n", registry);

  bool autocastRequested = autocastTarget.getNumOccurrences() > 0;
  if (!autocastRequested && (!autocastReport.empty() ||
                             !autocastPolicy.empty() || autocastKeepIoTypes)) {
    llvm::errs()
        << "tp-opt: --autocast-report, --autocast-policy and "
           "--autocast-keep-io-types need --autocast=<device>[:<dtype>]\n";
    return 1;
  }
  if (autocastRequested) {
    if (llvm::Expected<tp::AutocastTarget> target =
            tp::parseAutocastTarget(autocastTarget);
        !target) {
      llvm::errs() << "tp-opt: " << llvm::toString(target.takeError()) << "\n";
      return 1;
    }
  }

  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleaveComma(registry.getDialectNames(), llvm::outs());
    llvm::outs() << "\n";
    return 0;
  }
  // The JSON report of every chunk (--split-input-file runs the pipeline
  // once per chunk), written as one file at the end.
  ReportCollector reports;
  bool collect = !autocastReport.empty() && autocastReport != "-";
  MlirOptMainConfig base = config;
  config.setPassPipelineSetupFn([base, &reports, collect](PassManager &pm) {
    if (autocastTarget.getNumOccurrences()) {
      tp::AutocastPassOptions options;
      options.target = autocastTarget;
      options.report = autocastReport;
      options.policy = autocastPolicy;
      options.keepIoTypes = autocastKeepIoTypes;
      pm.addPass(tp::createAutocastPass(options, collect ? &reports : nullptr));
    }
    return base.setupPassPipeline(pm);
  });

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  bool ok =
      succeeded(MlirOptMain(output->os(), std::move(input), registry, config));
  // Written also when the pipeline failed (a banned op is reported).
  if (collect && !reports.write(autocastReport))
    return 1;
  if (!ok)
    return 1;
  output->keep();
  return 0;
}
