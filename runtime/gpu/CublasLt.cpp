//===- CublasLt.cpp - Matrix products through cuBLASLt
//---------------------===//
//
// tp_rt_cublaslt_matmul_* (Gpu.h). cuBLASLt is column-major; a row-major
// C[M, N] = A[M, K] B[K, N] is computed as the column-major product
// C^T = B^T A^T, in which each row-major operand is its own transpose: a
// matrix with unit column stride is a non-transposed column-major operand of
// the swapped shape, one with unit row stride a transposed one. The bias
// (one value per column of C) is a per-row vector of C^T, which is what
// cuBLASLt's BIAS epilogues add. Batches are strided (one stride per
// operand, 0 for a broadcast operand).
//
// libcublasLt is opened with dlopen on the first call, so that the runtime
// loads (and the CPU path runs) on machines without the CUDA libraries.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Gpu.h"

#include "calls/CodegenError.h"
#include "calls/MemrefView.h"
#include "gpu/GpuState.h"

#include <cublasLt.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

using tensorplay::codegen::fail;
using tensorplay::codegen::MemrefView;
namespace gpu = tensorplay::codegen::gpu;

namespace {

/// The cuBLASLt entry points, resolved with dlsym.
struct CublasLt {
#define TP_CUBLASLT_FN(name) decltype(&::name) name = nullptr
  TP_CUBLASLT_FN(cublasLtCreate);
  TP_CUBLASLT_FN(cublasLtMatmulDescCreate);
  TP_CUBLASLT_FN(cublasLtMatmulDescDestroy);
  TP_CUBLASLT_FN(cublasLtMatmulDescSetAttribute);
  TP_CUBLASLT_FN(cublasLtMatrixLayoutCreate);
  TP_CUBLASLT_FN(cublasLtMatrixLayoutDestroy);
  TP_CUBLASLT_FN(cublasLtMatrixLayoutSetAttribute);
  TP_CUBLASLT_FN(cublasLtMatmulPreferenceCreate);
  TP_CUBLASLT_FN(cublasLtMatmulPreferenceDestroy);
  TP_CUBLASLT_FN(cublasLtMatmulPreferenceSetAttribute);
  TP_CUBLASLT_FN(cublasLtMatmulAlgoGetHeuristic);
  TP_CUBLASLT_FN(cublasLtMatmul);
#undef TP_CUBLASLT_FN
  cublasLtHandle_t handle = nullptr;
  void *workspace = nullptr;
  std::string error;
};

constexpr size_t kWorkspaceBytes = 32u << 20;

/// The library, loaded once; null with the reason in `*error` if it cannot
/// be.
const CublasLt *library(std::string *error) {
  static std::once_flag once;
  static CublasLt lt;
  std::call_once(once, [] {
    void *so = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!so)
      so = dlopen("libcublasLt.so", RTLD_NOW | RTLD_LOCAL);
    if (!so) {
      lt.error = std::string("cannot load libcublasLt: ") + dlerror();
      return;
    }
    bool ok = true;
#define TP_CUBLASLT_LOAD(name)                                                 \
  ok = ok && (lt.name = reinterpret_cast<decltype(lt.name)>(dlsym(so, #name)))
    TP_CUBLASLT_LOAD(cublasLtCreate);
    TP_CUBLASLT_LOAD(cublasLtMatmulDescCreate);
    TP_CUBLASLT_LOAD(cublasLtMatmulDescDestroy);
    TP_CUBLASLT_LOAD(cublasLtMatmulDescSetAttribute);
    TP_CUBLASLT_LOAD(cublasLtMatrixLayoutCreate);
    TP_CUBLASLT_LOAD(cublasLtMatrixLayoutDestroy);
    TP_CUBLASLT_LOAD(cublasLtMatrixLayoutSetAttribute);
    TP_CUBLASLT_LOAD(cublasLtMatmulPreferenceCreate);
    TP_CUBLASLT_LOAD(cublasLtMatmulPreferenceDestroy);
    TP_CUBLASLT_LOAD(cublasLtMatmulPreferenceSetAttribute);
    TP_CUBLASLT_LOAD(cublasLtMatmulAlgoGetHeuristic);
    TP_CUBLASLT_LOAD(cublasLtMatmul);
#undef TP_CUBLASLT_LOAD
    if (!ok) {
      lt.error = "libcublasLt lacks an entry point the runtime needs";
      return;
    }
    if (lt.cublasLtCreate(&lt.handle) != CUBLAS_STATUS_SUCCESS) {
      lt.error = "cublasLtCreate failed";
      lt.handle = nullptr;
      return;
    }
    if (cudaMalloc(&lt.workspace, kWorkspaceBytes) != cudaSuccess) {
      (void)cudaGetLastError();
      lt.workspace = nullptr;
    }
  });
  if (!lt.handle) {
    *error = lt.error;
    return nullptr;
  }
  return &lt;
}

/// A matrix operand of the column-major product: its layout and whether it
/// is used transposed.
struct Operand {
  cublasOperation_t op = CUBLAS_OP_N;
  int64_t rows = 0, cols = 0, ld = 0; // of the stored column-major matrix
  int64_t batchStride = 0;
};

/// The column-major view of the transpose of row-major `v` (sizes R x C in
/// its last two dimensions): the operand that contributes v^T. False when
/// neither matrix dimension has a unit stride.
bool transposedOperand(const MemrefView &v, Operand &out) {
  int64_t rank = v.rank;
  int64_t r = v.size(rank - 2), c = v.size(rank - 1);
  int64_t sr = r == 1 ? c : v.stride(rank - 2);
  int64_t sc = c == 1 ? 1 : v.stride(rank - 1);
  if (sc == 1 && sr >= c) {
    // Row-major: stored column-major it is v^T (C x R), ld = sr.
    out = {CUBLAS_OP_N, c, r, std::max<int64_t>(sr, 1), 0};
    return true;
  }
  if ((r == 1 || sr == 1) && sc >= r) {
    // Column-major v (R x C), ld = sc: v^T is its transpose.
    out = {CUBLAS_OP_T, r, c, std::max<int64_t>(sc, 1), 0};
    return true;
  }
  return false;
}

/// The one stride of `v`'s batch dimensions (all but the last two), 0 when
/// they are all 1; false when they do not collapse into one stride.
bool batchStride(const MemrefView &v, int64_t &stride) {
  stride = 0;
  int64_t expected = -1;
  for (int64_t d = v.rank - 3; d >= 0; --d) {
    if (v.size(d) == 1)
      continue;
    if (expected >= 0 && v.stride(d) != expected)
      return false;
    if (expected < 0)
      stride = v.stride(d);
    expected = v.stride(d) * v.size(d);
  }
  return true;
}

struct Types {
  cudaDataType_t in, out;
  size_t inBytes, outBytes;
};

tp_rt_status matmul(const Types &types, int64_t aRank, tp_rt_memref *aDesc,
                    int64_t bRank, tp_rt_memref *bDesc, int64_t biasRank,
                    tp_rt_memref *biasDesc, int64_t cRank, tp_rt_memref *cDesc,
                    int64_t epilogue) {
  const char *what = "tp_rt_cublaslt_matmul";
  if (gpu::failed())
    return TP_RT_ERROR_INVALID_STATE;
  if (!aDesc || !bDesc || !cDesc || !biasDesc)
    return fail(TP_RT_ERROR_NULL_POINTER, what, "a null descriptor");
  MemrefView a{aRank, aDesc}, b{bRank, bDesc}, bias{biasRank, biasDesc},
      c{cRank, cDesc};
  if (aRank < 2 || aRank != bRank || aRank != cRank)
    return fail(TP_RT_ERROR_INVALID_ARGUMENT, what,
                "A, B and C need one rank of at least 2");
  int64_t r = cRank;
  int64_t m = c.size(r - 2), n = c.size(r - 1), k = a.size(r - 1);
  if (a.size(r - 2) != m || b.size(r - 2) != k || b.size(r - 1) != n)
    return fail(TP_RT_ERROR_SIZE_MISMATCH, what, "operand shapes");
  int64_t batch = 1;
  for (int64_t d = 0; d < r - 2; ++d) {
    batch *= c.size(d);
    for (const MemrefView *v : {&a, &b})
      if (v->size(d) != c.size(d) && v->size(d) != 1)
        return fail(TP_RT_ERROR_SIZE_MISMATCH, what, "batch dimensions");
  }
  if (!c.dense())
    return fail(TP_RT_ERROR_INVALID_ARGUMENT, what, "C must be dense");
  bool withBias = bias.numel() != 0;
  if (withBias && (biasRank != 1 || bias.size(0) != n))
    return fail(TP_RT_ERROR_SIZE_MISMATCH, what, "the bias needs N elements");
  if (m == 0 || n == 0)
    return TP_RT_SUCCESS;
  // C^T = B^T A^T: cuBLAS's A is our B, its B our A.
  Operand opA, opB;
  int64_t strideA = 0, strideB = 0;
  if (!transposedOperand(b, opA) || !transposedOperand(a, opB) ||
      !batchStride(b, strideA) || !batchStride(a, strideB))
    return fail(TP_RT_ERROR_UNSUPPORTED, what,
                "an operand whose matrices have no unit stride, or whose "
                "batch dimensions do not collapse into one stride");

  cublasLtEpilogue_t mode;
  switch (epilogue) {
  case TP_RT_EPILOGUE_NONE:
    mode = withBias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
    break;
  case TP_RT_EPILOGUE_RELU:
    mode = withBias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
    break;
  case TP_RT_EPILOGUE_GELU_TANH:
    mode = withBias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
    break;
  default:
    return fail(TP_RT_ERROR_INVALID_ARGUMENT, what,
                "epilogue is not NONE, RELU or GELU_TANH");
  }

  // Arguments are checked above; only now is the library needed.
  std::string loadError;
  const CublasLt *lt = library(&loadError);
  if (!lt)
    return fail(TP_RT_ERROR_CUDA_UNAVAILABLE, what, loadError.c_str());

  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  auto ok = [&](cublasStatus_t s) {
    if (status == CUBLAS_STATUS_SUCCESS)
      status = s;
    return status == CUBLAS_STATUS_SUCCESS;
  };
  auto layout = [&](cublasLtMatrixLayout_t &l, cudaDataType_t type,
                    int64_t rows, int64_t cols, int64_t ld, int64_t stride) {
    if (!ok(lt->cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld)))
      return;
    int32_t count = static_cast<int32_t>(batch);
    ok(lt->cublasLtMatrixLayoutSetAttribute(
        l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
    ok(lt->cublasLtMatrixLayoutSetAttribute(
        l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
        sizeof(stride)));
  };
  if (ok(lt->cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F))) {
    ok(lt->cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                          &opA.op, sizeof(opA.op)));
    ok(lt->cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                          &opB.op, sizeof(opB.op)));
    ok(lt->cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                          &mode, sizeof(mode)));
    if (withBias) {
      const void *ptr = bias.data(types.outBytes);
      cudaDataType_t biasType = types.out;
      ok(lt->cublasLtMatmulDescSetAttribute(
          desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &ptr, sizeof(ptr)));
      ok(lt->cublasLtMatmulDescSetAttribute(desc,
                                            CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                            &biasType, sizeof(biasType)));
    }
  }
  layout(la, types.in, opA.rows, opA.cols, opA.ld, strideA);
  layout(lb, types.in, opB.rows, opB.cols, opB.ld, strideB);
  layout(lc, types.out, n, m, n, m * n);
  cublasLtMatmulHeuristicResult_t heuristic = {};
  int found = 0;
  size_t workspace = lt->workspace ? kWorkspaceBytes : 0;
  if (ok(lt->cublasLtMatmulPreferenceCreate(&pref))) {
    ok(lt->cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
        sizeof(workspace)));
    ok(lt->cublasLtMatmulAlgoGetHeuristic(lt->handle, desc, la, lb, lc, lc,
                                          pref, 1, &heuristic, &found));
  }
  if (status == CUBLAS_STATUS_SUCCESS && found == 0)
    status = CUBLAS_STATUS_NOT_SUPPORTED;
  float alpha = 1.0f, beta = 0.0f;
  if (status == CUBLAS_STATUS_SUCCESS)
    ok(lt->cublasLtMatmul(lt->handle, desc, &alpha, b.data(types.inBytes), la,
                          a.data(types.inBytes), lb, &beta,
                          c.data(types.outBytes), lc, c.data(types.outBytes),
                          lc, &heuristic.algo, lt->workspace, workspace,
                          gpu::stream()));
  if (pref)
    lt->cublasLtMatmulPreferenceDestroy(pref);
  for (cublasLtMatrixLayout_t l : {la, lb, lc})
    if (l)
      lt->cublasLtMatrixLayoutDestroy(l);
  if (desc)
    lt->cublasLtMatmulDescDestroy(desc);
  if (status != CUBLAS_STATUS_SUCCESS)
    return fail(TP_RT_ERROR_CUDA, what, "cuBLASLt status ",
                std::to_string(static_cast<int>(status)).c_str());
  return TP_RT_SUCCESS;
}

