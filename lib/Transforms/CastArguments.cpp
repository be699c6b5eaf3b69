//===- CastArguments.cpp - The tp-cast-arguments pass ---------------------===//
//
// Retypes f32 arguments whose every use is a tp.cast to one half-precision
// type to that type (Passes.td has the contract).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"
#include "tensorplay/Transforms/DownCasts.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_CASTARGUMENTSPASS
#include "tensorplay/Transforms/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;
using namespace mlir::tp;

namespace {

struct CastArgumentsPass
    : public tp::impl::CastArgumentsPassBase<CastArgumentsPass> {
  using CastArgumentsPassBase::CastArgumentsPassBase;
  void runOnOperation() override;
};

/// Retypes the candidate arguments of `func`; the retyped argument numbers.
SmallVector<int64_t> castArguments(func::FuncOp func,
                                   llvm::ArrayRef<unsigned> candidates) {
  SmallVector<int64_t> retyped;
  Block &entry = func.getBody().front();
  SmallVector<Type> inputs(func.getArgumentTypes());
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    if (!candidates.empty() && !llvm::is_contained(candidates, i))
      continue;
    BlockArgument arg = entry.getArgument(i);
    SmallVector<CastOp> casts;
    Type castType = collectDownCasts(arg, casts);
    if (!castType ||
        casts.size() != (size_t)std::distance(arg.use_begin(), arg.use_end()))
      continue;
    arg.setType(castType);
    for (CastOp cast : casts) {
      cast.getResult().replaceAllUsesWith(arg);
      cast.erase();
    }
    inputs[i] = castType;
    retyped.push_back(i);
  }
  func.setFunctionType(
      FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  return retyped;
}

} // namespace

void CastArgumentsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<unsigned> candidates(args.begin(), args.end());
  for (const std::string &name : functions) {
    auto func = symbols.lookup<func::FuncOp>(name);
    if (!func || func.isExternal() || func.isPrivate()) {
      module.emitError() << "tp-cast-arguments: no public function @" << name
                         << " with a body";
      return signalPassFailure();
    }
    for (unsigned i : candidates)
      if (i >= func.getNumArguments()) {
        func.emitError() << "tp-cast-arguments: argument " << i
                         << " out of range (@" << name << " has "
                         << func.getNumArguments() << ")";
        return signalPassFailure();
      }
    SmallVector<int64_t> retyped = castArguments(func, candidates);
    func->setAttr(kCastArgumentsAttrName,
                  Builder(func.getContext()).getDenseI64ArrayAttr(retyped));
  }
}
