//===- ResultTypeInferenceTest.cpp - Result types from operands -----------===//
//
// Builds tp ops without result types and checks the types the operands
// imply, written out by hand from the tensorplay signatures.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
class ResultTypeInference : public ::testing::Test {
protected:
  ResultTypeInference() : builder(&ctx) {
    ctx.loadDialect<TPDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToStart(module->getBody());
  }
  /// A fresh value of the given type (a function argument).
  Value value(ArrayRef<int64_t> shape, Type elementType) {
    auto type = RankedTensorType::get(shape, elementType);
    if (!func) {
      func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                  builder.getFunctionType({}, {}));
      func.addEntryBlock();
      builder.setInsertionPointToStart(&func.getBody().front());
    }
    func.getBody().front().addArgument(type, builder.getUnknownLoc());
    return func.getBody().front().getArguments().back();
  }
  Type infer(StringRef name, ValueRange operands,
             ArrayRef<NamedAttribute> attrs = {}, unsigned result = 0) {
    Operation *op = createWithInferredResultTypes(
        builder, builder.getUnknownLoc(), name, operands, attrs);
    if (!op)
      return Type();
    EXPECT_TRUE(succeeded(mlir::verify(op))) << "inferred types do not verify";
    return op->getResult(result).getType();
  }
  Type tensor(ArrayRef<int64_t> shape, Type elementType) {
    return RankedTensorType::get(shape, elementType);
  }
  NamedAttribute attr(StringRef name, Attribute value) {
    return builder.getNamedAttr(name, value);
  }

  MLIRContext ctx;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  Type f16 = Float16Type::get(&ctx), f32 = Float32Type::get(&ctx),
       i64 = IntegerType::get(&ctx, 64);
};

TEST_F(ResultTypeInference, Products) {
  Value a = value({4, 8}, f16), b = value({8, 16}, f16);
  EXPECT_EQ(infer("tp.mm", {a, b}), tensor({4, 16}, f16));
  Value batch = value({3, 1, 4, 8}, f32), rhs = value({5, 8, 2}, f32);
  EXPECT_EQ(infer("tp.matmul", {batch, rhs}), tensor({3, 5, 4, 2}, f32));
  Value vec = value({8}, f32), mat = value({8, 6}, f32);
  EXPECT_EQ(infer("tp.matmul", {vec, mat}), tensor({6}, f32));
  // Contraction mismatch: nothing is created.
  EXPECT_FALSE(infer("tp.mm", {a, a}));
}

TEST_F(ResultTypeInference, Convolution) {
  Value x = value({2, 3, 32, 32}, f32), w = value({8, 3, 5, 5}, f32);
  auto segments =
      attr("operandSegmentSizes", builder.getDenseI32ArrayAttr({1, 1, 0, 0}));
  EXPECT_EQ(infer("tp.conv2d", {x, w},
                  {segments, attr("stride", builder.getDenseI64ArrayAttr({2})),
                   attr("padding", builder.getDenseI64ArrayAttr({2}))}),
            tensor({2, 8, 16, 16}, f32));
  Value y = value({1, 4, 5, 5}, f32), wt = value({4, 2, 3, 3}, f32);
  EXPECT_EQ(infer("tp.conv_transpose2d", {y, wt},
                  {segments, attr("stride", builder.getDenseI64ArrayAttr({2})),
                   attr("output_padding", builder.getDenseI64ArrayAttr({1}))}),
            tensor({1, 2, 12, 12}, f32));
}

TEST_F(ResultTypeInference, ReductionsLossesAndMultipleResults) {
  Value x = value({4, 8, 3}, f16);
  EXPECT_EQ(infer("tp.sum", {x},
                  {attr("dim", builder.getDenseI64ArrayAttr({1})),
                   attr("dtype", TypeAttr::get(f32))}),
            tensor({4, 3}, f32));
  Value logits = value({4, 10}, f32), target = value({4}, i64);
  auto segments =
      attr("operandSegmentSizes", builder.getDenseI32ArrayAttr({1, 1, 0, 0}));
  EXPECT_EQ(infer("tp.cross_entropy", {logits, target}, {segments}),
            tensor({}, f32));
  EXPECT_EQ(infer("tp.cross_entropy", {logits, target},
                  {segments, attr("reduction",
                                  ReductionAttr::get(&ctx, Reduction::None))}),
            tensor({4}, f32));
  // reduction is an enum attribute: a string is refused, not misread.
  EXPECT_FALSE(
      infer("tp.cross_entropy", {logits, target},
            {segments, attr("reduction", builder.getStringAttr("none"))}));
  Value m = value({4, 8}, f32);
  auto dim = attr("dim", builder.getI64IntegerAttr(1));
  EXPECT_EQ(infer("tp.max_dim", {m}, {dim}, 0), tensor({4}, f32));
  EXPECT_EQ(infer("tp.max_dim", {m}, {dim}, 1), tensor({4}, i64));
}

TEST_F(ResultTypeInference, LayoutAndPromotion) {
  Value x = value({2, 3, 4}, f32);
  EXPECT_EQ(infer("tp.permute", {x},
                  {attr("dims", builder.getDenseI64ArrayAttr({2, 0, 1}))}),
            tensor({4, 2, 3}, f32));
  EXPECT_EQ(infer("tp.reshape", {x},
                  {attr("shape", builder.getDenseI64ArrayAttr({-1, 4}))}),
            tensor({6, 4}, f32));
  Value h = value({2, 3, 4}, f16), bias = value({4}, f32);
  EXPECT_EQ(infer("tp.add", {h, bias}), tensor({2, 3, 4}, f32));
}

