//===- GradScalerTest.cpp - GradScaler state machine and semantics --------===//

#include "ScalerRig.h"

#include <cmath>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

/// Records what GradScaler hands to step().
class RecordingOptimizer : public Optimizer {
public:
  RecordingOptimizer(Device device, bool isFused, std::vector<Tensor> grads)
      : dev(device), isFused(isFused), grads(std::move(grads)) {}
  Device device() const override { return dev; }
  TensorList gradients() const override { return grads; }
  bool fused() const override { return isFused; }
  Status step(const AmpStepArgs &args) override {
    ++steps;
    lastArgs = args;
    foundInfSeen = args.foundInf ? *args.foundInf : -1.0f;
    return Status::success();
  }

  Device dev;
  bool isFused;
  std::vector<Tensor> grads;
  int steps = 0;
  AmpStepArgs lastArgs;
  float foundInfSeen = -1.0f;
};

class GradScalerTest : public ::testing::Test {
protected:
  void SetUp() override {
    GradScalerOptions options;
    options.initScale = 1024.0;
    TP_ASSERT_OK(rig.init(options, sgdOptions()));
  }
  virtual SgdOptions sgdOptions() const {
    SgdOptions options;
    options.lr = 0.5;
    return options;
  }
  void scaleLoss() {
    TP_ASSERT_OK(
        rig.scaler->scale(cpuTensor(rig.loss), cpuTensor(rig.scaledLoss)));
  }
  ScalerRig rig;
};

TEST_F(GradScalerTest, ScaleMultipliesTheLoss) {
  scaleLoss();
  EXPECT_EQ(rig.scaledLoss[0], 512.0f);
  // In place, and in bf16.
  std::vector<uint16_t> bf16 = {0x3f00}; // 0.5
  TP_ASSERT_OK(rig.scaler->scale(cpuTensor(bf16, DType::BF16),
                                 cpuTensor(bf16, DType::BF16)));
  EXPECT_EQ(bf16[0], 0x4400); // 512
  std::vector<float> wrongSize(2);
  TP_EXPECT_ERROR(rig.scaler->scale(cpuTensor(rig.loss), cpuTensor(wrongSize)),
                  StatusCode::SizeMismatch);
}

TEST_F(GradScalerTest, UnscaleTwiceIsAnError) {
  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(false));
  TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd));
  Status status = rig.scaler->unscale(*rig.sgd);
  EXPECT_EQ(status.code(), StatusCode::InvalidState);
  EXPECT_EQ(status.message(), "unscale_() has already been called on this "
                              "optimizer since the last update().");
  // The gradients were unscaled once only.
  EXPECT_EQ(rig.grad[0], 1.0f);
}

TEST_F(GradScalerTest, UnscaleAfterStepIsAnError) {
  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(false));
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  Status status = rig.scaler->unscale(*rig.sgd);
  EXPECT_EQ(status.code(), StatusCode::InvalidState);
  EXPECT_EQ(status.message(), "unscale_() is being called after step().");
}

TEST_F(GradScalerTest, StepTwiceIsAnError) {
  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(false));
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  std::vector<float> params = rig.param;
  Status status = rig.scaler->step(*rig.sgd);
  EXPECT_EQ(status.code(), StatusCode::InvalidState);
  EXPECT_EQ(status.message(),
            "step() has already been called since the last update().");
  EXPECT_TRUE(bitwiseEqual(params, rig.param));
}

TEST_F(GradScalerTest, UpdateWithoutStepIsAnError) {
  scaleLoss();
  Status status = rig.scaler->update();
  EXPECT_EQ(status.code(), StatusCode::InvalidState);
  EXPECT_EQ(status.message(), "No inf checks were recorded prior to update.");
  EXPECT_EQ(rig.scale(), 1024.0);
}

TEST_F(GradScalerTest, CallsBeforeScaleAreErrors) {
  TP_ASSERT_OK(rig.writeGradients(false));
  Status status = rig.scaler->unscale(*rig.sgd);
  EXPECT_EQ(status.code(), StatusCode::InvalidState);
  EXPECT_NE(status.message().find("Attempted unscale_ but _scale is None."),
            std::string::npos)
      << status.message();
  TP_EXPECT_ERROR(rig.scaler->step(*rig.sgd), StatusCode::InvalidState);
  TP_EXPECT_ERROR(rig.scaler->update(), StatusCode::InvalidState);
}

