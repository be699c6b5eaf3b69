//===- VectorPatterns.h - Vector rewrites of the CPU pipeline ---*- C++ -*-===//
//
// Rewrite patterns on vector ops that tp-tile-and-vectorize applies to the
// vectorized tiles before it folds them into contractions.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CODEGEN_CPU_VECTORPATTERNS_H
#define TENSORPLAY_CODEGEN_CPU_VECTORPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {

/// Adds a pattern that removes the reduced dimensions of size 1 from
/// vector.multi_reduction (a vector.shape_cast of the source, then a
/// reduction over the other dimensions, or a plain combination with the
/// accumulator when none is left).
///
/// A tile of a reduction over several dimensions (a full reduction of a 2-D
/// tensor, tiled into rows) is a multi_reduction over a 1 x N vector.
/// Upstream's reduction-to-contract patterns would make it a vector.contract
/// and then fold a broadcast operand (a [N] weight of the 1 x N product)
/// into it, leaving the unit dimension a reduction dimension of one operand
/// only: an invalid contraction. Without unit reduced dimensions neither
/// happens.
void populateDropUnitReductionDimsPatterns(RewritePatternSet &patterns,
                                           PatternBenefit benefit = 1);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CODEGEN_CPU_VECTORPATTERNS_H
