//===- CAPITest.cpp - The tp_rt_* C ABI -----------------------------------===//
//
// Every invalid call returns an error status (never crashes), and the valid
// ones compute what the C++ API computes.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "tensorplay/Runtime/CAPI.h"

#include <cmath>
#include <limits>
#include <set>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

extern "C" float tp_rt_c_update_scale_twice(float scale);

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

tp_rt_buffer f32Buffer(std::vector<float> &data) {
  return tp_rt_buffer{data.data(), static_cast<int64_t>(data.size()), TP_RT_F32,
                      TP_RT_CPU};
}

TEST(CAPI, StatusStrings) {
  std::set<std::string> names;
  for (tp_rt_status s = TP_RT_SUCCESS; s <= TP_RT_ERROR_INTERNAL; ++s) {
    const char *name = tp_rt_status_string(s);
    ASSERT_NE(name, nullptr);
    EXPECT_STRNE(name, "");
    EXPECT_STRNE(name, "unknown status") << s;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(TP_RT_ERROR_INTERNAL + 1));
  EXPECT_STREQ(tp_rt_status_string(TP_RT_SUCCESS), "success");
  EXPECT_STREQ(tp_rt_status_string(-1), "unknown status");
  EXPECT_STREQ(tp_rt_status_string(1000), "unknown status");
}

TEST(CAPI, HeaderIsValidC) {
  EXPECT_EQ(tp_rt_c_update_scale_twice(4.0f), 8.0f);
}

TEST(CAPI, LastErrorMessage) {
  ASSERT_EQ(tp_rt_scale_loss(nullptr, nullptr, nullptr),
            TP_RT_ERROR_NULL_POINTER);
  EXPECT_STREQ(tp_rt_last_error_message(), "loss is null");
  float scale = 2.0f;
  std::vector<float> loss = {3.0f};
  tp_rt_buffer buffer = f32Buffer(loss);
  ASSERT_EQ(tp_rt_scale_loss(&buffer, &scale, &buffer), TP_RT_SUCCESS);
  EXPECT_STREQ(tp_rt_last_error_message(), "");
  EXPECT_EQ(loss[0], 6.0f);
}

