//===- ShapeToLinalg.cpp - tp layout and data movement ops to linalg ------===//
//
// Views (reshape, flatten, (un)squeeze) become tensor.collapse_shape /
// expand_shape, which bufferize to views; transpose/permute/expand become
// copying linalg.generics (so neighbouring elementwise code fuses into them);
// cat/stack become tensor.insert_slice into a new tensor; embedding and the
// padding ops are gathers (linalg.generic + tensor.extract), and
// embedding_dense_backward a loop of row updates (scf.for).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/ShapeRules.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

namespace {

/// reshape, flatten, unsqueeze, squeeze: the result type says everything.
class ViewOpLowering : public ConversionPattern {
public:
  ViewOpLowering(MLIRContext *ctx, StringRef name)
      : ConversionPattern(name, /*benefit=*/1, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value input = convertTensor(rewriter, op->getLoc(), operands[0],
                                resultType.getElementType());
    rewriter.replaceOp(
        op, reshapeTo(rewriter, op->getLoc(), input, resultType.getShape()));
    return success();
  }
};

struct TransposeOpLowering : public OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = shapeOf(adaptor.getInput()).size();
    SmallVector<int64_t> perm;
    for (int64_t i = 0; i < rank; ++i)
      perm.push_back(i);
    if (rank > 0)
      std::swap(perm[normalizeDim((int64_t)op.getDim0(), rank)],
                perm[normalizeDim((int64_t)op.getDim1(), rank)]);
    rewriter.replaceOp(
        op, transposeTensor(rewriter, op.getLoc(), adaptor.getInput(), perm));
    return success();
  }
};

struct PermuteOpLowering : public OpConversionPattern<PermuteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PermuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = shapeOf(adaptor.getInput()).size();
    SmallVector<int64_t> perm;
    for (int64_t d : op.getDims())
      perm.push_back(normalizeDim(d, rank));
    rewriter.replaceOp(
        op, transposeTensor(rewriter, op.getLoc(), adaptor.getInput(), perm));
    return success();
  }
};

struct ExpandOpLowering : public OpConversionPattern<ExpandOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(op,
                       broadcastTo(rewriter, op.getLoc(), adaptor.getInput(),
                                   resultType.getShape()));
    return success();
  }
};

