//===- IndexingUtils.h - Data-dependent reads and writes ---------*- C++
//-*-===//
//
// The pieces the lowerings of indexed ops share: an index read from a
// tensor and clamped into a dimension, and aten's scatter_add as a loop
// over the index tensor (used by tp.scatter_add, topk's and gather's
// gradients and the max pools' backward).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_UTILS_INDEXINGUTILS_H
#define TENSORPLAY_CONVERSION_UTILS_INDEXINGUTILS_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tp {
namespace lowering {

/// The integer scalar `raw` (any integer type) as an index clamped into
/// [0, size): the CPU lowerings clamp out-of-range indices where eager
/// tensorplay raises.
Value clampIndex(OpBuilder &b, Location loc, Value raw, int64_t size);

/// aten's self.scatter_add(dim, index, src) on static shapes: for every
/// position i of `index` (of self's rank, no larger than src, nor than self
/// outside `dim`), self[i with i[dim] = index[i]] += src[i], in index order.
/// Floating types accumulate in f32 (f16, bf16) and round once; integers
/// add in their type. The result has self's type.
Value buildScatterAdd(OpBuilder &b, Location loc, Value self, int64_t dim,
                      Value index, Value src);
/// As buildScatterAdd, but assigning: self[i with i[dim] = index[i]] =
/// src[i], a later position of `index` winning (aten's scatter, and the
/// loop of max_unpool's CPU kernel).
Value buildScatter(OpBuilder &b, Location loc, Value self, int64_t dim,
                   Value index, Value src);

} // namespace lowering
} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CONVERSION_UTILS_INDEXINGUTILS_H
