//===- CpuCodegenTest.cpp - CPU code generation C++ units -----------------===//
//
// The pieces of the CPU path that are not IR: host tensors and their bf16
// rounding, .npy files, the runtime's buffer cache, parallel loops and oneDNN
// matmul on strided descriptors, and Executable's checks.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/HostIO/Npy.h"

#include "MemrefDescriptors.h"

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/Kernels.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

using namespace tensorplay::test;
using namespace mlir;
using namespace mlir::tp;

TEST(HostTensor, Bf16RoundsToNearestEven) {
  HostTensor t(ElementKind::BF16, {4});
  t.set(0, 1.00390625); // 1 + 2^-8: halfway, to even -> 1
  t.set(1, 1.01171875); // 1 + 3 * 2^-8: halfway, to even -> 1 + 2^-6
  t.set(2, 1.0078125);  // exactly representable
  t.set(3, -3.0);
  EXPECT_EQ(t.get(0), 1.0);
  EXPECT_EQ(t.get(1), 1.015625);
  EXPECT_EQ(t.get(2), 1.0078125);
  EXPECT_EQ(t.get(3), -3.0);
}

TEST(Npy, RoundTripAndShapeCheck) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tp", "npy", path));
  HostTensor t(ElementKind::F32, {2, 3});
  for (int i = 0; i < 6; ++i)
    t.set(i, i * 0.5);
  ASSERT_FALSE(bool(writeNpy(path, t)));
  TensorSpec spec{ElementKind::F32, {2, 3}};
  auto back = readNpy(path, &spec);
  ASSERT_TRUE(bool(back));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(back->get(i), i * 0.5);
  // bf16 arguments read float32 files (rounded).
  TensorSpec bf16{ElementKind::BF16, {2, 3}};
  auto asBf16 = readNpy(path, &bf16);
  ASSERT_TRUE(bool(asBf16));
  EXPECT_EQ(asBf16->kind(), ElementKind::BF16);
  EXPECT_EQ(asBf16->get(5), 2.5);
  // A wrong shape is an error naming both shapes.
  TensorSpec wrong{ElementKind::F32, {3, 2}};
  auto bad = readNpy(path, &wrong);
  ASSERT_FALSE(bool(bad));
  std::string message = llvm::toString(bad.takeError());
  EXPECT_NE(message.find("(2, 3) f32"), std::string::npos) << message;
  EXPECT_NE(message.find("(3, 2) f32"), std::string::npos) << message;
  llvm::sys::fs::remove(path);
}

TEST(RuntimeAllocator, ReusesFreedBlocksAndAligns) {
  void *a = _mlir_memref_to_llvm_aligned_alloc(64, 1 << 20);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::memset(a, 1, 1 << 20);
  _mlir_memref_to_llvm_free(a);
  void *b = _mlir_memref_to_llvm_aligned_alloc(64, 1 << 20);
  EXPECT_EQ(a, b);
  void *c = _mlir_memref_to_llvm_aligned_alloc(256, 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c) % 256, 0u);
  _mlir_memref_to_llvm_free(b);
  _mlir_memref_to_llvm_free(c);
}

// Sizes whose rounding would wrap, and alignments that are not powers of
// two, end the process with a message instead of returning a block that is
// too small (compiled code does not check the pointer).
TEST(RuntimeAllocatorDeathTest, RefusesImpossibleRequests) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(_mlir_memref_to_llvm_aligned_alloc(64, UINT64_MAX - 10),
               "cannot allocate a buffer of 18446744073709551605 bytes");
  EXPECT_DEATH(_mlir_memref_to_llvm_aligned_alloc(96, 128), "alignment 96");
  EXPECT_DEATH(_mlir_memref_to_llvm_alloc(uint64_t(1) << 62),
               "cannot allocate");
  // Same sizes, other alignments: distinct blocks, each aligned.
  void *a = _mlir_memref_to_llvm_aligned_alloc(128, 8384);
  _mlir_memref_to_llvm_free(a);
  void *b = _mlir_memref_to_llvm_aligned_alloc(4096, 8384);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 4096, 0u);
  _mlir_memref_to_llvm_free(b);
}

namespace {
struct Coverage {
  std::vector<std::atomic<int>> hits;
  explicit Coverage(size_t n) : hits(n) {}
};
void mark(void *ctx, int64_t begin, int64_t end) {
  auto *c = static_cast<Coverage *>(ctx);
  for (int64_t i = begin; i < end; ++i)
    c->hits[i]++;
}
} // namespace

TEST(ParallelFor, RunsEveryIterationOnce) {
  for (int64_t n : {0, 1, 2, 3, 17, 1000}) {
    Coverage c(n + 5);
    tp_rt_parallel_for(mark, &c, 5, 5 + n);
    for (int64_t i = 0; i < 5; ++i)
      EXPECT_EQ(c.hits[i].load(), 0);
    for (int64_t i = 5; i < 5 + n; ++i)
      EXPECT_EQ(c.hits[i].load(), 1) << "n = " << n << ", i = " << i;
  }
}