/// cat / stack: each operand (converted to the promoted dtype, unsqueezed
/// for stack) is inserted at its offset along `dim`.
template <typename OpTy, bool IsStack>
struct JoinOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> shape = resultType.getShape();
    int64_t dim = normalizeDim((int64_t)op.getDim(), shape.size());
    Value result =
        emptyTensor(rewriter, loc, shape, resultType.getElementType());
    int64_t offset = 0;
    for (Value t : adaptor.getTensors()) {
      // Legacy cat skips empty 1-D tensors.
      if (!IsStack && shapeOf(t).size() == 1 && shapeOf(t)[0] == 0 &&
          shape.size() != 1)
        continue;
      Value v = convertTensor(rewriter, loc, t, resultType.getElementType());
      if (IsStack)
        v = insertUnitDims(rewriter, loc, v, {dim});
      ArrayRef<int64_t> vShape = shapeOf(v);
      // An empty piece contributes nothing (and an insert_slice of it at
      // the end of the result would be out of bounds).
      if (numElements(vShape) == 0)
        continue;
      SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes,
          strides(shape.size(), rewriter.getIndexAttr(1));
      for (int64_t s : vShape)
        sizes.push_back(rewriter.getIndexAttr(s));
      offsets[dim] = rewriter.getIndexAttr(offset);
      result = tensor::InsertSliceOp::create(rewriter, loc, v, result, offsets,
                                             sizes, strides);
      offset += vShape[dim];
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// out[i..., d] = weight[indices[i...], d].
struct EmbeddingOpLowering : public OpConversionPattern<EmbeddingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value weight = adaptor.getWeight();
    if (shapeOf(weight).size() != 2)
      return emitUnsupported(op, "expects a 2-D weight");
    int64_t rank = resultType.getRank();
    int64_t numRows = shapeOf(weight)[0];
    SmallVector<AffineExpr> idxExprs;
    for (int64_t d = 0; d + 1 < rank; ++d)
      idxExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, idxExprs, ctx),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    Value init = emptyTensor(rewriter, loc, resultType.getShape(),
                             resultType.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{adaptor.getIndices()},
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value row = convertScalar(b, nloc, args[0], b.getI64Type());
          // Negative or out-of-range indices are clamped (torch raises).
          row = arith::MaxSIOp::create(
              b, nloc, row, scalarConstant(b, nloc, b.getI64Type(), 0));
          row = arith::MinSIOp::create(
              b, nloc, row,
              scalarConstant(b, nloc, b.getI64Type(), numRows - 1));
          Value rowIdx =
              arith::IndexCastOp::create(b, nloc, b.getIndexType(), row);
          Value col = linalg::IndexOp::create(b, nloc, rank - 1);
          Value v = tensor::ExtractOp::create(b, nloc, weight,
                                              ValueRange{rowIdx, col});
          linalg::YieldOp::create(b, nloc, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// embedding_dense_backward: a loop over the M rows of grad_output (an
/// scf.for carrying the (V, D) accumulator, f32 for f16 and bf16) that adds
/// row i into row clamp(indices[i]) (the row the forward read), times 0
/// for padding_idx and 1 / count with scale_grad_by_freq (the counts from a
/// first loop). O(M D) work, where the one-hot product was O(V M D).
struct EmbeddingDenseBackwardLowering
    : public OpConversionPattern<EmbeddingDenseBackwardOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EmbeddingDenseBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elem = resultType.getElementType();
    if (!isa<FloatType>(elem))
      return emitUnsupported(op, "has no CPU lowering for ")
             << elem << " gradients";
    Type acc = computeTypeFor(elem);
    int64_t rows = resultType.getDimSize(0), width = resultType.getDimSize(1);
    int64_t m = numElements(shapeOf(adaptor.getIndices()));
    Value g = reshapeTo(rewriter, loc, adaptor.getGradOutput(), {m, width});
    Value idx = reshapeTo(rewriter, loc, adaptor.getIndices(), {m});
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Type i64 = rewriter.getI64Type();
    // The index of row i as read (for padding_idx) and clamped.
    auto rowOf = [&](OpBuilder &b, Location l, Value i) {
      Value raw =
          convertScalar(b, l, tensor::ExtractOp::create(b, l, idx, i), i64);
      Value row =
          arith::MaxSIOp::create(b, l, raw, scalarConstant(b, l, i64, 0));
      row = arith::MinSIOp::create(b, l, row,
                                   scalarConstant(b, l, i64, rows - 1));
      return std::make_pair(
          raw,
          arith::IndexCastOp::create(b, l, b.getIndexType(), row).getResult());
    };
    Value counts;
    if (op.getScaleGradByFreq()) {
      Value zeros = filledTensor(rewriter, loc, {rows}, acc, 0.0);
      counts =
          scf::ForOp::create(
              rewriter, loc, index(0), index(m), index(1), ValueRange{zeros},
              [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
                Value row = rowOf(b, l, i).second;
                Value n = tensor::ExtractOp::create(b, l, iter[0], row);
                n = arith::AddFOp::create(b, l, n,
                                          scalarConstant(b, l, acc, 1.0));
                scf::YieldOp::create(
                    b, l,
                    tensor::InsertOp::create(b, l, n, iter[0], row)
                        .getResult());
              })
              .getResult(0);
    }
    int64_t padding = op.getPaddingIdx();
    Value zeros = filledTensor(rewriter, loc, {rows, width}, acc, 0.0);
    Value sum =
        scf::ForOp::create(
            rewriter, loc, index(0), index(m), index(1), ValueRange{zeros},
            [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
              auto [raw, row] = rowOf(b, l, i);
              Value scale = scalarConstant(b, l, acc, 1.0);
              if (counts)
                scale = arith::DivFOp::create(
                    b, l, scale, tensor::ExtractOp::create(b, l, counts, row));
              if (padding >= 0)
                scale = arith::SelectOp::create(
                    b, l,
                    arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, raw,
                                          scalarConstant(b, l, i64, padding)),
                    scalarConstant(b, l, acc, 0.0), scale);
              SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                                 b.getIndexAttr(width)};
              SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
              SmallVector<OpFoldResult> from = {i, b.getIndexAttr(0)};
              SmallVector<OpFoldResult> to = {row, b.getIndexAttr(0)};
              auto accRow = RankedTensorType::get({width}, acc);
              Value gRow = tensor::ExtractSliceOp::create(
                  b, l, RankedTensorType::get({width}, elem), g, from, sizes,
                  strides);
              Value cur = tensor::ExtractSliceOp::create(b, l, accRow, iter[0],
                                                         to, sizes, strides);
              Value next = buildElementwise(
                  b, l, accRow, {cur, gRow},
                  [&](OpBuilder &nb, Location nl, ValueRange a) -> Value {
                    Value v = convertScalar(nb, nl, a[1], acc);
                    v = arith::MulFOp::create(nb, nl, v, scale);
                    return arith::AddFOp::create(nb, nl, a[0], v);
                  });
              scf::YieldOp::create(b, l,
                                   tensor::InsertSliceOp::create(
                                       b, l, next, iter[0], to, sizes, strides)
                                       .getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, convertTensor(rewriter, loc, sum, elem));
    return success();
  }
};

