/*===- tensorplay/Runtime/Codegen.h - ABI of compiled tp code ----*- C -*-===*\
|*                                                                            *|
|* The entry points that code compiled by `tp-lower-to-cpu` calls: the       *|
|* library calls of CodegenCalls.def (oneDNN, LAPACK, FFT, ...) on MLIR      *|
|* memref descriptors, the buffers, the parallel loop launcher, and the      *|
|* error status those calls report into. Valid C99.                          *|
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
/// instructions and which Debian 12's libgcc lacks; the JIT (Executable)
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
/// TP_RT_EPILOGUE_ACCUMULATE adds the product to what C holds (C += A @ B,
/// oneDNN's sum post-op; f32 C only, where that is the same f32 addition
/// as a separate tp.add): compiled code passes it when an f32 product's only
/// user adds it to another tensor of its shape (a gradient summed over the
/// time steps of an unrolled recurrence), which then stays in cache instead
/// of every product being written out and read back by one long sum.
enum {
  TP_RT_EPILOGUE_NONE = 0,
  TP_RT_EPILOGUE_RELU = 1,
  TP_RT_EPILOGUE_GELU_ERF = 2,   /* tp.gelu, approximate = "none" */
  TP_RT_EPILOGUE_GELU_TANH = 3,  /* tp.gelu, approximate = "tanh" */
  TP_RT_EPILOGUE_ACCUMULATE = 4, /* tp.add(C, product), C f32 */
};

/* Every library call of compiled code (oneDNN, the train step's GradScaler
 * and optimizers, LAPACK, CTC, FFT, cuBLASLt), declared once in
 * CodegenCalls.def, where each is documented. The cuBLASLt calls and the
 * tp_rt_codegen_cuda_* train-step calls are defined only in builds with
 * CUDA (Gpu.h). */
#define TP_RT_MEMREF(name) int64_t name##_rank, tp_rt_memref *name
#define TP_RT_I64(name) int64_t name
#define TP_RT_F64(name) double name
#define TP_RT_CALL(NAME, ARGS) tp_rt_status NAME ARGS;
#include "tensorplay/Runtime/CodegenCalls.def"

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORPLAY_RUNTIME_CODEGEN_H */
