//===- AllocationFailureTest.cpp - Running out of host memory -------------===//
//
// This file replaces the global operator new of the test binary so that a
// test can make every allocation of its thread fail from the n-th one on.
// Each test runs a call once per failure point n = 0, 1, ... until the call
// no longer reaches one: no exception may escape (the C ABI and the kernels
// turn std::bad_alloc into a status) and a failed GradScaler call must leave
// its state consistent.
//
//===----------------------------------------------------------------------===//

#include "ScalerRig.h"

#include "tensorplay/Runtime/CAPI.h"
#include "tensorplay/Runtime/Codegen.h"

#include <cstdlib>
#include <functional>
#include <new>

namespace {

/// Allocations left before they start failing on this thread; -1: never.
thread_local long allocationsLeft = -1;
/// Whether an allocation failed since the last arm().
thread_local bool injected = false;

void *allocate(std::size_t size) {
  if (allocationsLeft == 0) {
    injected = true;
    throw std::bad_alloc();
  }
  if (allocationsLeft > 0)
    --allocationsLeft;
  if (void *ptr = std::malloc(size ? size : 1))
    return ptr;
  throw std::bad_alloc();
}

} // namespace

void *operator new(std::size_t size) { return allocate(size); }
void *operator new[](std::size_t size) { return allocate(size); }
void operator delete(void *ptr) noexcept { std::free(ptr); }
void operator delete[](void *ptr) noexcept { std::free(ptr); }
void operator delete(void *ptr, std::size_t) noexcept { std::free(ptr); }
void operator delete[](void *ptr, std::size_t) noexcept { std::free(ptr); }

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

/// For n = 0, 1, ...: setup(), then call() with every allocation from the
/// n-th on failing, then check(n, calledThrough). Stops at the first n that
/// call() finishes without a failed allocation. Fails the test if call()
/// throws.
void forEachFailurePoint(const std::function<void()> &setup,
                         const std::function<void()> &call,
                         const std::function<void(long, bool)> &check) {
  for (long n = 0; n < 10000; ++n) {
    SCOPED_TRACE("allocations failing from number " + std::to_string(n));
    setup();
    bool threw = false;
    injected = false;
    allocationsLeft = n;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
      call();
    } catch (...) {
      threw = true;
    }
#else
    call();
#endif
    allocationsLeft = -1;
    ASSERT_FALSE(threw) << "an exception escaped the runtime";
    check(n, !injected);
    if (::testing::Test::HasFatalFailure() || !injected)
      return;
  }
  FAIL() << "the call never completed";
}

TEST(AllocationFailure, CAbiHandlersDoNotAllocate) {
  std::vector<float> grad = {2.0f};
  tp_rt_buffer grads[1] = {{grad.data(), 1, TP_RT_F32, TP_RT_CPU}};
  float scale = 2.0f, foundInf = 0.0f;
  tp_rt_status status = TP_RT_SUCCESS;
  forEachFailurePoint(
      [] {},
      [&] { status = tp_rt_unscale_and_check(grads, -1, &scale, &foundInf); },
      [&](long, bool completed) {
        std::string message = tp_rt_last_error_message();
        if (completed || status == TP_RT_ERROR_INVALID_ARGUMENT) {
          EXPECT_EQ(status, TP_RT_ERROR_INVALID_ARGUMENT);
          // The detailed message, or the code's name when it could not be
          // copied.
          EXPECT_TRUE(message == "grads count is negative (-1)" ||
                      message == "invalid argument")
              << message;
        } else {
          EXPECT_EQ(status, TP_RT_ERROR_OUT_OF_MEMORY) << message;
          EXPECT_EQ(message, "out of host memory");
        }
      });
  EXPECT_STREQ(tp_rt_last_error_message(), "grads count is negative (-1)");
}

// The entry points compiled code calls (Codegen.h) record their errors in
// the codegen error slot: building and copying that message must not throw
// either. A matmul with mismatched ranks builds its message on the heap.
TEST(AllocationFailure, CodegenErrorSlotDoesNotThrow) {
  if (!tp_rt_onednn_available())
    GTEST_SKIP() << "runtime built without oneDNN";
  float data[4] = {0};
  struct {
    void *allocated, *aligned;
    int64_t offset, sizes_and_strides[4];
  } d2{data, data, 0, {2, 2, 2, 1}}, d1{data, data, 0, {4, 1, 0, 0}};
  auto *m2 = reinterpret_cast<tp_rt_memref *>(&d2);
  auto *m1 = reinterpret_cast<tp_rt_memref *>(&d1);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachFailurePoint(
      [] { tp_rt_codegen_clear_error(); },
      [&] {
        status = tp_rt_dnnl_matmul_f32_f32(2, m2, 1, m1, 0, m1, 2, m2,
                                           TP_RT_EPILOGUE_NONE);
      },
      [&](long, bool) {
        std::string message = tp_rt_codegen_error();
        if (status == TP_RT_ERROR_INVALID_ARGUMENT)
          EXPECT_TRUE(message == "tp_rt_dnnl_matmul: ranks 2, 1, 2" ||
                      message == "invalid argument")
              << message;
        else {
          EXPECT_EQ(status, TP_RT_ERROR_OUT_OF_MEMORY) << message;
          EXPECT_TRUE(message == "tp_rt_dnnl_matmul_f32_f32: out of memory" ||
                      message == "out of memory")
              << message;
        }
      });
  EXPECT_STREQ(tp_rt_codegen_error(), "tp_rt_dnnl_matmul: ranks 2, 1, 2");
  tp_rt_codegen_clear_error();
}

