//===- AutocastGradients.cpp - Gradient functions under autocast ----------===//
//
// See AutocastGradients.h. The link is the tp.gradient_of attribute
// buildGradientFunction puts on every gradient function: {function = @f,
// wrt = array<i64: ...>}, or the tp.train_step attribute of a train step.
//
//===----------------------------------------------------------------------===//

#include "AutocastGradients.h"

#include "tensorplay/Transforms/Autodiff.h"
#include "tensorplay/Transforms/TrainStep.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tp;

/// The forward function and wrt indices of a gradient_of link, or failure
/// (reported) when it is malformed.
static LogicalResult readLink(func::FuncOp grad, SymbolTable &symbols,
                              func::FuncOp &forward,
                              SmallVectorImpl<unsigned> &wrt) {
  std::optional<GradientLink> link = getGradientOf(grad);
  if (!link)
    return grad.emitOpError("malformed ")
           << kGradientOfAttrName
           << ": expected {function = @f, wrt = array<i64: ...>}";
  forward = symbols.lookup<func::FuncOp>(link->function.getValue());
  for (int64_t i : link->wrt)
    wrt.push_back(static_cast<unsigned>(i));
  return success();
}

/// detachGradientFunctions for the functions directly in `module`.
static LogicalResult detachIn(ModuleOp module,
                              std::vector<DetachedGradient> &detached) {
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> toErase;
  size_t first = detached.size();
  for (auto grad : module.getOps<func::FuncOp>()) {
    func::FuncOp forward;
    DetachedGradient entry;
    if (grad->hasAttr(kGradientOfAttrName)) {
      if (failed(readLink(grad, symbols, forward, entry.wrt)))
        return failure();
    } else if (grad->hasAttr(kTrainStepAttrName)) {
      FailureOr<TrainStepPassOptions> options = readTrainStepOptions(grad);
      if (failed(options))
        return failure();
      forward = symbols.lookup<func::FuncOp>(options->function);
      entry.trainStep = *options;
    } else {
      continue;
    }
    // Without its forward function (or for a gradient of a gradient) the
    // function is autocast like any other.
    if (!forward || forward.isExternal() ||
        forward->hasAttr(kGradientOfAttrName))
      continue;
    if (!SymbolTable::symbolKnownUseEmpty(grad, module)) {
      grad.emitWarning("tp-autocast: @")
          << grad.getName()
          << " is referenced, so it is autocast by the tables instead of "
             "being built again from the autocast @"
          << forward.getName();
      continue;
    }
    entry.module = module;
    entry.name = grad.getName().str();
    entry.forward = forward.getName().str();
    entry.before = grad->getNextNode();
    detached.push_back(std::move(entry));
    toErase.push_back(grad);
  }
  // An erased function may be the insertion point of another.
  for (DetachedGradient &entry : llvm::drop_begin(detached, first))
    while (entry.before && llvm::is_contained(toErase, entry.before))
      entry.before = entry.before->getNextNode();
  for (func::FuncOp grad : toErase)
    grad.erase();
  return success();
}

FailureOr<std::vector<DetachedGradient>>
tp::detachGradientFunctions(ModuleOp root) {
  SmallVector<ModuleOp> modules;
  root.walk([&](ModuleOp module) { modules.push_back(module); });
  std::vector<DetachedGradient> detached;
  for (ModuleOp module : modules)
    if (failed(detachIn(module, detached)))
      return failure();
  return detached;
}

LogicalResult
tp::rebuildGradientFunctions(ArrayRef<DetachedGradient> detached) {
  for (const DetachedGradient &entry : detached) {
    ModuleOp module = entry.module;
    SymbolTable symbols(module);
    auto forward = symbols.lookup<func::FuncOp>(entry.forward);
    FailureOr<func::FuncOp> grad =
        entry.trainStep
            ? buildTrainStep(forward, *entry.trainStep, symbols)
            : buildGradientFunction(forward, entry.wrt, entry.name, symbols);
    if (failed(grad))
      return failure();
    if (entry.before)
      (*grad)->moveBefore(entry.before);
    else
      (*grad)->moveBefore(module.getBody(), module.getBody()->end());
  }
  return success();
}
