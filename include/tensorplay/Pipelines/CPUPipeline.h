//===- CPUPipeline.h - tp-lower-to-cpu ---------------------------*- C++
//-*-===//
//
// The pipeline from tp programs (after autocast, if any) to the LLVM
// dialect for the host CPU:
//
//   tp-decompose-composite-ops, convert-tp-to-runtime (oneDNN),
//   convert-tp-to-linalg, tp-fuse-elementwise, tp-tile-and-vectorize,
//   one-shot bufferization, buffer deallocation, tp-outline-parallel-loops,
//   vector/scf/memref/math/arith/func -> LLVM, tp-lower-parallel-launches.
//
// `tp-opt --tp-lower-to-cpu="use-onednn=1 parallel=1"` runs it; C++ users
// call buildTPLowerToCPUPipeline.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_PIPELINES_CPUPIPELINE_H
#define TENSORPLAY_PIPELINES_CPUPIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace tp {

/// True when this build's runtime has oneDNN (TENSORPLAY_ENABLE_ONEDNN).
bool isOneDNNAvailable();

struct TPLowerToCPUOptions : public PassPipelineOptions<TPLowerToCPUOptions> {
  PassOptions::Option<bool> useOneDNN{
      *this, "use-onednn",
      llvm::cl::desc("Lower matrix products and convolutions to oneDNN calls "
                     "(default: when the runtime has oneDNN)"),
      llvm::cl::init(isOneDNNAvailable())};
  PassOptions::Option<bool> onednnSoftmaxBackward{
      *this, "onednn-softmax-backward",
      llvm::cl::desc("With use-onednn, lower softmax_backward and "
                     "log_softmax_backward to oneDNN's primitives too (off: "
                     "the fused linalg loops, 2-5x faster on AVX2 CPUs)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run outer parallel loops on the runtime's threads"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile and vectorize linalg ops (off: scalar loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseSiblings{
      *this, "fuse-siblings",
      llvm::cl::desc("Fuse independent loops over one iteration space into "
                     "one loop nest before tiling (tp-fuse-siblings)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width", llvm::cl::desc("f32 lanes per vector register"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give public functions a _mlir_ciface_ wrapper"),
      llvm::cl::init(true)};
  PassOptions::Option<uint64_t> dropoutSeed{
      *this, "dropout-seed", llvm::cl::desc("Seed of tp.dropout's generator"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> gpuMapping{
      *this, "gpu-mapping",
      llvm::cl::desc("Map the loop nests to blocks and threads as "
                     "tp-lower-to-nvvm does (tp-map-parallel-loops) and run "
                     "that form as scalar loops: tests the GPU mapping on "
                     "the CPU (implies no tiling or vectorization)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> gpuBlockSize{
      *this, "gpu-block-size",
      llvm::cl::desc("With gpu-mapping: threads per block"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> toLLVM{
      *this, "to-llvm",
      llvm::cl::desc("Lower all the way to the LLVM dialect (off: stop "
                     "after bufferization, for inspection)"),
      llvm::cl::init(true)};
};

/// Checks option values the pipeline cannot work with (vector-width: a
/// power of two from 1 to kMaxVectorWidth); reports the first problem
/// through `emitError` and returns failure.
LogicalResult
verifyTPLowerToCPUOptions(const TPLowerToCPUOptions &options,
                          function_ref<LogicalResult(const Twine &)> emitError);

/// Adds tp-lower-to-cpu to `pm` (a module-level pass manager). `options`
/// must pass verifyTPLowerToCPUOptions (otherwise the tiling pass fails).
void buildTPLowerToCPUPipeline(OpPassManager &pm,
                               const TPLowerToCPUOptions &options);

/// Registers the tp-lower-to-cpu pipeline and the codegen passes.
void registerCPUCodegenPassesAndPipelines();

/// Inserts every dialect the pipeline produces (and their interfaces:
/// bufferization models, LLVM translations) into `registry`.
void registerCPUCodegenDialects(DialectRegistry &registry);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_PIPELINES_CPUPIPELINE_H
