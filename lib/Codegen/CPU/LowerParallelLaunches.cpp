//===- LowerParallelLaunches.cpp - The tp-lower-parallel-launches pass ----===//
//
// On the LLVM dialect: every call of a function outlined by
// tp-outline-parallel-loops, `body(begin, end, captured...)`, becomes
//
//   %ctx = alloca {captured types...}; store captured...
//   call @tp_rt_parallel_for(@body__trampoline, %ctx, begin, end)
//
// where the trampoline `(ptr ctx, i64 b, i64 e)` loads the captured values
// back and calls the body on [b, e). The captured values are whatever their
// LLVM lowering made of them (memref descriptors expanded into scalars).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPLOWERPARALLELLAUNCHESPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

constexpr StringLiteral kLaunchFn = "tp_rt_parallel_for";

struct LowerParallelLaunchesPass
    : public tp::impl::TPLowerParallelLaunchesPassBase<
          LowerParallelLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto i64 = b.getI64Type();

    SmallVector<LLVM::LLVMFuncOp> bodies;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (fn->hasAttr(tp::kParallelBodyAttr))
        bodies.push_back(fn);
    if (bodies.empty())
      return;

    auto launch = module.lookupSymbol<LLVM::LLVMFuncOp>(kLaunchFn);
    if (!launch) {
      b.setInsertionPointToStart(module.getBody());
      launch = LLVM::LLVMFuncOp::create(
          b, module.getLoc(), kLaunchFn,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                      {ptrType, ptrType, i64, i64}));
    }

    for (LLVM::LLVMFuncOp body : bodies) {
      LLVM::LLVMFunctionType bodyType = body.getFunctionType();
      ArrayRef<Type> params = bodyType.getParams();
      if (params.size() < 2 || params[0] != i64 || params[1] != i64) {
        body.emitError("unexpected signature of an outlined parallel loop");
        return signalPassFailure();
      }
      SmallVector<Type> capturedTypes(params.begin() + 2, params.end());
      // An empty struct is not allowed in every context: pad with an i8.
      if (capturedTypes.empty())
        capturedTypes.push_back(b.getI8Type());
      auto ctxType = LLVM::LLVMStructType::getLiteral(ctx, capturedTypes);
      size_t numCaptured = params.size() - 2;

      // The trampoline.
      Location loc = body.getLoc();
      b.setInsertionPointAfter(body);
      auto tramp = LLVM::LLVMFuncOp::create(
          b, loc, (body.getName() + "__trampoline").str(),
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                      {ptrType, i64, i64}),
          LLVM::Linkage::Internal);
      Block *entry = tramp.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      SmallVector<Value> args = {entry->getArgument(1), entry->getArgument(2)};
      for (size_t i = 0; i < numCaptured; ++i) {
        Value addr =
            LLVM::GEPOp::create(b, loc, ptrType, ctxType, entry->getArgument(0),
                                ArrayRef<LLVM::GEPArg>{0, (int32_t)i});
        args.push_back(LLVM::LoadOp::create(b, loc, params[i + 2], addr));
      }
      LLVM::CallOp::create(b, loc, body, args);
      LLVM::ReturnOp::create(b, loc, ValueRange{});

      // The launches.
      SmallVector<LLVM::CallOp> calls;
      module.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == body.getName() &&
            call->getParentOp() != tramp.getOperation())
          calls.push_back(call);
      });
      for (LLVM::CallOp call : calls) {
        Location cloc = call.getLoc();
        // The struct lives in the entry block of the caller.
        auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
        b.setInsertionPointToStart(&caller.getBody().front());
        Value one =
            LLVM::ConstantOp::create(b, cloc, i64, b.getI64IntegerAttr(1));
        Value slot = LLVM::AllocaOp::create(b, cloc, ptrType, ctxType, one);
        b.setInsertionPoint(call);
        ValueRange operands = call.getArgOperands();
        for (size_t i = 0; i < numCaptured; ++i) {
          Value addr =
              LLVM::GEPOp::create(b, cloc, ptrType, ctxType, slot,
                                  ArrayRef<LLVM::GEPArg>{0, (int32_t)i});
          LLVM::StoreOp::create(b, cloc, operands[i + 2], addr);
        }
        Value fnPtr =
            LLVM::AddressOfOp::create(b, cloc, ptrType, tramp.getName());
        LLVM::CallOp::create(b, cloc, launch,
                             ValueRange{fnPtr, slot, operands[0], operands[1]});
        call.erase();
      }
    }
  }
};

} // namespace
