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
// It knows no other dialect's ops by name: functions are FunctionOpInterface
// ops (their returns ReturnLike terminators), calls CallOpInterface ops
// resolved to CallableOpInterface callees, structured control flow (scf.if,
// scf.for, scf.while, affine.for, ...) RegionBranchOpInterface ops, whose
// successor edges say which values flow where (loops are those with a cycle
// among their regions), and unstructured control flow BranchOpInterface
// terminators. Other ops keep their original operand types.
//
// Implemented in AutocastRewriter.cpp (casts, ops, the driver),
// AutocastControlFlow.cpp (regions, branches, region branch ops) and
// AutocastCalls.cpp (functions and calls).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREWRITER_H
#define TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREWRITER_H

#include "tensorplay/Transforms/Autocast.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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
  LogicalResult processEntry(FunctionOpInterface func);
  LogicalResult processFunction(FunctionOpInterface func,
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
  /// tp.custom_function with custom_fwd / custom_bwd
  /// (AutocastCustomFunction.cpp).
  LogicalResult processCustomFunction(CustomFunctionOp op,
                                      const AutocastContext &context,
                                      Operation *scope);
  /// A RegionBranchOpInterface op whose successor edges account for every
  /// value it passes (RegionBranchFlow): each set of values that must share
  /// a type (a loop's carried value, its region argument and result) takes
  /// the widest type flowing into it from the parts processed so far; a
  /// loop's regions are processed again until those types are stable
  /// (types only widen, so this terminates). The narrower incoming values
  /// are cast at the end. Any other region op is processed as opaque.
  LogicalResult processRegionBranch(RegionBranchOpInterface op,
                                    const AutocastContext &context,
                                    Operation *scope);
  /// Any other op: its operands and its regions' terminators get their
  /// original types back (the ops inside are autocast).
  LogicalResult processOpaque(Operation *op, const AutocastContext &context,
                              Operation *scope);
  /// A call whose callee resolves to a function with a body: the callee is
  /// processed in the call site's context, or specialized for it.
  LogicalResult processCall(CallOpInterface call,
                            const AutocastContext &context, Operation *scope);
  LogicalResult finishFunction(FunctionOpInterface func, bool keepIo);
  LogicalResult reinferResults(Operation *op);
  /// Casts operands whose types this pass changed back to their original
  /// types (for ops that cannot follow a type change).
  void conformOperands(Operation *op, Operation *scope);
  void conformOperand(OpOperand &operand, Operation *scope);
  /// `target` (a block argument) takes the widest type of the values
  /// `incoming` gives it (its own type when they disagree in more than the
  /// dtype or there are none); the narrower ones are cast.
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
  DenseMap<Operation *, FunctionOpInterface> pristine;
  /// Specializations: (original callee, context key, argument types) -> func.
  std::map<std::tuple<Operation *, std::string, std::vector<const void *>>,
           FunctionOpInterface>
      specializations;
  DenseMap<Operation *, Operation *> specializedFrom;
  DenseSet<Operation *> done, inProgress, forceKeepIo;
  /// Ops whose dtype attribute this pass set (fp32-list ops).
  DenseSet<Operation *> dtypeSet;
  /// The blocks processRegion has processed (of the regions it is in).
  DenseSet<Block *> processedBlocks;
  /// Terminators whose operands the handler of their parent op reconciles
  /// (a function's returns, the region exits of processRegionBranch,
  /// tp.yield); processOp leaves them alone.
  DenseSet<Operation *> handledExits;
};

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_LIB_TRANSFORMS_AUTOCASTREWRITER_H
