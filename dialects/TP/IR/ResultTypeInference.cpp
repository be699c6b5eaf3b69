//===- ResultTypeInference.cpp - Result types from operands ---------------===//
//
// The shape rules live in the family verifiers (they compute the shape the
// operands imply and compare it with each result); run in capture mode they
// yield the shapes, and the dtype rule yields the element types.
//
//===----------------------------------------------------------------------===//

#include "ShapeCapture.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::tp;

static thread_local ShapeCapture *activeCapture = nullptr;

ShapeCapture::ShapeCapture(unsigned numResults)
    : shapes(numResults), previous(activeCapture) {
  activeCapture = this;
}

ShapeCapture::~ShapeCapture() { activeCapture = previous; }

ShapeCapture *ShapeCapture::active() { return activeCapture; }

FailureOr<SmallVector<Type>> mlir::tp::inferResultTypes(Operation *op) {
  auto compute = dyn_cast<ComputeOpInterface>(op);
  if (!compute)
    return failure();
  SmallVector<Type> types;
  // In-place and out= results follow their destination.
  if (compute.isInplace()) {
    types.push_back(compute.getComputeOperands().front().getType());
    return types;
  }
  if (compute.isInplaceOrOut()) {
    for (Value out :
         op->getOperands().drop_front(compute.getComputeOperands().size()))
      types.push_back(out.getType());
    return types;
  }
  SmallVector<Type> elementTypes;
  if (failed(compute.inferResultElementTypes(elementTypes, /*emit=*/false)))
    return failure();
  {
    ShapeCapture capture(op->getNumResults());
    // Diagnostics of the (partial) verification are not the caller's.
    ScopedDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(op->getName().verifyInvariants(op)))
      return failure();
    for (auto [shape, elementType] :
         llvm::zip_equal(capture.shapes, elementTypes)) {
      if (!shape)
        return failure(); // this result's shape does not follow
      types.push_back(RankedTensorType::get(*shape, elementType));
    }
  }
  return types;
}

Operation *mlir::tp::createWithInferredResultTypes(
    OpBuilder &builder, Location loc, StringRef name, ValueRange operands,
    ArrayRef<NamedAttribute> attributes, unsigned numResults) {
  MLIRContext *ctx = builder.getContext();
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addAttributes(attributes);
  // Placeholders, replaced once the op can answer for itself.
  state.addTypes(SmallVector<Type>(
      numResults, RankedTensorType::get({}, Float32Type::get(ctx))));
  Operation *op = builder.create(state);
  FailureOr<SmallVector<Type>> types = inferResultTypes(op);
  if (failed(types)) {
    op->erase();
    return nullptr;
  }
  for (auto [result, type] : llvm::zip_equal(op->getResults(), *types))
    result.setType(type);
  return op;
}
