//===- CommonStages.h - Stages shared by the CPU and GPU pipelines -*- C++
//-*-===//
//
// tp-lower-to-cpu and tp-lower-to-nvvm start alike: tp is checked, lowered
// to linalg (with calls of the runtime's library wrappers for the ops a
// library does best) and fused, then bufferized with the project's function
// ABI (read-only inputs, results as out-params, tp.donate honoured). The
// target-specific stages (CPU tiling and vectorization; GPU mapping) come
// between and after these.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_PIPELINES_COMMONSTAGES_H
#define TENSORPLAY_PIPELINES_COMMONSTAGES_H

#include "tensorplay/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace tp {

/// Shape checks, composite decomposition, convert-tp-to-runtime (with
/// `toRuntime`), convert-tp-to-linalg (tp.dropout seeded by `dropoutSeed`)
/// and elementwise fusion, each followed by canonicalization and CSE.
void addTPToLinalgStages(OpPassManager &pm,
                         const ConvertTPToRuntimePassOptions &toRuntime,
                         uint64_t dropoutSeed);

/// The function ABI and one-shot bufferization down to memrefs, with
/// buffer deallocation (`emitCInterface`: _mlir_ciface_ wrappers for the
/// public functions).
void addBufferizationStages(OpPassManager &pm, bool emitCInterface);

/// Registers pipeline `name` with options `Options` (a PassPipelineOptions)
/// like PassPipelineRegistration, plus `verify`'s check of the parsed
/// values, whose message becomes the parse error.
template <typename Options>
void registerCheckedPipeline(
    StringRef name, StringRef description,
    LogicalResult (*verify)(const Options &,
                            function_ref<LogicalResult(const Twine &)>),
    void (*build)(OpPassManager &, const Options &)) {
  registerPassPipeline(
      name, description,
      [verify, build](OpPassManager &pm, StringRef text,
                      function_ref<LogicalResult(const Twine &)> emitError) {
        Options options;
        if (failed(options.parseFromString(text)) ||
            failed(verify(options, emitError)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> printOptions) {
        printOptions(Options());
      });
}

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_PIPELINES_COMMONSTAGES_H
