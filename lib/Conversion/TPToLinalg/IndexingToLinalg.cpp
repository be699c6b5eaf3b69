//===- IndexingToLinalg.cpp - gather, scatters, index_copy, topk, unpool --===//
//
// The ops whose reads or writes go where a tensor of indices says:
// - gather: a linalg.generic over the index tensor reading the input with
//   tensor.extract at the index's position along dim;
// - scatter_add: a loop over the index tensor adding src into self
//   (IndexingUtils' buildScatterAdd, aten's order);
// - index_copy: a loop over the 1-D index inserting source's slice j at
//   row index[j] (a later duplicate wins);
// - topk: per row along dim, k scans each taking the best element after
//   the previous pick in the total order (value, then position): O(k n)
//   compares and no scratch memory, sorted by construction;
// - max_unpool2d/3d: IndexingUtils' buildScatter of each input element to
//   its index in its flattened output plane;
// - index_put: the rows the broadcast index tensors name in self's
//   flattened leading dimensions, written (buildScatter) or added
//   (buildScatterAdd) in order.
// Out-of-range indices are clamped into the dimension (eager raises).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/TPToLinalg/TPToLinalg.h"
#include "tensorplay/Conversion/Utils/IndexingUtils.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
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

/// Refuses element types the indexed lowerings do not take.
LogicalResult checkIndexedOperands(Operation *op, Value self, Value other) {
  Type elem = elementTypeOf(self);
  if (isa<ComplexType>(elem))
    return emitUnsupported(op, "has no CPU lowering for ")
           << elem << " tensors";
  if (other && elementTypeOf(other) != elem)
    return emitUnsupported(op, "needs operands of one element type, got ")
           << elem << " and " << elementTypeOf(other)
           << " (cast them to one first)";
  return success();
}

/// The value of a 0-d tensor as a 1-element 1-D one (others unchanged).
Value atLeast1d(OpBuilder &b, Location loc, Value v) {
  return shapeOf(v).empty() ? reshapeTo(b, loc, v, {1}) : v;
}

struct GatherLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A gather moves elements: any element type, complex included.
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = atLeast1d(rewriter, loc, adaptor.getInput());
    Value index = atLeast1d(rewriter, loc, adaptor.getIndex());
    int64_t rank = shapeOf(input).size();
    int64_t dim = normalizeDim(op.getDim(), rank);
    int64_t size = shapeOf(input)[dim];
    Type elem = resultType.getElementType();
    ArrayRef<int64_t> outShape = shapeOf(index);
    if (size == 0 && numElements(outShape) != 0)
      return emitUnsupported(op, "cannot gather from an empty dimension");
    auto identity = AffineMap::getMultiDimIdentityMap(rank, getContext());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(outShape, elem)},
        ValueRange{index},
        ValueRange{emptyTensor(rewriter, loc, outShape, elem)},
        SmallVector<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(d == dim ? clampIndex(b, l, args[0], size)
                                  : linalg::IndexOp::create(b, l, d));
          linalg::YieldOp::create(
              b, l, tensor::ExtractOp::create(b, l, input, at).getResult());
        });
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, generic.getResult(0),
                                     resultType.getShape()));
    return success();
  }
};

struct ScatterAddLowering : public OpConversionPattern<ScatterAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkIndexedOperands(op, adaptor.getInput(), adaptor.getSrc())))
      return failure();
    if (elementTypeOf(adaptor.getInput()).isInteger(1))
      return emitUnsupported(op, "has no CPU lowering for i1 tensors");
    int64_t dim = normalizeDim(op.getDim(), shapeOf(adaptor.getInput()).size());
    rewriter.replaceOp(
        op, buildScatterAdd(rewriter, op.getLoc(), adaptor.getInput(), dim,
                            adaptor.getIndex(), adaptor.getSrc()));
    return success();
  }
};