namespace {
/// The threads that ran pieces of a parallel loop, and the piece count.
struct Workers {
  std::mutex mutex;
  std::set<std::thread::id> ids;
  int pieces = 0;
};
void record(void *ctx, int64_t, int64_t) {
  auto *w = static_cast<Workers *>(ctx);
  std::lock_guard<std::mutex> lock(w->mutex);
  w->ids.insert(std::this_thread::get_id());
  ++w->pieces;
}
} // namespace

// tp_rt_set_num_threads sizes the runtime's pool and (oneDNN on OpenMP)
// OpenMP's team: a parallel loop then runs on exactly that many threads.
// 3 is more than the build machines' cores, so the default never passes.
TEST(ParallelFor, SetNumThreadsLimitsPoolAndOpenMP) {
  int32_t initial = tp_rt_num_threads();
  for (int32_t n : {3, 1}) {
    ASSERT_EQ(tp_rt_set_num_threads(n), TP_RT_SUCCESS);
    EXPECT_EQ(tp_rt_num_threads(), n);
    EXPECT_EQ(tensorplay::amp::cpuThreadCount(), static_cast<unsigned>(n));
    Workers w;
    tp_rt_parallel_for(record, &w, 0, 1000);
    EXPECT_EQ(w.pieces, n);
    EXPECT_EQ(w.ids.size(), static_cast<size_t>(n));
  }
  EXPECT_EQ(tp_rt_set_num_threads(-1), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tp_rt_set_num_threads(1025), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tp_rt_num_threads(), 1);
  ASSERT_EQ(tp_rt_set_num_threads(0), TP_RT_SUCCESS);
  EXPECT_EQ(tp_rt_num_threads(), initial);
}

namespace {

/// The signature every tp_rt_dnnl_matmul_* entry point shares.
using MatmulEntryPoint = tp_rt_status (*)(int64_t, tp_rt_memref *, int64_t,
                                          tp_rt_memref *, int64_t,
                                          tp_rt_memref *, int64_t,
                                          tp_rt_memref *, int64_t);

/// Calls `fn` on rank-2 A, B, C and a rank-1 bias.
tp_rt_status callMatmul(MatmulEntryPoint fn, Desc2 &a, Desc2 &b, Desc1 &bias,
                        Desc2 &c, int64_t epilogue) {
  return fn(2, reinterpret_cast<tp_rt_memref *>(&a), 2,
            reinterpret_cast<tp_rt_memref *>(&b), 1,
            reinterpret_cast<tp_rt_memref *>(&bias), 2,
            reinterpret_cast<tp_rt_memref *>(&c), epilogue);
}
} // namespace

