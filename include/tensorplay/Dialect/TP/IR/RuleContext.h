//===- RuleContext.h - What an op's shape and dtype rules see ---*- C++ -*-===//
//
// Every tp compute op has one shape rule (its family's, see ShapeRules.h)
// and one dtype rule (DtypeRules.h). Both are functions of the op's operands
// and attributes only, so that they serve two callers: the verifier, which
// checks the declared result types against them, and result-type inference
// (InferTypeOpInterface), which builds an op from its operands and
// attributes alone. A RuleContext is what the rules see in both cases: the
// operands, the attributes (through the op's Adaptor), where to report, and
// the result shapes the rule derives.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_RULECONTEXT_H
#define TENSORPLAY_DIALECT_TP_IR_RULECONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir {
namespace tp {

class RuleContext {
public:
  /// The rules of the existing op `op` (verification): diagnostics are
  /// reported at `op` as its verifier's.
  explicit RuleContext(Operation *op);

  /// The rules of an op `name` about to be built from `operands`, the
  /// discardable `attributes` and the `properties` (whose attributes
  /// `inherentAttributes` holds by name) (inference). Diagnostics go to
  /// `location`, or nowhere when it is absent. `numOut` is the number of
  /// trailing `out=` operands.
  RuleContext(MLIRContext *context, std::optional<Location> location,
              OperationName name, ValueRange operands,
              DictionaryAttr attributes, OpaqueProperties properties,
              DictionaryAttr inherentAttributes, RegionRange regions,
              unsigned numResults, unsigned numOut);

  /// Inference: the op's inherent attributes by name and its number of
  /// `out=` operands, once its properties are complete.
  void setInherentAttributes(DictionaryAttr attributes,
                             unsigned numOutOperands) {
    inherentAttributes = attributes;
    numOut = numOutOperands;
  }

  RuleContext(const RuleContext &) = delete;
  RuleContext &operator=(const RuleContext &) = delete;

  MLIRContext *getContext() const { return context; }
  OperationName getName() const { return name; }
  ValueRange getOperands() const { return operands; }
  Value getOperand(unsigned index) const { return operands[index]; }
  unsigned getNumOperands() const { return operands.size(); }
  /// The operands that take part in the computation (no `out=` operands).
  ValueRange getComputeOperands() const { return operands.drop_back(numOut); }
  unsigned getNumResults() const { return resultShapes.size(); }
  /// The attribute `name` (inherent or discardable), or null.
  Attribute getAttr(StringRef name) const;
  template <typename AttrTy>
  AttrTy getAttrOfType(StringRef name) const {
    return llvm::dyn_cast_or_null<AttrTy>(getAttr(name));
  }
  /// The op's explicit dtype= attribute, or null.
  Type getExplicitDtype() const;

  /// Reports "'<op>' op <message>" as the op's verifier does.
  InFlightDiagnostic emitOpError(const Twine &message = {}) const;

  /// Whether the op is one of `OpTys`.
  template <typename... OpTys>
  bool isa() const {
    return ((name.getStringRef() == OpTys::getOperationName()) || ...);
  }
  /// The op's operands and attributes through the Adaptor of `OpTy` (which
  /// the op must be).
  template <typename OpTy>
  typename OpTy::Adaptor as() const {
    assert(isa<OpTy>() && "rule context of another op");
    if (op)
      return typename OpTy::Adaptor(llvm::cast<OpTy>(op));
    return typename OpTy::Adaptor(operands, attributes, properties, regions);
  }
  template <typename OpTy>
  std::optional<typename OpTy::Adaptor> dynAs() const {
    if (!isa<OpTy>())
      return std::nullopt;
    return as<OpTy>();
  }

  /// Records the shape the operands imply for result `index` (the shape
  /// rule's answer); returns success so that rules can end with it.
  LogicalResult setResultShape(unsigned index, ArrayRef<int64_t> shape);
  /// The recorded shape of result `index`, or null when the rule left it
  /// open (a shape that does not follow from the operands alone).
  std::optional<ArrayRef<int64_t>> getResultShape(unsigned index) const;

  /// The declared result `index` when verifying an existing op, null when
  /// inferring: for the few results whose shape the operands leave open and
  /// whose declared type the rule still constrains (a rank).
  Value getDeclaredResult(unsigned index) const {
    return op ? op->getResult(index) : Value();
  }

  /// Verification: checks the declared shape of every result whose shape
  /// the rule recorded ("result #i has shape A but the operands imply B";
  /// a dynamic dimension matches any size).
  LogicalResult verifyResultShapes() const;

private:
  MLIRContext *context;
  Operation *op = nullptr;
  std::optional<Location> location;
  OperationName name;
  ValueRange operands;
  DictionaryAttr attributes;
  OpaqueProperties properties{nullptr};
  DictionaryAttr inherentAttributes;
  RegionRange regions;
  unsigned numOut = 0;
  SmallVector<std::optional<SmallVector<int64_t>>> resultShapes;
  /// Without a location, diagnostics are reported at a location of their
  /// own and dropped by this handler (others pass through).
  std::optional<ScopedDiagnosticHandler> quiet;
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_DIALECT_TP_IR_RULECONTEXT_H
