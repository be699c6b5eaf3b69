//===- OutlineParallelLoops.cpp - The tp-outline-parallel-loops pass ------===//
//
// After bufferization each outermost scf.forall of a function becomes a
// private function running a contiguous range of its (linearized)
// iterations, and a call of it; tp-lower-parallel-launches turns that call
// into a tp_rt_parallel_for launch once everything is in the LLVM dialect.
// Outlining at this level keeps the captured values typed (memrefs,
// scalars); packing them for the runtime is done after their LLVM lowering.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPOUTLINEPARALLELLOOPSPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

struct OutlineParallelLoopsPass
    : public tp::impl::TPOutlineParallelLoopsPassBase<
          OutlineParallelLoopsPass> {

  /// Outlines `loop` (an outermost forall of `parent`) as function number
  /// `index`; returns failure (leaving the loop) when its bounds are not
  /// constant.
  LogicalResult outline(func::FuncOp parent, scf::ForallOp loop, unsigned index,
                        SymbolTable &symbols) {
    MLIRContext *ctx = &getContext();
    SmallVector<OpFoldResult> lbs = loop.getMixedLowerBound(),
                              ubs = loop.getMixedUpperBound(),
                              steps = loop.getMixedStep();
    SmallVector<int64_t> lb, step, trips;
    int64_t total = 1;
    for (size_t d = 0; d < lbs.size(); ++d) {
      std::optional<int64_t> l = getConstantIntValue(lbs[d]),
                             u = getConstantIntValue(ubs[d]),
                             s = getConstantIntValue(steps[d]);
      if (!l || !u || !s || *s <= 0)
        return failure();
      lb.push_back(*l);
      step.push_back(*s);
      trips.push_back(std::max<int64_t>(0, (*u - *l + *s - 1) / *s));
      total *= trips.back();
    }
    if (!loop.getOutputs().empty())
      return failure();

    // Values the body uses from above; constants are re-created inside.
    SetVector<Value> used;
    getUsedValuesDefinedAbove(loop.getRegion(), used);
    SmallVector<Value> captured;
    SmallVector<Operation *> constants;
    for (Value v : used) {
      Operation *def = v.getDefiningOp();
      if (def && def->hasTrait<OpTrait::ConstantLike>() &&
          def->getNumOperands() == 0)
        constants.push_back(def);
      else
        captured.push_back(v);
    }

    OpBuilder b(ctx);
    Location loc = loop.getLoc();
    SmallVector<Type> argTypes = {b.getIndexType(), b.getIndexType()};
    for (Value v : captured)
      argTypes.push_back(v.getType());
    std::string name =
        (parent.getSymName() + "__par" + std::to_string(index)).str();
    b.setInsertionPointAfter(parent);
    auto fn =
        func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
    fn.setPrivate();
    fn->setAttr(tp::kParallelBodyAttr, b.getUnitAttr());
    symbols.insert(fn);
    Block *entry = fn.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    for (Operation *c : constants)
      mapping.map(c->getResult(0), b.clone(*c)->getResult(0));
    for (auto [i, v] : llvm::enumerate(captured))
      mapping.map(v, entry->getArgument(i + 2));
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto body = scf::ForOp::create(b, loc, entry->getArgument(0),
                                   entry->getArgument(1), one);
    b.setInsertionPointToStart(body.getBody());
    // Delinearize the iteration index, innermost dimension fastest.
    Value rest = body.getInductionVar();
    SmallVector<Value> ivs(trips.size());
    for (int64_t d = trips.size() - 1; d >= 0; --d) {
      Value trip = arith::ConstantIndexOp::create(b, loc, trips[d]);
      Value i =
          d == 0 ? rest : (Value)arith::RemUIOp::create(b, loc, rest, trip);
      if (d > 0)
        rest = arith::DivUIOp::create(b, loc, rest, trip);
      Value iv = arith::AddIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, lb[d]),
          arith::MulIOp::create(
              b, loc, i, arith::ConstantIndexOp::create(b, loc, step[d])));
      ivs[d] = iv;
    }
    for (auto [old, iv] : llvm::zip(loop.getInductionVars(), ivs))
      mapping.map(old, iv);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc);

    // Nested foralls in the outlined body run sequentially.
    IRRewriter rewriter(ctx);
    SmallVector<scf::ForallOp> nested;
    fn.walk([&](scf::ForallOp f) { nested.push_back(f); });
    for (scf::ForallOp f : nested) {
      rewriter.setInsertionPoint(f);
      if (failed(scf::forallToForLoop(rewriter, f)))
        return failure();
    }

    // The launch.
    b.setInsertionPoint(loop);
    SmallVector<Value> args = {arith::ConstantIndexOp::create(b, loc, 0),
                               arith::ConstantIndexOp::create(b, loc, total)};
    args.append(captured.begin(), captured.end());
    func::CallOp::create(b, loc, fn, args);
    loop.erase();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isExternal() || fn->hasAttr(tp::kParallelBodyAttr))
        continue;
      SmallVector<scf::ForallOp> outermost;
      fn.walk([&](scf::ForallOp loop) {
        if (!loop->getParentOfType<scf::ForallOp>())
          outermost.push_back(loop);
      });
      unsigned index = 0;
      for (scf::ForallOp loop : outermost) {
        if (succeeded(outline(fn, loop, index, symbols))) {
          ++index;
          continue;
        }
        // Not outlinable: sequential loops.
        SmallVector<scf::ForallOp> all;
        loop.walk([&](scf::ForallOp f) { all.push_back(f); });
        for (scf::ForallOp f : all) {
          rewriter.setInsertionPoint(f);
          if (failed(scf::forallToForLoop(rewriter, f)))
            return signalPassFailure();
        }
      }
    }
  }
};

} // namespace
