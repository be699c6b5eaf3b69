//===- CommonStages.cpp - Stages shared by the CPU and GPU pipelines ------===//
//
// See CommonStages.h.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Pipelines/CommonStages.h"

#include "tensorplay/Codegen/CPU/Passes.h"
#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Dialect/TP/Transforms/Passes.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tp::addTPToLinalgStages(OpPassManager &pm,
                             const ConvertTPToRuntimePassOptions &toRuntime,
                             uint64_t dropoutSeed) {
  // Shapes the pipelines cannot compile are refused up front; ops with
  // empty results compute nothing.
  pm.addPass(createTPCheckCPUShapesPass());
  pm.addPass(createTPFoldEmptyTensorsPass());
  // tp -> linalg / tensor / arith / math (+ library and GradScaler calls).
  pm.addPass(createTPDecomposeCompositeOpsPass());
  // Again for the ops the decompositions made: an empty batch makes empty
  // intermediates (a margin loss's cumsum over 0 rows) that the linalg
  // lowerings would slice out of bounds.
  pm.addPass(createTPFoldEmptyTensorsPass());
  // Gradients of tensors read piece by piece, as one concatenation.
  pm.addNestedPass<func::FuncOp>(createTPJoinSliceGradientsPass());
  pm.addPass(createConvertTPToRuntimePass(toRuntime));
  ConvertTPToLinalgPassOptions toLinalg;
  toLinalg.dropoutSeed = dropoutSeed;
  pm.addPass(createConvertTPToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Fusion on tensors.
  pm.addNestedPass<func::FuncOp>(createTPFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tp::addBufferizationStages(OpPassManager &pm, bool emitCInterface) {
  // Bufferization: inputs stay read-only, results become out-params.
  TPPrepareFunctionABIPassOptions abi;
  abi.emitCInterface = emitCInterface;
  pm.addPass(createTPPrepareFunctionABIPass(abi));
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  // Scans (cumsum) carry a fresh accumulator through scf.for.
  bufferization.allowReturnAllocsFromLoops = true;
  bufferization.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  pm.addPass(createCanonicalizerPass());
  // Results a tp.donate attribute names go into their arguments' buffers.
  pm.addPass(createTPDonateResultsPass());
  // Results computed in their out-params rather than copied there at the
  // end (hoist-static-allocs, each allocation returned once).
  pm.addPass(createTPDistinctResultBuffersPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}
