//===- Passes.h - tensorplay conversion passes ------------------*- C++ -*-===//
//
// Conversions out of the tp dialect (see Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_PASSES_H
#define TENSORPLAY_CONVERSION_PASSES_H

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/TPToRuntime/TPToRuntime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tp {

#define GEN_PASS_DECL
#include "tensorplay/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Conversion/Passes.h.inc"

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_PASSES_H