TEST(DnnlMatmul, StridedOperandsMatchNaive) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  // C[3x2] = A[3x4] @ W^T where W is 2x4 (B = W^T as a transposed view).
  float a[12], w[8], c[6] = {0}, bias[2] = {0.5f, -1.0f};
  for (int i = 0; i < 12; ++i)
    a[i] = (float)(i % 5) - 2.0f;
  for (int i = 0; i < 8; ++i)
    w[i] = (float)(i % 3) * 0.5f;
  Desc2 da{a, a, 0, {3, 4}, {4, 1}};
  Desc2 db{w, w, 0, {4, 2}, {1, 4}};
  Desc2 dc{c, c, 0, {3, 2}, {2, 1}};
  Desc1 dbias{bias, bias, 0, 2, 1};
  float ref[6];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      ref[i * 2 + j] = bias[j];
      for (int k = 0; k < 4; ++k)
        ref[i * 2 + j] += a[i * 4 + k] * w[j * 4 + k];
    }
  tp_rt_codegen_clear_error();
  EXPECT_EQ(callMatmul(tp_rt_dnnl_matmul_f32_f32, da, db, dbias, dc,
                       TP_RT_EPILOGUE_NONE),
            TP_RT_SUCCESS);
  EXPECT_STREQ(tp_rt_codegen_error(), "");
  for (int i = 0; i < 6; ++i)
    EXPECT_FLOAT_EQ(c[i], ref[i]) << i;
  // Mismatched ranks are an error in the error slot, not a crash.
  EXPECT_NE(tp_rt_dnnl_matmul_f32_f32(
                2, reinterpret_cast<tp_rt_memref *>(&da), 1,
                reinterpret_cast<tp_rt_memref *>(&dbias), 1,
                reinterpret_cast<tp_rt_memref *>(&dbias), 2,
                reinterpret_cast<tp_rt_memref *>(&dc), TP_RT_EPILOGUE_NONE),
            TP_RT_SUCCESS);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("ranks"),
            std::string::npos);
  tp_rt_codegen_clear_error();
  // An epilogue code outside TP_RT_EPILOGUE_* is an error, not ignored.
  for (int64_t bad : {int64_t(-1), int64_t(TP_RT_EPILOGUE_ACCUMULATE + 1)}) {
    EXPECT_EQ(callMatmul(tp_rt_dnnl_matmul_f32_f32, da, db, dbias, dc, bad),
              TP_RT_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(tp_rt_codegen_error()).find("unknown epilogue"),
              std::string::npos)
        << tp_rt_codegen_error();
    tp_rt_codegen_clear_error();
  }
  // ReLU as an epilogue: C = max(A W^T + bias, 0), exactly.
  ASSERT_EQ(callMatmul(tp_rt_dnnl_matmul_f32_f32, da, db, dbias, dc,
                       TP_RT_EPILOGUE_RELU),
            TP_RT_SUCCESS);
  for (int i = 0; i < 6; ++i)
    EXPECT_FLOAT_EQ(c[i], std::max(ref[i], 0.0f)) << i;
  // Accumulation: C += A W^T + bias, the same f32 addition as a separate
  // add of the product to what C held (bit for bit).
  float held[6], product[6];
  for (int i = 0; i < 6; ++i)
    held[i] = c[i] = 0.37f * float(i) - 1.1f;
  ASSERT_EQ(callMatmul(tp_rt_dnnl_matmul_f32_f32, da, db, dbias, dc,
                       TP_RT_EPILOGUE_ACCUMULATE),
            TP_RT_SUCCESS);
  std::copy(c, c + 6, product);
  ASSERT_EQ(callMatmul(tp_rt_dnnl_matmul_f32_f32, da, db, dbias, dc,
                       TP_RT_EPILOGUE_NONE),
            TP_RT_SUCCESS);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(product[i], held[i] + c[i]) << i;
    EXPECT_FLOAT_EQ(c[i], ref[i]) << i;
  }
}

namespace {
/// f32 -> bf16 bits, to nearest even, a NaN kept (sign, top payload) and
/// made quiet: written here from the definition, independently of the
/// runtime's kernels.
uint16_t referenceBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value))
    return static_cast<uint16_t>((bits | 0x00400000u) >> 16);
  uint32_t lower = bits & 0xffffu, upper = bits >> 16;
  if (lower > 0x8000u || (lower == 0x8000u && (upper & 1u)))
    ++upper;
  return static_cast<uint16_t>(upper);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

/// C[m x n] (f32) = A[m x k] (bf16) @ B where B = W^T, W [n x k] f32, either
/// as a transposed view of W (strides {1, k}: linear's weight) or as a
/// row-major copy of W^T (strides {n, 1}), through
/// tp_rt_dnnl_matmul_cast_bf16_f32; checked against a double-precision
/// product of A and the bf16-rounded W.
void checkCastMatmul(int64_t m, int64_t k, int64_t n, bool transposedView,
                     std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<uint16_t> a(m * k);
  std::vector<float> w(n * k), bt(k * n), c(m * n, -1.0f);
  for (auto &v : a)
    v = referenceBf16(dist(rng));
  for (auto &v : w)
    v = dist(rng);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p)
      bt[p * n + j] = w[j * k + p];
  Desc2 da{a.data(), a.data(), 0, {m, k}, {k, 1}};
  Desc2 db = transposedView ? Desc2{w.data(), w.data(), 0, {k, n}, {1, k}}
                            : Desc2{bt.data(), bt.data(), 0, {k, n}, {n, 1}};
  Desc2 dc{c.data(), c.data(), 0, {m, n}, {n, 1}};
  Desc1 noBias{nullptr, nullptr, 0, 0, 1};
  ASSERT_EQ(callMatmul(tp_rt_dnnl_matmul_cast_bf16_f32, da, db, noBias, dc,
                       TP_RT_EPILOGUE_NONE),
            TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double ref = 0, mag = 0;
      for (int64_t p = 0; p < k; ++p) {
        double x = bf16ToFloat(a[i * k + p]);
        double y = bf16ToFloat(referenceBf16(w[j * k + p]));
        ref += x * y;
        mag += std::fabs(x * y);
      }
      ASSERT_NEAR(c[i * n + j], ref, 1e-5 * mag + 1e-6)
          << m << "x" << k << "x" << n << (transposedView ? " W^T" : " B")
          << " at " << i << "," << j;
    }
}
} // namespace

