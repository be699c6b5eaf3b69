//===- Passes.td - tensorplay GPU code generation passes ---*- tablegen -*-===//
//
// The passes of the tp-lower-to-nvvm pipeline between bufferization and the
// upstream GPU lowering: the mapping of parallel loop nests to blocks and
// threads, and device memory for the host function's buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CODEGEN_GPU_PASSES_TD
#define TENSORPLAY_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPMapParallelLoopsPass
    : Pass<"tp-map-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Map parallel loop nests to GPU blocks and threads";
  let description = [{
    Every outermost `scf.parallel` of a function (what
    `convert-linalg-to-parallel-loops` makes of a linalg op: its parallel
    dimensions; reductions stay `scf.for` loops inside) becomes the mapped
    form that `convert-parallel-loops-to-gpu` turns into a `gpu.launch`:

      scf.parallel (%block) = (0) to (ceil(N / block-size))  {block_x}
        scf.parallel (%thread) = (0) to (block-size)          {thread_x}
          %i = %block * block-size + %thread
          scf.if %i < N { original body at the multi-index of %i }

    where N is the product of the loop's trip counts and the multi-index is
    %i delinearized with the last dimension fastest, so that neighbouring
    threads touch neighbouring elements of row-major buffers (coalesced
    accesses). Parallel loops nested inside a mapped one run sequentially
    in its thread.

    Memory accesses outside any parallel loop (the loops of a reduction to
    a scalar, a scan's `scf.for`) run on one thread: runs of such ops, with
    the scalar code between them, are wrapped in a 1 x 1 mapped nest, so
    that no host code reads or writes a buffer. A host loop or branch whose
    results the host needs (a scan carrying buffers) stays on the host, its
    body processed alike. A scalar such code computes and the host needs (a
    loop count or a branch condition read from a tensor) is stored into a
    one-element device buffer and copied to the host after the nest
    (`gpu.memcpy` into a host `memref.alloca`; `memref.copy` with
    `host-buffers`), a synchronous read the program asked for.

    Buffer deallocation's ownership bookkeeping (the small index / i1
    buffers it passes to its `dealloc_helper` function) stays on the host,
    and so does that function.

    The mapped form is also valid input for the CPU pipeline
    (`tp-lower-to-cpu="gpu-mapping=1"` runs it there), which tests the
    mapping against the same references as the CPU code.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (1 to 1024)">,
    Option<"hostBuffers", "host-buffers", "bool", /*default=*/"false",
           "Buffers are host memory (the CPU pipeline's gpu-mapping mode): "
           "scalars are read back with memref ops instead of gpu ones">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TPDeviceBuffersPass
    : Pass<"tp-device-buffers", "::mlir::func::FuncOp"> {
  let summary = "Put a host function's buffers in GPU memory";
  let description = [{
    Run after bufferization on the host functions of the GPU pipeline,
    whose memref arguments are device buffers by contract (the caller
    passes device pointers):

    - `memref.alloc` / `memref.alloca` become `gpu.alloc`, and
      `memref.dealloc` becomes `gpu.dealloc` (an alloca is freed before the
      function returns);
    - `memref.copy` between identity-layout buffers becomes `gpu.memcpy`;
      a strided copy becomes a `linalg.copy`, so that it is mapped to
      threads like any other loop nest;
    - a `memref.get_global` constant (a dense tensor of the program) is
      copied into a device buffer at the function's entry.

    Buffer deallocation's ownership bookkeeping (what it passes to its
    `dealloc_helper` function) stays in host memory.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def TPStreamOrderPass
    : Pass<"tp-stream-order", "::mlir::func::FuncOp"> {
  let summary = "Put a host function's GPU ops on one stream, in order";
  let description = [{
    Makes the host's `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy`, `gpu.memset`
    and `gpu.launch_func` ops asynchronous, each depending on the one
    before it in its block (a chain that starts with `gpu.wait async`),
    and waits for the chain once, before the function returns. The GPU
    runtime gives every stream the lowering asks for as its one stream, on
    which the cuBLASLt and GradScaler calls run too, so program order is
    kept without the host synchronizations upstream's `gpu-async-region`
    inserts before every call it does not know: a compiled train step
    synchronizes once per step.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TPLegalizeKernelNamesPass
    : Pass<"tp-legalize-kernel-names", "::mlir::ModuleOp"> {
  let summary = "Give outlined kernels names that PTX accepts";
  let description = [{
    `gpu-kernel-outlining` names each kernel after its host function, and
    an MLIR symbol may hold characters a PTX identifier may not (the JIT's
    `tp.fn.` prefix, a `$` or `-` of a frontend's name). Every `gpu.module`
    and `gpu.func` gets its name with each character outside
    `[A-Za-z0-9_]` replaced by `_` (made unique with a numeric suffix), and
    the `gpu.launch_func` ops are updated.
  }];
}

def TPCheckGPUBinariesPass
    : Pass<"tp-check-gpu-binaries", "::mlir::ModuleOp"> {
  let summary = "Fail when a kernel module was not compiled to a binary";
  let description = [{
    Runs after `gpu-module-to-binary`, which reports a serialization
    failure (a missing toolkit, ptxas rejecting a kernel) as a diagnostic
    without failing the pipeline and leaves the `gpu.module` in place: any
    `gpu.module` left is an error at it, so that a module with kernels that
    did not compile is never emitted as if it had.
  }];
}

#endif // TENSORPLAY_CODEGEN_GPU_PASSES_TD
