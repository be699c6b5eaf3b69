//===- UnscaleKernelTest.cpp - CPU unscale + inf/NaN check ----------------===//
//
// Both CPU paths (portable and AVX-512, selected explicitly) and the
// multi-threaded split: every inf, -inf and NaN placed at the first, middle
// or last element of the first, middle or last tensor is found, and every
// other element is unscaled exactly as store(load(x) * (float)(1.0/scale)).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "cpu/FloatConversion.h"
#include "cpu/UnscaleKernels.h"

#include <cmath>
#include <limits>
#include <tuple>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

/// Gradients of one dtype held in host memory, read and written as f32.
class HostGrads {
public:
  HostGrads(DType dtype, const std::vector<int64_t> &sizes, uint32_t seed)
      : dtype(dtype) {
    for (size_t t = 0; t < sizes.size(); ++t) {
      std::vector<float> values =
          randomFloats(static_cast<size_t>(sizes[t]), seed + t, -1000, 1000);
      if (dtype == DType::F32) {
        wide.push_back(values);
      } else {
        std::vector<uint16_t> narrow(values.size());
        for (size_t i = 0; i < values.size(); ++i)
          narrow[i] = encode(values[i]);
        half.push_back(narrow);
      }
    }
  }

  std::vector<Tensor> tensors() {
    std::vector<Tensor> result;
    size_t n = dtype == DType::F32 ? wide.size() : half.size();
    for (size_t t = 0; t < n; ++t)
      result.push_back(dtype == DType::F32 ? cpuTensor(wide[t])
                                           : cpuTensor(half[t], dtype));
    return result;
  }

  size_t size() const {
    return dtype == DType::F32 ? wide.size() : half.size();
  }
  int64_t numel(size_t t) const {
    return static_cast<int64_t>(dtype == DType::F32 ? wide[t].size()
                                                    : half[t].size());
  }
  float get(size_t t, int64_t i) const {
    return dtype == DType::F32 ? wide[t][i] : decode(half[t][i]);
  }
  void set(size_t t, int64_t i, float v) {
    if (dtype == DType::F32)
      wide[t][i] = v;
    else
      half[t][i] = encode(v);
  }
  /// The value store(load(x) * invScale) of the dtype.
  float unscaled(float x, float invScale) const {
    return dtype == DType::F32 ? x * invScale : decode(encode(x * invScale));
  }

private:
  uint16_t encode(float v) const {
    return dtype == DType::BF16 ? cpu::floatToBf16(v) : cpu::floatToF16(v);
  }
  float decode(uint16_t v) const {
    return dtype == DType::BF16 ? cpu::bf16ToFloat(v) : cpu::f16ToFloat(v);
  }

  DType dtype;
  std::vector<std::vector<float>> wide;
  std::vector<std::vector<uint16_t>> half;
};

/// Expects `after` to be `before` unscaled (f16: unchanged, check only).
void expectUnscaled(const HostGrads &before, const HostGrads &after,
                    float invScale, bool write) {
  for (size_t t = 0; t < before.size(); ++t)
    for (int64_t i = 0; i < before.numel(t); ++i) {
      float expected = write ? before.unscaled(before.get(t, i), invScale)
                             : before.get(t, i);
      float actual = after.get(t, i);
      if (std::isnan(expected)) {
        ASSERT_TRUE(std::isnan(actual)) << "tensor " << t << " element " << i;
      } else {
        ASSERT_EQ(bitsOf(actual), bitsOf(expected))
            << "tensor " << t << " element " << i << ": " << actual << " vs "
            << expected;
      }
    }
}

/// f32 and bf16 are unscaled; f16 gradients can only be checked.
Status runKernel(DType dtype, std::vector<Tensor> &tensors, const float *scale,
                 float *foundInf) {
  if (dtype == DType::F16)
    return checkFinite(tensors, foundInf);
  return unscaleAndCheck(tensors, scale, foundInf);
}

using PathAndDType = std::tuple<CpuKernelPath, DType>;

class UnscalePaths : public ::testing::TestWithParam<PathAndDType> {
protected:
  void SetUp() override {
    if (std::get<0>(GetParam()) == CpuKernelPath::AVX512 &&
        !cpuSupportsAvx512())
      GTEST_SKIP() << "this CPU has no AVX-512F/BW/VL";
    ASSERT_TRUE(setCpuKernelPath(std::get<0>(GetParam())).ok());
    ASSERT_EQ(cpuKernelPath(), std::get<0>(GetParam()));
  }

  DType dtype() const { return std::get<1>(GetParam()); }
  CpuConfigGuard guard;
};

const std::vector<int64_t> kSizes = {37, 1000, 4099, 17, 64};

TEST_P(UnscalePaths, CleanGradientsAreUnscaledExactly) {
  HostGrads original(dtype(), kSizes, 7);
  HostGrads grads = original;
  std::vector<Tensor> tensors = grads.tensors();
  const float scale = 3000.0f; // 1/3000 is not a power of two.
  float foundInf = 0.0f;
  TP_ASSERT_OK(runKernel(dtype(), tensors, &scale, &foundInf));
  EXPECT_EQ(foundInf, 0.0f);
  expectUnscaled(original, grads, inverseScale(scale), dtype() != DType::F16);
}

