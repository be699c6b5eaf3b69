//===- BufferizableOpInterfaceImpl.cpp - Bufferization of tp_rt.call
//-------===//
//
// tp_rt.call reads its inputs, overwrites its outputs or updates them in
// place (destination-style: result i is output i's buffer) and bufferizes into
// a func.call of the callee on unranked memrefs, each tensor argument as its
// buffer, viewed through its permutation. One-shot analysis thus sees the reads
// where the call is and keeps every buffer a call reads intact until then.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TPRuntime/IR/TPRuntime.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::tp::rt;

namespace {

/// `buffer` with dimension d of the result being dimension perm[d] of
/// `buffer` (a strided view, no copy); `buffer` itself for no permutation.
Value permutedView(OpBuilder &b, Location loc, Value buffer,
                   ArrayRef<int64_t> perm) {
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= p == (int64_t)i;
  if (identity)
    return buffer;
  auto type = cast<MemRefType>(buffer.getType());
  auto stridedType = [&](ArrayRef<int64_t> shape) {
    SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
    return MemRefType::get(
        shape, type.getElementType(),
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides),
        type.getMemorySpace());
  };
  // memref.transpose keeps a layout dynamic only from a dynamic layout.
  MemRefType dynamic = stridedType(type.getShape());
  if (type != dynamic)
    buffer = memref::CastOp::create(b, loc, dynamic, buffer);
  SmallVector<unsigned> dims(perm.begin(), perm.end());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getShape()[p]);
  return memref::TransposeOp::create(
      b, loc, stridedType(shape), buffer,
      AffineMapAttr::get(AffineMap::getPermutationMap(dims, b.getContext())));
}

struct CallOpBufferization
    : public DstBufferizableOpInterfaceExternalModel<CallOpBufferization,
                                                     CallOp> {
  /// Inputs are read; outputs are overwritten without being read, except
  /// the ones the call updates in place.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    auto call = cast<CallOp>(op);
    if (!call.isDpsInit(&operand))
      return true;
    std::optional<ArrayRef<int64_t>> updates = call.getUpdates();
    int64_t index =
        operand.getOperandNumber() - call.getOutputs().getBeginOperandIndex();
    return updates && llvm::is_contained(*updates, index);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CallOp>(op);
    Location loc = call.getLoc();
    SmallVector<Value> callArgs = call.getCallArguments();
    SmallVector<Value> buffers(callArgs.size()), outputBuffers;
    for (auto [position, output] :
         llvm::zip_equal(call.getOutputPositions(), call.getOutputs())) {
      FailureOr<Value> buffer = getBuffer(rewriter, output, options, state);
      if (failed(buffer))
        return failure();
      buffers[position] = *buffer;
      outputBuffers.push_back(*buffer);
    }
    SmallVector<Value> args;
    for (auto [i, arg] : llvm::enumerate(callArgs)) {
      if (!isa<TensorType>(arg.getType())) {
        args.push_back(arg);
        continue;
      }
      if (!buffers[i]) {
        FailureOr<Value> buffer = getBuffer(rewriter, arg, options, state);
        if (failed(buffer))
          return failure();
        buffers[i] = *buffer;
      }
      Value view = permutedView(rewriter, loc, buffers[i], call.getView(i));
      auto memref = cast<MemRefType>(view.getType());
      args.push_back(memref::CastOp::create(
          rewriter, loc,
          UnrankedMemRefType::get(memref.getElementType(),
                                  memref.getMemorySpace()),
          view));
    }
    func::CallOp::create(rewriter, loc, call.getCallee(),
                         TypeRange{rewriter.getI32Type()}, args);
    replaceOpWithBufferizedValues(rewriter, op, outputBuffers);
    return success();
  }
};

} // namespace

void tp::rt::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TPRuntimeDialect *) {
    CallOp::attachInterface<CallOpBufferization>(*ctx);
  });
}
