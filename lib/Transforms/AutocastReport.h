//===- AutocastReport.h - The autocast decision report ----------*- C++ -*-===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREPORT_H
#define TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREPORT_H

#include "tensorplay/Transforms/Autocast.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace tp {

/// Writes the report as a table (one row per tp op, then a summary line).
void printAutocastTable(ModuleOp module, const AutocastResult &result,
                        llvm::raw_ostream &os);

/// Writes the report as JSON: {"ops": [...], "summary": {...}}.
void printAutocastJson(ModuleOp module, const AutocastResult &result,
                       llvm::raw_ostream &os);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREPORT_H
