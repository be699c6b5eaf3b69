/*===- tensorplay/Runtime/Codegen.h - ABI of compiled tp code ----*- C -*-===*\
|*                                                                            *|
|* The entry points that code compiled by `tp-lower-to-cpu` calls: oneDNN    *|
|* matrix products and convolutions on MLIR memref descriptors, the parallel  *|
|* loop launcher, and the error slot those calls report into. Valid C99.      *|
|*                                                                            *|
|* Memrefs arrive the way MLIR passes an unranked memref: a rank and a        *|
|* pointer to the ranked descriptor {allocated, aligned, offset,             *|
|* sizes[rank], strides[rank]} (strides in elements, any layout).            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TENSORPLAY_RUNTIME_CODEGEN_H
#define TENSORPLAY_RUNTIME_CODEGEN_H

#include "tensorplay/Runtime/CAPI.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An MLIR ranked memref descriptor: sizes_and_strides holds rank sizes
/// followed by rank strides.
typedef struct tp_rt_memref {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizes_and_strides[];
} tp_rt_memref;

/// The buffers of compiled code: MLIR's generic allocation functions
/// (finalize-memref-to-llvm use-generic-functions), backed by a cache of
/// freed blocks per (size, alignment), so a compiled function called again
/// and again reuses its buffers. `free` takes what `aligned_alloc` returned.
void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size);
void *_mlir_memref_to_llvm_alloc(uint64_t size);
void _mlir_memref_to_llvm_free(void *ptr);

/// 1 when the runtime was built with oneDNN (the tp_rt_dnnl_* calls work).
int32_t tp_rt_onednn_available(void);

/// The first error a runtime call of compiled code hit on this thread since
/// the thread's last clear ("" when none); the workers of a parallel loop
/// record into the thread that launched it. Compiled code cannot propagate
/// a status, so callers of compiled functions (tp-run, the JIT wrapper)
/// clear before each call and check after it: one status per calling
/// thread, so concurrent calls from several threads each see their own.
const char *tp_rt_codegen_error(void);
/// Clears this thread's error status.
void tp_rt_codegen_clear_error(void);

/// Sets the threads of compiled code and of oneDNN to `n` (1 to 1024; 0:
/// the defaults, from TP_RT_NUM_THREADS / OMP_NUM_THREADS or the cores):
/// the runtime's CPU pool and, when oneDNN runs on OpenMP, the team size of
/// OpenMP parallel regions (compiled parallel loops, oneDNN primitives)
/// started from the calling thread (omp_set_num_threads; OpenMP reads
/// OMP_NUM_THREADS once, when it is loaded, so setting the variable later
/// has no effect). Other values: TP_RT_ERROR_INVALID_ARGUMENT.
tp_rt_status tp_rt_set_num_threads(int32_t n);

/// The threads a parallel loop of compiled code (and, with OpenMP, a oneDNN
/// primitive) started from the calling thread runs on.
int32_t tp_rt_num_threads(void);

/// compiler-rt's __truncsfbf2 / __truncdfbf2 (f32 / f64 to bf16, to nearest
/// even), which LLVM's x86 code generation calls where the CPU has no bf16
/// instructions and which Debian 12's libgcc lacks; the JIT (CpuExecutable)
/// resolves those names to these. The bf16 bits are returned in the low 16
/// bits of the float register, where the ABI returns a __bf16.
float tp_rt_truncsfbf2(float x);
float tp_rt_truncdfbf2(double x);

/// The body of an outlined parallel loop: runs iterations [begin, end).
typedef void (*tp_rt_parallel_body)(void *context, int64_t begin, int64_t end);

/// Runs body(context, b, e) over contiguous pieces [b, e) covering
/// [begin, end), one piece per thread of the runtime's CPU pool (the calling
/// thread included), and returns when all are done. Runs inline for a
/// single iteration, a single thread, or when called from inside a piece.
void tp_rt_parallel_for(tp_rt_parallel_body body, void *context, int64_t begin,
                        int64_t end);

/// The elementwise epilogues a product can apply to C: after the bias, on
/// the f32 accumulator, before C is rounded to its element type (so a bf16
/// product followed by GELU rounds once instead of twice). Compiled code
/// passes one when the product's only user is tp.relu or tp.gelu.
enum {
  TP_RT_EPILOGUE_NONE = 0,
  TP_RT_EPILOGUE_RELU = 1,
  TP_RT_EPILOGUE_GELU_ERF = 2,  /* tp.gelu, approximate = "none" */
  TP_RT_EPILOGUE_GELU_TANH = 3, /* tp.gelu, approximate = "tanh" */
};

