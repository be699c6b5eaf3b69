//===- MixedOptimizerTest.cpp - Narrow gradients and parameter copies -----===//
//
// The fused optimizers with f32 parameters and bf16 / f16 gradients (read
// and widened by the kernel) and bf16 / f16 parameter copies (written with
// the update), as a compiled mixed-precision train step calls them: the
// parameters and state are bitwise those of the f32 step on the widened
// gradients, each copy is its parameter rounded, a narrow gradient is never
// written, a skipped step writes the copies from the unchanged parameters,
// and mismatched dtypes and devices are refused with a message.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"
#include "tensorplay/Runtime/Optimizers.h"

#include "cpu/CpuKernels.h"
#include "cpu/FloatConversion.h"

#include <tuple>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

const std::vector<size_t> kSizes = {5, 130, 1, 67};

enum class Opt { Sgd, SgdNesterov, AdamW, AdamWAmsgrad };

void PrintTo(Opt opt, std::ostream *os) {
  const char *names[] = {"sgd", "sgd_nesterov", "adamw", "adamw_amsgrad"};
  *os << names[static_cast<int>(opt)];
}

uint16_t round16(DType dtype, float v) {
  return dtype == DType::BF16 ? cpu::floatToBf16(v) : cpu::floatToF16(v);
}
float widen16(DType dtype, uint16_t v) {
  return dtype == DType::BF16 ? cpu::bf16ToFloat(v) : cpu::f16ToFloat(v);
}

/// One set of tensors: f32 parameters and state, gradients of `gradDtype`
/// (f32 or narrow), optional copies.
struct State {
  std::vector<std::vector<float>> params, m, v, vmax, grads32;
  std::vector<std::vector<uint16_t>> grads16, copies;
  int64_t step = 0;

  explicit State(uint32_t seed) {
    for (size_t t = 0; t < kSizes.size(); ++t) {
      params.push_back(randomFloats(kSizes[t], seed + t));
      for (auto *s : {&m, &v, &vmax, &grads32})
        s->emplace_back(kSizes[t], 0.0f);
      grads16.emplace_back(kSizes[t], 0);
      copies.emplace_back(kSizes[t], 0);
    }
  }
  static std::vector<Tensor> f32(std::vector<std::vector<float>> &list) {
    std::vector<Tensor> r;
    for (auto &x : list)
      r.push_back(cpuTensor(x));
    return r;
  }
  static std::vector<Tensor> half(std::vector<std::vector<uint16_t>> &list,
                                  DType dtype) {
    std::vector<Tensor> r;
    for (auto &x : list)
      r.push_back(cpuTensor(x, dtype));
    return r;
  }
};

using MixedParam = std::tuple<Opt, DType /*grad*/, int /*copy: -1 none*/,
                              bool /*scale*/, bool /*fma loops*/>;

class MixedOptimizerTest : public ::testing::TestWithParam<MixedParam> {
protected:
  Opt opt() const { return std::get<0>(GetParam()); }
  DType gradDtype() const { return std::get<1>(GetParam()); }
  bool hasCopy() const { return std::get<2>(GetParam()) >= 0; }
  DType copyDtype() const {
    return static_cast<DType>(std::get<2>(GetParam()));
  }
  bool scaled() const { return std::get<3>(GetParam()); }

