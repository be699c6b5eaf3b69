//===- TPFunctionAttrs.h - The tp dialect's function attributes -*- C++ -*-===//
//
// The attributes passes leave on functions for later passes and tools:
// tp.gradient_of (tp-autodiff: the forward function and the arguments a
// gradient function differentiates), tp.train_step (tp-train-step: the
// step's layout and the options it was built with), tp.cast_arguments
// (tp-cast-arguments: the arguments taken already cast) and tp.donate (the
// argument each result updates in place). The dialect verifies each where it
// appears (TPDialect::verifyOperationAttribute), so a malformed one is an
// error at the function when the IR is parsed or a pass leaves it, never a
// surprise in a later reader; the accessors below read them typed.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPFUNCTIONATTRS_H
#define TENSORPLAY_DIALECT_TP_IR_TPFUNCTIONATTRS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir {
namespace tp {

inline constexpr llvm::StringLiteral kGradientOfAttrName = "tp.gradient_of";
inline constexpr llvm::StringLiteral kTrainStepAttrName = "tp.train_step";
inline constexpr llvm::StringLiteral kCastArgumentsAttrName =
    "tp.cast_arguments";
inline constexpr llvm::StringLiteral kDonateAttrName = "tp.donate";

/// tp.gradient_of = {function = @f, wrt = array<i64: ...>}.
struct GradientLink {
  FlatSymbolRefAttr function;
  ArrayRef<int64_t> wrt;
};
std::optional<GradientLink> getGradientOf(Operation *function);

/// tp.train_step = {function = "f", params = array<i64: ...>, state =
/// [...], options = {num_inputs, optimizer, grad_scaler, lr, ...},
/// param_copies = array<i64: ...> (optional)}.
struct TrainStepLayout {
  StringRef function;
  ArrayRef<int64_t> params;
  SmallVector<StringRef> state;
  /// The parameters the step keeps a low-precision copy of (absent before
  /// tp-autocast rebuilt the step).
  std::optional<ArrayRef<int64_t>> paramCopies;
  /// The options, keyed as TrainStepPassOptions' (readTrainStepOptions).
  DictionaryAttr options;
  int64_t numInputs;
  bool gradScaler;
  StringRef optimizer;
};
std::optional<TrainStepLayout> getTrainStep(Operation *function);

/// tp.cast_arguments = array<i64: ...>: ascending argument indices.
std::optional<ArrayRef<int64_t>> getCastArguments(Operation *function);

/// tp.donate = array<i64: ...>: per result, the argument it updates or -1.
std::optional<ArrayRef<int64_t>> getDonatedArguments(Operation *function);

/// Checks one of the attributes above on `op` (emitting there); nullopt
/// when `attribute` is none of them.
std::optional<LogicalResult> verifyFunctionAttribute(Operation *op,
                                                     NamedAttribute attribute);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_TPFUNCTIONATTRS_H
