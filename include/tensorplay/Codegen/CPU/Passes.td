//===- Passes.td - tensorplay CPU code generation passes ---*- tablegen -*-===//
//
// The passes of the tp-lower-to-cpu pipeline that are not conversions out
// of tp: elementwise fusion with the project's policy, tiling and
// vectorization, the function ABI, and parallel loops.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_PIPELINES_PASSES_TD
#define TENSORPLAY_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPCheckCPUShapesPass
    : Pass<"tp-check-cpu-shapes", "::mlir::ModuleOp"> {
  let summary = "Refuse tensor shapes the CPU pipeline cannot compile";
  let description = [{
    The first stage of `tp-lower-to-cpu`: every tensor an op reads or
    produces (and every function argument and result) must have a static
    shape whose byte size fits the address space (at most 2^47 bytes, what
    x86-64 and AArch64 user space can address). A dynamic (`?`) dimension or
    a larger tensor is an error at the op naming the operand or result,
    before any lowering runs: later stages derive loop bounds and tile sizes
    from static sizes.
  }];
}

def TPFoldEmptyTensorsPass
    : Pass<"tp-fold-empty-tensors", "::mlir::ModuleOp"> {
  let summary = "Replace tp ops whose results are all empty by tensor.empty";
  let description = [{
    A tp op whose results all have a 0-size dimension computes nothing:
    its results become `tensor.empty`, whatever its inputs. Ops that read
    empty tensors but produce data (a sum over an empty dimension is 0, a
    mean NaN, a product with K = 0 zeros) keep their lowerings, which
    follow PyTorch's results.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def TPJoinSliceGradientsPass
    : Pass<"tp-join-slice-gradients", "::mlir::func::FuncOp"> {
  let summary = "Rewrite sums of slice gradients over disjoint ranges as "
                "one concatenation";
  let description = [{
    A tree of `tp.add` ops (alpha 1, one type throughout, each inner sum
    used once) whose leaves are two or more `tp.slice_backward` ops (step 1)
    of one `input_sizes` and `dim` over disjoint ranges is the gradient of
    a tensor sliced into pieces: an unrolled recurrence's input projection
    read one time step at a time, an LSTM's gates chunked out of one
    product. Each leaf is a full-size tensor of zeros around its piece, so
    the sum wrote and read every piece T times. It becomes one `tp.cat`
    of the pieces along `dim`, zeros in the gaps, each piece plus a 0-d
    zero: bit for bit the sum's value (x + 0 turns -0 into +0, as the sum
    did), with one write of the result.
  }];
}

def TPFuseElementwisePass
    : Pass<"tp-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops (casts included) into their "
                "consumers and producers";
  let description = [{
    Upstream linalg elementwise fusion (producer into consumer, reductions
    included, reshapes propagated by expansion) with tensorplay's control:
    a producer fuses into its consumer when it has one use, or when it is
    cheap to recompute (at most a few scalar ops, e.g. a tp.cast's
    `arith.extf/truncf`), so no standalone cast loop is left between
    fusible ops. Followed by canonicalization and CSE of the bodies.
  }];
  let options = [
    Option<"maxRecomputedOps", "max-recomputed-ops", "unsigned",
           /*default=*/"4",
           "A producer with several uses is fused into each of them when its "
           "body has at most this many ops">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPTileAndVectorizePass
    : Pass<"tp-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops for threads and registers, then vectorize";
  let description = [{
    The CPU codegen strategy for linalg on tensors. Every linalg op is
    tiled: its outermost parallel dimensions into an `scf.forall` over
    enough tiles to feed every thread, then (scf.for) so that the innermost
    tile is small and static; the innermost tiles are vectorized with
    `linalg::vectorize`. Matrix products (linalg.matmul / batch_matmul) get
    a cache tiling and a register tiling (an MxN block of FMAs per k). Ops
    whose tiles are not static stay scalar (LLVM's loop vectorizer sees
    them).
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Elements per vector register (16 x f32 for AVX-512)">,
    Option<"parallelTiles", "parallel-tiles", "int64_t", /*default=*/"32",
           "Target number of scf.forall iterations per op (0: no forall)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPLowerVectorsPass : Pass<"tp-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Hoist and lower vector ops to what LLVM lowering expects";
  let description = [{
    Runs on memrefs. Hoists redundant vector transfers out of loops (the
    matmul accumulators stay in registers across K), then lowers
    vector.contract to outer products (broadcast FMAs), multi-reductions to
    inner reductions, transposes, broadcasts, shape casts, masks and
    transfers of rank > 1 into 1-D loads and stores. Also replaces f32 math
    functions by polynomial approximations (vectorizable, a few ulp) and
    memref.copy by linalg.copy.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPExpandFloat8Pass : Pass<"tp-expand-float8"> {
  let summary = "Lower conversions to and from f8E4M3FN and f8E5M2 to integer "
                "operations";
  let description = [{
    `arith.truncf` to and `arith.extf` from the OCP 8-bit floats (what
    tp.cast lowers to) become f32 and i32 operations and an i8 bitcast,
    scalar or vector, since LLVM has neither 8-bit float types nor
    instructions that convert them. Rounding is to nearest even from the
    exact value (f64 sources are first rounded to f32 by round-to-odd); NaN
    becomes S.1111.111; an overflow becomes the largest finite of its sign
    in E4M3FN and infinity in E5M2 (tensorplay's `.to(float8_*)`; tp.cast's
    `saturate` clamps before the rounding). Integer conversions go through
    f64 (to f8) and f32 (from f8). Widening is exact. Any other arith op on
    an f8 value is an error naming it.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TPExpandBF16Pass : Pass<"tp-expand-bf16"> {
  let summary = "Lower f32 and f64 to bf16 truncations to integer operations "
                "with tensorplay's NaN rule";
  let description = [{
    `arith.truncf` from f32 or f64 to bf16, scalar or vector (what tp.cast
    lowers to), becomes integer operations on the bit pattern and an i16
    bitcast: round to nearest even, overflow to infinity, subnormals rounded
    like any other value, and a NaN kept a NaN of its sign, made quiet, with
    the top 6 bits of its payload: the rule of the runtime's host
    conversions (tensorplay/Runtime/FloatRounding.h), x86's vcvtneps2bf16
    and tensorplay's `.to(bfloat16)`. f64 sources are rounded to f32 by
    round-to-odd first, so that the value is rounded once. Runs before
    arith-expand, whose bf16 expansion would make every NaN 0x7fc0 (and
    which expands the bf16 widenings, exact shifts). Truncations with a
    rounding mode other than to_nearest_even are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def TPPrepareFunctionABIPass
    : Pass<"tp-prepare-function-abi", "::mlir::ModuleOp"> {
  let summary = "Make public functions callable from C and keep inputs intact";
  let description = [{
    Marks every argument of public functions `bufferization.writable =
    false` (compiled code never writes its inputs, so repeated calls see the
    same inputs), except the arguments a `tp.donate` attribute names (see
    tp-donate-results), which become writable; and, with
    `emit-c-interface`, adds `llvm.emit_c_interface` so each function gets
    a `_mlir_ciface_` wrapper taking descriptor pointers. A malformed
    `tp.donate` is an error.
  }];
  let options = [
    Option<"emitCInterface", "emit-c-interface", "bool", /*default=*/"true",
           "Add llvm.emit_c_interface to public functions">,
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def TPDonateResultsPass
    : Pass<"tp-donate-results", "::mlir::ModuleOp"> {
  let summary = "Write donated results into their arguments' buffers";
  let description = [{
    Runs after One-Shot Bufferize. A public function with a `tp.donate`
    attribute (one entry per result: the index of the argument whose buffer
    the result updates, or -1; tp-prepare-function-abi has made those
    arguments writable) loses the donated results: each is written into
    its argument's buffer instead, which costs nothing when bufferization
    updated that buffer in place (the result is the argument) and one copy
    otherwise. Callers then find the new values in the arguments they
    passed (tp-train's parameters and optimizer state stay in place across
    steps).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TPConvertMPIToLLVMPass
    : Pass<"tp-convert-mpi-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower the mpi dialect (tp.all_reduce's collective) to calls "
                "of the MPI C API";
  let description = [{
    Upstream MLIR's MPIToLLVM patterns, for the ABI the module's `dlti.map`
    names ("MPI:Implementation" = "OpenMPI" or "MPICH"); a module without
    one gets `implementation`. Runs in tp-lower-to-cpu before the memrefs
    are lowered; a module without mpi ops is left alone. The calls resolve
    in a process linked with that MPI (tp-train built with MPI).
  }];
  let options = [
    Option<"implementation", "implementation", "std::string",
           /*default=*/"::mlir::tp::defaultMPIImplementation()",
           "OpenMPI or MPICH (default: the MPI the project was built "
           "against)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::DLTIDialect"];
}

def TPFuseSiblingsPass
    : Pass<"tp-fuse-siblings", "::mlir::func::FuncOp"> {
  let summary = "Fuse independent linalg.generic ops over one iteration "
                "space into one";
  let description = [{
    Horizontal fusion, after tp-fuse-elementwise: generics on tensors with
    the same static loop ranges, iterator types and output indexing maps,
    none using another's results, become one generic at the place of the
    first, with every op's inputs and inits and a body computing each op's
    results as before (the values are unchanged). A batch norm's backward
    sums four products over the same dimensions: one loop nest, one
    parallel region and one pass over its operands instead of four. An
    operand (or a value the body reads from above) defined between the ops
    (a constant, `tensor.empty` or the `linalg.fill` of a reduction's
    initial value) is moved before the first; any other keeps its op out of
    the group. Generics that gather (`tensor.extract` in the body) are left
    alone: they stay scalar loops, and fused they would make their siblings
    scalar too.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"8",
           "The most generics fused into one">,
    Option<"maxOperands", "max-operands", "unsigned", /*default=*/"24",
           "The most operands (inputs and inits) of a fused generic">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TPDistinctResultBuffersPass
    : Pass<"tp-distinct-result-buffers", "::mlir::ModuleOp"> {
  let summary = "Give every memref result of a function a buffer of its own";
  let description = [{
    Runs after One-Shot Bufferize, before buffer-results-to-out-params,
    which computes a result allocated in the function directly in its
    out-param (hoist-static-allocs) instead of copying it there at the end.
    That needs each allocation returned once: a value a `func.return`
    returns at several positions (a graph that outputs one tensor twice)
    keeps its first position, and each later one returns a fresh
    allocation holding a copy of it, which then becomes that position's
    out-param. Functions returning no value twice are left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TPOutlineParallelLoopsPass
    : Pass<"tp-outline-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Outline outermost scf.forall / scf.parallel loops on memrefs";
  let description = [{
    Runs after bufferization. Each outermost parallel loop of a function
    becomes a private function `<fn>__par<N>(begin, end, captured...)` that
    runs iterations [begin, end) of the (linearized) loop, and a call of it
    marked `tp.parallel_launch`; nested parallel loops become scf.for.
    `tp-lower-parallel-launches` turns the call into a tp_rt_parallel_for
    launch after the lowering to LLVM.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TPLowerParallelLaunchesPass
    : Pass<"tp-lower-parallel-launches", "::mlir::ModuleOp"> {
  let summary = "Turn outlined parallel-loop calls into tp_rt_parallel_for";
  let description = [{
    Runs on the LLVM dialect. Every call of a function outlined by
    `tp-outline-parallel-loops` packs the captured values into a stack
    struct and calls `tp_rt_parallel_for(trampoline, &struct, begin, end)`;
    the trampoline unpacks them and calls the outlined body on its piece of
    the iteration range.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TENSORPLAY_PIPELINES_PASSES_TD