/// slice: a strided tensor.extract_slice (a view after bufferization);
/// slice_backward: the gradient inserted into zeros.
template <typename OpTy>
struct SliceLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  static constexpr bool backward = std::is_same_v<OpTy, SliceBackwardOp>;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getOperands()[0];
    auto resultType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> full = backward ? resultType.getShape() : shapeOf(source);
    ArrayRef<int64_t> part = backward ? shapeOf(source) : resultType.getShape();
    int64_t rank = full.size();
    int64_t dim = normalizeDim(static_cast<int64_t>(op.getDim()), rank);
    int64_t step = op.getStep();
    SliceRange range =
        sliceRange(full[dim], op.getStartAttr(), op.getEndAttr(), step);
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t size : part)
      sizes.push_back(rewriter.getIndexAttr(size));
    offsets[dim] = rewriter.getIndexAttr(range.start);
    strides[dim] = rewriter.getIndexAttr(step);
    if constexpr (!backward) {
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, resultType, source, offsets, sizes, strides);
    } else {
      Type elem = resultType.getElementType();
      if (!isa<FloatType, IntegerType, ComplexType>(elem))
        return emitUnsupported(op, "has no CPU lowering for ")
               << elem << " tensors";
      Value zeros = filledTensor(rewriter, loc, full, elem, 0.0);
      rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
          op, source, zeros, offsets, sizes, strides);
    }
    return success();
  }
};

/// reflection / replication padding of the last N dimensions.
template <typename OpTy, bool Reflect, int N>
struct PadOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = adaptor.getInput();
    ArrayRef<int64_t> inShape = shapeOf(input);
    int64_t rank = resultType.getRank();
    ArrayRef<int64_t> padding = op.getPadding();
    // padding = (last-dim left, last-dim right, previous-dim left, ...).
    SmallVector<int64_t> low(rank, 0);
    for (int i = 0; i < N; ++i)
      low[rank - 1 - i] = padding[2 * i];
    Value init = emptyTensor(rewriter, loc, resultType.getShape(),
                             resultType.getElementType());
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext())};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location nloc, ValueRange) {
          SmallVector<Value> idx;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = linalg::IndexOp::create(b, nloc, d);
            if (low[d] == 0 && inShape[d] == resultType.getDimSize(d)) {
              idx.push_back(i);
              continue;
            }
            auto c = [&](int64_t v) {
              return arith::ConstantIndexOp::create(b, nloc, v);
            };
            // j = i - low; reflect: |j| then n-1 - |n-1 - j|; replicate: clamp.
            Value j = arith::SubIOp::create(b, nloc, i, c(low[d]));
            int64_t n = inShape[d];
            Value r;
            if (Reflect) {
              Value negJ = arith::SubIOp::create(b, nloc, c(0), j);
              Value a = arith::MaxSIOp::create(b, nloc, j, negJ);
              Value t = arith::SubIOp::create(b, nloc, c(n - 1), a);
              Value negT = arith::SubIOp::create(b, nloc, c(0), t);
              Value absT = arith::MaxSIOp::create(b, nloc, t, negT);
              r = arith::SubIOp::create(b, nloc, c(n - 1), absT);
            } else {
              r = arith::MinSIOp::create(
                  b, nloc, arith::MaxSIOp::create(b, nloc, j, c(0)), c(n - 1));
            }
            idx.push_back(r);
          }
          Value v = tensor::ExtractOp::create(b, nloc, input, idx);
          linalg::YieldOp::create(b, nloc, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tp::populateShapeToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (StringRef name :
       {ReshapeOp::getOperationName(), FlattenOp::getOperationName(),
        UnsqueezeOp::getOperationName(), SqueezeOp::getOperationName()})
    patterns.add<ViewOpLowering>(ctx, name);
  patterns.add<TransposeOpLowering, PermuteOpLowering, ExpandOpLowering,
               JoinOpLowering<CatOp, false>, JoinOpLowering<StackOp, true>,
               EmbeddingOpLowering, EmbeddingDenseBackwardLowering,
               SliceLowering<SliceOp>, SliceLowering<SliceBackwardOp>,
               PadOpLowering<ReflectionPad1dOp, true, 1>,
               PadOpLowering<ReflectionPad2dOp, true, 2>,
               PadOpLowering<ReplicationPad1dOp, false, 1>,
               PadOpLowering<ReplicationPad2dOp, false, 2>,
               PadOpLowering<ReplicationPad3dOp, false, 3>>(ctx);
}
