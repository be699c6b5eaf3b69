//===- NVVMPipeline.cpp - tp-lower-to-nvvm --------------------------------===//
//
// The pipeline from tp programs to host LLVM code plus CUDA kernels (see
// NVVMPipeline.h for the stages), its registration and the dialect registry
// it needs. The stages after kernel outlining follow upstream's
// gpu-lower-to-nvvm-pipeline (GPUToNVVMPipeline.cpp), with the toolkit and
// the host lowering of the project's runtime calls made explicit.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Pipelines/NVVMPipeline.h"

#include "tensorplay/Codegen/CPU/Passes.h"
#include "tensorplay/Codegen/GPU/Passes.h"
#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Pipelines/CPUPipeline.h"
#include "tensorplay/Pipelines/CommonStages.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

llvm::StringRef tp::defaultCUDAToolkitPath() {
#ifdef TENSORPLAY_CUDA_TOOLKIT_PATH
  return TENSORPLAY_CUDA_TOOLKIT_PATH;
#else
  return "/usr/local/cuda";
#endif
}

LogicalResult tp::verifyTPLowerToNVVMOptions(
    const TPLowerToNVVMOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError) {
  StringRef chip = options.chip.getValue();
  if (chip != "sm_80" && chip != "sm_90")
    return emitError("tp-lower-to-nvvm: chip must be sm_80 or sm_90, got '" +
                     chip + "'");
  StringRef format = options.format.getValue();
  if (format != "fatbin" && format != "bin" && format != "isa" &&
      format != "llvm")
    return emitError("tp-lower-to-nvvm: format must be fatbin, bin, isa or "
                     "llvm, got '" +
                     format + "'");
  // gpu-module-to-binary runs the toolkit's ptxas (and fatbinary); a
  // toolkit without them is refused here, by name.
  if (format == "bin" || format == "fatbin") {
    SmallVector<StringRef, 2> tools{"ptxas"};
    if (format == "fatbin")
      tools.push_back("fatbinary");
    for (StringRef tool : tools) {
      SmallString<128> path(options.toolkit.getValue());
      llvm::sys::path::append(path, "bin", tool);
      if (!llvm::sys::fs::can_execute(path))
        return emitError("tp-lower-to-nvvm: format=" + format + " needs " +
                         tool + " from the CUDA toolkit, and there is no " +
                         path + " (set toolkit=, or use format=isa)");
    }
  }
  if (options.blockSize < 1 || options.blockSize > kMaxGPUBlockSize)
    return emitError("tp-lower-to-nvvm: block-size must be from 1 to " +
                     Twine(kMaxGPUBlockSize) + ", got " +
                     Twine(options.blockSize.getValue()));
  return success();
}

void tp::buildTPLowerToNVVMPipeline(OpPassManager &pm,
                                    const TPLowerToNVVMOptions &options) {
  // tp -> linalg (+ cuBLASLt calls), fused, bufferized.
  ConvertTPToRuntimePassOptions toRuntime;
  toRuntime.onednn = false;
  toRuntime.device = "cuda";
  toRuntime.cublaslt = options.useCublasLt;
  addTPToLinalgStages(pm, toRuntime, options.dropoutSeed);
  addBufferizationStages(pm, options.emitCInterface);

  // Device memory, loop nests mapped to blocks and threads, kernels.
  pm.addNestedPass<func::FuncOp>(createTPDeviceBuffersPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  TPMapParallelLoopsPassOptions mapping;
  mapping.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createTPMapParallelLoopsPass(mapping));
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createTPLegalizeKernelNamesPass());
  if (!options.toLLVM)
    return;
  // The host's GPU ops on the runtime's one stream, in program order,
  // waited for once before the function returns.
  pm.addNestedPass<func::FuncOp>(createTPStreamOrderPass());

  // The kernels first, inside their gpu.modules: structured control flow
  // and index arithmetic, then upstream's convert-gpu-to-nvvm, which lowers
  // math and arith.remf to libdevice calls (the module-level arith-to-llvm
  // of upstream's pipeline turns remf into llvm.frem first, which NVPTX
  // cannot select). Then the target.
  pm.addNestedPass<gpu::GPUModuleOp>(createTPExpandFloat8Pass());
  pm.addNestedPass<gpu::GPUModuleOp>(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(memref::createExpandStridedMetadataPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerAffinePass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(toNVVM));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  pm.addPass(createGpuNVVMAttachTarget(target));
  // The host, as upstream's pipeline lowers it.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions indexToLLVM;
  indexToLLVM.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(indexToLLVM));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The host's GPU ops to runtime calls, and the kernels to a binary.
  pm.addPass(createGpuToLLVMConversionPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createTPCheckGPUBinariesPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void tp::registerNVVMCodegenPassesAndPipelines() {
  registerTensorplayGPUCodegenPasses();
  registerCheckedPipeline<TPLowerToNVVMOptions>(
      "tp-lower-to-nvvm",
      "Lower tp programs to host LLVM code and CUDA kernels (cuBLASLt for "
      "matrix products, generated kernels mapped to blocks and threads for "
      "the rest, embedded as a cubin/PTX gpu.binary)",
      verifyTPLowerToNVVMOptions, buildTPLowerToNVVMPipeline);
}

void tp::registerNVVMCodegenDialects(DialectRegistry &registry) {
  registerCPUCodegenDialects(registry);
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
  // convert-gpu-to-nvvm lowers a kernel's ops through their dialects'
  // ConvertToLLVMPatternInterface.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
}