/// C[..., M, N] = epilogue(A[..., M, K] @ B[..., K, N] (+ bias[N])) through
/// oneDNN, accumulating in f32. A, B and C have one rank (2 to 6); batch
/// dimensions of A and B equal C's or are 1 (broadcast). Any strides. A bias
/// with zero elements means no bias. The suffix names the element types of
/// A/B/bias and of C: f32_f32, bf16_bf16 and bf16_f32. `epilogue` is one of
/// TP_RT_EPILOGUE_*; any other value is an error.
tp_rt_status tp_rt_dnnl_matmul_f32_f32(int64_t a_rank, tp_rt_memref *a,
                                       int64_t b_rank, tp_rt_memref *b,
                                       int64_t bias_rank, tp_rt_memref *bias,
                                       int64_t c_rank, tp_rt_memref *c,
                                       int64_t epilogue);
tp_rt_status tp_rt_dnnl_matmul_bf16_bf16(int64_t a_rank, tp_rt_memref *a,
                                         int64_t b_rank, tp_rt_memref *b,
                                         int64_t bias_rank, tp_rt_memref *bias,
                                         int64_t c_rank, tp_rt_memref *c,
                                         int64_t epilogue);
tp_rt_status tp_rt_dnnl_matmul_bf16_f32(int64_t a_rank, tp_rt_memref *a,
                                        int64_t b_rank, tp_rt_memref *b,
                                        int64_t bias_rank, tp_rt_memref *bias,
                                        int64_t c_rank, tp_rt_memref *c,
                                        int64_t epilogue);

/// C = epilogue(A @ bf16(B) (+ bias)) with B given in f32: B is rounded to
/// bf16 (to nearest even, NaN to 0x7fc0: what compiled `tp.cast` f32 ->
/// bf16 computes) on the way into oneDNN, A and the bias are bf16, C bf16 or
/// f32 (the suffix). Shapes, strides and epilogues as for
/// tp_rt_dnnl_matmul_bf16_*. For a 2-D B with unit stride along K (linear's
/// weight, W^T) on an AVX-512 CPU, the rounding writes the blocked layout
/// oneDNN's bf16 matmul computes on, in one pass over W; otherwise B is
/// rounded into a bf16 buffer and multiplied as by tp_rt_dnnl_matmul_bf16_*.
/// Compiled code calls these in place of a tp.cast whose only user is the
/// product.
tp_rt_status tp_rt_dnnl_matmul_cast_bf16_bf16(int64_t a_rank, tp_rt_memref *a,
                                              int64_t b_rank, tp_rt_memref *b,
                                              int64_t bias_rank,
                                              tp_rt_memref *bias,
                                              int64_t c_rank, tp_rt_memref *c,
                                              int64_t epilogue);
tp_rt_status tp_rt_dnnl_matmul_cast_bf16_f32(int64_t a_rank, tp_rt_memref *a,
                                             int64_t b_rank, tp_rt_memref *b,
                                             int64_t bias_rank,
                                             tp_rt_memref *bias, int64_t c_rank,
                                             tp_rt_memref *c, int64_t epilogue);

