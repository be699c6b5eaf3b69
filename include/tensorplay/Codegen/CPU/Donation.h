//===- Donation.h - Results that update their arguments' buffers -*- C++
//-*-===//
//
// The `tp.donate` function attribute of the CPU pipeline: one entry per
// result, the index of the argument whose buffer the result updates in
// place (the caller's tensor then holds the new value), or -1 for a result
// returned as usual. tp-prepare-function-abi makes the named arguments
// writable and checks the attribute; tp-donate-results drops the donated
// results; Executable's signatures leave them out and list the
// arguments updated in place.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CODEGEN_CPU_DONATION_H
#define TENSORPLAY_CODEGEN_CPU_DONATION_H

#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir {
namespace tp {

/// The `tp.donate` entries of `fn` (one per result), or nullopt when it has
/// none.
std::optional<SmallVector<int64_t>> donatedArguments(func::FuncOp fn);

/// Checks `fn`'s `tp.donate` (kDonateAttrName): what the dialect verifies
/// (one entry per result, each -1 or a distinct argument index) and that
/// each donor's type is its result's. Emits at `fn` and fails otherwise.
LogicalResult verifyDonation(func::FuncOp fn);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_CODEGEN_CPU_DONATION_H
