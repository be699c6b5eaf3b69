//===- Passes.h - tp dialect transforms -------------------------*- C++ -*-===//
//
// tp -> tp passes (see Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_TRANSFORMS_PASSES_H
#define TENSORPLAY_DIALECT_TP_TRANSFORMS_PASSES_H

#include "tensorplay/Dialect/TP/Transforms/Transforms.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tp {

#define GEN_PASS_DECL
#include "tensorplay/Dialect/TP/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Dialect/TP/Transforms/Passes.h.inc"

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_TRANSFORMS_PASSES_H
