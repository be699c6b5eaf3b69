//===- RuntimeCall.cpp - Building calls of the tp_rt_* ABI ----------------===//
//
// See RuntimeCall.h. Operands are passed as bufferization.to_buffer views
// (read_only) with fully dynamic strided layouts, so one-shot bufferization
// hands over the tensors' buffers without copies; results are fresh
// memref.alloc buffers wrapped by bufferization.to_tensor restrict writable.
// Every memref crosses the call as an unranked memref, i.e. (rank,
// descriptor pointer), the layout Codegen.h documents.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tp;

StringRef runtime_call::dtypeSuffix(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isBF16())
    return "bf16";
  return "";
}

static MemRefType stridedType(ArrayRef<int64_t> shape, Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic, strides);
  return MemRefType::get(shape, elementType, layout);
}

Value runtime_call::bufferOf(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  return bufferization::ToBufferOp::create(
      b, loc, stridedType(type.getShape(), type.getElementType()), t,
      /*read_only=*/true);
}

Value runtime_call::transposeLast2(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  SmallVector<unsigned> perm;
  for (int64_t i = 0; i < rank; ++i)
    perm.push_back(i);
  std::swap(perm[rank - 1], perm[rank - 2]);
  AffineMap map = AffineMap::getPermutationMap(perm, b.getContext());
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[rank - 1], shape[rank - 2]);
  return memref::TransposeOp::create(b, loc,
                                     stridedType(shape, type.getElementType()),
                                     buffer, AffineMapAttr::get(map));
}

Value runtime_call::permuteView(OpBuilder &b, Location loc, Value buffer,
                                ArrayRef<int64_t> perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == (int64_t)i;
  if (identity)
    return buffer;
  auto type = cast<MemRefType>(buffer.getType());
  // memref.transpose keeps the layout dynamic only from a dynamic layout.
  MemRefType dynamic = stridedType(type.getShape(), type.getElementType());
  if (type != dynamic)
    buffer = memref::CastOp::create(b, loc, dynamic, buffer);
  SmallVector<unsigned> dims(perm.begin(), perm.end());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getShape()[p]);
  return memref::TransposeOp::create(
      b, loc, stridedType(shape, type.getElementType()), buffer,
      AffineMapAttr::get(AffineMap::getPermutationMap(dims, b.getContext())));
}

Value runtime_call::allocBuffer(OpBuilder &b, Location loc,
                                ArrayRef<int64_t> shape, Type elementType) {
  return memref::AllocOp::create(b, loc, MemRefType::get(shape, elementType),
                                 b.getI64IntegerAttr(64));
}

Value runtime_call::emptyBuffer(OpBuilder &b, Location loc, Type elementType) {
  return allocBuffer(b, loc, {0}, elementType);
}

Value runtime_call::tensorOf(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
      buffer, /*restrict=*/true, /*writable=*/true);
}

void runtime_call::emitCall(OpBuilder &b, Location loc, Operation *anchor,
                            StringRef name, ValueRange buffers) {
  SmallVector<Value> args;
  SmallVector<Type> argTypes;
  for (Value buffer : buffers) {
    if (buffer.getType().isIntOrIndex()) {
      args.push_back(buffer);
      argTypes.push_back(buffer.getType());
      continue;
    }
    auto type = cast<MemRefType>(buffer.getType());
    auto unranked =
        UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace());
    args.push_back(memref::CastOp::create(b, loc, unranked, buffer));
    argTypes.push_back(unranked);
  }
  auto module = anchor->getParentOfType<ModuleOp>();
  auto fnType = b.getFunctionType(argTypes, {b.getI32Type()});
  if (!module.lookupSymbol<func::FuncOp>(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, loc, name, fnType);
    fn.setPrivate();
  }
  func::CallOp::create(b, loc, name, TypeRange{b.getI32Type()}, args);
}
