//===- RuntimeTestUtils.h - Helpers for the runtime tests -------*- C++ -*-===//

#ifndef TENSORPLAY_TEST_RUNTIME_RUNTIMETESTUTILS_H
#define TENSORPLAY_TEST_RUNTIME_RUNTIMETESTUTILS_H

#include "tensorplay/Runtime/Kernels.h"
#include "tensorplay/Runtime/Status.h"
#include "tensorplay/Runtime/Tensor.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

/// Fails the test (and returns) unless `expr` yields a successful Status.
#define TP_ASSERT_OK(expr)                                                     \
  do {                                                                         \
    ::tensorplay::amp::Status tpStatus_ = (expr);                              \
    ASSERT_TRUE(tpStatus_.ok()) << tpStatus_.toString();                       \
  } while (false)

#define TP_EXPECT_OK(expr)                                                     \
  do {                                                                         \
    ::tensorplay::amp::Status tpStatus_ = (expr);                              \
    EXPECT_TRUE(tpStatus_.ok()) << tpStatus_.toString();                       \
  } while (false)

/// Expects `expr` to fail with `expectedCode`.
#define TP_EXPECT_ERROR(expr, expectedCode)                                    \
  do {                                                                         \
    ::tensorplay::amp::Status tpStatus_ = (expr);                              \
    EXPECT_EQ(tpStatus_.code(), (expectedCode)) << tpStatus_.toString();       \
  } while (false)

namespace tensorplay::amp {

// Readable parameter values in test names and ctest listings.
inline void PrintTo(DType dtype, std::ostream *os) { *os << dtypeName(dtype); }
inline void PrintTo(CpuKernelPath path, std::ostream *os) {
  *os << cpuKernelPathName(path);
}
inline void PrintTo(const SgdHyperParams &h, std::ostream *os) {
  *os << "lr=" << h.lr << " momentum=" << h.momentum
      << " dampening=" << h.dampening << " weight_decay=" << h.weightDecay
      << " nesterov=" << h.nesterov << " maximize=" << h.maximize;
}
inline void PrintTo(const AdamWHyperParams &h, std::ostream *os) {
  *os << "lr=" << h.lr << " weight_decay=" << h.weightDecay
      << " amsgrad=" << h.amsgrad << " maximize=" << h.maximize;
}

} // namespace tensorplay::amp

namespace tensorplay::amp::test {

inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline Tensor cpuTensor(std::vector<float> &data) {
  return Tensor{data.data(), static_cast<int64_t>(data.size()), DType::F32,
                Device::CPU};
}

inline Tensor cpuTensor(std::vector<uint16_t> &data, DType dtype) {
  return Tensor{data.data(), static_cast<int64_t>(data.size()), dtype,
                Device::CPU};
}

/// Deterministic values uniform in [lo, hi).
inline std::vector<float> randomFloats(size_t n, uint32_t seed, float lo = -1,
                                       float hi = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(n);
  for (float &v : values)
    v = dist(rng);
  return values;
}

/// Whether two float arrays are bitwise equal.
inline ::testing::AssertionResult bitwiseEqual(const std::vector<float> &a,
                                               const std::vector<float> &b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes differ";
  for (size_t i = 0; i < a.size(); ++i)
    if (bitsOf(a[i]) != bitsOf(b[i]))
      return ::testing::AssertionFailure()
             << "element " << i << ": " << a[i] << " vs " << b[i];
  return ::testing::AssertionSuccess();
}

/// Restores the CPU kernel path, thread count and threshold on scope exit.
class CpuConfigGuard {
public:
  CpuConfigGuard()
      : path(cpuKernelPath()), threads(cpuThreadCount()),
        threshold(cpuParallelThreshold()) {}
  ~CpuConfigGuard() {
    (void)setCpuKernelPath(path);
    setCpuThreadCount(threads);
    setCpuParallelThreshold(threshold);
  }

private:
  CpuKernelPath path;
  unsigned threads;
  int64_t threshold;
};

/// A path under the test temporary directory, unique per process.
inline std::string tempPath(const std::string &name) {
  return ::testing::TempDir() + "tp_rt_" + name + "_" +
         std::to_string(static_cast<long>(::getpid())) + ".bin";
}

} // namespace tensorplay::amp::test

#endif // TENSORPLAY_TEST_RUNTIME_RUNTIMETESTUTILS_H