TEST(CAPI, ScaleLossErrors) {
  std::vector<float> loss = {1.0f}, two = {1.0f, 2.0f};
  tp_rt_buffer a = f32Buffer(loss), b = f32Buffer(two);
  float scale = 4.0f;
  EXPECT_EQ(tp_rt_scale_loss(&a, nullptr, &a), TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_scale_loss(&a, &scale, nullptr), TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_scale_loss(&a, &scale, &b), TP_RT_ERROR_SIZE_MISMATCH);
  tp_rt_buffer bf16 = a;
  bf16.dtype = TP_RT_BF16;
  EXPECT_EQ(tp_rt_scale_loss(&a, &scale, &bf16), TP_RT_ERROR_UNSUPPORTED_DTYPE);
  tp_rt_buffer nullData = a;
  nullData.data = nullptr;
  EXPECT_EQ(tp_rt_scale_loss(&nullData, &scale, &a), TP_RT_ERROR_NULL_POINTER);
  tp_rt_buffer negative = a;
  negative.numel = -1;
  EXPECT_EQ(tp_rt_scale_loss(&negative, &scale, &negative),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(loss[0], 1.0f);
}

TEST(CAPI, UnscaleAndCheck) {
  std::vector<float> g0 = {2.0f, 4.0f}, g1 = {8.0f, kInf, 6.0f};
  tp_rt_buffer grads[2] = {f32Buffer(g0), f32Buffer(g1)};
  float scale = 2.0f, foundInf = 0.0f;
  ASSERT_EQ(tp_rt_unscale_and_check(grads, 2, &scale, &foundInf),
            TP_RT_SUCCESS);
  EXPECT_EQ(foundInf, 1.0f);
  EXPECT_EQ(g0, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(g1[2], 3.0f);
  // found_inf accumulates: a clean call leaves it set.
  g1[1] = 0.0f;
  ASSERT_EQ(tp_rt_unscale_and_check(grads, 2, &scale, &foundInf),
            TP_RT_SUCCESS);
  EXPECT_EQ(foundInf, 1.0f);
  foundInf = 0.0f;
  ASSERT_EQ(tp_rt_check_finite(grads, 2, &foundInf), TP_RT_SUCCESS);
  EXPECT_EQ(foundInf, 0.0f);
  EXPECT_EQ(g0, (std::vector<float>{0.5f, 1.0f}));
  // No gradients is fine.
  ASSERT_EQ(tp_rt_unscale_and_check(nullptr, 0, &scale, &foundInf),
            TP_RT_SUCCESS);
}

TEST(CAPI, UnscaleAndCheckErrors) {
  std::vector<float> g = {2.0f};
  tp_rt_buffer grads[1] = {f32Buffer(g)};
  float scale = 2.0f, foundInf = 0.0f;
  EXPECT_EQ(tp_rt_unscale_and_check(nullptr, 1, &scale, &foundInf),
            TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_unscale_and_check(grads, -1, &scale, &foundInf),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tp_rt_unscale_and_check(grads, 1, nullptr, &foundInf),
            TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_unscale_and_check(grads, 1, &scale, nullptr),
            TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_check_finite(grads, 1, nullptr), TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_check_finite(grads, -3, &foundInf),
            TP_RT_ERROR_INVALID_ARGUMENT);

  tp_rt_buffer bad = grads[0];
  bad.dtype = 7;
  EXPECT_EQ(tp_rt_unscale_and_check(&bad, 1, &scale, &foundInf),
            TP_RT_ERROR_UNSUPPORTED_DTYPE);
  bad = grads[0];
  bad.device = 5;
  EXPECT_EQ(tp_rt_unscale_and_check(&bad, 1, &scale, &foundInf),
            TP_RT_ERROR_INVALID_ARGUMENT);
  bad = grads[0];
  bad.dtype = TP_RT_F16;
  EXPECT_EQ(tp_rt_unscale_and_check(&bad, 1, &scale, &foundInf),
            TP_RT_ERROR_FP16_GRADIENTS);
  EXPECT_STREQ(tp_rt_last_error_message(),
               "Attempting to unscale FP16 gradients.");
  EXPECT_EQ(tp_rt_check_finite(&bad, 1, &foundInf), TP_RT_SUCCESS);

  tp_rt_buffer mixed[2] = {grads[0], grads[0]};
  mixed[1].device = TP_RT_CUDA;
  EXPECT_EQ(tp_rt_unscale_and_check(mixed, 2, &scale, &foundInf),
            TP_RT_ERROR_DEVICE_MISMATCH);
  EXPECT_EQ(g[0], 2.0f);
  EXPECT_EQ(foundInf, 0.0f);
}

TEST(CAPI, CudaBuffersWithoutCudaAreRefused) {
  if (tp_rt_cuda_available())
    GTEST_SKIP() << "a CUDA device is present: CudaTest covers it";
  float deviceLooking = 1.0f, scale = 1.0f, foundInf = 0.0f;
  tp_rt_buffer grad = {&deviceLooking, 1, TP_RT_F32, TP_RT_CUDA};
  EXPECT_EQ(tp_rt_unscale_and_check(&grad, 1, &scale, &foundInf),
            TP_RT_ERROR_CUDA_UNAVAILABLE);
  EXPECT_STRNE(tp_rt_last_error_message(), "");
  int32_t tracker = 0;
  EXPECT_EQ(tp_rt_update_scale(TP_RT_CUDA, &scale, &tracker, &foundInf, 1, 2.0,
                               0.5, 10),
            TP_RT_ERROR_CUDA_UNAVAILABLE);
  EXPECT_EQ(deviceLooking, 1.0f);
}

TEST(CAPI, UpdateScaleErrors) {
  float scale = 8.0f, foundInf = 0.0f;
  int32_t tracker = 3;
  auto update = [&](double growth, double backoff, int64_t interval) {
    return tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &foundInf, 1, growth,
                              backoff, interval);
  };
  EXPECT_EQ(update(1.0, 0.5, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(0.5, 0.5, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(std::nan(""), 0.5, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(std::numeric_limits<double>::infinity(), 0.5, 10),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, 1.0, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, 1.5, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, 0.0, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, -0.5, 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, std::nan(""), 10), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, 0.5, 0), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(update(2.0, 0.5, -4), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tp_rt_update_scale(TP_RT_CPU, nullptr, &tracker, &foundInf, 1, 2.0,
                               0.5, 10),
            TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_update_scale(TP_RT_CPU, &scale, nullptr, &foundInf, 1, 2.0,
                               0.5, 10),
            TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, nullptr, 1, 2.0, 0.5, 10),
      TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &foundInf, 0, 2.0,
                               0.5, 10),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &foundInf, -1, 2.0,
                               0.5, 10),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tp_rt_update_scale(9, &scale, &tracker, &foundInf, 1, 2.0, 0.5, 10),
            TP_RT_ERROR_INVALID_ARGUMENT);
  // Nothing changed.
  EXPECT_EQ(scale, 8.0f);
  EXPECT_EQ(tracker, 3);
  EXPECT_EQ(update(2.0, 0.5, 4), TP_RT_SUCCESS);
  EXPECT_EQ(scale, 16.0f);
  EXPECT_EQ(tracker, 0);
}