TEST_F(GradScalerTest, AnIterationEndsWithUpdate) {
  for (int i = 0; i < 3; ++i) {
    scaleLoss();
    TP_ASSERT_OK(rig.writeGradients(false));
    TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd));
    TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
    TP_ASSERT_OK(rig.scaler->update());
  }
  EXPECT_EQ(*rig.sgd->stepCount(), 3);
}

TEST_F(GradScalerTest, StepUsesTheFoundInfOfUnscale) {
  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(true));
  std::vector<float> params = rig.param;
  TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd));
  EXPECT_EQ(*rig.scaler->foundInf(*rig.sgd), 1.0f);
  EXPECT_EQ(rig.grad[0], 1.0f);
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  // Skipped, and not unscaled a second time.
  EXPECT_TRUE(bitwiseEqual(params, rig.param));
  EXPECT_EQ(rig.grad[0], 1.0f);
  EXPECT_EQ(*rig.sgd->stepCount(), 0);
  TP_ASSERT_OK(rig.scaler->update());
  EXPECT_EQ(rig.scale(), 512.0);
}

TEST_F(GradScalerTest, CleanStepUpdatesWithUnscaledGradients) {
  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(false));
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  // p -= 0.5 * 1
  EXPECT_EQ(rig.param, (std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(*rig.scaler->foundInf(*rig.sgd), 0.0f);
}

TEST_F(GradScalerTest, Fp16GradientsAreRefusedByUnscale) {
  std::vector<uint16_t> param = {0x3c00, 0x3c00}, grad = {0x3c00, 0x3c00};
  Expected<std::unique_ptr<SGD>> sgd =
      SGD::create({cpuTensor(param, DType::F16)}, {cpuTensor(grad, DType::F16)},
                  SgdOptions());
  ASSERT_TRUE(sgd.ok()) << sgd.status().toString();
  scaleLoss();
  Status status = rig.scaler->unscale(**sgd);
  EXPECT_EQ(status.code(), StatusCode::Fp16Gradients);
  EXPECT_EQ(status.message(), "Attempting to unscale FP16 gradients.");
  // step() unscales first, so it fails the same way.
  TP_EXPECT_ERROR(rig.scaler->step(**sgd), StatusCode::Fp16Gradients);
  EXPECT_EQ(param[0], 0x3c00);
  // The failed calls recorded nothing: update has no inf check.
  TP_EXPECT_ERROR(rig.scaler->update(), StatusCode::InvalidState);
}

TEST_F(GradScalerTest, FusedOptimizersAcceptFp16Gradients) {
  // As torch: a fused optimizer's step only checks (allow_fp16) and unscales
  // inside the step.
  std::vector<uint16_t> param = {0x3c00}, grad = {0x6400}; // 1, 1024
  SgdOptions options;
  options.lr = 0.5;
  options.fused = true;
  Expected<std::unique_ptr<SGD>> sgd = SGD::create(
      {cpuTensor(param, DType::F16)}, {cpuTensor(grad, DType::F16)}, options);
  ASSERT_TRUE(sgd.ok());
  scaleLoss();
  TP_ASSERT_OK(rig.scaler->step(**sgd));
  EXPECT_EQ(grad[0], 0x3c00);  // unscaled (1) and written back, as torch
  EXPECT_EQ(param[0], 0x3800); // 1 - 0.5 * 1
}

TEST_F(GradScalerTest, SeveralOptimizersSkipIndependentlyAndSumFoundInf) {
  std::vector<float> paramB = {10.0f, 20.0f}, gradB = {2048.0f, 1024.0f};
  SgdOptions options;
  options.lr = 1.0;
  Expected<std::unique_ptr<SGD>> sgdB =
      SGD::create({cpuTensor(paramB)}, {cpuTensor(gradB)}, options);
  ASSERT_TRUE(sgdB.ok());

  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(true)); // optimizer A sees an inf
  std::vector<float> paramsA = rig.param;
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  TP_ASSERT_OK(rig.scaler->step(**sgdB));
  EXPECT_TRUE(bitwiseEqual(paramsA, rig.param));        // A skipped
  EXPECT_EQ(paramB, (std::vector<float>{8.0f, 19.0f})); // B stepped
  EXPECT_EQ(*rig.scaler->foundInf(*rig.sgd), 1.0f);
  EXPECT_EQ(*rig.scaler->foundInf(**sgdB), 0.0f);
  TP_ASSERT_OK(rig.scaler->update());
  EXPECT_EQ(rig.scale(), 512.0); // found_inf summed over A and B

  // Next iteration: both clean.
  scaleLoss();
  TP_ASSERT_OK(rig.writeGradients(false));
  gradB = {512.0f, 512.0f};
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  TP_ASSERT_OK(rig.scaler->step(**sgdB));
  TP_ASSERT_OK(rig.scaler->update());
  EXPECT_EQ(rig.scale(), 512.0);
  EXPECT_EQ(rig.tracker(), 1);
  EXPECT_EQ(paramB, (std::vector<float>{7.0f, 18.0f}));
}