// The fused weight cast (autocast's f32 -> bf16 weight, rounded while it is
// packed for oneDNN): shapes off the 32 x 64 blocking, both B layouts, on the
// AVX-512 packing kernel and on the portable path.
TEST(DnnlMatmul, CastMatmulRoundsTheF32Weight) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  using tensorplay::amp::CpuKernelPath;
  std::mt19937 rng(7);
  std::vector<CpuKernelPath> paths = {CpuKernelPath::Portable};
  if (tensorplay::amp::cpuSupportsAvx512())
    paths.push_back(CpuKernelPath::AVX512);
  for (CpuKernelPath path : paths) {
    ASSERT_TRUE(tensorplay::amp::setCpuKernelPath(path).ok());
    SCOPED_TRACE(tensorplay::amp::cpuKernelPathName(path));
    for (bool view : {true, false}) {
      checkCastMatmul(3, 37, 70, view, rng);
      checkCastMatmul(5, 64, 128, view, rng);
      checkCastMatmul(1, 1, 1, view, rng);
      checkCastMatmul(17, 100, 10, view, rng);
      checkCastMatmul(8, 96, 200, view, rng);
    }
  }
  ASSERT_TRUE(tensorplay::amp::setCpuKernelPath(CpuKernelPath::Auto).ok());
}

// Exact rounding of single weights: A selects one k, so C = bf16(W) exactly;
// ties go to even, NaN stays NaN, overflow rounds to inf, as
// tp.cast does.
TEST(DnnlMatmul, CastMatmulRoundsTiesToEvenAndKeepsNaN) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  const int64_t k = 40, n = 8;
  const float special[n] = {1.00390625f,  // 1 + 2^-8: tie, down to 1
                            1.01171875f,  // 1 + 3 * 2^-8: tie, up
                            -1.00390637f, // just above the tie: away
                            std::numeric_limits<float>::quiet_NaN(),
                            1e-30f,  // small, not a tie
                            3.4e38f, // rounds up to inf
                            -0.0f,
                            65504.0f};
  std::vector<float> w(n * k, 0.0f);
  const int64_t pick = 33; // in the second 32-block of k
  for (int64_t j = 0; j < n; ++j)
    w[j * k + pick] = special[j];
  std::vector<uint16_t> a(k, 0);
  a[pick] = referenceBf16(1.0f);
  std::vector<float> c(n, 0.0f);
  Desc2 da{a.data(), a.data(), 0, {1, k}, {k, 1}};
  Desc2 db{w.data(), w.data(), 0, {k, n}, {1, k}};
  Desc2 dc{c.data(), c.data(), 0, {1, n}, {n, 1}};
  Desc1 noBias{nullptr, nullptr, 0, 0, 1};
  ASSERT_EQ(callMatmul(tp_rt_dnnl_matmul_cast_bf16_f32, da, db, noBias, dc,
                       TP_RT_EPILOGUE_NONE),
            TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  EXPECT_EQ(c[0], 1.0f);
  EXPECT_EQ(c[1], 1.015625f);
  EXPECT_EQ(c[2], -1.0078125f);
  EXPECT_TRUE(std::isnan(c[3]));
  EXPECT_EQ(c[4], bf16ToFloat(referenceBf16(1e-30f)));
  EXPECT_TRUE(std::isinf(c[5]) && c[5] > 0);
  EXPECT_EQ(c[6], 0.0f);
  EXPECT_EQ(c[7], 65536.0f);
}

namespace {
std::unique_ptr<Executable> compileSource(MLIRContext &ctx, const char *source,
                                          const CompileOptions &options) {
  OwningOpRef<ModuleOp> module = parseModuleString(ctx, source);
  if (!module)
    return nullptr;
  auto exe = Executable::compile(std::move(module), options);
  if (!exe) {
    llvm::consumeError(exe.takeError());
    return nullptr;
  }
  return std::move(*exe);
}
} // namespace

/// The bf16 bits tp_rt_truncsfbf2 / tp_rt_truncdfbf2 return (the low 16
/// bits of the float register).
static uint16_t bf16Result(float r) {
  uint32_t bits;
  std::memcpy(&bits, &r, 4);
  return bits & 0xffff;
}

static float floatOfBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace {
/// A dense rank-3 descriptor over `data`.
struct Desc3 {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
};
Desc3 dense3(float *data, int64_t a, int64_t b, int64_t c) {
  return {data, data, 0, {a, b, c}, {b * c, c, 1}};
}
/// A dense rank-1 i64 descriptor.
struct DescI1 {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};
} // namespace

