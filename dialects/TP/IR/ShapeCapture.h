//===- ShapeCapture.h - Verifiers in result-inference mode ------*- C++ -*-===//
//
// While a ShapeCapture is active on this thread, expectResultShape records
// the shape the operands imply instead of comparing it with the result, and
// the dtype and form checks stand aside: running an op's verifier then
// yields its result shapes (see inferResultTypes).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECTS_TP_IR_SHAPECAPTURE_H
#define TENSORPLAY_DIALECTS_TP_IR_SHAPECAPTURE_H

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace tp {

struct ShapeCapture {
  explicit ShapeCapture(unsigned numResults);
  ~ShapeCapture();
  ShapeCapture(const ShapeCapture &) = delete;
  ShapeCapture &operator=(const ShapeCapture &) = delete;

  /// The capture active on this thread, or null.
  static ShapeCapture *active();

  llvm::SmallVector<std::optional<llvm::SmallVector<int64_t>>> shapes;

private:
  ShapeCapture *previous;
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECTS_TP_IR_SHAPECAPTURE_H
