//===- Passes.h - tensorplay transformation passes --------------*- C++ -*-===//

#ifndef TENSORPLAY_TRANSFORMS_PASSES_H
#define TENSORPLAY_TRANSFORMS_PASSES_H

#include "tensorplay/Dialect/TP/IR/TPDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tp {

#define GEN_PASS_DECL
#include "tensorplay/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Transforms/Passes.h.inc"

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_PASSES_H