/// A tensorplay convolution through oneDNN: src [N, Cin, S...], weight in
/// tensorplay's layout ([Cout, Cin/G, K...], or [Cin, Cout/G, K...] when
/// transposed), bias [Cout] (zero elements: none), dst [N, Cout, O...].
/// `params` (i64) holds: spatial rank r (1..3), transposed (0/1), groups,
/// stride[r], padding_low[r], padding_high[r], dilation[r] (1 = none).
tp_rt_status tp_rt_dnnl_conv_f32_f32(int64_t src_rank, tp_rt_memref *src,
                                     int64_t w_rank, tp_rt_memref *weight,
                                     int64_t bias_rank, tp_rt_memref *bias,
                                     int64_t dst_rank, tp_rt_memref *dst,
                                     int64_t params_rank, tp_rt_memref *params);
tp_rt_status tp_rt_dnnl_conv_bf16_bf16(int64_t src_rank, tp_rt_memref *src,
                                       int64_t w_rank, tp_rt_memref *weight,
                                       int64_t bias_rank, tp_rt_memref *bias,
                                       int64_t dst_rank, tp_rt_memref *dst,
                                       int64_t params_rank,
                                       tp_rt_memref *params);

/// The weight gradient diff_weight (tensorplay's layout, as the weight of
/// tp_rt_dnnl_conv_*) and, when diff_bias has elements, the bias gradient
/// [Cout] of the convolution with geometry `params` (as for
/// tp_rt_dnnl_conv_*) taking src [N, Cin, S...] to an output whose gradient
/// is diff_dst [N, Cout, O...]: oneDNN's backward-weights primitive
/// (deconvolution's for a transposed convolution), accumulated in f32 and
/// rounded once into bf16 results.
tp_rt_status tp_rt_dnnl_conv_backward_weights_f32(
    int64_t diff_dst_rank, tp_rt_memref *diff_dst, int64_t src_rank,
    tp_rt_memref *src, int64_t diff_weight_rank, tp_rt_memref *diff_weight,
    int64_t diff_bias_rank, tp_rt_memref *diff_bias, int64_t params_rank,
    tp_rt_memref *params);
tp_rt_status tp_rt_dnnl_conv_backward_weights_bf16(
    int64_t diff_dst_rank, tp_rt_memref *diff_dst, int64_t src_rank,
    tp_rt_memref *src, int64_t diff_weight_rank, tp_rt_memref *diff_weight,
    int64_t diff_bias_rank, tp_rt_memref *diff_bias, int64_t params_rank,
    tp_rt_memref *params);

/// tp.softmax_backward (log = 0) and tp.log_softmax_backward (log = 1)
/// along `axis` (in [0, rank)): diff_src from the output's gradient
/// diff_dst and the output dst, all of one shape, through oneDNN's
/// softmax_backward / logsoftmax_backward primitive. The bf16 entry point
/// computes in f32 and rounds once where oneDNN has no bf16 kernels.
tp_rt_status
tp_rt_dnnl_softmax_backward_f32(int64_t diff_dst_rank, tp_rt_memref *diff_dst,
                                int64_t dst_rank, tp_rt_memref *dst,
                                int64_t diff_src_rank, tp_rt_memref *diff_src,
                                int64_t axis, int64_t log);
tp_rt_status
tp_rt_dnnl_softmax_backward_bf16(int64_t diff_dst_rank, tp_rt_memref *diff_dst,
                                 int64_t dst_rank, tp_rt_memref *dst,
                                 int64_t diff_src_rank, tp_rt_memref *diff_src,
                                 int64_t axis, int64_t log);

