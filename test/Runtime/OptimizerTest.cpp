//===- OptimizerTest.cpp - Fused SGD and AdamW ----------------------------===//
//
// The CPU optimizers against double-precision references of the
// torch.optim.SGD / torch.optim.AdamW update rules (OptimizerReferenceTest
// checks the bits against torch), the fused forms against unscale-then-step
// (bit-identical), and skipped steps (bit-identical state).
//
//===----------------------------------------------------------------------===//

#include "ScalerRig.h"

#include "cpu/FloatConversion.h"

#include <cmath>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const std::vector<size_t> kSizes = {5, 130, 1, 67};

::testing::AssertionResult near(const std::vector<float> &actual,
                                const std::vector<double> &expected,
                                double rtol = 2e-5, double atol = 1e-6) {
  for (size_t i = 0; i < actual.size(); ++i) {
    double diff = std::fabs(actual[i] - expected[i]);
    if (!(diff <= atol + rtol * std::fabs(expected[i])))
      return ::testing::AssertionFailure()
             << "element " << i << ": " << actual[i] << " vs " << expected[i];
  }
  return ::testing::AssertionSuccess();
}

/// Parameters, gradients and optimizer state for several tensors, in f32.
struct Model {
  std::vector<std::vector<float>> params, grads;
  explicit Model(uint32_t seed) {
    for (size_t t = 0; t < kSizes.size(); ++t) {
      params.push_back(randomFloats(kSizes[t], seed + t));
      grads.push_back(std::vector<float>(kSizes[t], 0.0f));
    }
  }
  std::vector<Tensor> paramTensors() {
    std::vector<Tensor> result;
    for (auto &p : params)
      result.push_back(cpuTensor(p));
    return result;
  }
  std::vector<Tensor> gradTensors() {
    std::vector<Tensor> result;
    for (auto &g : grads)
      result.push_back(cpuTensor(g));
    return result;
  }
  /// Deterministic gradients of step `step`, times `scale`.
  void setGradients(int step, float scale = 1.0f) {
    for (size_t t = 0; t < grads.size(); ++t) {
      std::vector<float> g = randomFloats(grads[t].size(), 100 + step * 7 + t);
      for (size_t i = 0; i < g.size(); ++i)
        grads[t][i] = g[i] * scale;
    }
  }
};

std::vector<float> readTensor(const Tensor &tensor) {
  std::vector<float> values(static_cast<size_t>(tensor.numel));
  if (tensor.dtype == DType::F32) {
    std::memcpy(values.data(), tensor.data, tensor.bytes());
  } else {
    const uint16_t *raw = tensor.as<uint16_t>();
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = tensor.dtype == DType::BF16 ? cpu::bf16ToFloat(raw[i])
                                              : cpu::f16ToFloat(raw[i]);
  }
  return values;
}

