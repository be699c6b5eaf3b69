//===- RuleContext.cpp - What an op's shape and dtype rules see -----------===//

#include "tensorplay/Dialect/TP/IR/RuleContext.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

using namespace mlir;
using namespace mlir::tp;

/// Where the diagnostics of an inference without a location go.
static Location quietLocation(MLIRContext *context) {
  return NameLoc::get(StringAttr::get(context, "tp.rule-inference"));
}

RuleContext::RuleContext(Operation *op)
    : context(op->getContext()), op(op), location(op->getLoc()),
      name(op->getName()), operands(op->getOperands()),
      attributes(op->getRawDictionaryAttrs()),
      properties(op->getPropertiesStorage()), regions(op->getRegions()),
      resultShapes(op->getNumResults()) {
  if (auto compute = dyn_cast<ComputeOpInterface>(op))
    numOut = op->getNumOperands() - compute.getComputeOperands().size();
}

RuleContext::RuleContext(MLIRContext *context, std::optional<Location> location,
                         OperationName name, ValueRange operands,
                         DictionaryAttr attributes, OpaqueProperties properties,
                         DictionaryAttr inherentAttributes, RegionRange regions,
                         unsigned numResults, unsigned numOut)
    : context(context), location(location), name(name), operands(operands),
      attributes(attributes), properties(properties),
      inherentAttributes(inherentAttributes), regions(regions), numOut(numOut),
      resultShapes(numResults) {
  if (location)
    return;
  Location quiet = quietLocation(context);
  this->location = quiet;
  this->quiet.emplace(context, [quiet](Diagnostic &diag) {
    return success(diag.getLocation() == quiet);
  });
}

Attribute RuleContext::getAttr(StringRef attrName) const {
  if (op)
    return op->getAttr(attrName);
  if (inherentAttributes)
    if (Attribute attr = inherentAttributes.get(attrName))
      return attr;
  return attributes ? attributes.get(attrName) : Attribute();
}

Type RuleContext::getExplicitDtype() const {
  auto dtype = getAttrOfType<TypeAttr>("dtype");
  return dtype ? dtype.getValue() : Type();
}

InFlightDiagnostic RuleContext::emitOpError(const Twine &message) const {
  if (op)
    return op->emitOpError(message);
  return mlir::emitError(*location)
         << "'" << name.getStringRef() << "' op " << message;
}

LogicalResult RuleContext::setResultShape(unsigned index,
                                          ArrayRef<int64_t> shape) {
  resultShapes[index].emplace(shape.begin(), shape.end());
  return success();
}

std::optional<ArrayRef<int64_t>>
RuleContext::getResultShape(unsigned index) const {
  if (!resultShapes[index])
    return std::nullopt;
  return ArrayRef<int64_t>(*resultShapes[index]);
}
