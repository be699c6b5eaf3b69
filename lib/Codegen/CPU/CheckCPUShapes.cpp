//===- CheckCPUShapes.cpp - The tp-check-cpu-shapes pass ------------------===//
//
// Refuses, before anything is lowered, the tensors tp-lower-to-cpu cannot
// compile: dynamic dimensions (tiling, oneDNN descriptors and buffers are
// all derived from static sizes) and tensors whose byte size does not fit
// the address space (their loop bounds and allocation sizes would wrap or
// never finish). Nested builtin.modules are refused too: the function
// passes of the pipeline run on the functions of the top-level module only,
// so a nested module's functions would be half lowered. So are ops with
// mixed floating operands that only autocast resolves.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "tensorplay/Conversion/Utils/ResolvedDtypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPCHECKCPUSHAPESPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

/// The largest tensor, in bytes, the pipeline compiles.
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 47;

/// The bytes an element of `type` takes in memory (at least 1).
uint64_t elementBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBytes(complex.getElementType());
  if (type.isIntOrFloat())
    return std::max<uint64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
  return 8; // index
}

/// Why the pipeline cannot compile a value of `type`, or "" when it can.
std::string problemWith(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    if (isa<UnrankedTensorType>(type))
      return "is an unranked tensor";
    return "";
  }
  if (!tensor.hasStaticShape())
    return "has a dynamic dimension";
  uint64_t bytes = elementBytes(tensor.getElementType());
  for (int64_t d : tensor.getShape()) {
    if (d == 0)
      return "";
    bool overflow = false;
    uint64_t next = llvm::SaturatingMultiply(bytes, (uint64_t)d, &overflow);
    if (overflow || next > kMaxTensorBytes)
      return "needs more than 2^47 bytes";
    bytes = next;
  }
  return "";
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

struct CheckCPUShapesPass
    : public tp::impl::TPCheckCPUShapesPassBase<CheckCPUShapesPass> {
  /// Emits the first problem of `fn`: its signature, else the first op (in
  /// program order) with an operand or result that does not fit. One
  /// message per function: everything downstream of a dynamic value is
  /// dynamic too.
  bool checkFunction(func::FuncOp fn) {
    auto report = [&](Operation *op, Type type, const Twine &what) {
      std::string problem = problemWith(type);
      if (problem.empty())
        return false;
      op->emitError() << what << " (" << typeText(type) << ") " << problem
                      << ": tp-lower-to-cpu compiles static shapes of at "
                         "most 2^47 bytes";
      return true;
    };
    FunctionType type = fn.getFunctionType();
    for (auto [i, t] : llvm::enumerate(type.getInputs()))
      if (report(fn, t, "argument #" + Twine(i) + " of @" + fn.getName()))
        return true;
    for (auto [i, t] : llvm::enumerate(type.getResults()))
      if (report(fn, t, "result #" + Twine(i) + " of @" + fn.getName()))
        return true;
    WalkResult walk = fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      std::string name = "'" + op->getName().getStringRef().str() + "' ";
      for (OpOperand &operand : op->getOpOperands())
        if (report(op, operand.get().getType(),
                   name + "operand #" + Twine(operand.getOperandNumber())))
          return WalkResult::interrupt();
      for (OpResult result : op->getResults())
        if (report(op, result.getType(),
                   name + "result #" + Twine(result.getResultNumber())))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return walk.wasInterrupted();
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](ModuleOp nested) {
      if (nested == getOperation())
        return;
      nested.emitError()
          << "nested module" << (nested.getName() ? " @" : "")
          << nested.getName().value_or("")
          << ": tp-lower-to-cpu compiles the functions of one module; lower "
             "each module on its own";
      failed = true;
    });
    if (failed)
      return signalPassFailure();
    if (::mlir::failed(
            tp::verifyResolvedDtypes(getOperation(), "tp-lower-to-cpu")))
      return signalPassFailure();
    getOperation().walk([&](func::FuncOp fn) { failed |= checkFunction(fn); });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
