//===- AutocastRewriter.h - Applies autocast decisions to a module -*- C++ -*-//
//
// Walks a module in program order under the autocast context of each point
// (function option, tp.autocast regions, call sites), applies the decision
// of each tp op (AutocastDecision.h), inserts the casts, re-infers result
// types downstream, keeps loop-carried and branch values consistent, and
// specializes callees per call-site context. Records every decision for the
// report. Private to the pass: callers use applyAutocast (Autocast.h) or the
// tp-autocast pass.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREWRITER_H
#define TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREWRITER_H

#include "tensorplay/Transforms/Autocast.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir {
namespace tp {

class AutocastRewriter {
public:
  /// `options` enables autocast for the functions of its target's device;
  /// `policies` holds one policy per Device (indexed by the enum), edited by
  /// the policy file `policyFile` (empty: none; named in diagnostics). With
  /// `record`, every decision is kept in `result.records` for the report;
  /// the summary is counted in `result.summary` always.
  AutocastRewriter(ModuleOp module, const AutocastOptions &options,
                   ArrayRef<AutocastPolicy> policies, StringRef policyFile,
                   bool keepIoTypes, bool record, AutocastResult &result);
  ~AutocastRewriter();

  /// Rewrites every function of the module (nested modules included); emits
  /// diagnostics and fails on banned ops (after rewriting and recording the
  /// rest, so that the report is complete), ops whose operands end up with
  /// incompatible dtypes, or bad attributes.
  LogicalResult run();

private:
  LogicalResult processEntry(func::FuncOp func);
  LogicalResult processFunction(func::FuncOp func,
                                const AutocastContext &context);
  LogicalResult processBlock(Block &block, const AutocastContext &context,
                             Operation *scope);
  /// The blocks of `region` in dominance order (reverse post-order from the
  /// entry, then the unreachable ones), each after its block arguments are
  /// reconciled with what its predecessors pass (reconcileBlockArguments).
  LogicalResult processRegion(Region &region, const AutocastContext &context,
                              Operation *scope);
  /// A block argument whose predecessors were all processed and branch with
  /// BranchOpInterface takes the widest of the types they pass (the
  /// narrower ones are cast at the branch); otherwise it keeps its type and
  /// the values passed to it are cast to it.
  void reconcileBlockArguments(Block &block, Operation *scope);
  /// A branch (BranchOpInterface): values it passes to a block already
  /// processed (a back edge) are cast to that block's argument types; those
  /// passed to blocks still to come are left to reconcileBlockArguments;
  /// its other operands get their original types.
  LogicalResult processBranch(Operation *op, Operation *scope);
  LogicalResult processOp(Operation *op, const AutocastContext &context,
                          Operation *scope);
  LogicalResult processCompute(Operation *op, const AutocastContext &context,
                               Operation *scope);
  LogicalResult reportBanned(Operation *op, const AutocastState &state);
  /// Records a tp op the pass leaves alone (tp.constant, an input tp.cast).
  void recordUntouched(Operation *op, const AutocastContext &context);
  LogicalResult processRegionOp(Operation *op, const AutocastContext &context,
                                Operation *scope);
  /// Shared by scf.for and scf.while: `carried` receive `inits` on entry and
  /// the yield's operands each iteration; processes until types are stable.
  LogicalResult processLoop(Operation *op, MutableOperandRange inits,
                            ValueRange carried,
                            function_ref<LogicalResult()> processBody,
                            function_ref<Operation *()> getYield,
                            Operation *scope);
  /// Makes the yielded values match `targets`, widening a target where its
  /// yielded value is wider; true when a target was widened.
  bool reconcileYield(ValueRange targets, Operation *yield, Operation *scope);
  LogicalResult processFor(Operation *op, const AutocastContext &context,
                           Operation *scope);
  LogicalResult processWhile(Operation *op, const AutocastContext &context,
                             Operation *scope);
  /// Region ops whose regions each run at most once and return to the op
  /// (scf.if, scf.index_switch, scf.execute_region): each result takes the
  /// widest type its regions yield.
  LogicalResult processBranches(RegionBranchOpInterface op,
                                const AutocastContext &context,
                                Operation *scope);
  /// Any other op: its operands and its regions' terminators get their
  /// original types back (the ops inside are autocast).
  LogicalResult processOpaque(Operation *op, const AutocastContext &context,
                              Operation *scope);
  LogicalResult processCall(func::CallOp call, const AutocastContext &context,
                            Operation *scope);
  LogicalResult finishFunction(func::FuncOp func, bool keepIo);
  LogicalResult reinferResults(Operation *op);
  /// Casts operands whose types this pass changed back to their original
  /// types (for ops that cannot follow a type change).
  void conformOperands(Operation *op, Operation *scope);
  void conformOperand(OpOperand &operand, Operation *scope);
  /// `target` (a region op result, a block argument) takes the widest type
  /// of the values `incoming` gives it (its own type when they disagree in
  /// more than the dtype or there are none); the narrower ones are cast.
  void joinInto(Value target, ArrayRef<OpOperand *> incoming, Operation *scope,
                bool shared);
  /// Casts each of `incoming` whose type is not `type` to its element type.
  void castIncoming(ArrayRef<OpOperand *> incoming, Type type, Operation *scope,
                    bool shared);
  /// Gives `operand` the element type `elementType` (same shape), casting if
  /// needed; true when it now reads a cast this pass inserted.
  bool castOperandTo(OpOperand &operand, Type elementType, Operation *scope,
                     bool shared);
  /// Joins carried values: returns the wider of two tensor types of one
  /// shape, or null when they disagree in something else than the dtype.
  Type join(Type a, Type b);
  Value getCast(Value value, Type elementType, Operation *scope,
                Operation *user, bool shared);
  void retype(Value value, Type type);
  void cleanUpAndCount();

  ModuleOp module;
  AutocastOptions options;
  ArrayRef<AutocastPolicy> policies;
  std::string policyFile;
  bool keepIoTypes;
  bool record;
  /// Set when a diagnosed error lets the rewrite go on (banned ops).
  bool failedSoftly = false;

  SymbolTableCollection symbolTables;
  /// The records, the summary and completeness, filled in as run() goes.
  AutocastResult &result;
  DenseMap<Value, Type> originalTypes;
  DenseMap<std::tuple<Value, Type, Operation *, Operation *>, Value> castCache;
  llvm::SetVector<Operation *> createdCasts;
  /// Input casts a round-trip fold bypassed (erased if left without uses).
  llvm::SetVector<Operation *> bypassedCasts;
  /// Untouched copies of called functions, to specialize from.
  DenseMap<Operation *, func::FuncOp> pristine;
  /// Specializations: (original callee, context key, argument types) -> func.
  std::map<std::tuple<Operation *, std::string, std::vector<const void *>>,
           func::FuncOp>
      specializations;
  DenseMap<Operation *, Operation *> specializedFrom;
  DenseSet<Operation *> done, inProgress, forceKeepIo;
  /// The blocks processRegion has processed (of the regions it is in).
  DenseSet<Block *> processedBlocks;
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREWRITER_H