TEST_P(UnscalePaths, EveryNonFinitePositionIsFound) {
  const HostGrads original(dtype(), kSizes, 11);
  const float scale = 1024.0f;
  const size_t tensorsAt[] = {0, kSizes.size() / 2, kSizes.size() - 1};
  const float values[] = {kInf, -kInf, std::nanf("")};
  for (size_t t : tensorsAt) {
    const int64_t n = original.numel(t);
    for (int64_t i : {int64_t(0), n / 2, n - 1}) {
      for (float value : values) {
        SCOPED_TRACE("tensor " + std::to_string(t) + " element " +
                     std::to_string(i) + " value " + std::to_string(value));
        HostGrads before = original;
        before.set(t, i, value);
        HostGrads grads = before;
        std::vector<Tensor> tensors = grads.tensors();
        float foundInf = 0.0f;
        TP_ASSERT_OK(runKernel(dtype(), tensors, &scale, &foundInf));
        EXPECT_EQ(foundInf, 1.0f);
        expectUnscaled(before, grads, inverseScale(scale),
                       dtype() != DType::F16);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    CpuKernels, UnscalePaths,
    ::testing::Combine(::testing::Values(CpuKernelPath::Portable,
                                         CpuKernelPath::AVX512),
                       ::testing::Values(DType::F32, DType::BF16, DType::F16)),
    [](const ::testing::TestParamInfo<PathAndDType> &info) {
      return std::string(cpuKernelPathName(std::get<0>(info.param))) + "_" +
             dtypeName(std::get<1>(info.param));
    });

//===----------------------------------------------------------------------===//
// The two paths against each other
//===----------------------------------------------------------------------===//

TEST(UnscaleKernelPaths, AutoPicksAvx512WhenAvailable) {
  CpuConfigGuard guard;
  TP_ASSERT_OK(setCpuKernelPath(CpuKernelPath::Auto));
  CpuKernelPath expected =
      cpuSupportsAvx512() ? CpuKernelPath::AVX512 : CpuKernelPath::Portable;
  if (const char *env = std::getenv("TP_RT_CPU_KERNEL"))
    if (std::string(env) == "portable")
      expected = CpuKernelPath::Portable;
  EXPECT_EQ(cpuKernelPath(), expected);
  if (!cpuSupportsAvx512())
    TP_EXPECT_ERROR(setCpuKernelPath(CpuKernelPath::AVX512),
                    StatusCode::Unsupported);
}

/// Runs one kernel table over all 65536 16-bit patterns.
std::vector<uint16_t> allPatterns(cpu::UnscaleRangeFn fn, float invScale,
                                  bool *found) {
  std::vector<uint16_t> data(65536);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<uint16_t>(i);
  *found = fn(data.data(), static_cast<int64_t>(data.size()), invScale, true);
  return data;
}

TEST(UnscaleKernelPaths, SixteenBitConversionsMatchExhaustively) {
  if (!cpuSupportsAvx512())
    GTEST_SKIP() << "this CPU has no AVX-512F/BW/VL";
  const cpu::UnscaleKernels &portable = cpu::portableUnscaleKernels();
  const cpu::UnscaleKernels &avx512 = *cpu::avx512UnscaleKernels();
  // 0.7 rounds in every binade; 1 round-trips; 3e4 overflows f16 to inf and
  // 1e-4 makes f16 subnormals.
  for (float invScale : {0.7f, 1.0f, 3e4f, 1e-4f}) {
    for (DType dtype : {DType::F16, DType::BF16}) {
      SCOPED_TRACE(std::string(dtypeName(dtype)) + " * " +
                   std::to_string(invScale));
      bool foundPortable = false, foundAvx512 = false;
      std::vector<uint16_t> a =
          allPatterns(portable.forDType(dtype), invScale, &foundPortable);
      std::vector<uint16_t> b =
          allPatterns(avx512.forDType(dtype), invScale, &foundAvx512);
      EXPECT_TRUE(foundPortable);
      EXPECT_TRUE(foundAvx512);
      for (size_t i = 0; i < a.size(); ++i) {
        float x = dtype == DType::F16 ? cpu::f16ToFloat(a[i])
                                      : cpu::bf16ToFloat(a[i]);
        float y = dtype == DType::F16 ? cpu::f16ToFloat(b[i])
                                      : cpu::bf16ToFloat(b[i]);
        if (std::isnan(x) || std::isnan(y))
          ASSERT_TRUE(std::isnan(x) && std::isnan(y)) << "pattern " << i;
        else
          ASSERT_EQ(a[i], b[i]) << "pattern " << i;
      }
    }
  }
}

TEST(UnscaleKernelPaths, F32PathsAreBitIdentical) {
  if (!cpuSupportsAvx512())
    GTEST_SKIP() << "this CPU has no AVX-512F/BW/VL";
  std::vector<float> base = randomFloats(10007, 3, -1e6f, 1e6f);
  // Subnormals, zeros, extremes.
  base[1] = std::numeric_limits<float>::denorm_min();
  base[2] = -0.0f;
  base[3] = std::numeric_limits<float>::max();
  base[4] = 1e-40f;
  for (float invScale : {inverseScale(3000.0f), inverseScale(1e-30f)}) {
    std::vector<float> a = base, b = base;
    EXPECT_FALSE(
        cpu::portableUnscaleKernels().f32(a.data(), a.size(), invScale, true));
    EXPECT_FALSE(
        cpu::avx512UnscaleKernels()->f32(b.data(), b.size(), invScale, true));
    EXPECT_TRUE(bitwiseEqual(a, b));
  }
}

TEST(UnscaleKernelPaths, CheckOnlyWritesNothing) {
  for (const cpu::UnscaleKernels *kernels :
       {&cpu::portableUnscaleKernels(),
        cpuSupportsAvx512() ? cpu::avx512UnscaleKernels() : nullptr}) {
    if (!kernels)
      continue;
    std::vector<float> data = randomFloats(1001, 5);
    std::vector<float> copy = data;
    EXPECT_FALSE(kernels->f32(data.data(), data.size(), 0.5f, false));
    EXPECT_TRUE(bitwiseEqual(data, copy));
    data[1000] = kInf;
    EXPECT_TRUE(kernels->f32(data.data(), data.size(), 0.5f, false));
  }
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

class UnscaleThreads : public ::testing::TestWithParam<CpuKernelPath> {
protected:
  void SetUp() override {
    if (GetParam() == CpuKernelPath::AVX512 && !cpuSupportsAvx512())
      GTEST_SKIP() << "this CPU has no AVX-512F/BW/VL";
    ASSERT_TRUE(setCpuKernelPath(GetParam()).ok());
  }
  CpuConfigGuard guard;
};

/// (tensor, element) of flat element `flat`.
std::pair<size_t, int64_t> locate(const std::vector<int64_t> &sizes,
                                  int64_t flat) {
  size_t t = 0;
  while (flat >= sizes[t])
    flat -= sizes[t++];
  return {t, flat};
}

TEST_P(UnscaleThreads, LargeInputMatchesSingleThreadAndFindsBoundaryInfs) {
  const std::vector<int64_t> sizes = {(1 << 20) + 3, 777777, 1 << 19, 5};
  int64_t total = 0;
  for (int64_t n : sizes)
    total += n;
  const float scale = 65536.0f;
  const HostGrads original(DType::F32, sizes, 21);

  // Single-threaded reference.
  setCpuParallelThreshold(std::numeric_limits<int64_t>::max());
  ASSERT_EQ(cpuThreadsFor(total), 1u);
  HostGrads reference = original;
  std::vector<Tensor> referenceTensors = reference.tensors();
  float referenceFound = 0.0f;
  TP_ASSERT_OK(unscaleAndCheck(referenceTensors, &scale, &referenceFound));
  ASSERT_EQ(referenceFound, 0.0f);
  setCpuParallelThreshold(int64_t(1) << 18);

  for (unsigned threads : {2u, 3u, 4u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    setCpuThreadCount(threads);
    ASSERT_EQ(cpuThreadsFor(total), threads);
    HostGrads grads = original;
    std::vector<Tensor> tensors = grads.tensors();
    float foundInf = 0.0f;
    TP_ASSERT_OK(unscaleAndCheck(tensors, &scale, &foundInf));
    EXPECT_EQ(foundInf, 0.0f);
    for (size_t t = 0; t < sizes.size(); ++t)
      for (int64_t i = 0; i < sizes[t]; ++i)
        ASSERT_EQ(bitsOf(grads.get(t, i)), bitsOf(reference.get(t, i)));

    // Around every piece boundary (pieces start at multiples of 64), and at
    // the very ends.
    std::vector<int64_t> positions = {0, total - 1};
    for (unsigned w = 1; w < threads; ++w) {
      int64_t cut = (total * w / threads) & ~int64_t(63);
      positions.push_back(cut - 1);
      positions.push_back(cut);
    }
    for (int64_t flat : positions) {
      auto [t, i] = locate(sizes, flat);
      HostGrads bad = original;
      bad.set(t, i, std::nanf(""));
      std::vector<Tensor> badTensors = bad.tensors();
      float found = 0.0f;
      TP_ASSERT_OK(unscaleAndCheck(badTensors, &scale, &found));
      EXPECT_EQ(found, 1.0f) << "NaN at flat element " << flat;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    CpuKernels, UnscaleThreads,
    ::testing::Values(CpuKernelPath::Portable, CpuKernelPath::AVX512),
    [](const ::testing::TestParamInfo<CpuKernelPath> &info) {
      return std::string(cpuKernelPathName(info.param));
    });

TEST(UnscaleThreadsConfig, SmallInputsStayOnTheCallingThread) {
  CpuConfigGuard guard;
  setCpuThreadCount(2);
  setCpuParallelThreshold(1000);
  EXPECT_EQ(cpuThreadsFor(999), 1u);
  EXPECT_EQ(cpuThreadsFor(1000), 2u);
  setCpuThreadCount(0);
  EXPECT_GE(cpuThreadCount(), 1u);
}

} // namespace