  /// One step of `s`: narrow gradients (with copies when asked) or f32.
  Status step(State &s, bool narrow, const float *scale,
              const float *foundInf) {
    std::vector<Tensor> p = State::f32(s.params);
    std::vector<Tensor> g =
        narrow ? State::half(s.grads16, gradDtype()) : State::f32(s.grads32);
    std::vector<Tensor> copies;
    if (narrow && hasCopy())
      copies = State::half(s.copies, copyDtype());
    std::vector<Tensor> m = State::f32(s.m), v = State::f32(s.v),
                        vmax = State::f32(s.vmax);
    if (opt() == Opt::Sgd || opt() == Opt::SgdNesterov) {
      SgdHyperParams h;
      h.lr = 0.05;
      h.momentum = 0.9;
      h.weightDecay = 0.01;
      h.nesterov = opt() == Opt::SgdNesterov;
      return sgdStep(h, p, g, m, &s.step, scale, foundInf, copies);
    }
    AdamWHyperParams h;
    h.lr = 1e-2;
    h.amsgrad = opt() == Opt::AdamWAmsgrad;
    return adamwStep(h, p, g, m, v, h.amsgrad ? vmax : std::vector<Tensor>(),
                     &s.step, scale, foundInf, copies);
  }
};

TEST_P(MixedOptimizerTest, SameBitsAsTheF32StepAndCopiesRounded) {
  bool fmaBefore = cpu::optimizerFmaLoops();
  cpu::setOptimizerFmaLoops(std::get<4>(GetParam()));
  State mixed(7), reference(7);
  const float scale = 1024.0f;
  for (int k = 0; k < 4; ++k) {
    for (size_t t = 0; t < kSizes.size(); ++t) {
      std::vector<float> g =
          randomFloats(kSizes[t], 300 + 11 * k + t, -2e3f, 2e3f);
      for (size_t i = 0; i < g.size(); ++i) {
        mixed.grads16[t][i] = round16(gradDtype(), g[i]);
        reference.grads32[t][i] = widen16(gradDtype(), mixed.grads16[t][i]);
      }
    }
    std::vector<std::vector<uint16_t>> gradsBefore = mixed.grads16;
    float found = 0.0f;
    const float *s = scaled() ? &scale : nullptr;
    TP_ASSERT_OK(step(mixed, true, s, scaled() ? &found : nullptr));
    TP_ASSERT_OK(step(reference, false, s, scaled() ? &found : nullptr));
    for (size_t t = 0; t < kSizes.size(); ++t) {
      ASSERT_TRUE(bitwiseEqual(mixed.params[t], reference.params[t]))
          << "step " << k << " tensor " << t;
      ASSERT_TRUE(bitwiseEqual(mixed.m[t], reference.m[t])) << t;
      ASSERT_TRUE(bitwiseEqual(mixed.v[t], reference.v[t])) << t;
      ASSERT_TRUE(bitwiseEqual(mixed.vmax[t], reference.vmax[t])) << t;
      EXPECT_EQ(mixed.grads16[t], gradsBefore[t]) << "a narrow grad is read";
      if (hasCopy())
        for (size_t i = 0; i < kSizes[t]; ++i)
          ASSERT_EQ(mixed.copies[t][i],
                    round16(copyDtype(), mixed.params[t][i]))
              << "tensor " << t << " element " << i;
    }
    EXPECT_EQ(mixed.step, reference.step);
  }
  // Skipped: parameters and state unchanged, the copies rewritten from them.
  if (hasCopy()) {
    State before = mixed;
    for (auto &c : mixed.copies)
      std::fill(c.begin(), c.end(), uint16_t(0x1234));
    float found = 1.0f;
    TP_ASSERT_OK(step(mixed, true, &scale, &found));
    for (size_t t = 0; t < kSizes.size(); ++t) {
      ASSERT_TRUE(bitwiseEqual(mixed.params[t], before.params[t]));
      ASSERT_TRUE(bitwiseEqual(mixed.m[t], before.m[t]));
      EXPECT_EQ(mixed.copies[t], before.copies[t]);
    }
    EXPECT_EQ(mixed.step, before.step);
  }
  cpu::setOptimizerFmaLoops(fmaBefore);
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, MixedOptimizerTest,
    ::testing::Combine(::testing::Values(Opt::Sgd, Opt::SgdNesterov, Opt::AdamW,
                                         Opt::AdamWAmsgrad),
                       ::testing::Values(DType::BF16, DType::F16),
                       ::testing::Values(-1, static_cast<int>(DType::BF16),
                                         static_cast<int>(DType::F16)),
                       ::testing::Bool(), ::testing::Bool()));

