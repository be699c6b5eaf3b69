//===- DecomposeIndexPutMask.cpp - index_put with a boolean mask ----------===//
//
// self[mask] = values (index_put with one boolean mask over self's first m
// dimensions) where values broadcast to one selected row (self's remaining
// dimensions, with or without a leading 1): every selected row gets the
// same values, so the op is where(mask, values, self), and with
// `accumulate` self + where(mask, values, 0). Values are converted to
// self's element type, as tensorplay's copy into self does. Values with a
// leading dimension of another size need the count of the mask's true
// entries, which is data: they stay an index_put, which the CPU lowering
// refuses.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/Transforms/DecomposeBuilders.h"

#include "tensorplay/Dialect/TP/IR/ShapeRules.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::decompose;

namespace {

struct DecomposeIndexPutMask : public OpRewritePattern<IndexPutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexPutOp op,
                                PatternRewriter &rw) const override {
    if (op.getIndices().size() != 1)
      return failure();
    Value self = op.getInput(), mask = op.getIndices()[0],
          values = op.getValues();
    if (!elementTypeOf(mask).isInteger(1) || !rankOf(mask))
      return failure();
    for (Value v : {self, mask, values})
      if (!cast<ShapedType>(v.getType()).hasStaticShape())
        return failure();
    ArrayRef<int64_t> shape = shapeOf(self);
    int64_t m = rankOf(mask);
    ArrayRef<int64_t> rest = shape.drop_front(m);
    // values as one row: rest-broadcastable, a leading 1 dropped.
    ArrayRef<int64_t> row = shapeOf(values);
    if (row.size() == rest.size() + 1 && row.front() == 1)
      row = row.drop_front();
    if (row.size() > rest.size() || !broadcastsTo(row, rest))
      return failure();
    Location loc = op.getLoc();
    Type elem = elementTypeOf(self);
    Value v = castTo(rw, loc, values, elem);
    if (row.size() != shapeOf(values).size())
      v = reshape(rw, loc, v, row);
    Value selected = mask;
    if (!rest.empty()) {
      SmallVector<int64_t> maskShape(shapeOf(mask));
      maskShape.append(rest.size(), 1);
      selected = reshape(rw, loc, mask, maskShape);
    }
    Value result =
        op.getAccumulate()
            ? build<AddOp>(rw, loc,
                           {self, build<WhereOp>(rw, loc,
                                                 {selected, v,
                                                  scalarTensor(rw, loc, elem,
                                                               0.0)})})
            : build<WhereOp>(rw, loc, {selected, v, self});
    return replaceWith(rw, op, result);
  }
};

} // namespace

void decompose::populateDecomposeIndexPutMaskPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeIndexPutMask>(patterns.getContext());
}
