//===- Donation.cpp - The tp.donate attribute -----------------------------===//

#include "tensorplay/Codegen/CPU/Donation.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

std::optional<SmallVector<int64_t>> tp::donatedArguments(func::FuncOp fn) {
  auto attr = fn->getAttrOfType<DenseI64ArrayAttr>(kDonateAttrName);
  if (!attr)
    return std::nullopt;
  return SmallVector<int64_t>(attr.asArrayRef());
}

LogicalResult tp::verifyDonation(func::FuncOp fn) {
  Attribute raw = fn->getAttr(kDonateAttrName);
  if (!raw)
    return success();
  auto attr = dyn_cast<DenseI64ArrayAttr>(raw);
  if (!attr)
    return fn.emitOpError(kDonateAttrName)
           << " must be an array<i64> with one entry per result";
  ArrayRef<int64_t> donors = attr.asArrayRef();
  if (donors.size() != fn.getNumResults())
    return fn.emitOpError(kDonateAttrName)
           << " has " << donors.size() << " entries for " << fn.getNumResults()
           << " results";
  llvm::DenseSet<int64_t> seen;
  for (auto [j, donor] : llvm::enumerate(donors)) {
    if (donor < 0)
      continue;
    if (donor >= static_cast<int64_t>(fn.getNumArguments()))
      return fn.emitOpError(kDonateAttrName)
             << ": result #" << j << " names argument #" << donor
             << ", which does not exist";
    if (!seen.insert(donor).second)
      return fn.emitOpError(kDonateAttrName)
             << ": argument #" << donor << " is donated twice";
    if (fn.getArgumentTypes()[donor] != fn.getResultTypes()[j])
      return fn.emitOpError(kDonateAttrName)
             << ": result #" << j << " (" << fn.getResultTypes()[j]
             << ") cannot update argument #" << donor << " ("
             << fn.getArgumentTypes()[donor] << ")";
  }
  return success();
}
