//===- EndToEndTest.cpp - Training with loss scaling ----------------------===//
//
// Logistic regression with a hand-written forward and backward on a
// deterministic synthetic task. The backward of the scaled loss is rounded
// to f16 (values past 65504 become inf, as fp16 gradients would), so the
// dynamic scale meets real overflows; an inf gradient is also injected at a
// known step. That step is skipped, the scale halves, and training converges.
//
//===----------------------------------------------------------------------===//

#include "ScalerRig.h"

#include "cpu/FloatConversion.h"

#include <array>
#include <cmath>
#include <functional>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

constexpr int kFeatures = 8;
constexpr int kSamples = 512;
constexpr int kSteps = 200;
constexpr int kInjectedStep = 60;

struct Dataset {
  std::vector<std::array<float, kFeatures>> x;
  std::vector<float> y;
};

Dataset makeDataset() {
  const std::array<float, kFeatures> truth = {1.5f,  -2.0f, 0.5f,  1.0f,
                                              -1.0f, 2.0f,  -0.5f, 0.25f};
  Dataset data;
  uint32_t state = 12345;
  auto uniform = [&] { // LCG in [-1, 1)
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
  };
  for (int n = 0; n < kSamples; ++n) {
    std::array<float, kFeatures> x;
    float z = 0.3f;
    for (int k = 0; k < kFeatures; ++k) {
      x[k] = uniform();
      z += truth[k] * x[k];
    }
    data.x.push_back(x);
    data.y.push_back(z > 0 ? 1.0f : 0.0f);
  }
  return data;
}

struct Model {
  std::vector<float> w = std::vector<float>(kFeatures, 0.0f);
  std::vector<float> b = {0.0f};
  std::vector<float> gw = std::vector<float>(kFeatures, 0.0f);
  std::vector<float> gb = {0.0f};

  float logit(const std::array<float, kFeatures> &x) const {
    float z = b[0];
    for (int k = 0; k < kFeatures; ++k)
      z += w[k] * x[k];
    return z;
  }

  /// Mean binary cross-entropy with logits, and accuracy.
  std::pair<float, float> evaluate(const Dataset &data) const {
    double loss = 0;
    int correct = 0;
    for (int n = 0; n < kSamples; ++n) {
      float z = logit(data.x[n]);
      loss += std::max(z, 0.0f) - z * data.y[n] +
              std::log1p(std::exp(-std::fabs(z)));
      correct += (z > 0) == (data.y[n] > 0.5f);
    }
    return {static_cast<float>(loss / kSamples),
            static_cast<float>(correct) / kSamples};
  }

  /// Gradients of `scale` * loss, rounded to f16 as an fp16 backward would
  /// produce them (inf past 65504), stored in the f32 gradient buffers.
  void backward(const Dataset &data, float scale) {
    std::vector<double> dw(kFeatures, 0.0);
    double db = 0;
    for (int n = 0; n < kSamples; ++n) {
      double p = 1.0 / (1.0 + std::exp(-logit(data.x[n])));
      double dz = (p - data.y[n]) / kSamples;
      for (int k = 0; k < kFeatures; ++k)
        dw[k] += dz * data.x[n][k];
      db += dz;
    }
    auto fp16 = [&](double g) {
      return cpu::f16ToFloat(cpu::floatToF16(static_cast<float>(g * scale)));
    };
    for (int k = 0; k < kFeatures; ++k)
      gw[k] = fp16(dw[k]);
    gb[0] = fp16(db);
  }
};

enum class Kind { Sgd, SgdFused, AdamW, AdamWFused };

void PrintTo(Kind kind, std::ostream *os) {
  const char *names[] = {"SGD", "SGDFused", "AdamW", "AdamWFused"};
  *os << names[static_cast<int>(kind)];
}

class EndToEnd : public ::testing::TestWithParam<Kind> {};

