//===- MathFallback.h - f64 libm fallback for rare f32 lanes ----*- C++ -*-===//
//
// Shared by the math patterns of MathPatterns.h: where an inline f32
// approximation is not accurate for some arguments (huge sin/cos
// arguments, exp results below the normal range), those lanes take an f64
// op that lowers to libm, only when a vector holds one. The branch holds an
// empty asm statement with side effects so that LLVM cannot speculate it
// into a select (it did at O3: libm ran for every element).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_PIPELINES_MATHFALLBACK_H
#define TENSORPLAY_LIB_PIPELINES_MATHFALLBACK_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tp {

/// `inlineResult` (f32 scalar or vector) with the lanes where `mask` holds
/// replaced by `exact(xd)` rounded to f32, `xd` being `x` in f64; the f64
/// op is evaluated only when some lane of `mask` is set (scf.if).
Value withF64Fallback(OpBuilder &b, Location loc, Value x, Value mask,
                      Value inlineResult,
                      function_ref<Value(OpBuilder &, Location, Value)> exact);

/// `value` as a constant of the scalar or vector type `type`.
Value mathConstant(OpBuilder &b, Location loc, Type type, double value);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_PIPELINES_MATHFALLBACK_H