TEST(CAPI, FusedSgdStep) {
  std::vector<float> p0 = {1.0f, 2.0f}, g0 = {4.0f, 8.0f}, m0 = {0.0f, 0.0f};
  tp_rt_buffer params[1] = {f32Buffer(p0)}, grads[1] = {f32Buffer(g0)},
               bufs[1] = {f32Buffer(m0)};
  tp_rt_sgd_options options = {0.5, 0.9, 0.0, 0.0, 0, 0};
  int64_t step = 0;
  float scale = 4.0f, foundInf = 0.0f;
  ASSERT_EQ(tp_rt_check_finite(grads, 1, &foundInf), TP_RT_SUCCESS);
  ASSERT_EQ(tp_rt_sgd_step(params, grads, bufs, 1, &options, &step, &scale,
                           &foundInf),
            TP_RT_SUCCESS);
  // Unscaled grads 1, 2; first step: buffer = grad; p -= 0.5 * buffer.
  EXPECT_EQ(p0, (std::vector<float>{0.5f, 1.0f}));
  EXPECT_EQ(m0, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(g0, (std::vector<float>{1.0f, 2.0f})); // written back unscaled
  EXPECT_EQ(step, 1);
  // found_inf set: nothing moves, the gradients and step count included.
  foundInf = 1.0f;
  g0 = {4.0f, 8.0f};
  ASSERT_EQ(tp_rt_sgd_step(params, grads, bufs, 1, &options, &step, &scale,
                           &foundInf),
            TP_RT_SUCCESS);
  EXPECT_EQ(p0, (std::vector<float>{0.5f, 1.0f}));
  EXPECT_EQ(m0, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(g0, (std::vector<float>{4.0f, 8.0f}));
  EXPECT_EQ(step, 1);
  // Without scale / found_inf: a plain step on the gradients as they are.
  g0 = {1.0f, 1.0f};
  ASSERT_EQ(
      tp_rt_sgd_step(params, grads, bufs, 1, &options, &step, nullptr, nullptr),
      TP_RT_SUCCESS);
  EXPECT_EQ(m0[0], 0.9f * 1.0f + 1.0f);
  EXPECT_EQ(step, 2);
}

TEST(CAPI, OptimizerStepErrors) {
  std::vector<float> p = {1.0f}, g = {1.0f}, m = {0.0f}, v = {0.0f};
  tp_rt_buffer params[1] = {f32Buffer(p)}, grads[1] = {f32Buffer(g)},
               avgs[1] = {f32Buffer(m)}, sqs[1] = {f32Buffer(v)};
  tp_rt_sgd_options sgd = {0.1, 0.9, 0.0, 0.0, 0, 0};
  tp_rt_adamw_options adamw = {1e-3, 0.9, 0.999, 1e-8, 1e-2, 0, 0};
  int64_t step = 0;
  EXPECT_EQ(
      tp_rt_sgd_step(params, grads, nullptr, 1, &sgd, &step, nullptr, nullptr),
      TP_RT_ERROR_NULL_POINTER); // momentum needs buffers
  EXPECT_EQ(
      tp_rt_sgd_step(params, grads, avgs, 1, nullptr, &step, nullptr, nullptr),
      TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(
      tp_rt_sgd_step(params, grads, avgs, 1, &sgd, nullptr, nullptr, nullptr),
      TP_RT_ERROR_NULL_POINTER);
  EXPECT_EQ(
      tp_rt_sgd_step(params, grads, avgs, -1, &sgd, &step, nullptr, nullptr),
      TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      tp_rt_sgd_step(nullptr, grads, avgs, 1, &sgd, &step, nullptr, nullptr),
      TP_RT_ERROR_NULL_POINTER);
  tp_rt_sgd_options nesterov = {0.1, 0.0, 0.0, 0.0, 1, 0};
  EXPECT_EQ(tp_rt_sgd_step(params, grads, avgs, 1, &nesterov, &step, nullptr,
                           nullptr),
            TP_RT_ERROR_INVALID_ARGUMENT);
  tp_rt_sgd_options negativeLr = {-0.1, 0.0, 0.0, 0.0, 0, 0};
  EXPECT_EQ(tp_rt_sgd_step(params, grads, nullptr, 1, &negativeLr, &step,
                           nullptr, nullptr),
            TP_RT_ERROR_INVALID_ARGUMENT);

  EXPECT_EQ(tp_rt_adamw_step(params, grads, avgs, nullptr, nullptr, 1, &adamw,
                             &step, nullptr, nullptr),
            TP_RT_ERROR_NULL_POINTER);
  tp_rt_adamw_options ams = adamw;
  ams.amsgrad = 1;
  EXPECT_EQ(tp_rt_adamw_step(params, grads, avgs, sqs, nullptr, 1, &ams, &step,
                             nullptr, nullptr),
            TP_RT_ERROR_NULL_POINTER);
  tp_rt_adamw_options badBeta = adamw;
  badBeta.beta1 = 1.0;
  EXPECT_EQ(tp_rt_adamw_step(params, grads, avgs, sqs, nullptr, 1, &badBeta,
                             &step, nullptr, nullptr),
            TP_RT_ERROR_INVALID_ARGUMENT);
  std::vector<float> two = {0.0f, 0.0f};
  tp_rt_buffer wrong[1] = {f32Buffer(two)};
  EXPECT_EQ(tp_rt_adamw_step(params, grads, wrong, sqs, nullptr, 1, &adamw,
                             &step, nullptr, nullptr),
            TP_RT_ERROR_SIZE_MISMATCH);
  tp_rt_buffer bf16[1] = {avgs[0]};
  bf16[0].dtype = TP_RT_BF16;
  EXPECT_EQ(tp_rt_adamw_step(params, grads, bf16, sqs, nullptr, 1, &adamw,
                             &step, nullptr, nullptr),
            TP_RT_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(p[0], 1.0f);
  EXPECT_EQ(step, 0);

  ASSERT_EQ(tp_rt_adamw_step(params, grads, avgs, sqs, nullptr, 1, &adamw,
                             &step, nullptr, nullptr),
            TP_RT_SUCCESS);
  EXPECT_EQ(step, 1);
  EXPECT_LT(p[0], 1.0f);
}

} // namespace
