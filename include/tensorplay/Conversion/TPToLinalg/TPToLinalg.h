//===- TPToLinalg.h - tp to linalg/tensor/arith/math ------------*- C++ -*-===//
//
// Patterns lowering tp ops to destination-style linalg ops on tensors, one
// populate function per op family (one source file each).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_TPTOLINALG_TPTOLINALG_H
#define TENSORPLAY_CONVERSION_TPTOLINALG_TPTOLINALG_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>

namespace mlir {
class ConversionTarget;
namespace tp {

/// Elementwise ops (unary math, activations, binary ops with broadcasting
/// and type promotion, scalar-operand ops, where, dropout), tp.cast and
/// tp.constant. `dropoutSeed` seeds the counter-based generator of dropout.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns,
                                         uint64_t dropoutSeed = 0);

/// Layout ops (transpose, permute, reshape, expand, (un)squeeze, flatten),
/// cat, stack, embedding and the padding ops.
void populateShapeToLinalgPatterns(RewritePatternSet &patterns);

/// Reductions: sum, mean, prod, max, amax, argmax, max_dim, norm, dist,
/// trace (dialect-conversion patterns).
void populateReductionToLinalgPatterns(RewritePatternSet &patterns);

/// cumsum, cumprod as scf.for scans: greedy rewrite patterns, applied
/// before the dialect conversion (which cannot build scf.for bodies).
void populateScanToLinalgPatterns(RewritePatternSet &patterns);

/// softmax, log_softmax, softmin, layer_norm, group_norm, batch_norm,
/// normalize, cosine_similarity.
void populateNormalizationToLinalgPatterns(RewritePatternSet &patterns);

/// Loss functions.
void populateLossToLinalgPatterns(RewritePatternSet &patterns);

/// Matrix products as linalg.matmul / linalg.batch_matmul (f32 accumulation
/// for f16/bf16), with their alpha/beta/bias epilogues.
void populateMatmulToLinalgPatterns(RewritePatternSet &patterns);

/// Convolutions (N-D, grouped, transposed) as im2col + batched matmul.
void populateConvToLinalgPatterns(RewritePatternSet &patterns);

/// Pools (max, avg, adaptive; 2-D and 3-D) and their backward ops: gathers
/// over the windows (PoolingToLinalg.cpp).
void populatePoolingToLinalgPatterns(RewritePatternSet &patterns);

/// gather, scatter_add, index_copy, topk and max_unpool2d/3d: reads and writes
/// at positions an index tensor names (IndexingToLinalg.cpp).
void populateIndexingToLinalgPatterns(RewritePatternSet &patterns);
/// grid_sample and the grid_sampler ops (GridSampleToLinalg.cpp).
void populateGridSampleToLinalgPatterns(RewritePatternSet &patterns);
/// polar, view_as_complex (ComplexToLinalg.cpp).
void populateComplexToLinalgPatterns(RewritePatternSet &patterns);
/// fractional_max_pool2d/3d (FractionalPoolToLinalg.cpp).
void populateFractionalPoolToLinalgPatterns(RewritePatternSet &patterns);
/// all_reduce: packed into one mpi.allreduce (CollectiveToMPI.cpp).
void populateCollectiveToMPIPatterns(RewritePatternSet &patterns);
/// all_reduce with `overlap`: start/wait calls around the ops between it
/// and its first reader (greedy, before the conversion; CollectiveToMPI.cpp).
void populateOverlappedCollectivePatterns(RewritePatternSet &patterns);
/// The memory effects of mpi.allreduce (read send, write receive), which
/// the buffer deallocation passes need (CollectiveToMPI.cpp).
void registerMPIEffectsExternalModels(DialectRegistry &registry);

/// All of the above.
void populateTPToLinalgPatterns(RewritePatternSet &patterns,
                                uint64_t dropoutSeed = 0);

/// Names of the ops the patterns in `patterns` are rooted at.
llvm::StringSet<> getLoweredOpNames(RewritePatternSet &patterns);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_TPTOLINALG_TPTOLINALG_H
