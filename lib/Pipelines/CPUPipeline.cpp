//===- CPUPipeline.cpp - tp-lower-to-cpu ----------------------------------===//
//
// The pipeline from tp programs to the LLVM dialect for the host CPU, its
// registration (PassPipelineRegistration with TPLowerToCPUOptions) and the
// dialect registry it needs. See CPUPipeline.h for the stages.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Pipelines/CPUPipeline.h"

#include "tensorplay/Codegen/CPU/Passes.h"
#include "tensorplay/Codegen/GPU/Passes.h"
#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/Transforms/Passes.h"
#include "tensorplay/Dialect/TPRuntime/IR/TPRuntime.h"
#include "tensorplay/Pipelines/CommonStages.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/SubsetOpInterfaceImpl.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

bool tp::isOneDNNAvailable() {
#if TENSORPLAY_ENABLE_ONEDNN
  return true;
#else
  return false;
#endif
}

LogicalResult tp::verifyTPLowerToCPUOptions(
    const TPLowerToCPUOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError) {
  if (options.gpuMapping &&
      (options.gpuBlockSize < 1 || options.gpuBlockSize > kMaxGPUBlockSize))
    return emitError("tp-lower-to-cpu: gpu-block-size must be from 1 to " +
                     Twine(kMaxGPUBlockSize) + ", got " +
                     Twine(options.gpuBlockSize.getValue()));
  if (options.vectorize && !isValidVectorWidth(options.vectorWidth))
    return emitError("tp-lower-to-cpu: vector-width must be a power of two "
                     "from 1 to " +
                     Twine(kMaxVectorWidth) + ", got " +
                     Twine(options.vectorWidth.getValue()));
  return success();
}

void tp::buildTPLowerToCPUPipeline(OpPassManager &pm,
                                   const TPLowerToCPUOptions &options) {
  // tp -> linalg / tensor / arith / math (+ oneDNN and GradScaler calls),
  // fused.
  ConvertTPToRuntimePassOptions toRuntime;
  toRuntime.onednn = options.useOneDNN;
  toRuntime.onednnSoftmaxBackward = options.onednnSoftmaxBackward;
  addTPToLinalgStages(pm, toRuntime, options.dropoutSeed);
  // Tiling and vectorization on tensors.
  if (options.vectorize && !options.gpuMapping) {
    // Independent loops over one iteration space become one loop nest
    // (one parallel region) before tiling.
    if (options.fuseSiblings)
      pm.addNestedPass<func::FuncOp>(createTPFuseSiblingsPass());
    TPTileAndVectorizePassOptions tiling;
    tiling.vectorWidth = options.vectorWidth;
    tiling.parallelTiles = options.parallel ? 32 : 0;
    pm.addNestedPass<func::FuncOp>(createTPTileAndVectorizePass(tiling));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  addBufferizationStages(pm, options.emitCInterface);
  if (options.gpuMapping) {
    // The loop nests in the form tp-lower-to-nvvm maps to blocks and
    // threads, run here as loops (a test of the mapping without a GPU).
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
    pm.addPass(createCanonicalizerPass());
    TPMapParallelLoopsPassOptions mapping;
    mapping.blockSize = options.gpuBlockSize;
    mapping.hostBuffers = true;
    pm.addNestedPass<func::FuncOp>(createTPMapParallelLoopsPass(mapping));
  }
  if (!options.toLLVM)
    return;

  // Parallel loops, loops, vectors.
  if (options.parallel)
    pm.addPass(createTPOutlineParallelLoopsPass());
  else
    pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
  pm.addNestedPass<func::FuncOp>(createTPLowerVectorsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Everything to LLVM.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Complex arithmetic (complex.mul, div, neg, ...) to arith and math on
  // the parts; complex.create / re / im stay for convert-complex-to-llvm.
  pm.addPass(createConvertComplexToStandardPass());
  // f8 conversions as integer operations (LLVM has no 8-bit floats), before
  // the bf16 expansion, which the f8 <-> bf16 casts leave behind.
  pm.addPass(createTPExpandFloat8Pass());
  // bf16 conversions as integer bit operations: LLVM then never sees
  // bfloat arithmetic (its optimizer would otherwise fold extf/op/truncf
  // into bf16 ops the x86 backend cannot select). The truncations first,
  // with the host's NaN rule (arith-expand's makes every NaN 0x7fc0); then
  // arith-expand for the widenings.
  pm.addPass(createTPExpandBF16Pass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // complex.create / re / im.
  pm.addPass(createConvertComplexToLLVMPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.reassociateFPReductions = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // Buffers come from the runtime's caching allocator (Codegen.h).
  // tp.all_reduce's collective: calls of the MPI library.
  pm.addPass(createTPConvertMPIToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  memrefToLLVM.useAlignedAlloc = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.parallel)
    pm.addPass(createTPLowerParallelLaunchesPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tp::registerCPUCodegenPassesAndPipelines() {
  registerTensorplayCodegenPasses();
  registerCheckedPipeline<TPLowerToCPUOptions>(
      "tp-lower-to-cpu",
      "Lower tp programs to the LLVM dialect for the host CPU (oneDNN for "
      "matrix products and convolutions, tiled and vectorized linalg for the "
      "rest, parallel loops on the runtime's threads)",
      verifyTPLowerToCPUOptions, buildTPLowerToCPUPipeline);
}

void tp::registerCPUCodegenDialects(DialectRegistry &registry) {
  registry.insert<tp::TPDialect, tp::rt::TPRuntimeDialect,
                  affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, tensor::TensorDialect, ub::UBDialect,
                  vector::VectorDialect, mpi::MPIDialect, DLTIDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tp::rt::registerBufferizableOpInterfaceExternalModels(registry);
  registerMPIEffectsExternalModels(registry);
  // What buffer-results-to-out-params needs to compute a result in its
  // out-param rather than copy it there at the end (hoist-static-allocs).
  memref::registerAllocationOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  // Subsets (loop-invariant transfer hoisting) and value bounds (tiling).
  linalg::registerSubsetOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);
  vector::registerSubsetOpInterfaceExternalModels(registry);
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  linalg::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  vector::registerValueBoundsOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}