/// Each dtype message names the tensors that disagree and the dtype they
/// were compared with (a narrower list is compared with its first tensor,
/// not with the parameters).
TEST(MixedOptimizer, DtypeMessagesNameWhatDisagrees) {
  std::vector<float> p(4, 1.0f), p2(4, 1.0f), g32(4, 0.5f), m(4, 0.0f);
  std::vector<uint16_t> pHalf(4, 0), mHalf(4, 0);
  std::vector<uint16_t> a(4, 0), b(4, 0), c(4, 0), d(4, 0);
  int64_t step = 0;
  SgdHyperParams sgd;
  sgd.lr = 0.1;
  sgd.momentum = 0.9;
  AdamWHyperParams adam;
  auto expectMessage = [](Status status, const std::string &message) {
    EXPECT_EQ(status.code(), StatusCode::UnsupportedDType) << message;
    EXPECT_EQ(status.message(), message) << status.toString();
  };
  std::vector<Tensor> params = {cpuTensor(p), cpuTensor(p2)}, none;
  // The case: f32 parameters, a bf16 and an f16 gradient.
  std::vector<Tensor> mixedGrads = {cpuTensor(a, DType::BF16),
                                    cpuTensor(b, DType::F16)};
  expectMessage(
      sgdStep(sgd, params, mixedGrads, none, &step, nullptr, nullptr, none),
      "grads[1] is f16 but grads[0] is bf16");
  std::vector<Tensor> m2 = {cpuTensor(m), cpuTensor(m)},
                      v2 = {cpuTensor(m), cpuTensor(m)};
  expectMessage(adamwStep(adam, params, mixedGrads, m2, v2, none, &step,
                          nullptr, nullptr, none),
                "grads[1] is f16 but grads[0] is bf16");
  // f32 gradients beside an f32 first one: compared with the parameters.
  std::vector<Tensor> wideFirst = {cpuTensor(g32), cpuTensor(a, DType::BF16)};
  expectMessage(
      sgdStep(sgd, params, wideFirst, none, &step, nullptr, nullptr, none),
      "grads[1] is bf16 but the parameters are f32");
  // Parameter copies of two narrow dtypes.
  std::vector<Tensor> bf16Grads = {cpuTensor(a, DType::BF16),
                                   cpuTensor(b, DType::BF16)};
  std::vector<Tensor> mixedCopies = {cpuTensor(c, DType::BF16),
                                     cpuTensor(d, DType::F16)};
  expectMessage(sgdStep(sgd, params, bf16Grads, none, &step, nullptr, nullptr,
                        mixedCopies),
                "param_copies[1] is f16 but param_copies[0] is bf16");
  // Parameters of two dtypes.
  std::vector<Tensor> mixedParams = {cpuTensor(p),
                                     cpuTensor(pHalf, DType::BF16)};
  std::vector<Tensor> f32Grads = {cpuTensor(g32), cpuTensor(g32)};
  expectMessage(
      sgdStep(sgd, mixedParams, f32Grads, none, &step, nullptr, nullptr, none),
      "params[1] is bf16 but params[0] is f32");
  // State of another dtype than the parameters.
  std::vector<Tensor> wideMomentum = {cpuTensor(m),
                                      cpuTensor(mHalf, DType::F16)};
  expectMessage(sgdStep(sgd, params, f32Grads, wideMomentum, &step, nullptr,
                        nullptr, none),
                "momentum_buffers[1] is f16 but the parameters are f32");
  std::vector<Tensor> wideAvg = {cpuTensor(mHalf, DType::F16), cpuTensor(m)};
  expectMessage(adamwStep(adam, params, f32Grads, wideAvg, v2, none, &step,
                          nullptr, nullptr, none),
                "exp_avgs[0] is f16 but the parameters are f32");
  expectMessage(adamwStep(adam, params, f32Grads, m2, wideAvg, none, &step,
                          nullptr, nullptr, none),
                "exp_avg_sqs[0] is f16 but the parameters are f32");
  // The optimizer objects: one dtype for parameters and gradients.
  expectMessage(SGD::create(params, bf16Grads, {}).status(),
                "grads[0] is bf16 but params[0] is f32: an optimizer's "
                "parameters and gradients have one dtype");
  expectMessage(SGD::create(mixedParams, f32Grads, {}).status(),
                "params[1] is bf16 but params[0] is f32: an optimizer's "
                "parameters and gradients have one dtype");
  EXPECT_EQ(step, 0);
}

