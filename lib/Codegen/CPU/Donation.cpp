//===- Donation.cpp - The tp.donate attribute -----------------------------===//

#include "tensorplay/Codegen/CPU/Donation.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

std::optional<SmallVector<int64_t>> tp::donatedArguments(func::FuncOp fn) {
  std::optional<ArrayRef<int64_t>> donors = getDonatedArguments(fn);
  if (!donors)
    return std::nullopt;
  return SmallVector<int64_t>(*donors);
}

LogicalResult tp::verifyDonation(func::FuncOp fn) {
  Attribute raw = fn->getAttr(kDonateAttrName);
  if (!raw)
    return success();
  if (failed(*verifyFunctionAttribute(
          fn, NamedAttribute(StringAttr::get(fn.getContext(), kDonateAttrName),
                             raw))))
    return failure();
  for (auto [j, donor] : llvm::enumerate(*getDonatedArguments(fn)))
    if (donor >= 0 && fn.getArgumentTypes()[donor] != fn.getResultTypes()[j])
      return fn.emitOpError(kDonateAttrName)
             << ": result #" << j << " (" << fn.getResultTypes()[j]
             << ") cannot update argument #" << donor << " ("
             << fn.getArgumentTypes()[donor] << ")";
  return success();
}