/// Every float of every tensor of `lists`, in order.
std::vector<float> snapshot(std::initializer_list<TensorList> lists) {
  std::vector<float> all;
  for (TensorList list : lists)
    for (const Tensor &tensor : list) {
      std::vector<float> values = readTensor(tensor);
      all.insert(all.end(), values.begin(), values.end());
    }
  return all;
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

struct SgdReference {
  SgdHyperParams h;
  std::vector<std::vector<double>> params, buffers;
  int steps = 0;
  void step(const Model &model) {
    for (size_t t = 0; t < params.size(); ++t)
      for (size_t i = 0; i < params[t].size(); ++i) {
        double g = model.grads[t][i];
        if (h.maximize)
          g = -g;
        if (h.weightDecay != 0)
          g += h.weightDecay * params[t][i];
        if (h.momentum != 0) {
          double &b = buffers[t][i];
          b = steps == 0 ? g : h.momentum * b + (1 - h.dampening) * g;
          g = h.nesterov ? g + h.momentum * b : b;
        }
        params[t][i] -= h.lr * g;
      }
    ++steps;
  }
};

struct AdamWReference {
  AdamWHyperParams h;
  std::vector<std::vector<double>> params, m, v, vmax;
  int steps = 0;
  void step(const Model &model) {
    ++steps;
    double bc1 = 1 - std::pow(h.beta1, steps);
    double bc2 = 1 - std::pow(h.beta2, steps);
    for (size_t t = 0; t < params.size(); ++t)
      for (size_t i = 0; i < params[t].size(); ++i) {
        double g = model.grads[t][i];
        if (h.maximize)
          g = -g;
        double &p = params[t][i];
        p *= 1 - h.lr * h.weightDecay;
        m[t][i] = h.beta1 * m[t][i] + (1 - h.beta1) * g;
        v[t][i] = h.beta2 * v[t][i] + (1 - h.beta2) * g * g;
        double second = v[t][i];
        if (h.amsgrad) {
          vmax[t][i] = std::max(vmax[t][i], v[t][i]);
          second = vmax[t][i];
        }
        double denom = std::sqrt(second) / std::sqrt(bc2) + h.eps;
        p -= h.lr / bc1 * m[t][i] / denom;
      }
  }
};

std::vector<std::vector<double>> toDouble(const Model &model) {
  std::vector<std::vector<double>> result;
  for (const auto &p : model.params)
    result.emplace_back(p.begin(), p.end());
  return result;
}

std::vector<std::vector<double>> zerosLike(const Model &model) {
  std::vector<std::vector<double>> result;
  for (const auto &p : model.params)
    result.emplace_back(p.size(), 0.0);
  return result;
}

//===----------------------------------------------------------------------===//
// SGD
//===----------------------------------------------------------------------===//

class SgdReferenceTest : public ::testing::TestWithParam<SgdHyperParams> {};

TEST_P(SgdReferenceTest, MatchesTorchRule) {
  SgdOptions options;
  static_cast<SgdHyperParams &>(options) = GetParam();
  Model model(1);
  Expected<std::unique_ptr<SGD>> sgd =
      SGD::create(model.paramTensors(), model.gradTensors(), options);
  ASSERT_TRUE(sgd.ok()) << sgd.status().toString();
  SgdReference reference{GetParam(), toDouble(model), zerosLike(model)};
  for (int step = 0; step < 5; ++step) {
    model.setGradients(step);
    TP_ASSERT_OK((*sgd)->step());
    reference.step(model);
    for (size_t t = 0; t < kSizes.size(); ++t)
      ASSERT_TRUE(near(model.params[t], reference.params[t]))
          << "step " << step << " tensor " << t;
  }
  EXPECT_EQ(*(*sgd)->stepCount(), 5);
}

SgdHyperParams sgd(double lr, double momentum, double dampening, double wd,
                   bool nesterov, bool maximize) {
  SgdHyperParams h;
  h.lr = lr;
  h.momentum = momentum;
  h.dampening = dampening;
  h.weightDecay = wd;
  h.nesterov = nesterov;
  h.maximize = maximize;
  return h;
}

std::string
sgdConfigName(const ::testing::TestParamInfo<SgdHyperParams> &info) {
  const char *names[] = {"Plain", "Momentum", "DampeningWeightDecay",
                         "Nesterov", "Maximize"};
  return names[info.index];
}

INSTANTIATE_TEST_SUITE_P(
    Configs, SgdReferenceTest,
    ::testing::Values(sgd(0.1, 0, 0, 0, false, false),
                      sgd(0.1, 0.9, 0, 0, false, false),
                      sgd(0.05, 0.9, 0.3, 0.01, false, false),
                      sgd(0.05, 0.8, 0, 0.1, true, false),
                      sgd(0.1, 0.5, 0.1, 0.01, false, true)),
    sgdConfigName);

//===----------------------------------------------------------------------===//
// AdamW
//===----------------------------------------------------------------------===//

class AdamWReferenceTest : public ::testing::TestWithParam<AdamWHyperParams> {};

TEST_P(AdamWReferenceTest, MatchesTorchRule) {
  AdamWOptions options;
  static_cast<AdamWHyperParams &>(options) = GetParam();
  Model model(2);
  Expected<std::unique_ptr<AdamW>> adamw =
      AdamW::create(model.paramTensors(), model.gradTensors(), options);
  ASSERT_TRUE(adamw.ok()) << adamw.status().toString();
  AdamWReference reference{GetParam(), toDouble(model), zerosLike(model),
                           zerosLike(model), zerosLike(model)};
  for (int step = 0; step < 6; ++step) {
    model.setGradients(step);
    TP_ASSERT_OK((*adamw)->step());
    reference.step(model);
    for (size_t t = 0; t < kSizes.size(); ++t) {
      ASSERT_TRUE(near(model.params[t], reference.params[t]))
          << "step " << step << " tensor " << t;
      ASSERT_TRUE(near(readTensor((*adamw)->expAvgs()[t]), reference.m[t]));
      ASSERT_TRUE(near(readTensor((*adamw)->expAvgSqs()[t]), reference.v[t]));
    }
  }
  EXPECT_EQ(*(*adamw)->stepCount(), 6);
}

AdamWHyperParams adamw(double lr, double wd, bool amsgrad, bool maximize) {
  AdamWHyperParams h;
  h.lr = lr;
  h.weightDecay = wd;
  h.amsgrad = amsgrad;
  h.maximize = maximize;
  return h;
}

std::string
adamwConfigName(const ::testing::TestParamInfo<AdamWHyperParams> &info) {
  const char *names[] = {"Defaults", "NoWeightDecay", "Amsgrad",
                         "AmsgradMaximize"};
  return names[info.index];
}

INSTANTIATE_TEST_SUITE_P(Configs, AdamWReferenceTest,
                         ::testing::Values(adamw(1e-3, 1e-2, false, false),
                                           adamw(1e-2, 0, false, false),
                                           adamw(1e-2, 0.1, true, false),
                                           adamw(1e-3, 1e-2, true, true)),
                         adamwConfigName);

TEST(AdamWBf16, MatchesTheReferenceWithinBf16Precision) {
  std::vector<uint16_t> param(64), grad(64);
  std::vector<float> values = randomFloats(64, 9);
  std::vector<double> reference(64);
  for (size_t i = 0; i < 64; ++i) {
    param[i] = cpu::floatToBf16(values[i]);
    reference[i] = cpu::bf16ToFloat(param[i]);
  }
  AdamWOptions options;
  options.lr = 0.01;
  Expected<std::unique_ptr<AdamW>> adamw = AdamW::create(
      {cpuTensor(param, DType::BF16)}, {cpuTensor(grad, DType::BF16)}, options);
  ASSERT_TRUE(adamw.ok());
  for (int step = 1; step <= 3; ++step) {
    for (size_t i = 0; i < 64; ++i)
      grad[i] = cpu::floatToBf16(0.5f);
    TP_ASSERT_OK((*adamw)->step());
    // With a constant gradient, m / sqrt(v) corrected is 1.
    for (size_t i = 0; i < 64; ++i)
      reference[i] = reference[i] * (1 - 0.01 * 0.01) - 0.01;
  }
  EXPECT_TRUE(
      near(readTensor((*adamw)->parameters()[0]), reference, 1e-2, 1e-2));
}

//===----------------------------------------------------------------------===//
// Fused forms and skipped steps
//===----------------------------------------------------------------------===//

enum class Kind { Sgd, AdamW };

void PrintTo(Kind kind, std::ostream *os) {
  *os << (kind == Kind::Sgd ? "SGD" : "AdamW");
}

/// One optimizer over a Model, created fused or not, f32 or bf16 (the bf16
/// variant keeps its own bf16 copies of parameters and gradients).
struct Trainer {
  Trainer(Kind kind, bool fused, DType dtype) : model(5), dtype(dtype) {
    if (dtype == DType::F32) {
      params = model.paramTensors();
      grads = model.gradTensors();
    } else {
      for (size_t t = 0; t < kSizes.size(); ++t) {
        halfParams.emplace_back(kSizes[t]);
        halfGrads.emplace_back(kSizes[t]);
        for (size_t i = 0; i < kSizes[t]; ++i)
          halfParams[t][i] = cpu::floatToBf16(model.params[t][i]);
      }
      for (size_t t = 0; t < kSizes.size(); ++t) {
        params.push_back(cpuTensor(halfParams[t], dtype));
        grads.push_back(cpuTensor(halfGrads[t], dtype));
      }
    }
    if (kind == Kind::Sgd) {
      SgdOptions options;
      options.lr = 0.1;
      options.momentum = 0.9;
      options.dampening = 0.1;
      options.weightDecay = 0.01;
      options.fused = fused;
      Expected<std::unique_ptr<SGD>> created =
          SGD::create(params, grads, options);
      EXPECT_TRUE(created.ok());
      sgd = created.take();
      optimizer = sgd.get();
    } else {
      AdamWOptions options;
      options.lr = 0.01;
      options.amsgrad = true;
      options.fused = fused;
      Expected<std::unique_ptr<AdamW>> created =
          AdamW::create(params, grads, options);
      EXPECT_TRUE(created.ok());
      adamw = created.take();
      optimizer = adamw.get();
    }
  }

  void setGradients(int step, float scale) {
    model.setGradients(step, scale);
    if (dtype != DType::F32)
      for (size_t t = 0; t < kSizes.size(); ++t)
        for (size_t i = 0; i < kSizes[t]; ++i)
          halfGrads[t][i] = cpu::floatToBf16(model.grads[t][i]);
  }
  void setGradient(size_t t, size_t i, float value) {
    if (dtype == DType::F32)
      model.grads[t][i] = value;
    else
      halfGrads[t][i] = cpu::floatToBf16(value);
  }

  /// Parameters, all optimizer state and the step count, as floats.
  std::vector<float> state() const {
    std::vector<float> all;
    if (sgd) {
      all = snapshot({params, sgd->momentumBuffers()});
      all.push_back(static_cast<float>(*sgd->stepCount()));
    } else {
      all = snapshot({params, adamw->expAvgs(), adamw->expAvgSqs(),
                      adamw->maxExpAvgSqs()});
      all.push_back(static_cast<float>(*adamw->stepCount()));
    }
    return all;
  }

  Model model;
  DType dtype;
  std::vector<std::vector<uint16_t>> halfParams, halfGrads;
  std::vector<Tensor> params, grads;
  std::unique_ptr<SGD> sgd;
  std::unique_ptr<AdamW> adamw;
  Optimizer *optimizer = nullptr;
};

using FusedParam = std::tuple<Kind, DType>;

class FusedOptimizerTest : public ::testing::TestWithParam<FusedParam> {
protected:
  Kind kind() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
};

TEST_P(FusedOptimizerTest, FusedStepEqualsUnscaleThenStep) {
  Trainer unfused(kind(), false, dtype());
  Trainer fused(kind(), true, dtype());
  // A power of two, as the dynamic scale is from the default 65536: the fused
  // step divides by it and the unscale pass multiplies by its inverse (as
  // torch's fused kernels and unscale_ do), which agree exactly only then.
  const float scale = 4096.0f;
  for (int step = 0; step < 4; ++step) {
    unfused.setGradients(step, scale);
    fused.setGradients(step, scale);
    float foundA = 0.0f, foundB = 0.0f;
    // Unfused: unscale pass, then a step on unscaled gradients.
    TP_ASSERT_OK(unscaleAndCheck(unfused.grads, &scale, &foundA));
    TP_ASSERT_OK(unfused.optimizer->step({nullptr, &foundA}));
    // Fused: check pass, then a step that unscales.
    TP_ASSERT_OK(checkFinite(fused.grads, &foundB));
    TP_ASSERT_OK(fused.optimizer->step({&scale, &foundB}));
    ASSERT_TRUE(bitwiseEqual(unfused.state(), fused.state()))
        << "step " << step;
    // The fused step writes the unscaled gradients back, as torch's.
    ASSERT_TRUE(
        bitwiseEqual(snapshot({unfused.grads}), snapshot({fused.grads})))
        << "step " << step;
  }
}

TEST_P(FusedOptimizerTest, SkippedStepLeavesEverythingBitIdentical) {
  for (bool fusedForm : {false, true}) {
    SCOPED_TRACE(fusedForm ? "fused" : "unfused");
    Trainer trainer(kind(), fusedForm, dtype());
    Expected<GradScaler> scaler = GradScaler::create(Device::CPU);
    ASSERT_TRUE(scaler.ok());
    std::vector<float> loss = {1.0f}, scaled = {0.0f};
    auto iterate = [&](int step, bool inf) {
      TP_ASSERT_OK(scaler->scale(cpuTensor(loss), cpuTensor(scaled)));
      trainer.setGradients(step, static_cast<float>(*scaler->getScale()));
      if (inf)
        trainer.setGradient(kSizes.size() - 1, kSizes.back() - 1, kInf);
      TP_ASSERT_OK(scaler->step(*trainer.optimizer));
      TP_ASSERT_OK(scaler->update());
    };
    for (int step = 0; step < 3; ++step)
      iterate(step, false);
    const std::vector<float> before = trainer.state();
    iterate(3, true);
    EXPECT_TRUE(bitwiseEqual(before, trainer.state()));
    EXPECT_EQ(*scaler->getScale(), 32768.0);
    iterate(4, false);
    EXPECT_FALSE(bitwiseEqual(before, trainer.state()));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Optimizers, FusedOptimizerTest,
    ::testing::Combine(::testing::Values(Kind::Sgd, Kind::AdamW),
                       ::testing::Values(DType::F32, DType::BF16)),
    [](const ::testing::TestParamInfo<FusedParam> &info) {
      return std::string(std::get<0>(info.param) == Kind::Sgd ? "SGD"
                                                              : "AdamW") +
             "_" + dtypeName(std::get<1>(info.param));
    });

TEST(OptimizerThreads, LargeParameterListsMatchSingleThread) {
  CpuConfigGuard guard;
  setCpuThreadCount(2);
  const std::vector<size_t> sizes = {400000, 300001, 7};
  auto run = [&](bool parallel) {
    setCpuParallelThreshold(parallel ? 1 << 18
                                     : std::numeric_limits<int64_t>::max());
    std::vector<std::vector<float>> params, grads;
    std::vector<Tensor> p, g;
    for (size_t t = 0; t < sizes.size(); ++t) {
      params.push_back(randomFloats(sizes[t], 40 + t));
      grads.push_back(randomFloats(sizes[t], 50 + t));
    }
    for (size_t t = 0; t < sizes.size(); ++t) {
      p.push_back(cpuTensor(params[t]));
      g.push_back(cpuTensor(grads[t]));
    }
    AdamWOptions options;
    Expected<std::unique_ptr<AdamW>> adamw = AdamW::create(p, g, options);
    EXPECT_TRUE(adamw.ok());
    const float scale = 8.0f;
    float found = 0.0f;
    for (int i = 0; i < 2; ++i)
      EXPECT_TRUE((*adamw)->step({&scale, &found}).ok());
    return snapshot({p, (*adamw)->expAvgs(), (*adamw)->expAvgSqs(), g});
  };
  EXPECT_TRUE(bitwiseEqual(run(false), run(true)));
}

//===----------------------------------------------------------------------===//
// Argument checks
//===----------------------------------------------------------------------===//

TEST(OptimizerArguments, InvalidHyperParametersAndListsAreRefused) {
  std::vector<float> p(4), g(4), g3(3);
  auto sgdStatus = [&](SgdOptions options) {
    return SGD::create({cpuTensor(p)}, {cpuTensor(g)}, options).status();
  };
  SgdOptions options;
  options.nesterov = true; // needs momentum
  TP_EXPECT_ERROR(sgdStatus(options), StatusCode::InvalidArgument);
  options = {};
  options.lr = -1;
  TP_EXPECT_ERROR(sgdStatus(options), StatusCode::InvalidArgument);
  options = {};
  options.momentum = -0.5;
  TP_EXPECT_ERROR(sgdStatus(options), StatusCode::InvalidArgument);

  AdamWOptions adam;
  adam.beta2 = 1.0;
  TP_EXPECT_ERROR(AdamW::create({cpuTensor(p)}, {cpuTensor(g)}, adam).status(),
                  StatusCode::InvalidArgument);
  adam = {};
  adam.eps = -1e-8;
  TP_EXPECT_ERROR(AdamW::create({cpuTensor(p)}, {cpuTensor(g)}, adam).status(),
                  StatusCode::InvalidArgument);

  TP_EXPECT_ERROR(SGD::create({cpuTensor(p)}, {cpuTensor(g3)}, {}).status(),
                  StatusCode::SizeMismatch);
  TP_EXPECT_ERROR(SGD::create({cpuTensor(p)}, {}, {}).status(),
                  StatusCode::SizeMismatch);
  std::vector<uint16_t> half(4);
  TP_EXPECT_ERROR(
      SGD::create({cpuTensor(p)}, {cpuTensor(half, DType::BF16)}, {}).status(),
      StatusCode::UnsupportedDType);

  // The kernel entry points check the state lists too.
  int64_t step = 0;
  SgdHyperParams momentum;
  momentum.momentum = 0.9;
  std::vector<Tensor> params = {cpuTensor(p)}, grads = {cpuTensor(g)},
                      buffers = {cpuTensor(g3)};
  TP_EXPECT_ERROR(sgdStep(momentum, params, grads, {}, &step, nullptr, nullptr),
                  StatusCode::SizeMismatch);
  TP_EXPECT_ERROR(
      sgdStep(momentum, params, grads, buffers, &step, nullptr, nullptr),
      StatusCode::SizeMismatch);
  TP_EXPECT_ERROR(
      sgdStep(momentum, params, grads, grads, nullptr, nullptr, nullptr),
      StatusCode::NullPointer);
  EXPECT_EQ(step, 0);
}

} // namespace