TEST(AllocationFailure, CAbiKernelCallsReportOutOfMemory) {
  std::vector<float> g0(100, 4.0f), g1(300, 4.0f);
  tp_rt_buffer grads[2] = {{g0.data(), 100, TP_RT_F32, TP_RT_CPU},
                           {g1.data(), 300, TP_RT_F32, TP_RT_CPU}};
  float scale = 2.0f, foundInf = 0.0f;
  tp_rt_status status = TP_RT_SUCCESS;
  forEachFailurePoint(
      [&] {
        g0.assign(100, 4.0f);
        g1.assign(300, 4.0f);
      },
      [&] { status = tp_rt_unscale_and_check(grads, 2, &scale, &foundInf); },
      [&](long, bool) {
        if (status == TP_RT_SUCCESS) {
          EXPECT_EQ(g0[0], 2.0f);
          EXPECT_EQ(g1[299], 2.0f);
        } else {
          EXPECT_EQ(status, TP_RT_ERROR_OUT_OF_MEMORY);
          EXPECT_EQ(g0[0], 4.0f); // nothing was written
          EXPECT_EQ(g1[299], 4.0f);
        }
      });
  EXPECT_EQ(foundInf, 0.0f);
}

TEST(AllocationFailure, CudaAvailableNeverThrows) {
  const int32_t expected = cudaDeviceStatus().ok() ? 1 : 0;
  int32_t available = -1;
  forEachFailurePoint([] {}, [&] { available = tp_rt_cuda_available(); },
                      [&](long, bool completed) {
                        if (completed || expected == 0)
                          EXPECT_EQ(available, expected);
                      });
}

TEST(AllocationFailure, CreateReportsOutOfMemory) {
  std::vector<float> param(8, 1.0f), grad(8, 0.0f);
  std::vector<Tensor> params, grads;
  const bool cudaAvailable = cudaDeviceStatus().ok();
  StatusCode sgd = StatusCode::Success, adamw = StatusCode::Success,
             scaler = StatusCode::Success;
  forEachFailurePoint(
      [&] {
        params = {cpuTensor(param)};
        grads = {cpuTensor(grad)};
      },
      [&] {
        SgdOptions options;
        options.momentum = 0.9;
        // Moved in: the copies would allocate on this side of the call.
        sgd = SGD::create(std::move(params), std::move(grads), options)
                  .status()
                  .code();
        params = {};
        adamw = AdamW::create({}, {}, AdamWOptions()).status().code();
        // Without a GPU, a CUDA scaler is disabled with a warning (that
        // allocates); the CUDA runtime itself is kept out of this.
        scaler = GradScaler::create(cudaAvailable ? Device::CPU : Device::CUDA)
                     .status()
                     .code();
      },
      [&](long, bool completed) {
        for (StatusCode code : {sgd, adamw, scaler})
          EXPECT_TRUE(code == StatusCode::Success ||
                      (!completed && code == StatusCode::OutOfMemory))
              << statusCodeName(code);
      });
}

/// unscale() or step() of a fresh rig (scale 1024, gradients 2048) with
/// allocations failing: it succeeds, or fails with OutOfMemory having
/// changed nothing it did not record, so that calling it again completes
/// the iteration exactly once.
void expectConsistentOnFailure(bool step, bool fused) {
  ScalerRig rig;
  Status status;
  SgdOptions sgd;
  sgd.lr = 1.0;
  sgd.fused = fused;
  GradScalerOptions options;
  options.initScale = 1024.0;
  auto call = [&] {
    return step ? rig.scaler->step(*rig.sgd) : rig.scaler->unscale(*rig.sgd);
  };
  forEachFailurePoint(
      [&] {
        rig = ScalerRig();
        ASSERT_TRUE(rig.init(options, sgd).ok());
        ASSERT_TRUE(
            rig.scaler->scale(cpuTensor(rig.loss), cpuTensor(rig.scaledLoss))
                .ok());
        rig.grad.assign(4, 2048.0f);
      },
      [&] { status = call(); },
      [&](long, bool) {
        if (!status.ok()) {
          EXPECT_EQ(status.code(), StatusCode::OutOfMemory)
              << status.toString();
          TP_ASSERT_OK(call()); // the retry does what the failed call did not
        }
        // Gradients unscaled exactly once: by the unscale pass or, fused, by
        // the step, which writes them back (as torch's fused kernels).
        EXPECT_EQ(rig.grad, std::vector<float>(4, 2.0f));
        if (step) {
          EXPECT_EQ(rig.param, (std::vector<float>{-1.0f, 0.0f, 1.0f, 2.0f}));
          EXPECT_EQ(*rig.sgd->stepCount(), 1);
        }
        TP_EXPECT_ERROR(call(), StatusCode::InvalidState);
        TP_EXPECT_OK(rig.scaler->update());
      });
}

TEST(AllocationFailure, GradScalerUnscaleStaysConsistent) {
  expectConsistentOnFailure(/*step=*/false, /*fused=*/false);
}

TEST(AllocationFailure, GradScalerStepStaysConsistent) {
  expectConsistentOnFailure(/*step=*/true, /*fused=*/false);
}

TEST(AllocationFailure, GradScalerFusedStepStaysConsistent) {
  expectConsistentOnFailure(/*step=*/true, /*fused=*/true);
}

} // namespace