TEST(DnnlConvBackwardWeights, Conv1dMatchesNaiveAndRefusesBadGeometry) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  // x [2, 2, 6], dy [2, 3, 4]: stride 2, padding 1, kernel 2, 1 group.
  constexpr int N = 2, CI = 2, L = 6, CO = 3, K = 2, O = 4, S = 2, P = 1;
  float x[N * CI * L], dy[N * CO * O], dw[CO * CI * K], db[CO];
  for (int i = 0; i < N * CI * L; ++i)
    x[i] = (float)((i * 7) % 11) * 0.25f - 1.0f;
  for (int i = 0; i < N * CO * O; ++i)
    dy[i] = (float)((i * 5) % 9) * 0.5f - 2.0f;
  float refW[CO * CI * K] = {0}, refB[CO] = {0};
  for (int n = 0; n < N; ++n)
    for (int o = 0; o < CO; ++o)
      for (int j = 0; j < O; ++j) {
        float g = dy[(n * CO + o) * O + j];
        refB[o] += g;
        for (int c = 0; c < CI; ++c)
          for (int k = 0; k < K; ++k) {
            int pos = j * S + k - P;
            if (pos >= 0 && pos < L)
              refW[(o * CI + c) * K + k] += g * x[(n * CI + c) * L + pos];
          }
      }
  Desc3 dx = dense3(x, N, CI, L), ddy = dense3(dy, N, CO, O),
        ddw = dense3(dw, CO, CI, K);
  Desc1 ddb{db, db, 0, CO, 1};
  int64_t params[] = {1, 0, 1, S, P, P, 1};
  DescI1 dp{params, params, 0, 7, 1};
  tp_rt_codegen_clear_error();
  ASSERT_EQ(tp_rt_dnnl_conv_backward_weights_f32(
                3, memref(&ddy), 3, memref(&dx), 3, memref(&ddw), 1,
                memref(&ddb), 1, memref(&dp)),
            TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  for (int i = 0; i < CO * CI * K; ++i)
    EXPECT_NEAR(dw[i], refW[i], 1e-5) << i;
  for (int i = 0; i < CO; ++i)
    EXPECT_NEAR(db[i], refB[i], 1e-5) << i;
  // The same sizes with x read through row padding (strides 8, then 7):
  // each layout is reordered into the primitive's with a primitive kept per
  // pair of descriptors, which the second strided call must not share with
  // the first; then the dense call again.
  float xs8[N * CI * 8], xs7[N * CI * 7], dw2[CO * CI * K], db2[CO];
  auto padded = [&](float *buf, int64_t stride) {
    for (int i = 0; i < N * CI * stride; ++i)
      buf[i] = 1e3f; // the padding, never read
    for (int r = 0; r < N * CI; ++r)
      for (int l = 0; l < L; ++l)
        buf[r * stride + l] = x[r * L + l];
    return Desc3{buf, buf, 0, {N, CI, L}, {CI * stride, stride, 1}};
  };
  Desc3 dxs8 = padded(xs8, 8), dxs7 = padded(xs7, 7);
  Desc3 ddw2 = dense3(dw2, CO, CI, K);
  Desc1 ddb2{db2, db2, 0, CO, 1};
  for (Desc3 *in : {&dxs8, &dxs7, &dx}) {
    ASSERT_EQ(tp_rt_dnnl_conv_backward_weights_f32(
                  3, memref(&ddy), 3, memref(in), 3, memref(&ddw2), 1,
                  memref(&ddb2), 1, memref(&dp)),
              TP_RT_SUCCESS)
        << tp_rt_codegen_error();
    for (int i = 0; i < CO * CI * K; ++i)
      EXPECT_NEAR(dw2[i], refW[i], 1e-5) << i;
  }
  // A bias gradient of the wrong size, or a weight of the wrong rank, is
  // an error in the error slot, not a crash.
  Desc1 badBias{db, db, 0, CO - 1, 1};
  EXPECT_EQ(tp_rt_dnnl_conv_backward_weights_f32(
                3, memref(&ddy), 3, memref(&dx), 3, memref(&ddw), 1,
                memref(&badBias), 1, memref(&dp)),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("bad geometry"),
            std::string::npos);
  tp_rt_codegen_clear_error();
  EXPECT_EQ(tp_rt_dnnl_conv_backward_weights_f32(
                3, memref(&ddy), 3, memref(&dx), 1, memref(&ddb), 1,
                memref(&ddb), 1, memref(&dp)),
            TP_RT_ERROR_INVALID_ARGUMENT);
  tp_rt_codegen_clear_error();
}

