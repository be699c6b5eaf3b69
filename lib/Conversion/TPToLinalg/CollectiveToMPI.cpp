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
// An all-reduce marked `overlap` is lowered before the conversion (the
// wait goes before the first op that reads a result, which the greedy
// pattern still sees): the packed buffer and a fresh receive buffer go to
// tp_mpi_allreduce_start_<type>, which returns a ticket, and
// tp_mpi_allreduce_wait_<type>(ticket, send, recv) returns once the receive
// buffer holds the reduction; passing both buffers to the wait keeps them
// alive until then. The `mpi` dialect has no non-blocking all-reduce.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;

namespace {

/// The reassociation between a tensor of `rank` and its 1-D form (none
/// for a 0-d tensor).
static SmallVector<ReassociationIndices> toOneDim(int64_t rank) {
  if (rank == 0)
    return {};
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return {all};
}

/// `value` as a 1-D tensor of its elements in row-major order.
static Value flatten(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto flat =
      RankedTensorType::get({type.getNumElements()}, type.getElementType());
  if (type.getRank() == 1)
    return value;
  if (type.getRank() == 0) // 0-d -> 1 element: an expansion
    return tensor::ExpandShapeOp::create(b, loc, flat, value, toOneDim(0));
  return tensor::CollapseShapeOp::create(b, loc, flat, value,
                                         toOneDim(type.getRank()));
}

/// The inverse of flatten: `flat` (1-D) in the shape `type`.
static Value unflatten(OpBuilder &b, Location loc, Value flat,
                       RankedTensorType type) {
  if (type.getRank() == 1)
    return flat;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, flat, toOneDim(0));
  return tensor::ExpandShapeOp::create(b, loc, type, flat,
                                       toOneDim(type.getRank()));
}

/// The number of elements of `values` together.
static int64_t totalElements(ValueRange values) {
  int64_t total = 0;
  for (Type t : values.getTypes())
    total += cast<RankedTensorType>(t).getNumElements();
  return total;
}

/// `values` flattened one after the other into one 1-D tensor.
static Value pack(OpBuilder &b, Location loc, ValueRange values, int64_t total,
                  Type element) {
  Value packed =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{total}, element);
  int64_t offset = 0;
  for (Value v : values) {
    int64_t n = cast<RankedTensorType>(v.getType()).getNumElements();
    if (n == 0)
      continue;
    packed = tensor::InsertSliceOp::create(
        b, loc, flatten(b, loc, v), packed,
        ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    offset += n;
  }
  return packed;
}

/// The tensors of `types` sliced out of the received buffer `recv`.
static SmallVector<Value> unpack(OpBuilder &b, Location loc, Value recv,
                                 TypeRange types) {
  auto bufferType = cast<MemRefType>(recv.getType());
  auto flatType =
      RankedTensorType::get(bufferType.getShape(), bufferType.getElementType());
  Value reduced = bufferization::ToTensorOp::create(
      b, loc, flatType, recv, /*restrict=*/true, /*writable=*/true);
  SmallVector<Value> results;
  int64_t offset = 0;
  for (Type t : types) {
    auto type = cast<RankedTensorType>(t);
    int64_t n = type.getNumElements();
    if (n == 0) {
      results.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                                type.getElementType()));
      continue;
    }
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, reduced, ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    results.push_back(unflatten(b, loc, slice, type));
    offset += n;
  }
  return results;
}

struct AllReduceToMPI : public OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getValues().front().getType());
    int64_t total = totalElements(adaptor.getValues());
    if (total == 0) {
      // Nothing to send (every rank has the same static shapes).
      rewriter.replaceOp(op, adaptor.getValues());
      return success();
    }
    // The packed tensor as a buffer the collective only reads (it may be an
    // operand's own buffer when there is one operand: the read ends with
    // the call).
    Value send = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get({total}, element),
        pack(rewriter, loc, adaptor.getValues(), total, element),
        rewriter.getUnitAttr());
    Value recv = memref::AllocOp::create(rewriter, loc,
                                         MemRefType::get({total}, element));
    Value comm = mpi::CommWorldOp::create(rewriter, loc,
                                          mpi::CommType::get(getContext()));
    mpi::AllReduceOp::create(rewriter, loc, TypeRange{}, send, recv,
                             op.getKind() == "max"
                                 ? mpi::MPI_ReductionOpEnum::MPI_MAX
                                 : mpi::MPI_ReductionOpEnum::MPI_SUM,
                             comm);
    rewriter.replaceOp(op, unpack(rewriter, loc, recv, op.getResultTypes()));
    return success();
  }
};

/// The suffix of the start/wait functions for `element`.
static std::string typeSuffix(Type element) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << element;
  return s;
}

struct OverlappedAllReduce : public OpRewritePattern<AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getOverlap())
      return failure();
    Location loc = op.getLoc();
    Type element = getElementTypeOrSelf(op.getValues().front().getType());
    int64_t total = totalElements(op.getValues());
    if (total == 0) {
      rewriter.replaceOp(op, op.getValues());
      return success();
    }
    // The wait: before the first op of this block that reads a result (or
    // its terminator).
    Block *block = op->getBlock();
    Operation *first = block->getTerminator();
    for (Operation *user : op->getUsers())
      if (Operation *inBlock = block->findAncestorOpInBlock(*user))
        if (inBlock->isBeforeInBlock(first))
          first = inBlock;
    // Both buffers are allocated here, aliased by nothing else: the
    // communication thread reads the one and writes the other while later
    // ops run, which bufferization cannot see (a buffer of an operand could
    // otherwise be updated in place meanwhile).
    auto bufferType = MemRefType::get({total}, element);
    Value send = memref::AllocOp::create(rewriter, loc, bufferType);
    bufferization::MaterializeInDestinationOp::create(
        rewriter, loc, Type(),
        pack(rewriter, loc, op.getValues(), total, element), send,
        /*restrict=*/false, /*writable=*/true);
    Value recv = memref::AllocOp::create(rewriter, loc, bufferType);
    auto dynamic = MemRefType::get({ShapedType::kDynamic}, element);
    Value sendAny = memref::CastOp::create(rewriter, loc, dynamic, send);
    Value recvAny = memref::CastOp::create(rewriter, loc, dynamic, recv);
    Value kind = arith::ConstantIntOp::create(
        rewriter, loc, op.getKind() == "max" ? 1 : 0, 32);
    std::string suffix = typeSuffix(element);
    Type i64 = rewriter.getI64Type();
    auto start = cast<func::FuncOp>(lowering::declareExternalFunction(
        rewriter, op, "tp_mpi_allreduce_start_" + suffix,
        rewriter.getFunctionType({dynamic, dynamic, rewriter.getI32Type()},
                                 {i64})));
    auto wait = cast<func::FuncOp>(lowering::declareExternalFunction(
        rewriter, op, "tp_mpi_allreduce_wait_" + suffix,
        rewriter.getFunctionType({i64, dynamic, dynamic}, {})));
    Value ticket = func::CallOp::create(rewriter, loc, start,
                                        ValueRange{sendAny, recvAny, kind})
                       .getResult(0);
    rewriter.setInsertionPoint(first);
    func::CallOp::create(rewriter, loc, wait,
                         ValueRange{ticket, sendAny, recvAny});
    rewriter.replaceOp(op, unpack(rewriter, loc, recv, op.getResultTypes()));
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
  void
  getEffects(Operation *op,
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

void mlir::tp::populateOverlappedCollectivePatterns(
    RewritePatternSet &patterns) {
  patterns.add<OverlappedAllReduce>(patterns.getContext());
}
