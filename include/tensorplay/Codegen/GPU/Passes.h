//===- Passes.h - tensorplay GPU code generation passes ---------*- C++ -*-===//
//
// The passes of tp-lower-to-nvvm that are not conversions out of tp (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CODEGEN_GPU_PASSES_H
#define TENSORPLAY_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tp {

#define GEN_PASS_DECL
#include "tensorplay/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Codegen/GPU/Passes.h.inc"

/// The largest block size tp-map-parallel-loops accepts (CUDA's limit on
/// threads per block).
constexpr int64_t kMaxGPUBlockSize = 1024;

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CODEGEN_GPU_PASSES_H