TEST(DnnlMatmul, ViewsOneDnnCannotDescribeGoThroughDenseCopies) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  // C [2, 3] with strides [3, 2] interleaves its rows (offsets 0 2 4 and
  // 3 5 7): oneDNN refuses such strides, so the result is computed densely
  // and copied into the view, leaving offsets 1 and 6 alone. A [2, 2] with
  // strides [3, 2] is such a view too, read through a dense copy.
  float a[8], b[6] = {1, 2, 3, 4, 5, 6}, c[8];
  for (int i = 0; i < 8; ++i) {
    a[i] = 0.5f * (float)i - 1.0f;
    c[i] = -7.0f;
  }
  Desc2 da{a, a, 0, {2, 2}, {3, 2}}, db{b, b, 0, {2, 3}, {3, 1}},
      dc{c, c, 0, {2, 3}, {3, 2}};
  Desc1 none{nullptr, nullptr, 0, 0, 1};
  tp_rt_codegen_clear_error();
  ASSERT_EQ(tp_rt_dnnl_matmul_f32_f32(2, memref(&da), 2, memref(&db), 1,
                                      memref(&none), 2, memref(&dc),
                                      TP_RT_EPILOGUE_NONE),
            TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      float want = 0;
      for (int k = 0; k < 2; ++k)
        want += a[i * 3 + k * 2] * b[k * 3 + j];
      EXPECT_FLOAT_EQ(c[i * 3 + j * 2], want) << i << "," << j;
    }
  EXPECT_EQ(c[1], -7.0f);
  EXPECT_EQ(c[6], -7.0f);
}

TEST(DnnlSoftmaxBackward, MatchesTheFormulaAlongEachAxisAndRefusesBadShapes) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  // [2, 3, 4]: y a softmax (log-softmax) along `axis`, g arbitrary.
  constexpr int A = 2, B = 3, C = 4, SIZE = A * B * C;
  const int sizes[3] = {A, B, C}, strides[3] = {B * C, C, 1};
  float x[SIZE], g[SIZE], y[SIZE], dx[SIZE];
  for (int i = 0; i < SIZE; ++i) {
    x[i] = (float)((i * 7) % 11) * 0.3f - 1.5f;
    g[i] = (float)((i * 5) % 9) * 0.25f - 1.0f;
  }
  for (int log = 0; log <= 1; ++log)
    for (int axis = 0; axis < 3; ++axis) {
      // Each row along `axis`: its first element and its stride.
      std::vector<int> starts;
      for (int i = 0; i < SIZE; ++i)
        if ((i / strides[axis]) % sizes[axis] == 0)
          starts.push_back(i);
      for (int s : starts) {
        double m = -1e30, total = 0;
        for (int k = 0; k < sizes[axis]; ++k)
          m = std::max(m, (double)x[s + k * strides[axis]]);
        for (int k = 0; k < sizes[axis]; ++k)
          total += std::exp(x[s + k * strides[axis]] - m);
        for (int k = 0; k < sizes[axis]; ++k) {
          double v = x[s + k * strides[axis]] - m;
          y[s + k * strides[axis]] =
              (float)(log ? v - std::log(total) : std::exp(v) / total);
        }
      }
      Desc3 dg = dense3(g, A, B, C), dy = dense3(y, A, B, C),
            ddx = dense3(dx, A, B, C);
      tp_rt_codegen_clear_error();
      ASSERT_EQ(tp_rt_dnnl_softmax_backward_f32(3, memref(&dg), 3, memref(&dy),
                                                3, memref(&ddx), axis, log),
                TP_RT_SUCCESS)
          << tp_rt_codegen_error();
      for (int s : starts) {
        double sum = 0;
        for (int k = 0; k < sizes[axis]; ++k) {
          int i = s + k * strides[axis];
          sum += log ? g[i] : (double)g[i] * y[i];
        }
        for (int k = 0; k < sizes[axis]; ++k) {
          int i = s + k * strides[axis];
          double want =
              log ? g[i] - std::exp((double)y[i]) * sum : y[i] * (g[i] - sum);
          EXPECT_NEAR(dx[i], want, 1e-5)
              << "log " << log << " axis " << axis << " element " << i;
        }
      }
    }
  // An axis out of range, or a result of another shape: an error status
  // and message, not a crash.
  Desc3 dg = dense3(g, A, B, C), dy = dense3(y, A, B, C),
        ddx = dense3(dx, A, B, C), small = dense3(dx, A, B, C - 1);
  EXPECT_EQ(tp_rt_dnnl_softmax_backward_f32(3, memref(&dg), 3, memref(&dy), 3,
                                            memref(&ddx), 3, 0),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("one shape"),
            std::string::npos);
  tp_rt_codegen_clear_error();
  EXPECT_EQ(tp_rt_dnnl_softmax_backward_f32(3, memref(&dg), 3, memref(&dy), 3,
                                            memref(&small), 1, 0),
            TP_RT_ERROR_INVALID_ARGUMENT);
  tp_rt_codegen_clear_error();
}