TEST(MixedOptimizer, MismatchedDtypesAreRefused) {
  std::vector<float> p(4, 1.0f), g32(4, 0.5f);
  std::vector<uint16_t> pHalf(4, 0), g16(4, 0), c16(4, 0);
  std::vector<float> c32(4, 0.0f);
  int64_t step = 0;
  SgdHyperParams h;
  h.lr = 0.1;
  std::vector<Tensor> params = {cpuTensor(p)};
  auto check = [&](std::vector<Tensor> ps, std::vector<Tensor> gs,
                   std::vector<Tensor> cs, const char *message) {
    Status status = sgdStep(h, ps, gs, {}, &step, nullptr, nullptr, cs);
    EXPECT_EQ(status.code(), StatusCode::UnsupportedDType) << message;
    EXPECT_NE(status.toString().find(message), std::string::npos)
        << status.toString();
  };
  // A bf16 parameter takes bf16 gradients only.
  check({cpuTensor(pHalf, DType::BF16)}, {cpuTensor(g32)}, {},
        "grads[0] is f32 but the parameters are bf16: gradients have the "
        "parameters' dtype (only f32 parameters also take bf16 or f16 "
        "gradients)");
  check({cpuTensor(pHalf, DType::BF16)}, {cpuTensor(g16, DType::F16)}, {},
        "grads[0] is f16 but the parameters are bf16");
  // Copies are narrow copies of f32 parameters.
  check(params, {cpuTensor(g32)}, {cpuTensor(c32)},
        "param_copies[0] is f32: parameter copies are bf16 or f16 copies of "
        "f32 parameters");
  check({cpuTensor(pHalf, DType::BF16)}, {cpuTensor(pHalf, DType::BF16)},
        {cpuTensor(c16, DType::F16)},
        "param_copies[0] is f16 but the parameters are bf16: parameter "
        "copies are bf16 or f16");
  EXPECT_EQ(step, 0);
  // A copy list of another length is a size mismatch.
  std::vector<Tensor> grads = {cpuTensor(g32)}, none;
  TP_EXPECT_OK(sgdStep(h, params, grads, none, &step, nullptr, nullptr, none));
  std::vector<Tensor> two = {cpuTensor(c16, DType::BF16),
                             cpuTensor(c16, DType::BF16)};
  TP_EXPECT_ERROR(sgdStep(h, params, grads, none, &step, nullptr, nullptr, two),
                  StatusCode::SizeMismatch);
  // Narrow gradients are a CPU feature (refused before any device access).
  std::vector<Tensor> cudaParams = {
      Tensor{p.data(), 4, DType::F32, Device::CUDA}};
  std::vector<Tensor> cudaGrads = {
      Tensor{g16.data(), 4, DType::BF16, Device::CUDA}};
  Status cuda =
      sgdStep(h, cudaParams, cudaGrads, none, &step, nullptr, nullptr, none);
  EXPECT_EQ(cuda.code(), StatusCode::Unsupported) << cuda.toString();
  EXPECT_NE(cuda.toString().find("supported on the CPU only"),
            std::string::npos)
      << cuda.toString();
}

} // namespace
