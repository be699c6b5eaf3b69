//===- SizeLimitTest.cpp - Sizes that overflow are refused, not wrapped ---===//
//
// Element counts whose byte size (or whose rounded-up allocation size, or
// whose total over a list) does not fit are errors: nothing is allocated,
// read or written.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "tensorplay/Runtime/Buffer.h"
#include "tensorplay/Runtime/CAPI.h"
#include "tensorplay/Runtime/Optimizers.h"

#include <cstdint>
#include <limits>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

/// 4 * ((2^62) - 2) bytes wraps around 2^64 to almost 2^64, and the round-up
/// to 64 bytes then wraps to 0.
constexpr int64_t kHugeF32 = (int64_t(1) << 62) - 2;

::testing::AssertionResult mentions(const Status &status,
                                    const std::string &fragment) {
  if (status.message().find(fragment) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.toString();
}

TEST(SizeLimits, BufferByteSizeOverflowIsRefused) {
  Expected<Buffer> buffer = Buffer::allocate(Device::CPU, DType::F32, kHugeF32);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.status().code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(mentions(buffer.status(), std::to_string(kHugeF32)));
  EXPECT_TRUE(mentions(buffer.status(), "overflows"));
  Expected<Buffer> f16 = Buffer::allocate(Device::CPU, DType::F16,
                                          std::numeric_limits<int64_t>::max());
  EXPECT_EQ(f16.status().code(), StatusCode::InvalidArgument);
}

TEST(SizeLimits, BufferRoundUpOverflowIsRefused) {
  const size_t bytes = std::numeric_limits<size_t>::max() - 10;
  Expected<Buffer> buffer = Buffer::allocate(Device::CPU, bytes);
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.status().code(), StatusCode::OutOfMemory);
  EXPECT_TRUE(mentions(buffer.status(), std::to_string(bytes)));
  // Large but representable: an ordinary allocation failure.
  Expected<Buffer> large = Buffer::allocate(Device::CPU, size_t(1) << 62);
  EXPECT_EQ(large.status().code(), StatusCode::OutOfMemory);
}

TEST(SizeLimits, TensorByteSizeIsCheckedByVerifyTensor) {
  float data = 0.0f;
  Tensor huge{&data, kHugeF32, DType::F32, Device::CPU};
  Status status = verifyTensor(huge, "grad");
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(mentions(status, "grad has"));
  // The largest f32 tensor whose byte size fits in ptrdiff_t is accepted.
  huge.numel = std::numeric_limits<int64_t>::max() / 4;
  TP_EXPECT_OK(verifyTensor(huge, "grad"));
  size_t bytes = 0;
  TP_EXPECT_OK(byteSize(DType::BF16, 3, "x", bytes));
  EXPECT_EQ(bytes, 6u);
}

TEST(SizeLimits, OptimizersRefuseParametersTooLargeToAllocateStateFor) {
  float data = 0.0f;
  std::vector<Tensor> params = {{&data, kHugeF32, DType::F32, Device::CPU}};
  std::vector<Tensor> grads = params;
  SgdOptions sgd;
  sgd.momentum = 0.9; // allocates a momentum buffer like the parameter
  Expected<std::unique_ptr<SGD>> sgdOpt = SGD::create(params, grads, sgd);
  EXPECT_EQ(sgdOpt.status().code(), StatusCode::InvalidArgument);
  Expected<std::unique_ptr<AdamW>> adamw =
      AdamW::create(params, grads, AdamWOptions());
  EXPECT_EQ(adamw.status().code(), StatusCode::InvalidArgument);
}

TEST(SizeLimits, CAbiRefusesOversizedDescriptors) {
  float data = 2.0f, scale = 2.0f, foundInf = 0.0f;
  tp_rt_buffer huge = {&data, kHugeF32, TP_RT_F32, TP_RT_CPU};
  EXPECT_EQ(tp_rt_unscale_and_check(&huge, 1, &scale, &foundInf),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_last_error_message()).find("grads[0]"),
            std::string::npos)
      << tp_rt_last_error_message();
  EXPECT_EQ(tp_rt_scale_loss(&huge, &scale, &huge),
            TP_RT_ERROR_INVALID_ARGUMENT);
  // Individually representable, but the list's total overflows int64.
  const int64_t big = std::numeric_limits<int64_t>::max() / 2;
  tp_rt_buffer three[3] = {{&data, big, TP_RT_BF16, TP_RT_CPU},
                           {&data, big, TP_RT_BF16, TP_RT_CPU},
                           {&data, big, TP_RT_BF16, TP_RT_CPU}};
  EXPECT_EQ(tp_rt_check_finite(three, 3, &foundInf),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_last_error_message()).find("overflows"),
            std::string::npos)
      << tp_rt_last_error_message();
  // A count no descriptor array can have.
  tp_rt_buffer one = {&data, 1, TP_RT_F32, TP_RT_CPU};
  EXPECT_EQ(tp_rt_unscale_and_check(&one, std::numeric_limits<int64_t>::max(),
                                    &scale, &foundInf),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(data, 2.0f);
  EXPECT_EQ(foundInf, 0.0f);
}

} // namespace