/// The GradScaler and fused optimizer steps of a compiled train step
/// (tp.amp_check_finite, tp.amp_update_scale, tp.fused_sgd, tp.fused_adamw):
/// each views its dense memrefs as tp_rt_buffers and calls the CAPI.h
/// kernel, which updates them in place: found_inf (set to 1 on an inf or
/// NaN, else untouched), scale and growth tracker, the parameter, its state
/// and step counter, the parameter copy, and, with a scale, a gradient of
/// the parameter's type (written back unscaled). A zero-element memref
/// stands for an absent momentum buffer, max_exp_avg_sq, scale, found_inf
/// or parameter copy. The check's suffix names the gradient's element type;
/// an optimizer's names the parameter's and its state's (f32, bf16, f16),
/// then for f32 parameters a narrower gradient (`_gbf16`, `_gf16`) and a
/// parameter copy (`_cbf16`, `_cf16`; see tp_rt_sgd_step_with_copies).
/// Scalars are f32, the tracker i32, the step i64. Failures record the
/// runtime's message.
/* The train-step entry points, declared once per prefix: tp_rt_codegen_
 * here (CPU buffers), tp_rt_codegen_cuda_ in Gpu.h (device buffers, the
 * CUDA kernels on the compiled code's stream). */
#define TP_RT_CODEGEN_TRAINING_DECLS(PREFIX)                                   \
  tp_rt_status PREFIX##update_scale(                                           \
      int64_t scale_rank, tp_rt_memref *scale, int64_t tracker_rank,           \
      tp_rt_memref *tracker, int64_t found_inf_rank, tp_rt_memref *found_inf,  \
      double growth_factor, double backoff_factor, int64_t growth_interval);   \
  TP_RT_CODEGEN_CHECK_FINITE_DECL(PREFIX, f32)                                 \
  TP_RT_CODEGEN_CHECK_FINITE_DECL(PREFIX, bf16)                                \
  TP_RT_CODEGEN_CHECK_FINITE_DECL(PREFIX, f16)                                 \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32)                                   \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, bf16)                                  \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f16)                                   \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_gbf16)                             \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_gf16)                              \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_cbf16)                             \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_gbf16_cbf16)                       \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_gf16_cbf16)                        \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_cf16)                              \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_gbf16_cf16)                        \
  TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, f32_gf16_cf16)
#define TP_RT_CODEGEN_CHECK_FINITE_DECL(PREFIX, SUFFIX)                        \
  tp_rt_status PREFIX##check_finite_##SUFFIX(                                  \
      int64_t grad_rank, tp_rt_memref *grad, int64_t found_inf_rank,           \
      tp_rt_memref *found_inf);
#define TP_RT_CODEGEN_OPTIMIZER_DECLS(PREFIX, NAME)                            \
  tp_rt_status PREFIX##sgd_step_##NAME(                                        \
      int64_t param_rank, tp_rt_memref *param, int64_t grad_rank,              \
      tp_rt_memref *grad, int64_t momentum_rank, tp_rt_memref *momentum,       \
      int64_t step_rank, tp_rt_memref *step, int64_t scale_rank,               \
      tp_rt_memref *scale, int64_t found_inf_rank, tp_rt_memref *found_inf,    \
      int64_t copy_rank, tp_rt_memref *param_copy, double lr,                  \
      double momentum_factor, double dampening, double weight_decay,           \
      int64_t nesterov, int64_t maximize);                                     \
  tp_rt_status PREFIX##adamw_step_##NAME(                                      \
      int64_t param_rank, tp_rt_memref *param, int64_t grad_rank,              \
      tp_rt_memref *grad, int64_t exp_avg_rank, tp_rt_memref *exp_avg,         \
      int64_t exp_avg_sq_rank, tp_rt_memref *exp_avg_sq,                       \
      int64_t max_exp_avg_sq_rank, tp_rt_memref *max_exp_avg_sq,               \
      int64_t step_rank, tp_rt_memref *step, int64_t scale_rank,               \
      tp_rt_memref *scale, int64_t found_inf_rank, tp_rt_memref *found_inf,    \
      int64_t copy_rank, tp_rt_memref *param_copy, double lr, double beta1,    \
      double beta2, double eps, double weight_decay, int64_t amsgrad,          \
      int64_t maximize);
TP_RT_CODEGEN_TRAINING_DECLS(tp_rt_codegen_)

