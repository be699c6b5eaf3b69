//===- BackwardBuilderTest.cpp - Building the ops of backward rules -------===//
//
// The builder tp-autodiff's rules create their ops with: ops named by their
// C++ class, result types inferred, and an attribute the op does not declare
// refused (it would be kept as a discardable attribute and the op's default
// used: a misspelled `keepdim` would change the gradient silently).
//
//===----------------------------------------------------------------------===//

#include "BackwardRules.h"

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
class BackwardBuilderTest : public ::testing::Test {
protected:
  BackwardBuilderTest() : builder(&ctx) {
    ctx.loadDialect<TPDialect, func::FuncDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToStart(module->getBody());
    auto type = RankedTensorType::get({2, 3}, builder.getF32Type());
    func = func::FuncOp::create(builder, builder.getUnknownLoc(), "f",
                                builder.getFunctionType({type, type}, {}));
    Block *body = func.addEntryBlock();
    builder.setInsertionPointToStart(body);
    x = body->getArgument(0);
    y = body->getArgument(1);
    // The forward op the diagnostics point at.
    forward = AddOp::create(builder, builder.getUnknownLoc(), ValueRange{x, y});
    backward = std::make_unique<BackwardBuilder>(
        builder, builder.getUnknownLoc(), [](Value, Value) {},
        [](Value) { return true; });
  }

  MLIRContext ctx;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  Value x, y;
  Operation *forward = nullptr;
  std::unique_ptr<BackwardBuilder> backward;
};

TEST_F(BackwardBuilderTest, BuildsTheOpOfTheClassWithItsInferredType) {
  Value sum = backward->create<SumOp>(
      forward, x,
      {builder.getNamedAttr("dim", builder.getDenseI64ArrayAttr({1})),
       builder.getNamedAttr("keepdim", builder.getBoolAttr(true))});
  ASSERT_TRUE(sum);
  EXPECT_TRUE(isa<SumOp>(sum.getDefiningOp()));
  EXPECT_EQ(sum.getType(), RankedTensorType::get({2, 1}, builder.getF32Type()));
  EXPECT_FALSE(backward->hadError);
  EXPECT_EQ(backward->numCreated, 1u);
}

TEST_F(BackwardBuilderTest, RefusesAnAttributeTheOpDoesNotDeclare) {
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  Value sum = backward->create<SumOp>(
      forward, x,
      {builder.getNamedAttr("dim", builder.getDenseI64ArrayAttr({1})),
       builder.getNamedAttr("keep_dim", builder.getBoolAttr(true))});
  EXPECT_FALSE(sum);
  EXPECT_TRUE(backward->hadError);
  EXPECT_EQ(message, "'tp.add' op internal error: tp-autodiff gave tp.sum the "
                     "attribute 'keep_dim', which it does not have");
}

TEST_F(BackwardBuilderTest, ReportsAnOpItCannotBuild) {
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  // tp.mm of two 2x3 matrices: the shapes do not multiply.
  Value product = backward->create<MmOp>(forward, {x, y});
  EXPECT_FALSE(product);
  EXPECT_TRUE(backward->hadError);
  EXPECT_EQ(message, "'tp.add' op internal error: tp-autodiff could not build "
                     "tp.mm for its backward");
}
} // namespace