TEST_F(ResultTypeInference, GeneratedBuildersInferToo) {
  Value a = value({4, 8}, f16), b = value({8, 16}, f16);
  MmOp mm = MmOp::create(builder, builder.getUnknownLoc(), ValueRange{a, b});
  EXPECT_EQ(mm.getType(), tensor({4, 16}, f16));
  Value x = value({2, 3, 4}, f32);
  auto sum = SumOp::create(builder, builder.getUnknownLoc(), x,
                           builder.getDenseI64ArrayAttr({0, 2}),
                           /*keepdim=*/true, TypeAttr::get(f16),
                           /*inplace=*/false, ValueRange{});
  EXPECT_EQ(sum.getType(), tensor({1, 3, 1}, f16));
  EXPECT_TRUE(succeeded(mlir::verify(sum)));
  // The generic builder: inherent attributes given as attributes, the
  // default-valued ones (stride, dilation, groups) left out.
  Value seq = value({2, 3, 10}, f32), w = value({4, 3, 3}, f32);
  auto conv = Conv1dOp::create(
      builder, builder.getUnknownLoc(), ValueRange{seq, w},
      {attr("operandSegmentSizes", builder.getDenseI32ArrayAttr({1, 1, 0, 0})),
       attr("padding", builder.getDenseI64ArrayAttr({1}))});
  EXPECT_EQ(conv.getType(), tensor({2, 4, 10}, f32));
  EXPECT_TRUE(succeeded(mlir::verify(conv)));
}

TEST_F(ResultTypeInference, InvalidOperandsReportNothing) {
  Value a = value({4, 8}, f32);
  unsigned reported = 0;
  ScopedDiagnosticHandler count(&ctx, [&](Diagnostic &) {
    ++reported;
    return success();
  });
  EXPECT_FALSE(infer("tp.mm", {a, a}));
  EXPECT_FALSE(infer("tp.reshape", {a},
                     {attr("shape", builder.getDenseI64ArrayAttr({5, -1}))}));
  // A promote-list op of mixed floating dtypes has no dtype before
  // autocast resolves it.
  Value h = value({8}, f16), g = value({8}, f32);
  EXPECT_FALSE(infer("tp.dot", {h, g}));
  EXPECT_EQ(reported, 0u);
}

TEST_F(ResultTypeInference, WorkspaceShapeNeedsExplicitTypes) {
  // mkldnn_rnn_layer's workspace size is oneDNN's choice, not the
  // operands': no inference.
  Value x = value({5, 2, 3}, f32), hx = value({2, 4}, f32),
        cx = value({2, 4}, f32), w = value({16, 3}, f32),
        wh = value({16, 4}, f32), bias = value({16}, f32);
  auto flag = [&](StringRef name) {
    return attr(name, builder.getBoolAttr(false));
  };
  SmallVector<NamedAttribute> attrs = {
      flag("reverse"),
      attr("batch_sizes", builder.getDenseI64ArrayAttr({})),
      attr("mode", builder.getI64IntegerAttr(2)),
      attr("hidden_size", builder.getI64IntegerAttr(4)),
      attr("num_layers", builder.getI64IntegerAttr(1)),
      flag("has_biases"),
      flag("bidirectional"),
      flag("batch_first"),
      flag("train")};
  EXPECT_FALSE(
      infer("tp.mkldnn_rnn_layer", {x, w, wh, bias, bias, hx, cx}, attrs));
  // A missing required attribute fails the declared invariants before any
  // rule reads it.
  attrs.erase(attrs.begin() + 3);
  EXPECT_FALSE(
      infer("tp.mkldnn_rnn_layer", {x, w, wh, bias, bias, hx, cx}, attrs));
  // So does a wrong operand count, or segments that do not add up.
  EXPECT_FALSE(infer("tp.mm", {x}));
  EXPECT_FALSE(infer("tp.linear", {x, w},
                     {attr("operandSegmentSizes",
                           builder.getDenseI32ArrayAttr({1, 1, 1, 0}))}));
}

// The dtype rule needs a tensor operand. Every verifier rejects an empty
// operand list first (chain_matmul: "expected at least 1 tensor"), so this
// diagnostic only reaches C++ callers of inferResultElementTypes.
TEST_F(ResultTypeInference, DtypeRuleNeedsATensorOperand) {
  value({}, f32); // creates the function to build in
  OperationState state(builder.getUnknownLoc(), "tp.chain_matmul");
  state.addAttribute("operandSegmentSizes",
                     builder.getDenseI32ArrayAttr({0, 0}));
  state.addTypes(tensor({2, 2}, f32));
  Operation *op = builder.create(state);
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  SmallVector<Type> types;
  EXPECT_TRUE(failed(cast<ComputeOpInterface>(op).inferResultElementTypes(
      types, /*emit=*/true)));
  EXPECT_EQ(message, "'tp.chain_matmul' op expected at least one tensor "
                     "operand");
  op->erase();
}
} // namespace