/// Linear algebra through LAPACK (runtime/codegen/LapackCalls.cpp), the
/// routines PyTorch's CPU kernels call, for f32 (s*) and f64 (d*) tensors
/// of any strides. Each tensor is a batch: matrices in its last two
/// dimensions, vectors (S, tau, pivots, eigenvalues) in its last, scalars
/// (info) in none; the leading dimensions of every operand broadcast
/// against those of the first output (aligned right). Integer outputs
/// (info, pivots) are i32; pivots are LAPACK's, 1-based.
/// - inv: getrf + getri; info per matrix; with `check`, a singular matrix is
///   an error in PyTorch's words (info may have zero elements: not wanted).
/// - lu: getrf of m x n (LU, min(m, n) pivots, info); lu_solve: getrs.
/// - solve: gesv of A X = B (`left`) or X A = B; singular A is an error.
/// - triangular_solve: trsm of A X = B (upper, transpose, unitriangular).
/// - cholesky: potrf of the lower (`upper`: upper) triangle, the other one
///   zeroed; info and check as for inv. cholesky_solve: potrs;
///   cholesky_inverse: potri, mirrored to a full matrix.
/// - eigh: syevd of the lower (upper) triangle: ascending eigenvalues, and
///   the eigenvectors as columns unless v has zero elements.
/// - eig: geev of a general matrix: complex eigenvalues (w) and right
///   eigenvectors (v, complex columns; zero elements: not wanted).
/// - svd: gesdd; mode 0: S only (U, Vh zero elements), 1: reduced U
///   (m x k) and Vh (k x n), 2: full.
/// - geqrf; qr (mode 0 reduced, 1 complete, 2 R only); orgqr (the first
///   columns of the reflectors' product); ormqr (Q, or Q^T with
///   `transpose`, times C from the left, or C times it).
/// - lstsq: driver 0 gels, 1 gelsy, 2 gelsd, 3 gelss with rcond: the
///   solution, the rank (i64; zero elements: not computed), the singular
///   values and the squared residuals per column (zero elements: none; with
///   elements, a matrix without full rank is an error).
#define TP_RT_LAPACK_DECLS(SUFFIX)                                             \
  tp_rt_status tp_rt_lapack_inv_##SUFFIX(                                      \
      int64_t a_rank, tp_rt_memref *a, int64_t out_rank, tp_rt_memref *out,    \
      int64_t info_rank, tp_rt_memref *info, int64_t check);                   \
  tp_rt_status tp_rt_lapack_lu_##SUFFIX(                                       \
      int64_t a_rank, tp_rt_memref *a, int64_t lu_rank, tp_rt_memref *lu,      \
      int64_t pivots_rank, tp_rt_memref *pivots, int64_t info_rank,            \
      tp_rt_memref *info);                                                     \
  tp_rt_status tp_rt_lapack_eig_##SUFFIX(int64_t a_rank, tp_rt_memref *a,      \
                                         int64_t w_rank, tp_rt_memref *w,      \
                                         int64_t v_rank, tp_rt_memref *v);     \
  tp_rt_status tp_rt_lapack_lu_solve_##SUFFIX(                                 \
      int64_t b_rank, tp_rt_memref *b, int64_t lu_rank, tp_rt_memref *lu,      \
      int64_t pivots_rank, tp_rt_memref *pivots, int64_t x_rank,               \
      tp_rt_memref *x);                                                        \
  tp_rt_status tp_rt_lapack_solve_##SUFFIX(                                    \
      int64_t a_rank, tp_rt_memref *a, int64_t b_rank, tp_rt_memref *b,        \
      int64_t x_rank, tp_rt_memref *x, int64_t left);                          \
  tp_rt_status tp_rt_lapack_triangular_solve_##SUFFIX(                         \
      int64_t b_rank, tp_rt_memref *b, int64_t a_rank, tp_rt_memref *a,        \
      int64_t x_rank, tp_rt_memref *x, int64_t upper, int64_t transpose,       \
      int64_t unitriangular);                                                  \
  tp_rt_status tp_rt_lapack_cholesky_##SUFFIX(                                 \
      int64_t a_rank, tp_rt_memref *a, int64_t out_rank, tp_rt_memref *out,    \
      int64_t info_rank, tp_rt_memref *info, int64_t upper, int64_t check);    \
  tp_rt_status tp_rt_lapack_cholesky_solve_##SUFFIX(                           \
      int64_t b_rank, tp_rt_memref *b, int64_t factor_rank,                    \
      tp_rt_memref *factor, int64_t x_rank, tp_rt_memref *x, int64_t upper);   \
  tp_rt_status tp_rt_lapack_cholesky_inverse_##SUFFIX(                         \
      int64_t factor_rank, tp_rt_memref *factor, int64_t out_rank,             \
      tp_rt_memref *out, int64_t upper);                                       \
  tp_rt_status tp_rt_lapack_eigh_##SUFFIX(                                     \
      int64_t a_rank, tp_rt_memref *a, int64_t w_rank, tp_rt_memref *w,        \
      int64_t v_rank, tp_rt_memref *v, int64_t upper);                         \
  tp_rt_status tp_rt_lapack_svd_##SUFFIX(                                      \
      int64_t a_rank, tp_rt_memref *a, int64_t u_rank, tp_rt_memref *u,        \
      int64_t s_rank, tp_rt_memref *s, int64_t vh_rank, tp_rt_memref *vh,      \
      int64_t mode);                                                           \
  tp_rt_status tp_rt_lapack_geqrf_##SUFFIX(                                    \
      int64_t a_rank, tp_rt_memref *a, int64_t out_rank, tp_rt_memref *out,    \
      int64_t tau_rank, tp_rt_memref *tau);                                    \
  tp_rt_status tp_rt_lapack_qr_##SUFFIX(                                       \
      int64_t a_rank, tp_rt_memref *a, int64_t q_rank, tp_rt_memref *q,        \
      int64_t r_rank, tp_rt_memref *r, int64_t mode);                          \
  tp_rt_status tp_rt_lapack_orgqr_##SUFFIX(                                    \
      int64_t a_rank, tp_rt_memref *a, int64_t tau_rank, tp_rt_memref *tau,    \
      int64_t q_rank, tp_rt_memref *q);                                        \
  tp_rt_status tp_rt_lapack_ormqr_##SUFFIX(                                    \
      int64_t a_rank, tp_rt_memref *a, int64_t tau_rank, tp_rt_memref *tau,    \
      int64_t c_rank, tp_rt_memref *c, int64_t out_rank, tp_rt_memref *out,    \
      int64_t left, int64_t transpose);                                        \
  tp_rt_status tp_rt_lapack_lstsq_##SUFFIX(                                    \
      int64_t a_rank, tp_rt_memref *a, int64_t b_rank, tp_rt_memref *b,        \
      int64_t x_rank, tp_rt_memref *x, int64_t residuals_rank,                 \
      tp_rt_memref *residuals, int64_t rank_rank, tp_rt_memref *rank,          \
      int64_t values_rank, tp_rt_memref *values, int64_t driver,               \
      double rcond);
