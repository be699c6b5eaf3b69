//===- MapParallelLoops.cpp - The tp-map-parallel-loops pass --------------===//
//
// Rewrites each outermost scf.parallel of a function into a two-level nest
// mapped to GPU blocks and threads (the linearized iteration space split
// into blocks of `block-size` threads, guarded at the tail), and wraps the
// memory accesses that are in no parallel loop into a 1 x 1 mapped nest.
// convert-parallel-loops-to-gpu turns the mapped nests into gpu.launch ops;
// the CPU pipeline can also run them as loops (gpu-mapping=1), which is how
// the mapping is tested against references without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/GPU/Passes.h"

#include "HostMetadata.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPMAPPARALLELLOOPSPASS
#include "tensorplay/Codegen/GPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

namespace {

using gpu::Processor;

/// Gives every dimension of `loop` the processor `processor`.
void setMapping(scf::ParallelOp loop, Processor processor) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
      loop.getNumLoops(),
      gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity, identity));
  (void)gpu::setMappingAttr(loop, mapping);
}

/// An op that reads or writes a buffer element by element (what must run
/// inside a kernel), except buffer deallocation's host bookkeeping.
bool accessesMemory(Operation *op) {
  Value buffer;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    buffer = load.getMemRef();
  else if (auto store = dyn_cast<memref::StoreOp>(op))
    buffer = store.getMemRef();
  else if (!isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp,
                vector::TransferReadOp, vector::TransferWriteOp, vector::LoadOp,
                vector::StoreOp>(op))
    return false;
  return !buffer || !tp::isHostMetadata(buffer);
}

/// Creates the mapped nest of `numBlocks` x `blockSize` threads before
/// `anchor`; returns a builder inside it and the linear thread index.
std::pair<OpBuilder, Value>
createMappedNest(Operation *anchor, int64_t numBlocks, int64_t blockSize) {
  OpBuilder b(anchor);
  Location loc = anchor->getLoc();
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Value blocksUb = arith::ConstantIndexOp::create(b, loc, numBlocks);
  Value threadsUb = arith::ConstantIndexOp::create(b, loc, blockSize);
  auto blocks = scf::ParallelOp::create(b, loc, c0, blocksUb, c1);
  setMapping(blocks, Processor::BlockX);
  b.setInsertionPointToStart(blocks.getBody());
  auto threads = scf::ParallelOp::create(b, loc, c0, threadsUb, c1);
  setMapping(threads, Processor::ThreadX);
  b.setInsertionPointToStart(threads.getBody());
  Value size = arith::ConstantIndexOp::create(b, loc, blockSize);
  Value first =
      arith::MulIOp::create(b, loc, blocks.getInductionVars()[0], size);
  Value linear =
      arith::AddIOp::create(b, loc, first, threads.getInductionVars()[0]);
  return {b, linear};
}