TEST(FloatBuiltins, TruncSfBf2RoundsToNearestEven) {
  // Every exponent, with mantissas around the ties and the extremes.
  const uint32_t lows[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
  for (uint32_t high = 0; high < 0x10000; high += 0x3) {
    for (uint32_t low : lows) {
      uint32_t x = high << 16 | low;
      if ((x & 0x7fffffff) > 0x7f800000) {
        uint16_t r = bf16Result(tp_rt_truncsfbf2(floatOfBits(x)));
        EXPECT_EQ(r & 0x7fc0, 0x7fc0) << std::hex << x; // a quiet NaN
        EXPECT_EQ(r & 0x8000, (x >> 16) & 0x8000) << std::hex << x;
        continue;
      }
      // Nearest of the two neighbours; ties to the even one.
      uint32_t down = high, up = high + 1;
      uint16_t expected =
          low > 0x8000 || (low == 0x8000 && (down & 1)) ? up : down;
      ASSERT_EQ(bf16Result(tp_rt_truncsfbf2(floatOfBits(x))), expected)
          << std::hex << x;
    }
  }
}

TEST(FloatBuiltins, TruncDfBf2RoundsOnce) {
  // 1 + 2^-8 + 2^-30: through f32 it would be the tie 1 + 2^-8 and round
  // to 1; rounded once it is above the tie: 1 + 2^-7.
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(1.0 + 0x1p-8 + 0x1p-30)), 0x3f81);
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(1.0 + 0x1p-8)), 0x3f80); // tie
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(-(1.0 + 0x1p-8 + 0x1p-40))), 0xbf81);
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(1e300)), 0x7f80); // overflow
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(-1e300)), 0xff80);
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(1e-300)), 0x0000);   // underflow
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(0x1p-133)), 0x0001); // subnormal
  EXPECT_EQ(bf16Result(tp_rt_truncdfbf2(std::nan(""))) & 0x7fc0, 0x7fc0);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-1e4, 1e4);
  for (int i = 0; i < 100000; ++i) {
    double x = dist(rng);
    uint16_t r = bf16Result(tp_rt_truncdfbf2(x));
    double got = floatOfBits((uint32_t)r << 16);
    // No other bf16 is nearer to x.
    double below = floatOfBits((uint32_t)(r - 1) << 16);
    double above = floatOfBits((uint32_t)(r + 1) << 16);
    ASSERT_LE(std::fabs(got - x), std::fabs(below - x)) << x;
    ASSERT_LE(std::fabs(got - x), std::fabs(above - x)) << x;
  }
}

TEST(Executable, RunsAndChecksArguments) {
  MLIRContext ctx;
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xbf16>) {
      %s = tp.sum %x {dim = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
      %h = tp.cast %x : tensor<2x3xf32> to tensor<2x3xbf16>
      return %s, %h : tensor<2xf32>, tensor<2x3xbf16>
    })mlir";
  auto exe = compileSource(ctx, source, {});
  ASSERT_TRUE(exe);
  ASSERT_NE(exe->lookup("f"), nullptr);
  EXPECT_EQ(exe->lookup("f")->results[1].kind, ElementKind::BF16);
  HostTensor x(ElementKind::F32, {2, 3});
  for (int i = 0; i < 6; ++i)
    x.set(i, i + 1);
  std::vector<HostTensor> results;
  ASSERT_FALSE(bool(exe->run("f", {&x}, results)));
  EXPECT_EQ(results[0].get(0), 6.0);
  EXPECT_EQ(results[0].get(1), 15.0);
  EXPECT_EQ(results[1].get(5), 6.0);
  // Calling again reuses the buffers and gives the same answer.
  ASSERT_FALSE(bool(exe->run("f", {&x}, results)));
  EXPECT_EQ(results[0].get(1), 15.0);

  HostTensor wrong(ElementKind::F32, {3, 2});
  llvm::Error e = exe->run("f", {&wrong}, results);
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("must be tensor<2x3xf32>"),
            std::string::npos);
  llvm::Error missing = exe->run("g", {&x}, results);
  ASSERT_TRUE(bool(missing));
  EXPECT_NE(llvm::toString(std::move(missing)).find("no public function @g"),
            std::string::npos);
}

