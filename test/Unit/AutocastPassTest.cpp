//===- AutocastPassTest.cpp - The autocast pass from C++ ------------------===//
//
// createAutocastPass(options) in a PassManager, and the decision API that
// the backward rules will reuse ("what dtype did this op get, and why").
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Transforms/AutocastDecision.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
constexpr const char *kModule = R"mlir(
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %d: tensor<2x2xf64>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x2xf64>) {
  %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %s = tp.softmax %m {dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = tp.mm %d, %d : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %m, %s, %e : tensor<4x16xf32>, tensor<4x16xf32>, tensor<2x2xf64>
}
)mlir";

class AutocastPass : public ::testing::Test {
protected:
  AutocastPass() {
    ctx.loadDialect<TPDialect, func::FuncDialect, scf::SCFDialect>();
  }
  OwningOpRef<ModuleOp> parse() {
    return parseSourceString<ModuleOp>(kModule, &ctx);
  }
  template <typename OpT>
  SmallVector<OpT> collect(ModuleOp module) {
    SmallVector<OpT> ops;
    module.walk([&](OpT op) { ops.push_back(op); });
    return ops;
  }
  MLIRContext ctx;
};

TEST_F(AutocastPass, RunsFromCpp) {
  OwningOpRef<ModuleOp> module = parse();
  ASSERT_TRUE(module);
  PassManager pm(&ctx);
  AutocastPassOptions options;
  options.target = "cuda:fp16";
  pm.addPass(createAutocastPass(options));
  ASSERT_TRUE(succeeded(pm.run(*module)));

  SmallVector<MmOp> mms = collect<MmOp>(*module);
  ASSERT_EQ(mms.size(), 2u);
  Type f16 = Float16Type::get(&ctx), f32 = Float32Type::get(&ctx),
       f64 = Float64Type::get(&ctx);
  EXPECT_EQ(elementTypeOf(mms[0].getResult()), f16);
  EXPECT_EQ(elementTypeOf(mms[1].getResult()), f64); // f64: ineligible
  SmallVector<SoftmaxOp> softmaxes = collect<SoftmaxOp>(*module);
  ASSERT_EQ(softmaxes.size(), 1u);
  EXPECT_EQ(softmaxes[0].getDtype(), f32);
  EXPECT_EQ(elementTypeOf(softmaxes[0].getResult()), f32);
  EXPECT_EQ(collect<CastOp>(*module).size(), 2u); // %a and %b
  auto func = *module->getOps<func::FuncOp>().begin();
  EXPECT_EQ(cast<ShapedType>(func.getFunctionType().getResult(0)).getElementType(),
            f16);
}

TEST_F(AutocastPass, BadTargetFailsThePass) {
  OwningOpRef<ModuleOp> module = parse();
  PassManager pm(&ctx);
  AutocastPassOptions options;
  options.target = "tpu:fp16";
  pm.addPass(createAutocastPass(options));
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    diagnostics += diag.str();
    return success();
  });
  EXPECT_TRUE(failed(pm.run(*module)));
  EXPECT_NE(diagnostics.find("unknown device 'tpu'"), std::string::npos)
      << diagnostics;
}

TEST_F(AutocastPass, DecisionsAnswerWhatAndWhy) {
  OwningOpRef<ModuleOp> module = parse();
  SmallVector<MmOp> mms = collect<MmOp>(*module);
  SmallVector<SoftmaxOp> softmaxes = collect<SoftmaxOp>(*module);
  AutocastPolicy cuda = AutocastPolicy::getDefault(Device::Cuda);
  Type f16 = Float16Type::get(&ctx), f32 = Float32Type::get(&ctx),
       f64 = Float64Type::get(&ctx);
  AutocastState on{Device::Cuda, true, f16, true};
  AutocastState off{Device::Cuda, false, Type(), true};

  AutocastDecision mm = decideAutocast(mms[0], {f32, f32}, on, &cuda);
  EXPECT_EQ(mm.list, PolicyList::LowerPrecision);
  EXPECT_EQ(mm.reason, AutocastReason::LowerPrecision);
  EXPECT_EQ(mm.castTo[0], f16);
  EXPECT_EQ(mm.castTo[1], f16);
  EXPECT_EQ(describeReason(mm.reason), "lower-precision list");

  // The same op with f16 inputs needs no cast.
  AutocastDecision same = decideAutocast(mms[0], {f16, f16}, on, &cuda);
  EXPECT_FALSE(same.castsAnything());

  AutocastDecision wide = decideAutocast(mms[1], {f64, f64}, on, &cuda);
  EXPECT_EQ(wide.reason, AutocastReason::F64Operand);
  EXPECT_FALSE(wide.castsAnything());

  AutocastDecision disabled = decideAutocast(mms[0], {f32, f32}, off, &cuda);
  EXPECT_EQ(disabled.reason, AutocastReason::Disabled);
  EXPECT_FALSE(disabled.castsAnything());

  AutocastDecision softmax = decideAutocast(softmaxes[0], {f16}, on, &cuda);
  EXPECT_EQ(softmax.reason, AutocastReason::Fp32SetDtype);
  EXPECT_TRUE(softmax.setDtypeF32);
  EXPECT_FALSE(softmax.castsAnything());

  // The dtype an op computes in follows its operands and dtype attribute.
  EXPECT_EQ(getComputeDtype(mms[0]), f32);
  EXPECT_EQ(getComputeDtype(mms[1]), f64);
}
} // namespace
