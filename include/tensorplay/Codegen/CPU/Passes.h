//===- Passes.h - tensorplay CPU code generation passes ---------*- C++ -*-===//
//
// The passes of tp-lower-to-cpu that are not conversions out of tp (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CODEGEN_CPU_PASSES_H
#define TENSORPLAY_CODEGEN_CPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tp {

/// The MPI ABI tp-convert-mpi-to-llvm assumes by default: "OpenMPI" or
/// "MPICH", the MPI found when the project was built (OpenMPI without one).
const char *defaultMPIImplementation();

#define GEN_PASS_DECL
#include "tensorplay/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tensorplay/Codegen/CPU/Passes.h.inc"

/// The patterns of tp-expand-float8: f8 truncf / extf as integer and f32
/// operations.
void populateExpandFloat8Patterns(RewritePatternSet &patterns);

/// The pattern of tp-expand-bf16: f32 / f64 -> bf16 truncf as integer
/// operations, tensorplay's NaN rule.
void populateExpandBF16Patterns(RewritePatternSet &patterns);

/// Prefix of the functions tp-outline-parallel-loops creates (after the
/// parent function's name) and attribute marking them.
constexpr llvm::StringLiteral kParallelBodyAttr = "tp.parallel_body";

/// The largest vector-width tp-tile-and-vectorize accepts: four vectors of
/// it are an elementwise tile, which must stay within its 2048-element
/// limit on vectorized tiles.
constexpr int64_t kMaxVectorWidth = 512;

/// True when tp-tile-and-vectorize can tile for `width` f32 lanes per
/// vector register: a power of two from 1 to kMaxVectorWidth.
inline bool isValidVectorWidth(int64_t width) {
  return width > 0 && width <= kMaxVectorWidth &&
         llvm::isPowerOf2_64(static_cast<uint64_t>(width));
}

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CODEGEN_CPU_PASSES_H
