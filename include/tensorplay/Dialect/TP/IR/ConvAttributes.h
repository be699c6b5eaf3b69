//===- ConvAttributes.h - The per-dimension convolution attributes -*- C++
//-*-===//
//
// stride, padding, dilation and output_padding of the tp convolution ops
// take one value per spatial dimension, one value for all, or none (the
// default): expanded here for the code that reads verified ops (the
// lowerings, tp-autodiff's rules). The verifier checks them in
// TPConvOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_CONVATTRIBUTES_H
#define TENSORPLAY_DIALECT_TP_IR_CONVATTRIBUTES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace tp {

/// One value per spatial dim (`n` of them) from a verified attribute of one
/// or `n` values, or `absent` for each when it is not set.
inline SmallVector<int64_t>
expandConvAttribute(std::optional<ArrayRef<int64_t>> values, int64_t n,
                    int64_t absent) {
  if (!values || values->empty())
    return SmallVector<int64_t>(n, absent);
  if (values->size() == 1)
    return SmallVector<int64_t>(n, values->front());
  return SmallVector<int64_t>(values->begin(), values->end());
}

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_CONVATTRIBUTES_H
