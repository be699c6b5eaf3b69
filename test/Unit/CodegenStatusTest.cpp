//===- CodegenStatusTest.cpp - Per-thread errors of compiled-code calls ---===//
//
// The codegen runtime keeps one error status per calling thread, and the
// workers of a parallel loop record into their launcher's: two threads
// failing and succeeding at once each see their own status, an error raised
// inside a parallel loop reaches the thread that launched it, and two
// threads calling one executable (and two executables) concurrently get
// their own results and errors.
//
//===----------------------------------------------------------------------===//

#include "MemrefDescriptors.h"

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Runtime/Codegen.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::tp;
using tensorplay::test::Desc1;
using tensorplay::test::Desc2;

namespace {

/// Records an error in the calling thread's status: a tp_rt_dnnl_* matmul
/// with mismatched ranks ("ranks" in the message).
void recordRanksError() {
  float a[12] = {}, c[6] = {}, bias[2] = {};
  Desc2 da{a, a, 0, {3, 4}, {4, 1}};
  Desc2 dc{c, c, 0, {3, 2}, {2, 1}};
  Desc1 dbias{bias, bias, 0, 2, 1};
  (void)tp_rt_dnnl_matmul_f32_f32(2, reinterpret_cast<tp_rt_memref *>(&da), 1,
                                  reinterpret_cast<tp_rt_memref *>(&dbias), 1,
                                  reinterpret_cast<tp_rt_memref *>(&dbias), 2,
                                  reinterpret_cast<tp_rt_memref *>(&dc),
                                  TP_RT_EPILOGUE_NONE);
}

bool mentions(const char *message, const char *what) {
  return std::string(message).find(what) != std::string::npos;
}

} // namespace

namespace {
/// Steps two threads take in turn.
struct Turns {
  std::atomic<int> step{0};
  void waitFor(int n) const {
    while (step.load() < n)
      std::this_thread::yield();
  }
  void next() { ++step; }
};
} // namespace

TEST(CodegenStatus, EachThreadSeesOnlyItsOwnError) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  Turns turns;
  std::string seenByOther, keptByFailing;
  std::thread failing([&] {
    tp_rt_codegen_clear_error();
    recordRanksError();
    turns.next(); // 1: the other thread looks now
    turns.waitFor(2);
    keptByFailing = tp_rt_codegen_error();
    tp_rt_codegen_clear_error();
  });
  std::thread clean([&] {
    turns.waitFor(1);
    seenByOther = tp_rt_codegen_error();
    tp_rt_codegen_clear_error(); // must not clear the other's
    turns.next();                // 2
  });
  failing.join();
  clean.join();
  EXPECT_EQ(seenByOther, "");
  EXPECT_TRUE(mentions(keptByFailing.c_str(), "ranks")) << keptByFailing;
}

namespace {
struct FailAt {
  int64_t index;
  std::atomic<int> failures{0};
};

void failAtIndex(void *context, int64_t lo, int64_t hi) {
  auto *f = static_cast<FailAt *>(context);
  if (lo <= f->index && f->index < hi) {
    recordRanksError();
    ++f->failures;
  }
}
} // namespace

TEST(CodegenStatus, AParallelLoopsErrorReachesItsLauncher) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  ASSERT_EQ(tp_rt_set_num_threads(4), TP_RT_SUCCESS);
  // Every piece of the range in turn: the failing one runs on whichever
  // worker takes it, and the launcher sees the error all the same.
  for (int64_t at : {int64_t(0), int64_t(37), int64_t(999)}) {
    tp_rt_codegen_clear_error();
    FailAt f{at};
    tp_rt_parallel_for(failAtIndex, &f, 0, 1000);
    EXPECT_EQ(f.failures.load(), 1);
    EXPECT_TRUE(mentions(tp_rt_codegen_error(), "ranks"))
        << at << ": " << tp_rt_codegen_error();
  }
  tp_rt_codegen_clear_error();
  // A loop without a failure leaves the status empty, even right after
  // another thread's failing loop.
  std::thread([] {
    FailAt f{-1};
    tp_rt_codegen_clear_error();
    tp_rt_parallel_for(failAtIndex, &f, 0, 1000);
    EXPECT_STREQ(tp_rt_codegen_error(), "");
  }).join();
  ASSERT_EQ(tp_rt_set_num_threads(0), TP_RT_SUCCESS);
}

namespace {
/// @inv: the inverse of a 3x3 matrix, a run-time error (tensorplay's
/// words) when it is singular.
const char *kInverse = R"mlir(
func.func @inv(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = tp.linalg_inv %a : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
)mlir";

std::unique_ptr<Executable> compileInverse(MLIRContext &ctx) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kInverse, &ctx);
  if (!module)
    return nullptr;
  auto exe = Executable::compile(std::move(module), {});
  if (!exe) {
    llvm::consumeError(exe.takeError());
    return nullptr;
  }
  return std::move(*exe);
}

/// Runs @inv `times` times on `matrix`; counts the failures and checks
/// the successes' results against `expected` (null: expect failures).
void invert(Executable &exe, const float *matrix, const float *expected,
            int times, int &failures, int &wrong) {
  for (int i = 0; i < times; ++i) {
    float in[9], out[9] = {};
    std::memcpy(in, matrix, sizeof in);
    const int64_t shape[2] = {3, 3};
    TensorRef arg{ElementKind::F32, shape, in};
    TensorRef result{ElementKind::F32, shape, out};
    llvm::Error error = exe.run("inv", llvm::ArrayRef<TensorRef>(arg),
                                llvm::ArrayRef<TensorRef>(result));
    if (error) {
      ++failures;
      std::string message = llvm::toString(std::move(error));
      if (expected || !mentions(message.c_str(), "diagonal element"))
        ++wrong;
      continue;
    }
    if (!expected) {
      ++wrong;
      continue;
    }
    for (int k = 0; k < 9; ++k)
      if (std::abs(out[k] - expected[k]) > 1e-5f)
        ++wrong;
  }
}
} // namespace

TEST(CodegenStatus, ThreadsCallingExecutablesGetTheirOwnErrors) {
  MLIRContext ctx;
  prepareCompilerContext(ctx);
  std::unique_ptr<Executable> first = compileInverse(ctx);
  std::unique_ptr<Executable> second = compileInverse(ctx);
  ASSERT_TRUE(first && second);
  const float singular[9] = {1, 2, 3, 2, 4, 6, 0, 1, 1};
  const float diagonal[9] = {2, 0, 0, 0, 4, 0, 0, 0, 0.5f};
  const float inverse[9] = {0.5f, 0, 0, 0, 0.25f, 0, 0, 0, 2};
  constexpr int kCalls = 300;
  // One executable from two threads, then two executables.
  for (Executable *other : {first.get(), second.get()}) {
    int failA = 0, wrongA = 0, failB = 0, wrongB = 0;
    std::thread a(
        [&] { invert(*first, singular, nullptr, kCalls, failA, wrongA); });
    std::thread b(
        [&] { invert(*other, diagonal, inverse, kCalls, failB, wrongB); });
    a.join();
    b.join();
    EXPECT_EQ(failA, kCalls);
    EXPECT_EQ(wrongA, 0);
    EXPECT_EQ(failB, 0) << "a clean call saw the other thread's error";
    EXPECT_EQ(wrongB, 0);
  }
}