struct IndexCopyLowering : public OpConversionPattern<IndexCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IndexCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(
            checkIndexedOperands(op, adaptor.getInput(), adaptor.getSource())))
      return failure();
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value self = atLeast1d(rewriter, loc, adaptor.getInput());
    Value index = atLeast1d(rewriter, loc, adaptor.getIndex());
    Value source = atLeast1d(rewriter, loc, adaptor.getSource());
    ArrayRef<int64_t> shape = shapeOf(self);
    int64_t rank = shape.size();
    int64_t dim = normalizeDim(op.getDim(), rank);
    int64_t count = shapeOf(index)[0];
    if (shape[dim] == 0 && count != 0)
      return emitUnsupported(op, "cannot copy into an empty dimension");
    SmallVector<int64_t> rowShape(shape);
    rowShape[dim] = 1;
    auto c = [&](OpBuilder &b, int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value result =
        scf::ForOp::create(
            rewriter, loc, c(rewriter, 0), c(rewriter, count), c(rewriter, 1),
            ValueRange{self},
            [&](OpBuilder &b, Location l, Value j, ValueRange iter) {
              auto offsets = [&](Value along) {
                SmallVector<OpFoldResult> o(rank, b.getIndexAttr(0));
                o[dim] = along;
                return o;
              };
              SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
              for (int64_t s : rowShape)
                sizes.push_back(b.getIndexAttr(s));
              Value row = tensor::ExtractSliceOp::create(
                  b, l, RankedTensorType::get(rowShape, elementTypeOf(self)),
                  source, offsets(j), sizes, strides);
              Value at = clampIndex(
                  b, l, tensor::ExtractOp::create(b, l, index, ValueRange{j}),
                  shape[dim]);
              scf::YieldOp::create(
                  b, l,
                  tensor::InsertSliceOp::create(b, l, row, iter[0], offsets(at),
                                                sizes, strides)
                      .getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, result, resultType.getShape()));
    return success();
  }
};

/// The total order topk picks in: `a` (value, position) comes before `b`
/// when its value is better (greater for largest; NaN greater than every
/// number) or equal with a smaller position.
struct TopkOrder {
  OpBuilder &b;
  Location loc;
  bool largest;

  /// x > y with NaN the greatest (x, y of one compute type).
  Value greater(Value x, Value y) {
    if (!isa<FloatType>(x.getType()))
      return arith::CmpIOp::create(b, loc,
                                   x.getType().isUnsignedInteger()
                                       ? arith::CmpIPredicate::ugt
                                       : arith::CmpIPredicate::sgt,
                                   x, y);
    Value xNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value yNum = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, y, y);
    return arith::OrIOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y),
        arith::AndIOp::create(b, loc, xNan, yNum));
  }
  Value equal(Value x, Value y) {
    if (!isa<FloatType>(x.getType()))
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
    Value bothNan = arith::AndIOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y));
    return arith::OrIOp::create(
        b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y),
        bothNan);
  }
  Value before(Value av, Value ai, Value bv, Value bi) {
    Value better = largest ? greater(av, bv) : greater(bv, av);
    Value earlier =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ai, bi);
    return arith::OrIOp::create(
        b, loc, better, arith::AndIOp::create(b, loc, equal(av, bv), earlier));
  }
};

