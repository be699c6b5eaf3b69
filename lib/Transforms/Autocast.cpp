//===- Autocast.cpp - The tp-autocast pass --------------------------------===//
//
// Parses the target and loads the policy (plus an optional policy file) once
// (initialize), runs applyAutocast over each module, counts its casts
// in the pass statistics and writes the report.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/Passes.h"

#include "AutocastGradients.h"
#include "AutocastReport.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Transforms/Autocast.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_AUTOCASTPASS
#include "tensorplay/Transforms/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

namespace {
struct AutocastPass : public tp::impl::AutocastPassBase<AutocastPass> {
  using AutocastPassBase::AutocastPassBase;

  /// Parses the target and the policy file once, before any module runs.
  LogicalResult initialize(MLIRContext *ctx) override {
    auto fail = [&](const Twine &message) {
      emitError(UnknownLoc::get(ctx)) << message;
      return failure();
    };
    parsedTarget.reset();
    if (!target.empty()) {
      llvm::Expected<AutocastTarget> result = parseAutocastTarget(target);
      if (!result)
        return fail(llvm::toString(result.takeError()));
      parsedTarget = *result;
    }
    policies = {AutocastPolicy::getDefault(Device::Cuda),
                AutocastPolicy::getDefault(Device::Xpu),
                AutocastPolicy::getDefault(Device::Cpu)};
    if (!policy.empty()) {
      std::string error;
      std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(policy, &error);
      if (!file)
        return fail("cannot read the autocast policy file: " + error);
      auto isKnownOp = [&](StringRef name) {
        std::optional<RegisteredOperationName> op =
            RegisteredOperationName::lookup(("tp." + name).str(), ctx);
        return op && op->hasInterface<ComputeOpInterface>();
      };
      if (llvm::Error err =
              applyPolicyFile(policy, file->getBuffer(), policies, isKnownOp))
        return fail(llvm::toString(std::move(err)));
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    AutocastOptions options;
    options.target = parsedTarget;
    AutocastResult result;
    // Gradient functions tp-autodiff built earlier are built again from
    // their autocast forward functions (AutocastGradients.h).
    FailureOr<std::vector<DetachedGradient>> gradients =
        detachGradientFunctions(module);
    if (failed(gradients))
      return signalPassFailure();
    // The report is written also when the rewrite fails on a banned op (it
    // lists the op as banned); then the pass fails.
    LogicalResult rewritten =
        applyAutocast(module, options, policies, policy, keepIoTypes,
                      /*record=*/!report.empty(), result);
    if (succeeded(rewritten))
      rewritten = rebuildGradientFunctions(*gradients);
    const AutocastSummary &summary = result.summary;
    numCastsInserted += summary.castsInserted;
    numDynamicCasts += summary.dynamicCasts;
    numBytesCast += summary.bytesCast;
    if (!report.empty() && result.complete &&
        failed(writeReport(module, result)))
      return signalPassFailure();
    if (failed(rewritten))
      return signalPassFailure();
  }

  LogicalResult writeReport(ModuleOp module, const AutocastResult &result) {
    if (report == "-") {
      printAutocastTable(module, result, llvm::outs());
      llvm::outs().flush();
      return success();
    }
    if (sink) {
      std::string json;
      llvm::raw_string_ostream os(json);
      printAutocastJson(module, result, os);
      sink->addReport(std::move(json));
      return success();
    }
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(report, &error);
    if (!out)
      return emitError(module.getLoc())
             << "cannot write the autocast report: " << error;
    printAutocastJson(module, result, out->os());
    out->keep();
    return success();
  }

  /// Receives the JSON report instead of the `report` file, when set.
  AutocastReportSink *sink = nullptr;
  /// What initialize() parsed.
  std::optional<AutocastTarget> parsedTarget;
  SmallVector<AutocastPolicy> policies;
};
} // namespace

std::unique_ptr<Pass>
mlir::tp::createAutocastPass(const AutocastPassOptions &options,
                             AutocastReportSink *sink) {
  auto pass = std::make_unique<AutocastPass>(options);
  pass->sink = sink;
  return pass;
}
