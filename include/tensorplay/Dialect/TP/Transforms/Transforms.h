//===- Transforms.h - tp dialect rewrites ----------------------*- C++ -*-===//
//
// Patterns rewriting composite tp ops (attention, cross entropy, product
// chains, recurrent cells, conv_tbc) into the tp ops tensorplay composes
// them of, in the same dtypes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_TRANSFORMS_TRANSFORMS_H
#define TENSORPLAY_DIALECT_TP_TRANSFORMS_TRANSFORMS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tp {

/// Attention ops: scaled_dot_product_attention, native_multi_head_attention.
void populateDecomposeAttentionPatterns(RewritePatternSet &patterns);

/// chain_matmul, multi_dot, conv_tbc and rnn_cell.
void populateDecomposeCompositePatterns(RewritePatternSet &patterns);

/// The out= form of every op that a pattern already in `patterns` rewrites
/// (its root) becomes the plain op, its results cast to the destinations'
/// types (StripOutForms.cpp): call it after adding the decompositions.
void populateStripOutFormPatterns(RewritePatternSet &patterns);

/// grid_sample and the grid_sampler ops (bilinear, nearest, bicubic) as gathers
/// and elementwise tp ops, for tp-autodiff's gradient functions only (the CPU
/// pipeline lowers the ops directly).
void populateDecomposeGridSamplePatterns(RewritePatternSet &patterns);

/// orgqr, linalg_householder_product and ormqr of real matrices as their
/// reflectors' products, for tp-autodiff's gradient functions only (the CPU
/// pipeline calls LAPACK).
void populateDecomposeHouseholderPatterns(RewritePatternSet &patterns);

/// Inlines every tp.autocast region under `root` into its parent block
/// (after autocast, the regions only mark where a state held).
void inlineAutocastRegions(Operation *root);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_TRANSFORMS_TRANSFORMS_H
