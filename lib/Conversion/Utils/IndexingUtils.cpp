//===- IndexingUtils.cpp - Data-dependent reads and writes ----------------===//

#include "tensorplay/Conversion/Utils/IndexingUtils.h"
#include "tensorplay/Conversion/Utils/LoweringUtils.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tp;
using namespace mlir::tp::lowering;

Value lowering::clampIndex(OpBuilder &b, Location loc, Value raw,
                           int64_t size) {
  Type i64 = b.getI64Type();
  Value v = convertScalar(b, loc, raw, i64);
  v = arith::MaxSIOp::create(b, loc, v, scalarConstant(b, loc, i64, 0));
  v = arith::MinSIOp::create(
      b, loc, v, scalarConstant(b, loc, i64, std::max<int64_t>(size - 1, 0)));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// The scatter loop: adds (`accumulate`) or assigns each src element at
/// its index, in index order.
static Value scatterLoop(OpBuilder &b, Location loc, Value self, int64_t dim,
                         Value index, Value src, bool accumulate) {
  Type elem = elementTypeOf(self);
  SmallVector<int64_t> selfShape(shapeOf(self));
  if (selfShape.empty()) {
    // A 0-d scatter is the 1-element one.
    Value one = scatterLoop(b, loc, reshapeTo(b, loc, self, {1}), 0,
                            reshapeTo(b, loc, index, {1}),
                            reshapeTo(b, loc, src, {1}), accumulate);
    return reshapeTo(b, loc, one, {});
  }
  ArrayRef<int64_t> indexShape = shapeOf(index);
  int64_t count = numElements(indexShape);
  if (count == 0)
    return self;
  Type acc = isa<FloatType>(elem) ? computeTypeFor(elem) : elem;
  Value init = convertTensor(b, loc, self, acc);
  auto c = [&](OpBuilder &nb, int64_t v) {
    return arith::ConstantIndexOp::create(nb, loc, v).getResult();
  };
  Value sum =
      scf::ForOp::create(
          b, loc, c(b, 0), c(b, count), c(b, 1), ValueRange{init},
          [&](OpBuilder &nb, Location l, Value e, ValueRange iter) {
            // e's position in index (row-major), then the target's.
            SmallVector<Value> at(indexShape.size());
            int64_t stride = 1;
            for (int64_t d = indexShape.size() - 1; d >= 0; --d) {
              Value q = stride == 1
                            ? e
                            : arith::DivSIOp::create(nb, l, e, c(nb, stride))
                                  .getResult();
              at[d] = arith::RemSIOp::create(nb, l, q, c(nb, indexShape[d]));
              stride *= indexShape[d];
            }
            Value v = convertScalar(
                nb, l, tensor::ExtractOp::create(nb, l, src, at), acc);
            SmallVector<Value> target(at);
            target[dim] =
                clampIndex(nb, l, tensor::ExtractOp::create(nb, l, index, at),
                           selfShape[dim]);
            Value next = v;
            if (accumulate) {
              Value cur = tensor::ExtractOp::create(nb, l, iter[0], target);
              next = isa<FloatType>(acc)
                         ? arith::AddFOp::create(nb, l, cur, v).getResult()
                         : arith::AddIOp::create(nb, l, cur, v).getResult();
            }
            scf::YieldOp::create(
                nb, l,
                tensor::InsertOp::create(nb, l, next, iter[0], target)
                    .getResult());
          })
          .getResult(0);
  return convertTensor(b, loc, sum, elem);
}

Value lowering::buildScatterAdd(OpBuilder &b, Location loc, Value self,
                                int64_t dim, Value index, Value src) {
  return scatterLoop(b, loc, self, dim, index, src, /*accumulate=*/true);
}

Value lowering::buildScatter(OpBuilder &b, Location loc, Value self,
                             int64_t dim, Value index, Value src) {
  return scatterLoop(b, loc, self, dim, index, src, /*accumulate=*/false);
}
