//===- TestInferResultTypes.cpp - Inferred against declared result types --===//
//
// test-tp-infer-result-types: for every tp compute op of the input, infers
// the result types from the operands and attributes alone (the op's
// InferTypeOpInterface, i.e. its shape and dtype rules) and compares them
// with the declared ones. Each op gets a remark: "inferred" when they agree
// (a dynamic dimension matches any size), "differs: ..." when not, "not
// inferable" when inference fails; a summary remark on the module counts
// them. Lit tests run it on every op of the dialect.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

bool compatible(Type inferred, Type declared) {
  auto a = dyn_cast<RankedTensorType>(inferred);
  auto b = dyn_cast<RankedTensorType>(declared);
  if (!a || !b)
    return inferred == declared;
  return a.getElementType() == b.getElementType() &&
         succeeded(verifyCompatibleShape(a.getShape(), b.getShape()));
}

struct TestInferResultTypes
    : public PassWrapper<TestInferResultTypes, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestInferResultTypes)
  StringRef getArgument() const final { return "test-tp-infer-result-types"; }
  StringRef getDescription() const final {
    return "Compare the result types tp ops infer from operands and "
           "attributes with their declared ones";
  }
  void runOnOperation() override {
    unsigned inferred = 0, differing = 0, notInferable = 0;
    getOperation().walk([&](Operation *op) {
      auto infer = dyn_cast<InferTypeOpInterface>(op);
      if (!infer || !isa<tp::ComputeOpInterface>(op))
        return;
      SmallVector<Type> types;
      if (failed(infer.inferReturnTypes(
              op->getContext(), /*location=*/std::nullopt, op->getOperands(),
              op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
              op->getRegions(), types))) {
        ++notInferable;
        op->emitRemark("not inferable");
        return;
      }
      bool same =
          types.size() == op->getNumResults() &&
          llvm::all_of(
              llvm::zip_equal(types, op->getResultTypes()), [](auto pair) {
                return compatible(std::get<0>(pair), std::get<1>(pair));
              });
      if (same) {
        ++inferred;
        op->emitRemark("inferred");
        return;
      }
      ++differing;
      InFlightDiagnostic diag = op->emitRemark("differs: inferred ");
      llvm::interleaveComma(types, diag);
    });
    getOperation()->emitRemark()
        << inferred << " inferred, " << differing << " differing, "
        << notInferable << " not inferable";
  }
};

} // namespace

namespace mlir::tp::test {
void registerTestInferResultTypes() {
  PassRegistration<TestInferResultTypes>();
}
} // namespace mlir::tp::test