// The run on caller-owned memory (TensorRef), as the Python backend calls
// it: results are written into the caller's buffers, every buffer is
// checked against the signature.
TEST(Executable, RunsOnCallerOwnedBuffers) {
  MLIRContext ctx;
  const char *source = R"mlir(
    func.func @f(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xbf16>) {
      %s = tp.sum %x {dim = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
      %h = tp.cast %x : tensor<2x3xf32> to tensor<2x3xbf16>
      return %s, %h : tensor<2xf32>, tensor<2x3xbf16>
    })mlir";
  auto exe = compileSource(ctx, source, {});
  ASSERT_TRUE(exe);
  // Unaligned on purpose: the caller's memory need not be 64-byte aligned.
  std::vector<float> xStorage(7), sum(2);
  float *x = xStorage.data() + 1;
  for (int i = 0; i < 6; ++i)
    x[i] = 0.5f * (i + 1);
  std::vector<uint16_t> half(6);
  std::vector<int64_t> shape23 = {2, 3}, shape2 = {2};
  std::vector<TensorRef> args = {{ElementKind::F32, shape23, x}};
  std::vector<TensorRef> results = {{ElementKind::F32, shape2, sum.data()},
                                    {ElementKind::BF16, shape23, half.data()}};
  ASSERT_FALSE(bool(exe->run("f", llvm::ArrayRef<TensorRef>(args),
                             llvm::ArrayRef<TensorRef>(results))));
  EXPECT_EQ(sum[0], 3.0f);
  EXPECT_EQ(sum[1], 7.5f);
  EXPECT_EQ(half[5], 0x4040); // 3.0 in bf16

  auto message = [&](std::vector<TensorRef> a, std::vector<TensorRef> r) {
    llvm::Error e = exe->run("f", llvm::ArrayRef<TensorRef>(a),
                             llvm::ArrayRef<TensorRef>(r));
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  EXPECT_NE(message({}, results).find("@f has 1 arguments, got 0"),
            std::string::npos);
  std::vector<TensorRef> wrongResult = {
      results[0], {ElementKind::F32, shape23, half.data()}};
  EXPECT_NE(message(args, wrongResult)
                .find("result #1 must be tensor<2x3xbf16>, got "
                      "tensor<2x3xf32>"),
            std::string::npos);
  std::vector<TensorRef> noData = {{ElementKind::F32, shape23, nullptr}};
  EXPECT_NE(message(noData, results).find("argument #0 has no data"),
            std::string::npos);
}

// tp-cast-arguments through the API: an argument used only by a cast to
// bf16 takes the bf16 type, one with another use keeps f32.
TEST(CompilerApi, CastArgumentsRetypesOnlyCastArguments) {
  MLIRContext ctx;
  prepareCompilerContext(ctx);
  OwningOpRef<ModuleOp> module = parseModuleString(ctx, R"mlir(
    func.func @f(%w: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xbf16>, tensor<2xf32>) {
      %a = tp.cast %w : tensor<2xf32> to tensor<2xbf16>
      %b = tp.add %v, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %a, %b : tensor<2xbf16>, tensor<2xf32>
    })mlir");
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(castArgumentsModule(*module, {"f"})));
  auto fn = *module->getOps<func::FuncOp>().begin();
  EXPECT_TRUE(cast<RankedTensorType>(fn.getArgumentTypes()[0])
                  .getElementType()
                  .isBF16());
  EXPECT_TRUE(cast<RankedTensorType>(fn.getArgumentTypes()[1])
                  .getElementType()
                  .isF32());
  ScopedDiagnosticHandler silence(&ctx, [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(castArgumentsModule(*module, {"missing"})));
}

TEST(Executable, AutocastChangesTheSignature) {
  MLIRContext ctx;
  const char *source = R"mlir(
    func.func @lin(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
      %y = tp.linear %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
      return %y : tensor<4x16xf32>
    })mlir";
  CompileOptions options;
  options.autocast = "cpu:bf16";
  auto exe = compileSource(ctx, source, options);
  ASSERT_TRUE(exe);
  EXPECT_EQ(exe->lookup("lin")->results[0].kind, ElementKind::BF16);
  EXPECT_EQ(exe->lookup("lin")->arguments[0].kind, ElementKind::F32);
}

// The compiler API stage by stage (Compiler.h): parse, autocast, lower.
TEST(CompilerApi, StagesOneByOne) {
  MLIRContext ctx;
  unsigned errors = 0;
  ScopedDiagnosticHandler count(&ctx, [&](Diagnostic &diag) {
    errors += diag.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  EXPECT_FALSE(parseModuleString(ctx, "func.func @f( {"));
  EXPECT_GT(errors, 0u);
  errors = 0;
  OwningOpRef<ModuleOp> module = parseModuleString(ctx, R"mlir(
    func.func @mm(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
      %y = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
      return %y : tensor<4x2xf32>
    })mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(autocastModule(*module, "tpu:fp8")));
  EXPECT_GT(errors, 0u);
  ASSERT_TRUE(succeeded(autocastModule(*module, "cuda:fp16")));
  auto fn = *module->getOps<func::FuncOp>().begin();
  // The f16 product's result reaches the signature (keepIoTypes unset).
  EXPECT_TRUE(cast<RankedTensorType>(fn.getResultTypes()[0])
                  .getElementType()
                  .isF16());
  llvm::Error bad = lowerModuleForCPU(*module, "vector-width=3", true);
  ASSERT_TRUE(bool(bad));
  EXPECT_NE(llvm::toString(std::move(bad)).find("vector-width"),
            std::string::npos);
  EXPECT_FALSE(bool(lowerModuleForCPU(*module, "", /*forJit=*/true)));
  EXPECT_FALSE(module->getOps<LLVM::LLVMFuncOp>().empty());
  EXPECT_TRUE(module->getOps<func::FuncOp>().empty());
}
