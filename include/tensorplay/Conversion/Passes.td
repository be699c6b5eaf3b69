//===- Passes.td - tensorplay conversion passes ------------*- tablegen -*-===//
//
// The conversions out of the tp dialect: matrix products and convolutions
// into runtime (oneDNN) calls, and everything else into linalg / tensor /
// arith / math on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_CONVERSION_PASSES_TD
#define TENSORPLAY_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTPToRuntimePass
    : Pass<"convert-tp-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower tp matrix products and convolutions to oneDNN calls, "
                "linear algebra to LAPACK, ctc_loss to the runtime's CTC "
                "kernel, and the train-step ops to the GradScaler runtime";
  let description = [{
    Rewrites `mm`, `bmm`, `matmul`, `addmm`, `addbmm`, `baddbmm`, `linear`
    and the convolutions (`conv1d/2d/3d`, `conv_transpose1d/2d/3d`,
    `convolution`) whose operands are all f32, or all bf16 (f32
    accumulation), into calls of the runtime's oneDNN wrappers
    (`tp_rt_dnnl_*`, see `tensorplay/Runtime/Codegen.h`), as `tp_rt.call`
    ops on tensors: each names the tensors the call reads and the fresh
    tensor it writes (destination-style), so one-shot bufferization sees
    every access and turns the op into a `func.call` on memrefs; `alpha`/`beta`
    epilogues stay elementwise linalg code so that they fuse with their
    neighbours. Ops of other dtypes are left for `convert-tp-to-linalg`.

    The ops of a compiled train step (`amp_check_finite`,
    `amp_update_scale`, `fused_sgd`, `fused_adamw`) become calls of the
    GradScaler runtime's kernels (`tp_rt_codegen_*`), with the state they
    update as updated outputs, so that bufferization runs them in place.
    These need no oneDNN and are lowered also with `onednn=0`.

    On the CPU, also with `onednn=0`: the linear-algebra ops PyTorch
    computes with LAPACK become `tp_rt_lapack_*` calls on f32 / f64 tensors,
    and `ctc_loss` a `tp_rt_ctc_loss_*` call (the per-sample losses; its
    zero_infinity and reduction stay tp ops). Other element types of these
    ops are an error at the op before anything is rewritten.

    With `device=cuda` (the GPU pipeline) the products become
    `tp_rt_cublaslt_matmul_*` calls instead (f16 too) and the train-step ops
    `tp_rt_codegen_cuda_*` calls, which run the runtime's CUDA kernels on
    the stream of the compiled code: found_inf, the scale and the skipped
    step stay on the device, with no host synchronization.

    With `onednn-softmax-backward`, `softmax_backward` and
    `log_softmax_backward` of f32 or bf16 tensors become
    `tp_rt_dnnl_softmax_backward_*` calls too.
  }];
  let options = [
    Option<"onednn", "onednn", "bool", /*default=*/"true",
           "Lower products and convolutions to oneDNN calls (otherwise only "
           "the train-step ops are rewritten)">,
    Option<"onednnSoftmaxBackward", "onednn-softmax-backward", "bool",
           /*default=*/"false",
           "With onednn, also lower softmax_backward and "
           "log_softmax_backward to oneDNN's primitives (off by default: on "
           "AVX2 CPUs oneDNN 2.6's take 2-5x longer than the fused linalg "
           "loops, docs/benchmarks.md)">,
    Option<"device", "device", "std::string", /*default=*/"\"cpu\"",
           "Where the buffers live: cpu, or cuda (tp-lower-to-nvvm): the "
           "matrix products call the GPU runtime's cuBLASLt wrappers "
           "(tp_rt_cublaslt_matmul_*, f32/f16/bf16) and the train-step ops "
           "its CUDA GradScaler kernels (tp_rt_codegen_cuda_*); onednn "
           "must then be 0">,
    Option<"cublaslt", "cublaslt", "bool", /*default=*/"true",
           "With device=cuda, lower the matrix products to cuBLASLt calls "
           "(off: they stay for convert-tp-to-linalg, generated kernels)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tp::rt::TPRuntimeDialect",
  ];
}

def ConvertTPToLinalgPass
    : Pass<"convert-tp-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower tp ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Lowers every remaining tp op to destination-style linalg ops on tensors
    (elementwise ops and casts to `linalg.generic` with `arith.extf/truncf`,
    reductions with f32 accumulation for f16/bf16 inputs, matrix products to
    `linalg.matmul`/`linalg.batch_matmul`, convolutions to im2col + matmul),
    tensor reshapes and constants. A tp op without a CPU lowering is an
    error at its location that names the op.
  }];
  let options = [
    Option<"dropoutSeed", "dropout-seed", "uint64_t", /*default=*/"0",
           "Seed of the counter-based generator behind tp.dropout">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::mpi::MPIDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // TENSORPLAY_CONVERSION_PASSES_TD
