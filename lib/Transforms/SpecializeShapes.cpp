//===- SpecializeShapes.cpp - The tp-specialize-shapes pass ---------------===//
//
// Dynamic dimensions given sizes: the arguments retyped, then every op's
// result types inferred again from its operands (the tp ops' shape and
// dtype rules; tp.cast keeps its element type and takes its operand's
// shape; ops with regions take their terminator's types), in order, nested
// ops before their parent (Passes.td has the contract).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Transforms/SpecializeShapes.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_SPECIALIZESHAPESPASS
#include "tensorplay/Transforms/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

bool tp::hasDynamicArguments(func::FuncOp fn) {
  return llvm::any_of(fn.getArgumentTypes(), [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return shaped && shaped.hasRank() && !shaped.hasStaticShape();
  });
}

FailureOr<SmallVector<Type>>
tp::argumentTypesWithSizes(func::FuncOp fn, ArrayRef<int64_t> sizes) {
  SmallVector<Type> types;
  size_t next = 0, dynamic = 0;
  for (Type t : fn.getArgumentTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || tensor.hasStaticShape()) {
      types.push_back(t);
      continue;
    }
    SmallVector<int64_t> shape(tensor.getShape());
    for (int64_t &d : shape)
      if (ShapedType::isDynamic(d)) {
        ++dynamic;
        if (sizes.size() == 1)
          d = sizes[0];
        else if (next < sizes.size())
          d = sizes[next++];
      }
    types.push_back(RankedTensorType::get(shape, tensor.getElementType(),
                                          tensor.getEncoding()));
  }
  if (sizes.size() != 1 && sizes.size() != dynamic)
    return fn.emitError("tp-specialize-shapes: @")
           << fn.getSymName() << " has " << dynamic
           << " dynamic argument dimensions, got " << sizes.size() << " sizes";
  for (int64_t s : sizes)
    if (s < 0)
      return fn.emitError("tp-specialize-shapes: sizes must be "
                          "non-negative, got ")
             << s;
  return types;
}

/// The argument sizes as text, for the errors: "(5x64xf32, 5xi64)".
static std::string describe(ArrayRef<Type> types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(types, os);
  os << ")";
  return text;
}

/// Infers `op`'s result types again; false when its rules refuse the
/// operands (their diagnostic was emitted).
static LogicalResult reinfer(Operation *op) {
  SmallVector<Type> types;
  if (auto castOp = dyn_cast<CastOp>(op)) {
    types.push_back(RankedTensorType::get(shapeOf(castOp.getInput()),
                                          elementTypeOf(castOp.getResult())));
  } else if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return failure();
  } else if (op->getNumRegions() == 1 && !op->getRegion(0).empty() &&
             op->getRegion(0).front().mightHaveTerminator() &&
             op->getRegion(0).front().getTerminator()->getNumOperands() ==
                 op->getNumResults()) {
    // tp.autocast, tp.custom_function's forward and the like: the results
    // are what the body yields.
    for (Value v : op->getRegion(0).front().getTerminator()->getOperands())
      types.push_back(v.getType());
  } else {
    return success(); // ops without tensor results of their own rules
  }
  for (auto [result, type] : llvm::zip(op->getResults(), types))
    result.setType(type);
  return success();
}

LogicalResult tp::specializeShapes(func::FuncOp fn, ArrayRef<Type> arguments) {
  ArrayRef<Type> declared = fn.getArgumentTypes();
  if (arguments.size() != declared.size())
    return fn.emitError("tp-specialize-shapes: @")
           << fn.getSymName() << " takes " << declared.size()
           << " arguments, got " << arguments.size() << " types";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(declared, arguments))) {
    auto [from, to] = pair;
    auto a = dyn_cast<RankedTensorType>(from),
         b = dyn_cast<RankedTensorType>(to);
    bool refines = from == to;
    if (a && b && a.getRank() == b.getRank() &&
        a.getElementType() == b.getElementType() && b.hasStaticShape()) {
      refines = true;
      for (auto [x, y] : llvm::zip(a.getShape(), b.getShape()))
        refines &= ShapedType::isDynamic(x) || x == y;
    }
    if (!refines)
      return fn.emitError("tp-specialize-shapes: argument #")
             << i << " of @" << fn.getSymName() << " has type " << from
             << ", which " << to << " does not refine";
  }
  if (fn.isExternal())
    return fn.emitError("tp-specialize-shapes: @")
           << fn.getSymName() << " has no body";
  for (auto [arg, type] : llvm::zip(fn.getArguments(), arguments))
    arg.setType(type);
  std::string sizes = describe(arguments);
  WalkResult walk = fn.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (op == fn.getOperation() || isa<func::ReturnOp>(op))
      return WalkResult::advance();
    if (succeeded(reinfer(op)))
      return WalkResult::advance();
    op->emitError("tp-specialize-shapes: the op's shape rules refuse the "
                  "shapes of @")
        << fn.getSymName() << " specialized to " << sizes;
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  auto ret = cast<func::ReturnOp>(fn.getBody().back().getTerminator());
  fn.setFunctionType(
      FunctionType::get(fn.getContext(), arguments, ret.getOperandTypes()));
  return verify(fn);
}

namespace {

struct SpecializeShapesPass
    : public tp::impl::SpecializeShapesPassBase<SpecializeShapesPass> {
  using SpecializeShapesPassBase::SpecializeShapesPassBase;
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      bool named = llvm::is_contained(functions, fn.getSymName().str());
      if (!functions.empty() ? !named
                             : !fn.isPublic() || !hasDynamicArguments(fn))
        continue;
      if (sizes.empty()) {
        fn.emitError("tp-specialize-shapes: no sizes given for @")
            << fn.getSymName();
        return signalPassFailure();
      }
      FailureOr<SmallVector<Type>> types = argumentTypesWithSizes(fn, sizes);
      if (failed(types) || failed(specializeShapes(fn, *types)))
        return signalPassFailure();
    }
  }
};

} // namespace
