//===- CollectiveToMPI.cpp - tp.all_reduce to the mpi dialect -------------===//
//
// tp.all_reduce packs its tensors into one contiguous tensor (flattened,
// one after the other), hands it to one mpi.allreduce on MPI_COMM_WORLD
// (MPI_SUM or MPI_MAX) that writes a fresh buffer, and unpacks the results
// from that buffer. The packing and unpacking are tensor ops that
// bufferization turns into copies; the collective itself is the only op
// that works on memrefs before bufferization (bufferization.to_buffer of
// the packed tensor, read-only; bufferization.to_tensor of the received
// buffer, which nothing else aliases).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;

namespace {

/// `value` as a 1-D tensor of its elements in row-major order.
static Value flatten(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto flat = RankedTensorType::get({type.getNumElements()},
                                    type.getElementType());
  if (type.getRank() == 1)
    return value;
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, flat, value,
                                         ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(b, loc, flat, value,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The inverse of flatten: `flat` (1-D) in the shape `type`.
static Value unflatten(OpBuilder &b, Location loc, Value flat,
                       RankedTensorType type) {
  if (type.getRank() == 1)
    return flat;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat,
                                           ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       ArrayRef<ReassociationIndices>{all});
}

struct AllReduceToMPI : public OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getValues().front().getType());
    int64_t total = 0;
    for (Type t : op.getValues().getTypes())
      total += cast<RankedTensorType>(t).getNumElements();
    if (total == 0) {
      // Nothing to send (every rank has the same static shapes).
      rewriter.replaceOp(op, adaptor.getValues());
      return success();
    }
    auto flatType = RankedTensorType::get({total}, element);
    Value packed =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{total},
                                element);
    int64_t offset = 0;
    for (Value v : adaptor.getValues()) {
      int64_t n = cast<RankedTensorType>(v.getType()).getNumElements();
      if (n == 0)
        continue;
      packed = tensor::InsertSliceOp::create(
          rewriter, loc, flatten(rewriter, loc, v), packed,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(offset)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(n)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      offset += n;
    }
    auto bufferType = MemRefType::get({total}, element);
    Value send = bufferization::ToBufferOp::create(
        rewriter, loc, bufferType, packed, rewriter.getUnitAttr());
    Value recv = memref::AllocOp::create(rewriter, loc, bufferType);
    Value comm = mpi::CommWorldOp::create(rewriter, loc,
                                          mpi::CommType::get(getContext()));
    mpi::AllReduceOp::create(rewriter, loc, TypeRange{}, send, recv,
                             op.getKind() == "max"
                                 ? mpi::MPI_ReductionOpEnum::MPI_MAX
                                 : mpi::MPI_ReductionOpEnum::MPI_SUM,
                             comm);
    Value reduced = bufferization::ToTensorOp::create(
        rewriter, loc, flatType, recv, /*restrict=*/true, /*writable=*/true);
    SmallVector<Value> results;
    offset = 0;
    for (Type t : op.getResultTypes()) {
      auto type = cast<RankedTensorType>(t);
      int64_t n = type.getNumElements();
      if (n == 0) {
        results.push_back(tensor::EmptyOp::create(
            rewriter, loc, type.getShape(), type.getElementType()));
        continue;
      }
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, loc, reduced,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(offset)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(n)},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
      results.push_back(unflatten(rewriter, loc, slice, type));
      offset += n;
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// What mpi.allreduce does to memory, which upstream does not declare (the
/// buffer deallocation passes refuse ops with unknown effects): it reads the
/// send buffer and writes the receive buffer, and talks to the other ranks
/// (a write to the default resource keeps it in place).
struct AllReduceEffects
    : public MemoryEffectOpInterface::ExternalModel<AllReduceEffects,
                                                    mpi::AllReduceOp> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                      &effects) const {
    auto reduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &reduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &reduce.getRecvbufMutable());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

} // namespace

void mlir::tp::registerMPIEffectsExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mpi::MPIDialect *) {
    mpi::AllReduceOp::attachInterface<AllReduceEffects>(*ctx);
  });
}

void mlir::tp::populateCollectiveToMPIPatterns(RewritePatternSet &patterns) {
  patterns.add<AllReduceToMPI>(patterns.getContext());
}
