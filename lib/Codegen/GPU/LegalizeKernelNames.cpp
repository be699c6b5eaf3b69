//===- LegalizeKernelNames.cpp - The tp-legalize-kernel-names pass --------===//
//
// Renames outlined kernel modules and functions to PTX identifiers
// ([A-Za-z0-9_], not starting with a digit) and updates the launches.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPLEGALIZEKERNELNAMESPASS
#include "tensorplay/Codegen/GPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

/// `name` with every character a PTX identifier cannot hold replaced.
std::string legalName(StringRef name) {
  std::string out;
  for (char c : name)
    out += (llvm::isAlnum(c) || c == '_') ? c : '_';
  if (out.empty() || llvm::isDigit(out.front()))
    out.insert(out.begin(), '_');
  return out;
}

/// A legal name not in `taken` (which it is then added to).
std::string uniqueName(StringRef name, llvm::StringSet<> &taken) {
  std::string base = legalName(name), candidate = base;
  for (unsigned i = 0; !taken.insert(candidate).second; ++i)
    candidate = base + "_" + std::to_string(i);
  return candidate;
}

struct LegalizeKernelNamesPass
    : public tp::impl::TPLegalizeKernelNamesPassBase<LegalizeKernelNamesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    llvm::StringSet<> moduleNames;
    for (Operation &op : *module.getBody())
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        if (!isa<gpu::GPUModuleOp>(op))
          moduleNames.insert(symbol.getName());
    // Old (module, function) -> new reference.
    llvm::DenseMap<SymbolRefAttr, SymbolRefAttr> renamed;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      StringRef oldModule = gpuModule.getName();
      std::string newModule = uniqueName(oldModule, moduleNames);
      llvm::StringSet<> functionNames;
      for (auto fn : gpuModule.getOps<gpu::GPUFuncOp>()) {
        std::string oldFn = fn.getName().str();
        std::string newFn = uniqueName(oldFn, functionNames);
        renamed[SymbolRefAttr::get(ctx, oldModule,
                                   {FlatSymbolRefAttr::get(ctx, oldFn)})] =
            SymbolRefAttr::get(ctx, newModule,
                               {FlatSymbolRefAttr::get(ctx, newFn)});
        SymbolTable::setSymbolName(fn, newFn);
      }
      SymbolTable::setSymbolName(gpuModule, newModule);
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = renamed.find(launch.getKernel());
      if (it != renamed.end())
        launch.setKernelAttr(it->second);
    });
  }
};

} // namespace
