//===- Autocast.h - The autocast pass's C++ API -----------------*- C++ -*-===//
//
// What a caller of autocast outside the pass sees: applyAutocast rewrites a
// module as tp-autocast does and returns what it did (the per-op decisions
// and casts, the totals). The decision function itself is in
// AutocastDecision.h; the pass and its options in Passes.h.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_AUTOCAST_H
#define TENSORPLAY_TRANSFORMS_AUTOCAST_H

#include "tensorplay/Transforms/AutocastDecision.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace tp {

/// One cast an op caused.
struct CastRecord {
  unsigned operand;
  Type from, to;
};

/// What happened to one op.
struct OpRecord {
  AutocastDecision decision;
  AutocastState state;
  SmallVector<CastRecord> casts;
};

/// Totals of a run.
struct AutocastSummary {
  unsigned castsInserted = 0;
  /// Casts a naive rewrite would insert: one per cast use.
  unsigned castsNaive = 0;
  /// Bytes of the cast sources (static shapes; dynamic ones are counted in
  /// dynamicCasts instead).
  uint64_t bytesCast = 0;
  unsigned dynamicCasts = 0;
};

/// What a run did.
struct AutocastResult {
  /// Every tp op's decision and casts (when recording), by op.
  llvm::MapVector<Operation *, OpRecord> records;
  AutocastSummary summary;
  /// Whether the rewrite went through the whole module (also when it failed
  /// on banned ops only): the records and summary describe the module.
  bool complete = false;
};

/// Rewrites every function of `module` (nested modules included) for
/// `options`' target with `policies` (one per Device, indexed by the enum),
/// as edited by the policy file `policyFile` (empty: none; named in
/// diagnostics), keeping the public functions' signatures with
/// `keepIoTypes`. With `record`, every decision goes into `result.records`.
/// Emits diagnostics and fails on banned ops (after rewriting and recording
/// the rest), ops whose operands end up with incompatible dtypes, or bad
/// attributes.
LogicalResult applyAutocast(ModuleOp module, const AutocastOptions &options,
                            ArrayRef<AutocastPolicy> policies,
                            StringRef policyFile, bool keepIoTypes, bool record,
                            AutocastResult &result);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_AUTOCAST_H
