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
  EXPECT_EQ(
      cast<ShapedType>(func.getFunctionType().getResult(0)).getElementType(),
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

// The state at an op: its function's tp.device or recorded state, the
// enclosing tp.autocast regions (a region of another device changes
// nothing) and the option.
constexpr const char *kStates = R"mlir(
func.func @plain(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = tp.autocast "cuda" dtype(bf16) -> tensor<2x2xf32> {
    %n = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %s = tp.autocast "cpu" -> tensor<2x2xf32> {
      %o = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
      tp.yield %o : tensor<2x2xf32>
    } attributes {enabled = false}
    tp.yield %s : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
func.func @on_cpu(%a: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {tp.device = "cpu"} {
  %m = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = tp.autocast "cpu" -> tensor<2x2xf32> {
    %n = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    tp.yield %n : tensor<2x2xf32>
  }
  return %r : tensor<2x2xf32>
}
func.func @specialized(%a: tensor<2x2xf32>) -> tensor<2x2xf32> attributes {tp.autocast_state = {cache_enabled = false, device_type = "xpu", dtype = f16, enabled = true}} {
  %m = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
)mlir";

TEST_F(AutocastPass, StateAtAnOp) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kStates, &ctx);
  ASSERT_TRUE(module);
  SmallVector<MmOp> mms = collect<MmOp>(*module);
  ASSERT_EQ(mms.size(), 6u);
  Type f16 = Float16Type::get(&ctx), bf16 = BFloat16Type::get(&ctx);
  AutocastOptions cuda;
  cuda.target = AutocastTarget{Device::Cuda, /*isBF16=*/false};
  auto stateAt = [&](Operation *op, const AutocastOptions &options) {
    return autocastStateAt(op, options);
  };

  // --autocast=cuda: a function without tp.device is one enabled region.
  EXPECT_EQ(stateAt(mms[0], cuda), (AutocastState{Device::Cuda, true, f16}));
  // An explicit region overrides the dtype...
  EXPECT_EQ(stateAt(mms[1], cuda), (AutocastState{Device::Cuda, true, bf16}));
  // ... and a disabled cpu region inside it changes nothing for cuda code.
  EXPECT_EQ(stateAt(mms[2], cuda), (AutocastState{Device::Cuda, true, bf16}));

  // A cpu function is left alone by --autocast=cuda ("device mismatch")...
  AutocastState cpuOff = stateAt(mms[3], cuda);
  EXPECT_EQ(cpuOff, (AutocastState{Device::Cpu, false, Type()}));
  EXPECT_TRUE(isDeviceMismatch(cpuOff, cuda));
  AutocastPolicy cpuPolicy = AutocastPolicy::getDefault(Device::Cpu);
  Type f32 = Float32Type::get(&ctx);
  EXPECT_EQ(decideAutocast(mms[3], {f32, f32}, cpuOff, &cpuPolicy,
                           isDeviceMismatch(cpuOff, cuda))
                .reason,
            AutocastReason::DeviceMismatch);
  // ... but its own cpu regions are honoured.
  AutocastState cpuOn = stateAt(mms[4], cuda);
  EXPECT_EQ(cpuOn, (AutocastState{Device::Cpu, true, bf16}));
  EXPECT_FALSE(isDeviceMismatch(cpuOn, cuda));

  // A specialization's recorded state wins over the option.
  EXPECT_EQ(stateAt(mms[5], cuda),
            (AutocastState{Device::Xpu, true, f16, /*cacheEnabled=*/false}));

  // Without the option only explicit regions enable autocast; code of no
  // device takes the device of the region around it.
  AutocastOptions none;
  AutocastState plain = stateAt(mms[0], none);
  EXPECT_FALSE(plain.enabled);
  EXPECT_FALSE(plain.device.has_value());
  EXPECT_EQ(stateAt(mms[1], none), (AutocastState{Device::Cuda, true, bf16}));
  EXPECT_EQ(stateAt(mms[3], none), (AutocastState{Device::Cpu, false, Type()}));
  EXPECT_FALSE(isDeviceMismatch(stateAt(mms[3], none), none));
}

// After the pass, the state API and the op's dtype tell what a callee's op
// got and why, also in specializations (their recorded state).
TEST_F(AutocastPass, StateAfterThePass) {
  constexpr const char *source = R"mlir(
func.func @caller(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = tp.autocast "cuda" -> tensor<2x2xf32> {
    %c = func.call @layer(%a) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    tp.yield %c : tensor<2x2xf32>
  } attributes {enabled = false}
  return %r : tensor<2x2xf32>
}
func.func private @layer(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = tp.mm %a, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
)mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  PassManager pm(&ctx);
  AutocastPassOptions passOptions;
  passOptions.target = "cuda:fp16";
  pm.addPass(createAutocastPass(passOptions));
  ASSERT_TRUE(succeeded(pm.run(*module)));
  AutocastOptions options;
  options.target = AutocastTarget{Device::Cuda, /*isBF16=*/false};
  SmallVector<MmOp> mms = collect<MmOp>(*module);
  ASSERT_EQ(mms.size(), 2u); // @layer, @layer_autocast_off
  Type f16 = Float16Type::get(&ctx), f32 = Float32Type::get(&ctx);
  for (MmOp mm : mms) {
    AutocastState state = autocastStateAt(mm, options);
    bool specialized =
        mm->getParentOfType<func::FuncOp>().getName() == "layer_autocast_off";
    EXPECT_EQ(state.enabled, !specialized);
    EXPECT_EQ(getComputeDtype(mm), specialized ? f32 : f16);
  }
}
} // namespace
