//===- NVVMPipeline.h - tp-lower-to-nvvm -------------------------*- C++
//-*-===//
//
// The pipeline from tp programs (after autocast, if any) to the LLVM
// dialect for the host plus CUDA kernels in a gpu.binary:
//
//   the stages shared with tp-lower-to-cpu (CommonStages.h: tp -> linalg
//   with cuBLASLt calls for the matrix products, fusion, bufferization),
//   tp-device-buffers, convert-linalg-to-parallel-loops,
//   tp-map-parallel-loops, convert-parallel-loops-to-gpu,
//   gpu-kernel-outlining, tp-legalize-kernel-names, tp-stream-order, then
//   as upstream's
//   gpu-lower-to-nvvm-pipeline: the kernels to NVVM (nvvm-attach-target),
//   the host to LLVM calling the mgpu* wrappers of the project's CUDA
//   runtime (runtime/gpu), and gpu-module-to-binary.
//
// `tp-opt --tp-lower-to-nvvm="chip=sm_90 format=isa"` runs it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_PIPELINES_NVVMPIPELINE_H
#define TENSORPLAY_PIPELINES_NVVMPIPELINE_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace tp {

/// The CUDA toolkit found when the project was configured (ptxas,
/// fatbinary, libdevice), or "/usr/local/cuda".
llvm::StringRef defaultCUDAToolkitPath();

struct TPLowerToNVVMOptions : public PassPipelineOptions<TPLowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture of the kernels: sm_80 or sm_90"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX ISA version of the kernels (NVPTX features)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary embeds: fatbin (cubin for "
                     "`chip` with its PTX, the default), bin (cubin), isa "
                     "(PTX text, needs no toolkit) or llvm (NVVM IR)"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit with ptxas, fatbinary and libdevice "
                     "(default: the one found at configure time)"),
      llvm::cl::init(defaultCUDAToolkitPath().str())};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of the generated kernels (1 to "
                     "1024)"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> useCublasLt{
      *this, "use-cublaslt",
      llvm::cl::desc("Lower matrix products to cuBLASLt calls (off: "
                     "generated kernels)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> emitCInterface{
      *this, "emit-c-interface",
      llvm::cl::desc("Give public functions a _mlir_ciface_ wrapper"),
      llvm::cl::init(true)};
  PassOptions::Option<uint64_t> dropoutSeed{
      *this, "dropout-seed", llvm::cl::desc("Seed of tp.dropout's generator"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> toLLVM{
      *this, "to-llvm",
      llvm::cl::desc("Lower all the way to LLVM and a gpu.binary (off: stop "
                     "after kernel outlining, for inspection)"),
      llvm::cl::init(true)};
};

/// Checks option values the pipeline cannot work with (chip, format,
/// block-size); reports the first problem through `emitError`.
LogicalResult verifyTPLowerToNVVMOptions(
    const TPLowerToNVVMOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError);

/// Adds tp-lower-to-nvvm to `pm` (a module-level pass manager); `options`
/// must pass verifyTPLowerToNVVMOptions.
void buildTPLowerToNVVMPipeline(OpPassManager &pm,
                                const TPLowerToNVVMOptions &options);

/// Registers the tp-lower-to-nvvm pipeline and the GPU codegen passes.
void registerNVVMCodegenPassesAndPipelines();

/// Inserts the dialects and interfaces the GPU pipeline needs (gpu, nvvm,
/// the NVVM target, GPU/NVVM to LLVM IR translations) into `registry`.
void registerNVVMCodegenDialects(DialectRegistry &registry);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_PIPELINES_NVVMPIPELINE_H