TEST_F(GradScalerTest, ManyOptimizersGrowTheFoundInfSlots) {
  // More optimizers than the initial 16 found_inf slots.
  constexpr int kCount = 40;
  std::vector<std::vector<float>> params(kCount, {1.0f}),
      grads(kCount, {1024.0f});
  std::vector<std::unique_ptr<SGD>> sgds;
  for (int i = 0; i < kCount; ++i) {
    Expected<std::unique_ptr<SGD>> sgd =
        SGD::create({cpuTensor(params[i])}, {cpuTensor(grads[i])}, {});
    ASSERT_TRUE(sgd.ok());
    sgds.push_back(sgd.take());
  }
  grads[3][0] = kInf;
  scaleLoss();
  for (auto &sgd : sgds)
    TP_ASSERT_OK(rig.scaler->step(*sgd));
  for (int i = 0; i < kCount; ++i)
    EXPECT_EQ(*rig.scaler->foundInf(*sgds[i]), i == 3 ? 1.0f : 0.0f) << i;
  TP_ASSERT_OK(rig.scaler->update());
  EXPECT_EQ(rig.scale(), 512.0);
}

TEST_F(GradScalerTest, CustomOptimizersReceiveTheScaleArguments) {
  std::vector<float> grad = {2048.0f, 3.0f};
  RecordingOptimizer plain(Device::CPU, false, {cpuTensor(grad)});
  scaleLoss();
  TP_ASSERT_OK(rig.scaler->step(plain));
  EXPECT_EQ(plain.steps, 1);
  EXPECT_EQ(plain.lastArgs.gradScale, nullptr);
  EXPECT_EQ(plain.foundInfSeen, 0.0f);
  EXPECT_EQ(grad[0], 2.0f); // unscaled by GradScaler

  std::vector<float> grad2 = {2048.0f, 1.0f};
  RecordingOptimizer fused(Device::CPU, true, {cpuTensor(grad2)});
  TP_ASSERT_OK(rig.scaler->step(fused));
  EXPECT_EQ(fused.lastArgs.gradScale, rig.scaler->scaleData());
  EXPECT_EQ(fused.foundInfSeen, 0.0f);
  EXPECT_EQ(grad2[0], 2048.0f); // left for the optimizer to unscale
}

/// A custom optimizer that applies p -= g whatever found_inf says.
class IgnoresFoundInf : public Optimizer {
public:
  IgnoresFoundInf(std::vector<float> &param, std::vector<float> &grad)
      : param(param), grad(grad), grads{cpuTensor(grad)} {}
  Device device() const override { return Device::CPU; }
  TensorList gradients() const override { return grads; }
  Status step(const AmpStepArgs &) override {
    ++steps;
    for (size_t i = 0; i < param.size(); ++i)
      param[i] -= grad[i];
    return Status::success();
  }

  std::vector<float> &param, &grad;
  std::vector<Tensor> grads;
  int steps = 0;
};