TEST_P(EndToEnd, LossScaledTrainingSkipsInfStepsAndConverges) {
  const Dataset data = makeDataset();
  Model model;
  std::vector<Tensor> params = {cpuTensor(model.w), cpuTensor(model.b)};
  std::vector<Tensor> grads = {cpuTensor(model.gw), cpuTensor(model.gb)};

  std::unique_ptr<Optimizer> optimizer;
  std::function<int64_t()> appliedSteps;
  std::function<std::vector<float>()> optimizerState;
  const Kind kind = GetParam();
  if (kind == Kind::Sgd || kind == Kind::SgdFused) {
    SgdOptions options;
    options.lr = 0.5;
    options.momentum = 0.9;
    options.fused = kind == Kind::SgdFused;
    std::unique_ptr<SGD> sgd = SGD::create(params, grads, options).take();
    SGD *raw = sgd.get();
    appliedSteps = [raw] { return *raw->stepCount(); };
    optimizerState = [raw] {
      std::vector<float> all;
      for (const Tensor &t : raw->momentumBuffers())
        all.insert(all.end(), t.as<float>(), t.as<float>() + t.numel);
      return all;
    };
    optimizer = std::move(sgd);
  } else {
    AdamWOptions options;
    options.lr = 0.05;
    options.fused = kind == Kind::AdamWFused;
    std::unique_ptr<AdamW> adamw = AdamW::create(params, grads, options).take();
    AdamW *raw = adamw.get();
    appliedSteps = [raw] { return *raw->stepCount(); };
    optimizerState = [raw] {
      std::vector<float> all;
      for (TensorList list : {raw->expAvgs(), raw->expAvgSqs()})
        for (const Tensor &t : list)
          all.insert(all.end(), t.as<float>(), t.as<float>() + t.numel);
      return all;
    };
    optimizer = std::move(adamw);
  }

  GradScalerOptions scalerOptions;
  scalerOptions.growthInterval = 10;
  Expected<GradScaler> created = GradScaler::create(Device::CPU, scalerOptions);
  ASSERT_TRUE(created.ok());
  GradScaler scaler = created.take();

  const auto [initialLoss, initialAccuracy] = model.evaluate(data);
  int skipped = 0;
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    std::vector<float> loss = {model.evaluate(data).first}, scaledLoss = {0};
    TP_ASSERT_OK(scaler.scale(cpuTensor(loss), cpuTensor(scaledLoss)));
    const float scale = static_cast<float>(*scaler.getScale());
    ASSERT_EQ(scaledLoss[0], loss[0] * scale);

    model.backward(data, scale);
    if (step == kInjectedStep)
      model.gw[3] = std::numeric_limits<float>::infinity();

    const std::vector<float> paramsBefore = {model.w.begin(), model.w.end()};
    const float biasBefore = model.b[0];
    const std::vector<float> stateBefore = optimizerState();
    const int64_t appliedBefore = appliedSteps();
    TP_ASSERT_OK(scaler.step(*optimizer));
    TP_ASSERT_OK(scaler.update());
    const bool wasSkipped = appliedSteps() == appliedBefore;
    skipped += wasSkipped;

    if (wasSkipped) {
      // Nothing moved, and the scale backed off.
      EXPECT_TRUE(bitwiseEqual(paramsBefore, model.w));
      EXPECT_EQ(bitsOf(biasBefore), bitsOf(model.b[0]));
      EXPECT_TRUE(bitwiseEqual(stateBefore, optimizerState()));
      EXPECT_EQ(*scaler.getScale(), scale / 2);
      EXPECT_EQ(*scaler.getGrowthTracker(), 0);
    }
    if (step == kInjectedStep) {
      EXPECT_TRUE(wasSkipped) << "the injected inf step was applied";
    }
  }

  const auto [finalLoss, finalAccuracy] = model.evaluate(data);
  EXPECT_NEAR(initialLoss, std::log(2.0f), 1e-6);
  EXPECT_LT(finalLoss, 0.35f * initialLoss)
      << "initial " << initialLoss << " final " << finalLoss;
  EXPECT_GE(finalAccuracy, 0.95f);
  RecordProperty("skipped_steps", skipped);
  RecordProperty("final_loss", std::to_string(finalLoss));
  RecordProperty("final_scale", std::to_string(*scaler.getScale()));
  // The injected step, plus the f16 overflows the growing scale runs into.
  EXPECT_GE(skipped, 2);
  EXPECT_LE(skipped, kSteps / 5);
  EXPECT_EQ(appliedSteps(), kSteps - skipped);
}

INSTANTIATE_TEST_SUITE_P(Optimizers, EndToEnd,
                         ::testing::Values(Kind::Sgd, Kind::SgdFused,
                                           Kind::AdamW, Kind::AdamWFused),
                         [](const ::testing::TestParamInfo<Kind> &info) {
                           switch (info.param) {
                           case Kind::Sgd:
                             return "SGD";
                           case Kind::SgdFused:
                             return "SGDFused";
                           case Kind::AdamW:
                             return "AdamW";
                           case Kind::AdamWFused:
                             return "AdamWFused";
                           }
                           return "unknown";
                         });

} // namespace
