//===- AutocastGradients.h - Gradient functions under autocast --*- C++ -*-===//
//
// How tp-autocast treats the gradient functions tp-autodiff built before it
// ran (@f_grad, linked to @f by its tp.gradient_of attribute): each
// backward op must run in the dtype autocast gives its forward op, and each
// gradient must pass back through the reverse of the forward's casts, so
// autocast does not decide the backward ops from the tables. It takes the
// gradient function out, autocasts the module, and builds it again from
// the autocast forward function, exactly as --autocast --tp-autodiff does.
// Train steps (tp.train_step, which records its options) are treated the
// same way: built again by tp-train-step's builder.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_AUTOCASTGRADIENTS_H
#define TENSORPLAY_LIB_TRANSFORMS_AUTOCASTGRADIENTS_H

#include "tensorplay/Transforms/TrainStep.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tp {

/// A gradient function taken out of the module, to be built again.
struct DetachedGradient {
  /// The (possibly nested) module it belongs to.
  ModuleOp module;
  std::string name;
  std::string forward;
  SmallVector<unsigned> wrt;
  /// Set for a train step (tp.train_step): the options it was built with.
  std::optional<TrainStepPassOptions> trainStep;
  /// The op the function stood before (null: the end of the module).
  Operation *before = nullptr;
};

/// Erases from `module` and its nested modules each function with a
/// tp.gradient_of link whose forward function has a body, is not a gradient
/// function itself, and that nothing references (a referenced one stays and is
/// autocast like any function, with a warning at it). A malformed link is an
/// error.
FailureOr<std::vector<DetachedGradient>>
detachGradientFunctions(ModuleOp module);

/// Builds each detached function again from its (now autocast) forward
/// function, where it stood.
LogicalResult rebuildGradientFunctions(ArrayRef<DetachedGradient> detached);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_AUTOCASTGRADIENTS_H
