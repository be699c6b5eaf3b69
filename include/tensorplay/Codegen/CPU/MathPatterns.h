//===- MathPatterns.h - Math rewrites of the CPU pipeline -------*- C++ -*-===//
//
// Rewrites of math ops that tp-lower-vectors applies before upstream's
// polynomial approximations, where those are not accurate enough.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CODEGEN_CPU_MATHPATTERNS_H
#define TENSORPLAY_CODEGEN_CPU_MATHPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {

/// math.sin / math.cos on f32 (scalars and vectors) with an argument
/// reduction that keeps the result within a few ulps over the whole f32
/// range (upstream's reduction loses accuracy linearly with |x|: 5.5e-5 at
/// |x| = 1000). |x| up to 2^19 pi/2 is reduced by pi/2 in f64 (a 2-part
/// Cody-Waite split, exact products) and a polynomial on [-pi/4, pi/4]
/// runs in f64, rounded to f32 once; larger arguments, infinities and NaN take
/// libm's f64 sin/cos, which reduces exactly (Payne-Hanek), for the vectors
/// that hold one.
void populateAccurateSinCosPatterns(RewritePatternSet &patterns,
                                    PatternBenefit benefit = 2);

/// f32 math at the subnormal range, where upstream's approximations read or
/// build an exponent field: math.log / math.log2 of subnormal arguments
/// (log of 1.4e-45 gave -87.3 instead of -103.3) scale them by 2^24 first
/// and subtract 24 ln 2 (24) afterwards; math.exp of arguments in
/// (-103.98, -87.34), whose results are subnormal (they were flushed to 0),
/// takes libm's f64 exp for the vectors that hold one.
void populateSubnormalPatterns(RewritePatternSet &patterns,
                               PatternBenefit benefit = 2);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CODEGEN_CPU_MATHPATTERNS_H