struct TopkLowering : public OpConversionPattern<TopkOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopkOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkIndexedOperands(op, adaptor.getInput(), Value())))
      return failure();
    Location loc = op.getLoc();
    auto valuesType = cast<RankedTensorType>(op.getValues().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    Value input = atLeast1d(rewriter, loc, adaptor.getInput());
    int64_t rank = shapeOf(input).size();
    int64_t dim = normalizeDim(op.getDim(), rank);
    int64_t k = op.getK();
    // dim last, the rest flattened into rows.
    SmallVector<int64_t> perm, inverse(rank);
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim)
        perm.push_back(d);
    perm.push_back(dim);
    for (int64_t d = 0; d < rank; ++d)
      inverse[perm[d]] = d;
    Value moved = transposeTensor(rewriter, loc, input, perm);
    SmallVector<int64_t> movedShape(shapeOf(moved));
    int64_t n = movedShape.back();
    int64_t rows = numElements(ArrayRef<int64_t>(movedShape).drop_back());
    Value flat = reshapeTo(rewriter, loc, moved, {rows, n});
    Type elem = valuesType.getElementType();
    Type cmpType = isa<FloatType>(elem) ? computeTypeFor(elem) : elem;
    Type i64 = rewriter.getI64Type();
    Value values = emptyTensor(rewriter, loc, {rows, k}, elem);
    Value indices = emptyTensor(rewriter, loc, {rows, k}, i64);
    auto c = [&](OpBuilder &b, int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value zeroValue = scalarConstant(rewriter, loc, elem, 0.0);
    auto rowLoop = scf::ForOp::create(
        rewriter, loc, c(rewriter, 0), c(rewriter, rows), c(rewriter, 1),
        ValueRange{values, indices},
        [&](OpBuilder &b, Location l, Value r, ValueRange rowIter) {
          auto pickLoop = scf::ForOp::create(
              b, l, c(b, 0), c(b, k), c(b, 1),
              ValueRange{rowIter[0], rowIter[1], zeroValue, c(b, -1)},
              [&](OpBuilder &pb, Location pl, Value j, ValueRange pick) {
                Value prevV = pick[2], prevI = pick[3];
                Value noBest = scalarConstant(pb, pl, pb.getI1Type(), 0);
                auto scan = scf::ForOp::create(
                    pb, pl, c(pb, 0), c(pb, n), c(pb, 1),
                    ValueRange{zeroValue, c(pb, 0), noBest},
                    [&](OpBuilder &sb, Location sl, Value i, ValueRange best) {
                      TopkOrder order{sb, sl, op.getLargest()};
                      Value x = tensor::ExtractOp::create(sb, sl, flat,
                                                          ValueRange{r, i});
                      Value xc = convertScalar(sb, sl, x, cmpType);
                      // After the previous pick (every element, first).
                      Value first = arith::CmpIOp::create(
                          sb, sl, arith::CmpIPredicate::slt, prevI, c(sb, 0));
                      Value after = arith::OrIOp::create(
                          sb, sl, first,
                          order.before(convertScalar(sb, sl, prevV, cmpType),
                                       prevI, xc, i));
                      Value notFound = arith::XOrIOp::create(
                          sb, sl, best[2],
                          scalarConstant(sb, sl, sb.getI1Type(), 1));
                      Value better = arith::OrIOp::create(
                          sb, sl, notFound,
                          order.before(xc, i,
                                       convertScalar(sb, sl, best[0], cmpType),
                                       best[1]));
                      Value take = arith::AndIOp::create(sb, sl, after, better);
                      scf::YieldOp::create(
                          sb, sl,
                          ValueRange{
                              arith::SelectOp::create(sb, sl, take, x, best[0]),
                              arith::SelectOp::create(sb, sl, take, i, best[1]),
                              arith::OrIOp::create(sb, sl, best[2], take)});
                    });
                Value v = scan.getResult(0), at = scan.getResult(1);
                Value vals = tensor::InsertOp::create(pb, pl, v, pick[0],
                                                      ValueRange{r, j});
                Value idxs = tensor::InsertOp::create(
                    pb, pl, arith::IndexCastOp::create(pb, pl, i64, at),
                    pick[1], ValueRange{r, j});
                scf::YieldOp::create(pb, pl, ValueRange{vals, idxs, v, at});
              });
          scf::YieldOp::create(
              b, l, ValueRange{pickLoop.getResult(0), pickLoop.getResult(1)});
        });
    SmallVector<int64_t> pickedShape(movedShape);
    pickedShape.back() = k;
    auto back = [&](Value v, RankedTensorType type) {
      Value shaped = reshapeTo(rewriter, loc, v, pickedShape);
      return reshapeTo(rewriter, loc,
                       transposeTensor(rewriter, loc, shaped, inverse),
                       type.getShape());
    };
    rewriter.replaceOp(op, {back(rowLoop.getResult(0), valuesType),
                            back(rowLoop.getResult(1), indicesType)});
    return success();
  }
};

/// max_unpool2d/3d: zeros of the output, each input element written at its
/// index in the flattened output plane of its (batch, channel), in input
/// order (a later duplicate wins, as tensorplay's CPU loop).
template <typename OpTy>
struct MaxUnpoolLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!resultType.hasStaticShape() ||
        !cast<ShapedType>(x.getType()).hasStaticShape())
      return failure();
    Type elem = elementTypeOf(x);
    if (isa<ComplexType>(elem) || elem.isInteger(1))
      return emitUnsupported(op, "has no CPU lowering for ")
             << elem << " tensors";
    int64_t n = op.getOutputSize().size();
    Location loc = op.getLoc();
    ArrayRef<int64_t> inShape = shapeOf(x);
    int64_t planes = numElements(inShape.drop_back(n));
    int64_t inPlane = numElements(inShape.take_back(n));
    int64_t outPlane = numElements(resultType.getShape().take_back(n));
    Value zeros = filledTensor(rewriter, loc, {planes, outPlane}, elem, 0.0);
    Value written = buildScatter(
        rewriter, loc, zeros, /*dim=*/1,
        reshapeTo(rewriter, loc, adaptor.getIndices(), {planes, inPlane}),
        reshapeTo(rewriter, loc, x, {planes, inPlane}));
    rewriter.replaceOp(
        op, reshapeTo(rewriter, loc, written, resultType.getShape()));
    return success();
  }
};