TP_RT_LAPACK_DECLS(f32)
TP_RT_LAPACK_DECLS(f64)

/// ctc_loss's per-sample negative log-likelihood (LossCalls.cpp), as
/// tensorplay's CPU kernel computes it in the input's precision:
/// log_probs (T, N, C); targets (N, S) padded or (sum of target_lengths)
/// concatenated, i64; input_lengths and target_lengths (N) i64; out (N).
/// Lengths out of range, a target shorter than its length, a label out of
/// [0, C) or a blank out of range are errors in tensorplay's words.
#define TP_RT_CTC_DECLS(SUFFIX)                                                \
  tp_rt_status tp_rt_ctc_loss_##SUFFIX(                                        \
      int64_t log_probs_rank, tp_rt_memref *log_probs, int64_t targets_rank,   \
      tp_rt_memref *targets, int64_t input_lengths_rank,                       \
      tp_rt_memref *input_lengths, int64_t target_lengths_rank,                \
      tp_rt_memref *target_lengths, int64_t out_rank, tp_rt_memref *out,       \
      int64_t blank);
TP_RT_CTC_DECLS(f32)
TP_RT_CTC_DECLS(f64)

/// The gradient of each sample's negative log-likelihood (grad, (N)) with
/// respect to log_probs (out, (T, N, C)): the exact derivative from the
/// forward and backward variables, zero from each input length on, NaN
/// for a sample whose loss is infinite (zero with zero_infinity). The
/// operands and checks are tp_rt_ctc_loss_*'s.
#define TP_RT_CTC_BACKWARD_DECLS(SUFFIX)                                       \
  tp_rt_status tp_rt_ctc_loss_backward_##SUFFIX(                               \
      int64_t grad_rank, tp_rt_memref *grad, int64_t log_probs_rank,           \
      tp_rt_memref *log_probs, int64_t targets_rank, tp_rt_memref *targets,    \
      int64_t input_lengths_rank, tp_rt_memref *input_lengths,                 \
      int64_t target_lengths_rank, tp_rt_memref *target_lengths,               \
      int64_t out_rank, tp_rt_memref *out, int64_t blank,                      \
      int64_t zero_infinity);