constexpr Types kF32{CUDA_R_32F, CUDA_R_32F, 4, 4};
constexpr Types kF16{CUDA_R_16F, CUDA_R_16F, 2, 2};
constexpr Types kF16F32{CUDA_R_16F, CUDA_R_32F, 2, 4};
constexpr Types kBF16{CUDA_R_16BF, CUDA_R_16BF, 2, 2};
constexpr Types kBF16F32{CUDA_R_16BF, CUDA_R_32F, 2, 4};

} // namespace

extern "C" {

#define TP_RT_CUBLASLT_DEFINE(IN, OUT, TYPES)                                  \
  tp_rt_status tp_rt_cublaslt_matmul_##IN##_##OUT(                             \
      int64_t a_rank, tp_rt_memref *a, int64_t b_rank, tp_rt_memref *b,        \
      int64_t bias_rank, tp_rt_memref *bias, int64_t c_rank, tp_rt_memref *c,  \
      int64_t epilogue) {                                                      \
    return matmul(TYPES, a_rank, a, b_rank, b, bias_rank, bias, c_rank, c,     \
                  epilogue);                                                   \
  }
TP_RT_CUBLASLT_DEFINE(f32, f32, kF32)
TP_RT_CUBLASLT_DEFINE(f16, f16, kF16)
TP_RT_CUBLASLT_DEFINE(f16, f32, kF16F32)
TP_RT_CUBLASLT_DEFINE(bf16, bf16, kBF16)
TP_RT_CUBLASLT_DEFINE(bf16, f32, kBF16F32)
#undef TP_RT_CUBLASLT_DEFINE

} // extern "C"