/// index_put(self, (i_0, ..., i_{k-1}), values, accumulate): the index
/// tensors broadcast together to B, each position b names the row
/// (i_0[b], ..., i_{k-1}[b]) of self's first k dimensions (negative
/// indices count from the end; out of range: clamped), which gets values
/// (broadcast to B + the remaining dimensions) written, in B's order (a
/// later duplicate wins), or added (accumulate; f32 accumulation for
/// f16 / bf16). A scatter along the flattened first k dimensions.
struct IndexPutLowering : public OpConversionPattern<IndexPutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IndexPutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value self = adaptor.getInput(), values = adaptor.getValues();
    ValueRange indices = adaptor.getIndices();
    auto type = cast<RankedTensorType>(op.getType());
    if (!type.hasStaticShape())
      return failure();
    if (indices.empty())
      return emitUnsupported(op, "has no CPU lowering without indices");
    for (Value index : indices)
      if (elementTypeOf(index).isInteger(1))
        return emitUnsupported(
            op, "has no CPU lowering for a boolean mask beside other "
                "indices or with values of more than one row (the count of "
                "the mask's true entries is data); values that broadcast to "
                "one selected row lower (self[mask] = v, as where)");
    if (elementTypeOf(values) != type.getElementType())
      return emitUnsupported(op, "expects values of self's element type, "
                                 "got ")
             << values.getType();
    Location loc = op.getLoc();
    ArrayRef<int64_t> shape = type.getShape();
    int64_t k = indices.size();
    SmallVector<ArrayRef<int64_t>> indexShapes;
    for (Value index : indices)
      indexShapes.push_back(shapeOf(index));
    SmallVector<int64_t> batch;
    if (failed(broadcastShapes(indexShapes, batch)))
      return emitUnsupported(op, "has index tensors that do not broadcast "
                                 "together");
    SmallVector<int64_t> rest(shape.drop_front(k));
    SmallVector<int64_t> target(batch);
    target.append(rest.begin(), rest.end());
    if (!broadcastsTo(shapeOf(values), target))
      return emitUnsupported(op, "has values of shape ")
             << formatShape(shapeOf(values)) << " that do not broadcast to "
             << formatShape(target);
    Type i64 = rewriter.getI64Type();
    ArrayRef<int64_t> dims = shape.take_front(k);
    // The flat row of each b: sum_j wrap(i_j[b]) * stride_j.
    Value rows = buildElementwise(
        rewriter, loc, RankedTensorType::get(batch, i64), indices,
        [&](OpBuilder &b, Location l, ValueRange vs) {
          Value flat = scalarConstant(b, l, i64, 0);
          for (auto [j, v] : llvm::enumerate(vs)) {
            Value size = scalarConstant(b, l, i64, dims[j]);
            Value x = convertScalar(b, l, v, i64);
            Value negative =
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x,
                                      scalarConstant(b, l, i64, 0));
            x = arith::SelectOp::create(
                b, l, negative, arith::AddIOp::create(b, l, x, size), x);
            x = arith::MaxSIOp::create(b, l, x, scalarConstant(b, l, i64, 0));
            x = arith::MinSIOp::create(
                b, l, x,
                scalarConstant(b, l, i64, std::max<int64_t>(dims[j] - 1, 0)));
            flat = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, flat, size), x);
          }
          return flat;
        });
    int64_t count = numElements(batch), width = numElements(rest),
            planes = numElements(dims);
    if (count == 0 || width == 0) {
      rewriter.replaceOp(op, self);
      return success();
    }
    Value index =
        broadcastTo(rewriter, loc, reshapeTo(rewriter, loc, rows, {count, 1}),
                    {count, width});
    Value src =
        reshapeTo(rewriter, loc, broadcastTo(rewriter, loc, values, target),
                  {count, width});
    Value flatSelf = reshapeTo(rewriter, loc, self, {planes, width});
    Value put = op.getAccumulate()
                    ? buildScatterAdd(rewriter, loc, flatSelf, 0, index, src)
                    : buildScatter(rewriter, loc, flatSelf, 0, index, src);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, put, shape));
    return success();
  }
};

} // namespace

void mlir::tp::populateIndexingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherLowering, ScatterAddLowering, IndexCopyLowering,
               TopkLowering, MaxUnpoolLowering<MaxUnpool2dOp>,
               MaxUnpoolLowering<MaxUnpool3dOp>, IndexPutLowering>(
      patterns.getContext());
}
