//===- Passes.h - tensorplay transformation passes --------------*- C++ -*-===//

#ifndef TENSORPLAY_TRANSFORMS_PASSES_H
#define TENSORPLAY_TRANSFORMS_PASSES_H

#include "tensorplay/Dialect/TP/IR/TPDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir {
namespace tp {

#define GEN_PASS_DECL
#include "tensorplay/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Transforms/Passes.h.inc"

/// Where tp-autocast hands its JSON report instead of writing the `report`
/// file itself: a tool that runs the pass on several modules (tp-opt with
/// --split-input-file runs it once per chunk) collects the reports and
/// writes one file.
class AutocastReportSink {
public:
  virtual ~AutocastReportSink() = default;
  /// `json` is one complete JSON object ({"ops": [...], "summary": {...}}).
  virtual void addReport(std::string json) = 0;
};

/// tp-autocast with `options`; with a `report` file path set, the report
/// goes to `sink` (not owned; it must outlive the pass) instead.
std::unique_ptr<Pass> createAutocastPass(const AutocastPassOptions &options,
                                         AutocastReportSink *sink);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_PASSES_H