TP_RT_CTC_BACKWARD_DECLS(f32)
TP_RT_CTC_BACKWARD_DECLS(f64)

/// The discrete Fourier transforms of the torch.fft ops (FftCalls.cpp), on
/// tensors of one rank: the dimensions in bit mask `mask` are transformed,
/// each input dimension trimmed or zero-padded to the work size, the
/// result multiplied by `scale`; sign -1 is the forward transform
/// (e^{-2 pi i jk / n}), +1 the inverse (unscaled). Complex data are
/// (real, imaginary) pairs of T.
/// - c2c: complex in and out; the work size is the output's.
/// - r2c: real in, complex out; the work size is the output's but
///   `signal` along `last_dim`, of which the output keeps its first
///   entries (all: a full transform; n / 2 + 1: one-sided).
/// - c2r: one-sided complex in (n / 2 + 1 along `last_dim`, n the output's
///   size there), real out: the other dimensions transformed first, then
///   each line extended by Hermitian symmetry (pocketfft's c2r); r2r the
///   same from a real input.
#define TP_RT_FFT_DECLS(SUFFIX)                                                \
  tp_rt_status tp_rt_fft_c2c_##SUFFIX(                                         \
      int64_t in_rank, tp_rt_memref *in, int64_t out_rank, tp_rt_memref *out,  \
      int64_t mask, int64_t sign, double scale);                               \
  tp_rt_status tp_rt_fft_r2c_##SUFFIX(                                         \
      int64_t in_rank, tp_rt_memref *in, int64_t out_rank, tp_rt_memref *out,  \
      int64_t mask, int64_t last_dim, int64_t signal, int64_t sign,            \
      double scale);                                                           \
  tp_rt_status tp_rt_fft_c2r_##SUFFIX(                                         \
      int64_t in_rank, tp_rt_memref *in, int64_t out_rank, tp_rt_memref *out,  \
      int64_t mask, int64_t last_dim, int64_t sign, double scale);             \
  tp_rt_status tp_rt_fft_r2r_##SUFFIX(                                         \
      int64_t in_rank, tp_rt_memref *in, int64_t out_rank, tp_rt_memref *out,  \
      int64_t mask, int64_t last_dim, int64_t sign, double scale);
TP_RT_FFT_DECLS(f32)
TP_RT_FFT_DECLS(f64)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORPLAY_RUNTIME_CODEGEN_H */