TEST_F(GradScalerTest, StepWithInfIsSkippedOnTheHostForAnyOptimizer) {
  std::vector<float> param = {1.0f, 2.0f}, grad = {1024.0f, kInf};
  IgnoresFoundInf custom(param, grad);
  scaleLoss();
  TP_ASSERT_OK(rig.scaler->step(custom));
  EXPECT_EQ(custom.steps, 0);
  EXPECT_EQ(param, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(*rig.scaler->foundInf(custom), 1.0f);
  TP_EXPECT_ERROR(rig.scaler->step(custom), StatusCode::InvalidState);
  TP_ASSERT_OK(rig.scaler->update());
  EXPECT_EQ(rig.scale(), 512.0);

  // A clean iteration steps it.
  grad = {512.0f, 1024.0f};
  scaleLoss();
  TP_ASSERT_OK(rig.scaler->step(custom));
  EXPECT_EQ(custom.steps, 1);
  EXPECT_EQ(param, (std::vector<float>{0.0f, 0.0f}));

  // On the CPU even an optimizer that would skip by itself is not called.
  class SkipsItself : public RecordingOptimizer {
  public:
    using RecordingOptimizer::RecordingOptimizer;
    bool skipsOnFoundInf() const override { return true; }
  };
  std::vector<float> infGrad = {kInf};
  SkipsItself fused(Device::CPU, true, {cpuTensor(infGrad)});
  TP_ASSERT_OK(rig.scaler->step(fused));
  EXPECT_EQ(fused.steps, 0);
}

TEST_F(GradScalerTest, OptimizerOnAnotherDeviceIsRefused) {
  RecordingOptimizer onCuda(Device::CUDA, false, {});
  scaleLoss();
  TP_EXPECT_ERROR(rig.scaler->unscale(onCuda), StatusCode::DeviceMismatch);
  TP_EXPECT_ERROR(rig.scaler->step(onCuda), StatusCode::DeviceMismatch);
  EXPECT_EQ(onCuda.steps, 0);
}

TEST(GradScalerOptionsTest, InvalidOptionsAreRefused) {
  auto expectInvalid = [](GradScalerOptions options) {
    Expected<GradScaler> scaler = GradScaler::create(Device::CPU, options);
    EXPECT_FALSE(scaler.ok());
    EXPECT_EQ(scaler.status().code(), StatusCode::InvalidArgument);
  };
  GradScalerOptions options;
  options.growthFactor = 1.0;
  expectInvalid(options);
  options = {};
  options.backoffFactor = 1.0;
  expectInvalid(options);
  options = {};
  options.backoffFactor = 0.0;
  expectInvalid(options);
  options = {};
  options.growthInterval = 0;
  expectInvalid(options);
  options = {};
  options.initScale = 0.0;
  expectInvalid(options);
  options = {};
  options.initScale = std::numeric_limits<double>::infinity();
  expectInvalid(options);
  options = {};
  options.initScale = 1e39; // not a finite float
  expectInvalid(options);
  options = {};
  options.growthFactor = std::nan("");
  expectInvalid(options);
  // A disabled scaler does not look at its options (as tensorplay).
  options.enabled = false;
  EXPECT_TRUE(GradScaler::create(Device::CPU, options).ok());
}

TEST(DisabledGradScaler, PassesEverythingThrough) {
  ScalerRig rig;
  GradScalerOptions options;
  options.enabled = false;
  SgdOptions sgdOptions;
  sgdOptions.lr = 1.0;
  TP_ASSERT_OK(rig.init(options, sgdOptions));
  EXPECT_FALSE(rig.scaler->isEnabled());
  EXPECT_EQ(rig.scale(), 1.0);
  EXPECT_EQ(rig.tracker(), 0);
  EXPECT_EQ(rig.scaler->scaleData(), nullptr);

  TP_ASSERT_OK(
      rig.scaler->scale(cpuTensor(rig.loss), cpuTensor(rig.scaledLoss)));
  EXPECT_EQ(rig.scaledLoss[0], rig.loss[0]);

  rig.grad = {1.0f, 2.0f, 3.0f, 4.0f};
  TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd));
  TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd)); // no state machine
  EXPECT_EQ(rig.grad, (std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f}));
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  EXPECT_EQ(rig.param, (std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f}));
  // Even an inf gradient is stepped with.
  rig.grad[0] = kInf;
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  EXPECT_TRUE(std::isinf(rig.param[0]));
  TP_ASSERT_OK(rig.scaler->update());
  TP_ASSERT_OK(rig.scaler->update(5.0));
  EXPECT_EQ(rig.scale(), 1.0);
  EXPECT_EQ(*rig.sgd->stepCount(), 2);
}

} // namespace