struct MapParallelLoopsPass
    : public tp::impl::TPMapParallelLoopsPassBase<MapParallelLoopsPass> {
  using TPMapParallelLoopsPassBase::TPMapParallelLoopsPassBase;

  /// Maps the outermost parallel loop `loop`.
  LogicalResult mapLoop(scf::ParallelOp loop) {
    if (loop.getNumResults() != 0)
      return loop.emitError("tp-map-parallel-loops: a parallel loop with "
                            "reductions cannot be mapped to threads");
    SmallVector<int64_t> lbs, steps, trips;
    int64_t total = 1;
    for (auto [lbv, ubv, stepv] : llvm::zip(
             loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
      std::optional<int64_t> lb = getConstantIntValue(lbv),
                             ub = getConstantIntValue(ubv),
                             step = getConstantIntValue(stepv);
      if (!lb || !ub || !step || *step <= 0)
        return loop.emitError("tp-map-parallel-loops: the loop bounds must "
                              "be constants (dynamic shapes are not "
                              "supported on the GPU yet)");
      lbs.push_back(*lb);
      steps.push_back(*step);
      trips.push_back(std::max<int64_t>(0, llvm::divideCeil(*ub - *lb, *step)));
      total *= trips.back();
    }
    if (total == 0) {
      loop.erase();
      return success();
    }
    int64_t size = blockSize;
    int64_t numBlocks = llvm::divideCeil(total, size);
    if (numBlocks > std::numeric_limits<int32_t>::max())
      return loop.emitError("tp-map-parallel-loops: ")
             << total << " iterations need more than 2^31 - 1 blocks";
    auto [b, linear] = createMappedNest(loop, numBlocks, size);
    Location loc = loop.getLoc();
    if (total % size != 0) {
      Value bound = arith::ConstantIndexOp::create(b, loc, total);
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           linear, bound);
      auto guard = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
      b.setInsertionPointToStart(guard.thenBlock());
    }
    // The multi-index, last dimension fastest.
    SmallVector<Value> ivs(trips.size());
    Value rest = linear;
    for (int64_t d = trips.size() - 1; d >= 0; --d) {
      Value index = rest;
      if (d > 0) {
        Value trip = arith::ConstantIndexOp::create(b, loc, trips[d]);
        index = arith::RemUIOp::create(b, loc, rest, trip);
        rest = arith::DivUIOp::create(b, loc, rest, trip);
      }
      Value iv = index;
      if (steps[d] != 1)
        iv = arith::MulIOp::create(
            b, loc, iv, arith::ConstantIndexOp::create(b, loc, steps[d]));
      if (lbs[d] != 0)
        iv = arith::AddIOp::create(
            b, loc, iv, arith::ConstantIndexOp::create(b, loc, lbs[d]));
      ivs[d] = iv;
    }
    for (auto [old, iv] : llvm::zip(loop.getInductionVars(), ivs))
      old.replaceAllUsesWith(iv);
    Block *body = loop.getBody();
    Operation *destination = b.getInsertionBlock()->getTerminator();
    for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
      op.moveBefore(destination);
    loop.erase();
    return success();
  }

  /// Moves `group` (consecutive ops of the function's body that access
  /// buffers outside any parallel loop, with the scalar code between them)
  /// into a 1 x 1 mapped nest. A value the host still uses after it must
  /// not depend on what the group read: pure ops computing it from host
  /// values are cloned before the nest, anything else is an error.
  LogicalResult wrapSingleThread(ArrayRef<Operation *> group) {
    auto [b, linear] = createMappedNest(group.front(), 1, 1);
    (void)linear;
    Operation *nest = linear.getDefiningOp()->getParentOp()->getParentOp();
    for (Operation *op : group)
      op->moveBefore(b.getInsertionBlock()->getTerminator());
    for (Operation *op : group) {
      for (Value result : op->getResults()) {
        bool usedOutside = llvm::any_of(result.getUsers(), [&](Operation *u) {
          return !nest->isAncestor(u);
        });
        if (!usedOutside)
          continue;
        bool hostComputable =
            isPure(op) && op->getNumRegions() == 0 &&
            llvm::all_of(op->getOperands(), [&](Value v) {
              return !nest->isAncestor(v.getParentBlock()->getParentOp());
            });
        if (!hostComputable) {
          if (failed(readBack(nest, op, result)))
            return failure();
          continue;
        }
        OpBuilder before(nest);
        Operation *copy = before.clone(*op);
        result.replaceUsesWithIf(
            copy->getResult(cast<OpResult>(result).getResultNumber()),
            [&](OpOperand &use) { return !nest->isAncestor(use.getOwner()); });
      }
    }
    return success();
  }

  /// Gives the host `value` (a scalar the single-thread `nest` computes and
  /// the host needs after it: a loop count, a branch condition): the nest
  /// stores it into a one-element buffer, which is copied into a host
  /// buffer after the nest (gpu.memcpy; memref.copy with host-buffers) and
  /// read there. A device-to-host copy into pageable memory returns once
  /// the data is there, so the host read sees it.
  LogicalResult readBack(Operation *nest, Operation *op, Value value) {
    Type type = value.getType();
    if (!type.isIntOrIndexOrFloat())
      return op->emitError("tp-map-parallel-loops: the host would use a ")
             << type << " computed from a device buffer";
    Location loc = op->getLoc();
    auto scalar = MemRefType::get({}, type);
    OpBuilder b(nest);
    Value scratch =
        hostBuffers ? memref::AllocOp::create(b, loc, scalar).getResult()
                    : gpu::AllocOp::create(b, loc, scalar, Type(), ValueRange(),
                                           ValueRange(), ValueRange())
                          .getMemref();
    OpBuilder inside = OpBuilder::atBlockTerminator(op->getBlock());
    if (value.getDefiningOp() == op)
      inside.setInsertionPointAfter(op);
    memref::StoreOp::create(inside, loc, value, scratch, ValueRange());
    b.setInsertionPointAfter(nest);
    Value host = memref::AllocaOp::create(b, loc, scalar);
    if (hostBuffers)
      memref::CopyOp::create(b, loc, scratch, host);
    else
      gpu::MemcpyOp::create(b, loc, Type(), ValueRange(), host, scratch);
    Value read = memref::LoadOp::create(b, loc, host, ValueRange());
    if (hostBuffers)
      memref::DeallocOp::create(b, loc, scratch);
    else
      gpu::DeallocOp::create(b, loc, Type(), ValueRange(), scratch);
    value.replaceUsesWithIf(read, [&](OpOperand &use) {
      return !nest->isAncestor(use.getOwner()) &&
             use.getOwner() != read.getDefiningOp();
    });
    return success();
  }

  /// Whether `root` reads or writes a buffer outside any parallel loop.
  static bool accessesOutsideParallel(Operation *root) {
    return root
        ->walk([](Operation *op) {
          if (accessesMemory(op) && !op->getParentOfType<scf::ParallelOp>())
            return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  }

  /// Appends to `groups` the runs of ops of `block` to run on one thread:
  /// ops accessing buffers outside parallel loops and the pure scalar ops
  /// between them. An op of a run whose results the host uses after it
  /// and that holds regions (a host loop carrying buffers, a branch) stays
  /// on the host, splitting the run, and its regions are processed the
  /// same way; a scalar without regions (a loaded loop count) stays in the
  /// run and is read back (readBack).
  LogicalResult collectGroups(Block &block,
                              SmallVector<SmallVector<Operation *>> &groups) {
    auto addRun = [&](SmallVector<Operation *> &run) {
      while (!run.empty() && !accessesOutsideParallel(run.back()))
        run.pop_back();
      if (!run.empty())
        groups.push_back(run);
      run.clear();
    };
    auto flush = [&](SmallVector<Operation *> &current) -> LogicalResult {
      llvm::SmallPtrSet<Operation *, 16> members(current.begin(),
                                                 current.end());
      auto inside = [&](Operation *user) {
        for (; user; user = user->getParentOp())
          if (members.contains(user))
            return true;
        return false;
      };
      SmallVector<Operation *> run;
      for (Operation *op : current) {
        bool escapes = llvm::any_of(op->getResults(), [&](Value v) {
          return llvm::any_of(v.getUsers(),
                              [&](Operation *u) { return !inside(u); });
        });
        bool hostComputable = isPure(op) && op->getNumRegions() == 0 &&
                              llvm::all_of(op->getOperands(), [&](Value v) {
                                Operation *def = v.getDefiningOp();
                                return !def || !members.contains(def);
                              });
        if (!escapes || hostComputable) {
          run.push_back(op);
          continue;
        }
        // A scalar the host needs is read back after the run.
        if (op->getNumRegions() == 0) {
          run.push_back(op);
          continue;
        }
        addRun(run);
        for (Region &region : op->getRegions())
          for (Block &nested : region)
            if (failed(collectGroups(nested, groups)))
              return failure();
      }
      addRun(run);
      current.clear();
      return success();
    };
    SmallVector<Operation *> current;
    for (Operation &op : block.without_terminator()) {
      if (isa<scf::ParallelOp>(op)) {
        if (failed(flush(current)))
          return failure();
        continue;
      }
      if (accessesOutsideParallel(&op))
        current.push_back(&op);
      else if (!current.empty() && isPure(&op) && op.getNumRegions() == 0)
        current.push_back(&op);
      else if (failed(flush(current)))
        return failure();
    }
    return flush(current);
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (blockSize < 1 || blockSize > tp::kMaxGPUBlockSize) {
      func.emitError("tp-map-parallel-loops: block-size must be from 1 to ")
          << tp::kMaxGPUBlockSize << ", got " << blockSize.getValue();
      return signalPassFailure();
    }
    if (func.isExternal() || tp::isDeallocationHelper(func))
      return;
    Block &entry = func.getBody().front();
    // Accesses outside parallel loops: runs of ops holding them (with the
    // scalar code between them) run on one thread, any parallel loop inside
    // them sequentially; host loops and branches whose results the host
    // needs stay on the host, with their bodies processed alike.
    SmallVector<SmallVector<Operation *>> groups;
    if (failed(collectGroups(entry, groups)))
      return signalPassFailure();
    llvm::SmallPtrSet<Operation *, 16> singleThread;
    for (ArrayRef<Operation *> group : groups)
      singleThread.insert(group.begin(), group.end());
    auto inGroup = [&](Operation *op) {
      for (; op; op = op->getParentOp())
        if (singleThread.contains(op))
          return true;
      return false;
    };
    llvm::SetVector<scf::ParallelOp> outermost;
    func.walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() && !inGroup(loop))
        outermost.insert(loop);
    });
    for (ArrayRef<Operation *> group : groups) {
      for (Operation *root : group)
        root->walk([](scf::ParallelOp inner) {
          setMapping(inner, Processor::Sequential);
        });
      if (failed(wrapSingleThread(group)))
        return signalPassFailure();
    }
    for (scf::ParallelOp loop : outermost) {
      loop->walk([&](scf::ParallelOp inner) {
        if (inner != loop)
          setMapping(inner, Processor::Sequential);
      });
      if (failed(mapLoop(loop)))
        return signalPassFailure();
    }
  }
};

} // namespace
