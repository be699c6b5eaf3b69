//===- Passes.h - tensorplay CPU code generation passes ---------*- C++ -*-===//
//
// The passes of tp-lower-to-cpu that are not conversions out of tp (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_PIPELINES_PASSES_H
#define TENSORPLAY_PIPELINES_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tp {

#define GEN_PASS_DECL
#include "tensorplay/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Pipelines/Passes.h.inc"

/// Prefix of the functions tp-outline-parallel-loops creates (after the
/// parent function's name) and attribute marking them.
constexpr llvm::StringLiteral kParallelBodyAttr = "tp.parallel_body";

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_PIPELINES_PASSES_H
