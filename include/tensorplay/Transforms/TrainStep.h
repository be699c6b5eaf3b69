//===- TrainStep.h - Building train steps as a library ---------*- C++ -*-===//
//
// What tp-train-step does for one loss function, for tp-autocast, which
// builds a train step made before it again from the autocast loss function
// (so that its backward takes the forward's decisions).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TRANSFORMS_TRAINSTEP_H
#define TENSORPLAY_TRANSFORMS_TRAINSTEP_H

#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace tp {

// kTrainStepAttrName (TPFunctionAttrs.h) is on @f_train_step: its layout
// (function, params, state) and the options it was built with (`options`:
// num_inputs, optimizer, grad_scaler, ...), read by getTrainStep.

/// Adds @<func>_train_step after `func` (options.function is not read).
/// Errors at `func` or at the op concerned.
FailureOr<func::FuncOp> buildTrainStep(func::FuncOp func,
                                       const TrainStepPassOptions &options,
                                       SymbolTable &symbols);

/// The `options` dictionary of the tp.train_step attribute.
DictionaryAttr trainStepOptionsAttr(MLIRContext *ctx,
                                    const TrainStepPassOptions &options);

/// The options `step` was built with (function = its loss function), from
/// its tp.train_step attribute; an error at `step` when it is malformed.
FailureOr<TrainStepPassOptions> readTrainStepOptions(func::FuncOp step);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_TRANSFORMS_TRAINSTEP_H
