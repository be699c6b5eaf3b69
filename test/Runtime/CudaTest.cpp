//===- CudaTest.cpp - The CUDA kernels and a CUDA GradScaler --------------===//
//
// Always compiled. Every CudaTest case skips, saying why, where no CUDA
// device is usable (or the runtime was built without CUDA); the CUDA results
// are compared with the CPU kernels'.
//
//===----------------------------------------------------------------------===//

#include "ScalerRig.h"

#include "tensorplay/Runtime/Buffer.h"
#include "tensorplay/Runtime/GradScaler.h"

#include "cpu/FloatConversion.h"

#include <cmath>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(CudaAvailability, UnusableDeviceIsReportedAndDisablesGradScaler) {
  Status status = cudaDeviceStatus();
  Expected<GradScaler> scaler = GradScaler::create(Device::CUDA);
  ASSERT_TRUE(scaler.ok()) << scaler.status().toString();
  if (status.ok()) {
    EXPECT_TRUE(scaler->isEnabled());
    EXPECT_TRUE(scaler->warning().empty());
    return;
  }
  EXPECT_EQ(status.code(), StatusCode::CudaUnavailable);
  EXPECT_FALSE(status.message().empty());
  EXPECT_EQ(cudaCompiledIn(),
            status.message().find("without CUDA") == std::string::npos);
  // As tensorplay.amp.GradScaler("cuda") without CUDA: disabled, warned.
  EXPECT_FALSE(scaler->isEnabled());
  EXPECT_NE(scaler->warning().find("CUDA is not available.  Disabling."),
            std::string::npos)
      << scaler->warning();
  Expected<Buffer> buffer = Buffer::allocate(Device::CUDA, 16);
  EXPECT_EQ(buffer.status().code(), StatusCode::CudaUnavailable);
  TP_EXPECT_ERROR(synchronizeDevice(Device::CUDA), StatusCode::CudaUnavailable);
}

class CudaTest : public ::testing::Test {
protected:
  void SetUp() override {
    Status status = cudaDeviceStatus();
    if (!status.ok())
      GTEST_SKIP() << status.message();
  }

  /// A device copy of `values` (f32, or bf16 / f16 rounded).
  Buffer upload(const std::vector<float> &values, DType dtype = DType::F32) {
    Expected<Buffer> buffer = Buffer::allocate(
        Device::CUDA, dtype, static_cast<int64_t>(values.size()));
    EXPECT_TRUE(buffer.ok()) << buffer.status().toString();
    if (dtype == DType::F32) {
      EXPECT_TRUE(buffer->copyFromHost(values.data(), buffer->bytes()).ok());
    } else {
      std::vector<uint16_t> narrow(values.size());
      for (size_t i = 0; i < values.size(); ++i)
        narrow[i] = dtype == DType::BF16 ? cpu::floatToBf16(values[i])
                                         : cpu::floatToF16(values[i]);
      EXPECT_TRUE(buffer->copyFromHost(narrow.data(), buffer->bytes()).ok());
    }
    return buffer.take();
  }

  std::vector<float> download(const Buffer &buffer, DType dtype = DType::F32) {
    size_t n = buffer.bytes() / elementSize(dtype);
    std::vector<float> values(n);
    if (dtype == DType::F32) {
      EXPECT_TRUE(buffer.copyToHost(values.data(), buffer.bytes()).ok());
    } else {
      std::vector<uint16_t> narrow(n);
      EXPECT_TRUE(buffer.copyToHost(narrow.data(), buffer.bytes()).ok());
      for (size_t i = 0; i < n; ++i)
        values[i] = dtype == DType::BF16 ? cpu::bf16ToFloat(narrow[i])
                                         : cpu::f16ToFloat(narrow[i]);
    }
    return values;
  }

  Buffer scalar(float value) { return upload({value}); }
  float read(const Buffer &buffer) { return download(buffer)[0]; }
};

/// Many tensors (over the 110 a launch holds) and one over 320 chunks of
/// 65536 elements, so that a tensor continues across launches: the first
/// launch takes tensors 0..109, the second tensors 110..149 (40 blocks) and
/// chunks 0..279 of the big tensor, whose chunk 280 starts the third.
std::vector<size_t> manySizes() {
  std::vector<size_t> sizes;
  for (size_t i = 0; i < 150; ++i)
    sizes.push_back(1 + (i * 7919) % 5000);
  sizes.push_back(size_t(321) * 65536 + 17);
  sizes.push_back(3);
  return sizes;
}

TEST_F(CudaTest, UnscaleMatchesTheCpuKernelBitwise) {
  for (DType dtype : {DType::F32, DType::BF16}) {
    SCOPED_TRACE(dtypeName(dtype));
    std::vector<size_t> sizes = manySizes();
    std::vector<std::vector<float>> host;
    std::vector<Buffer> device;
    std::vector<Tensor> deviceTensors;
    for (size_t t = 0; t < sizes.size(); ++t) {
      host.push_back(randomFloats(sizes[t], 300 + t, -1e4f, 1e4f));
      if (dtype == DType::BF16)
        for (float &v : host.back())
          v = cpu::bf16ToFloat(cpu::floatToBf16(v));
      device.push_back(upload(host.back(), dtype));
      deviceTensors.push_back(
          device.back().tensor(dtype, static_cast<int64_t>(sizes[t])));
    }
    const float scaleValue = 3000.0f;
    Buffer scale = scalar(scaleValue), foundInf = scalar(0.0f);
    TP_ASSERT_OK(unscaleAndCheck(deviceTensors,
                                 static_cast<const float *>(scale.data()),
                                 static_cast<float *>(foundInf.data())));
    EXPECT_EQ(read(foundInf), 0.0f);
    const float invScale = inverseScale(scaleValue);
    for (size_t t = 0; t < sizes.size(); ++t) {
      std::vector<float> result = download(device[t], dtype);
      for (size_t i = 0; i < result.size(); ++i) {
        float expected = host[t][i] * invScale;
        if (dtype == DType::BF16)
          expected = cpu::bf16ToFloat(cpu::floatToBf16(expected));
        ASSERT_EQ(bitsOf(result[i]), bitsOf(expected))
            << "tensor " << t << " element " << i;
      }
    }
  }
}

TEST_F(CudaTest, EveryNonFinitePositionIsFound) {
  std::vector<size_t> sizes = manySizes();
  const size_t big = sizes.size() - 2;
  const std::vector<std::pair<size_t, size_t>> positions = {
      {0, 0},
      {75, sizes[75] / 2},
      {big, 0},
      {big, size_t(280) * 65536 - 1}, // last element before the carry-over
      {big, size_t(280) * 65536},     // first element of the next launch
      {big, sizes[big] - 1},
      {sizes.size() - 1, 2}};
  for (auto [t, i] : positions)
    for (float value : {kInf, -kInf, std::nanf("")}) {
      SCOPED_TRACE("tensor " + std::to_string(t) + " element " +
                   std::to_string(i));
      std::vector<Buffer> device;
      std::vector<Tensor> tensors;
      for (size_t k = 0; k < sizes.size(); ++k) {
        std::vector<float> values(sizes[k], 1.0f);
        if (k == t)
          values[i] = value;
        device.push_back(upload(values));
        tensors.push_back(device.back().tensor());
      }
      Buffer scale = scalar(2.0f), foundInf = scalar(0.0f);
      TP_ASSERT_OK(unscaleAndCheck(tensors,
                                   static_cast<const float *>(scale.data()),
                                   static_cast<float *>(foundInf.data())));
      EXPECT_EQ(read(foundInf), 1.0f);
      Buffer checkInf = scalar(0.0f);
      TP_ASSERT_OK(checkFinite(tensors, static_cast<float *>(checkInf.data())));
      EXPECT_EQ(read(checkInf), 1.0f);
    }
}

TEST_F(CudaTest, CheckFiniteAcceptsF16AndWritesNothing) {
  std::vector<float> values = randomFloats(70000, 5);
  values[69999] = kInf;
  Buffer grads = upload(values, DType::F16);
  Buffer foundInf = scalar(0.0f);
  std::vector<Tensor> tensors = {grads.tensor(DType::F16)};
  TP_ASSERT_OK(checkFinite(tensors, static_cast<float *>(foundInf.data())));
  EXPECT_EQ(read(foundInf), 1.0f);
  std::vector<float> after = download(grads, DType::F16);
  for (size_t i = 0; i + 1 < values.size(); ++i)
    ASSERT_EQ(after[i], cpu::f16ToFloat(cpu::floatToF16(values[i])));
  Buffer scale = scalar(2.0f);
  TP_EXPECT_ERROR(unscaleAndCheck(tensors,
                                  static_cast<const float *>(scale.data()),
                                  static_cast<float *>(foundInf.data())),
                  StatusCode::Fp16Gradients);
}

TEST_F(CudaTest, ScaleLossOnTheDevice) {
  Buffer loss = upload({0.5f, -3.0f}), scale = scalar(1024.0f);
  TP_ASSERT_OK(scaleLoss(
      loss.tensor(), static_cast<const float *>(scale.data()), loss.tensor()));
  EXPECT_EQ(download(loss), (std::vector<float>{512.0f, -3072.0f}));
}

TEST_F(CudaTest, UpdateScaleFollowsTheRuleOnTheDevice) {
  // The MixedTrajectory of ScaleUpdateTest, on the device.
  const std::vector<std::pair<bool, float>> trajectory = {
      {false, 1024}, {false, 2048}, {true, 1024}, {false, 1024},
      {true, 512},   {true, 256},   {false, 256}, {false, 512}};
  Buffer scale = scalar(1024.0f);
  Expected<Buffer> tracker = Buffer::allocate(Device::CUDA, sizeof(int32_t));
  ASSERT_TRUE(tracker.ok());
  for (auto [inf, expected] : trajectory) {
    Buffer foundInf = upload({0.0f, inf ? 1.0f : 0.0f});
    TP_ASSERT_OK(updateScale(Device::CUDA, static_cast<float *>(scale.data()),
                             static_cast<int32_t *>(tracker->data()),
                             static_cast<const float *>(foundInf.data()), 2,
                             2.0, 0.5, 2));
    EXPECT_EQ(read(scale), expected);
  }
  // Growth to inf is refused on the device too.
  Buffer huge = scalar(std::ldexp(1.0f, 127));
  Buffer clean = scalar(0.0f);
  TP_ASSERT_OK(updateScale(Device::CUDA, static_cast<float *>(huge.data()),
                           static_cast<int32_t *>(tracker->data()),
                           static_cast<const float *>(clean.data()), 1, 2.0,
                           0.5, 1));
  EXPECT_EQ(read(huge), std::ldexp(1.0f, 127));
}

TEST_F(CudaTest, HostScalarPointersAreRefused) {
  Buffer grads = upload({1.0f, 2.0f}), params = upload({3.0f, 4.0f});
  const std::vector<Tensor> g = {grads.tensor()}, p = {params.tensor()};
  Buffer scale = scalar(2.0f), found = scalar(0.0f);
  Expected<Buffer> tracker = Buffer::allocate(Device::CUDA, sizeof(int32_t));
  Expected<Buffer> step = Buffer::allocate(Device::CUDA, sizeof(int64_t));
  ASSERT_TRUE(tracker.ok() && step.ok());
  const float *deviceScale = static_cast<const float *>(scale.data());
  float *deviceFound = static_cast<float *>(found.data());
  auto *deviceTracker = static_cast<int32_t *>(tracker->data());
  auto *deviceStep = static_cast<int64_t *>(step->data());
  float hostScale = 2.0f, hostFound = 0.0f;
  int32_t hostTracker = 0;
  int64_t hostStep = 0;
  auto expectRefused = [](const Status &status, const char *what) {
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument) << status.toString();
    EXPECT_EQ(status.message().rfind(what, 0), 0u) << status.message();
    EXPECT_NE(status.message().find("host memory"), std::string::npos)
        << status.message();
  };
  expectRefused(unscaleAndCheck(g, &hostScale, deviceFound), "scale");
  expectRefused(unscaleAndCheck(g, deviceScale, &hostFound), "found_inf");
  expectRefused(checkFinite(g, &hostFound), "found_inf");
  expectRefused(scaleLoss(grads.tensor(), &hostScale, grads.tensor()), "scale");
  expectRefused(updateScale(Device::CUDA, &hostScale, deviceTracker,
                            deviceFound, 1, 2.0, 0.5, 10),
                "scale");
  expectRefused(updateScale(Device::CUDA, const_cast<float *>(deviceScale),
                            &hostTracker, deviceFound, 1, 2.0, 0.5, 10),
                "growth_tracker");
  expectRefused(updateScale(Device::CUDA, const_cast<float *>(deviceScale),
                            deviceTracker, &hostFound, 1, 2.0, 0.5, 10),
                "found_inf");
  SgdHyperParams sgd;
  expectRefused(sgdStep(sgd, p, g, {}, &hostStep, nullptr, nullptr), "step");
  expectRefused(sgdStep(sgd, p, g, {}, deviceStep, &hostScale, nullptr),
                "scale");
  expectRefused(sgdStep(sgd, p, g, {}, deviceStep, nullptr, &hostFound),
                "found_inf");
  Buffer m = upload({0.0f, 0.0f}), v = upload({0.0f, 0.0f});
  const std::vector<Tensor> ms = {m.tensor()}, vs = {v.tensor()};
  expectRefused(adamwStep(AdamWHyperParams(), p, g, ms, vs, {}, deviceStep,
                          deviceScale, &hostFound),
                "found_inf");
  tp_rt_buffer cGrad = {grads.data(), 2, TP_RT_F32, TP_RT_CUDA};
  EXPECT_EQ(tp_rt_unscale_and_check(&cGrad, 1, &hostScale, deviceFound),
            TP_RT_ERROR_INVALID_ARGUMENT);
  // Nothing ran, and the context is still usable.
  EXPECT_EQ(download(grads), (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(download(params), (std::vector<float>{3.0f, 4.0f}));
  EXPECT_EQ(read(found), 0.0f);
  TP_EXPECT_OK(synchronizeDevice(Device::CUDA));
}

/// An optimizer over device copies of host parameters, with a CPU twin.
struct TwinOptimizers {
  std::vector<std::vector<float>> hostParams, hostGrads;
  std::vector<Buffer> deviceParams, deviceGrads;
  std::vector<Tensor> cpuP, cpuG, cudaP, cudaG;
  std::unique_ptr<Optimizer> cpu, cuda;
};

TEST_F(CudaTest, OptimizersMatchTheCpuAndSkipOnTheDevice) {
  for (bool adam : {false, true}) {
    SCOPED_TRACE(adam ? "AdamW" : "SGD");
    const std::vector<size_t> sizes = {100, 70000, 3};
    TwinOptimizers twins;
    for (size_t t = 0; t < sizes.size(); ++t) {
      twins.hostParams.push_back(randomFloats(sizes[t], 60 + t));
      twins.hostGrads.push_back(std::vector<float>(sizes[t]));
      twins.deviceParams.push_back(upload(twins.hostParams[t]));
      twins.deviceGrads.push_back(upload(twins.hostGrads[t]));
    }
    for (size_t t = 0; t < sizes.size(); ++t) {
      twins.cpuP.push_back(cpuTensor(twins.hostParams[t]));
      twins.cpuG.push_back(cpuTensor(twins.hostGrads[t]));
      twins.cudaP.push_back(twins.deviceParams[t].tensor());
      twins.cudaG.push_back(twins.deviceGrads[t].tensor());
    }
    if (adam) {
      AdamWOptions options;
      options.lr = 0.01;
      options.amsgrad = true;
      options.fused = true;
      twins.cpu = AdamW::create(twins.cpuP, twins.cpuG, options).take();
      twins.cuda = AdamW::create(twins.cudaP, twins.cudaG, options).take();
    } else {
      SgdOptions options;
      options.lr = 0.1;
      options.momentum = 0.9;
      options.nesterov = true;
      options.weightDecay = 0.01;
      options.fused = true;
      twins.cpu = SGD::create(twins.cpuP, twins.cpuG, options).take();
      twins.cuda = SGD::create(twins.cudaP, twins.cudaG, options).take();
    }
    const float scaleValue = 512.0f;
    Buffer deviceScale = scalar(scaleValue);
    for (int step = 0; step < 4; ++step) {
      bool inf = step == 2;
      for (size_t t = 0; t < sizes.size(); ++t) {
        twins.hostGrads[t] = randomFloats(sizes[t], 500 + step * 10 + t);
        for (float &g : twins.hostGrads[t])
          g *= scaleValue;
        if (inf)
          twins.hostGrads[t].back() = kInf;
        TP_ASSERT_OK(twins.deviceGrads[t].copyFromHost(
            twins.hostGrads[t].data(), twins.deviceGrads[t].bytes()));
      }
      float hostFound = 0.0f;
      Buffer deviceFound = scalar(0.0f);
      TP_ASSERT_OK(checkFinite(twins.cpuG, &hostFound));
      TP_ASSERT_OK(
          checkFinite(twins.cudaG, static_cast<float *>(deviceFound.data())));
      std::vector<std::vector<float>> before;
      for (const Buffer &p : twins.deviceParams)
        before.push_back(download(p));
      TP_ASSERT_OK(twins.cpu->step({&scaleValue, &hostFound}));
      TP_ASSERT_OK(
          twins.cuda->step({static_cast<const float *>(deviceScale.data()),
                            static_cast<const float *>(deviceFound.data())}));
      for (size_t t = 0; t < sizes.size(); ++t) {
        std::vector<float> result = download(twins.deviceParams[t]);
        // Both write the unscaled gradients back (a skipped step none).
        ASSERT_TRUE(
            bitwiseEqual(download(twins.deviceGrads[t]), twins.hostGrads[t]))
            << "step " << step << " tensor " << t;
        if (inf) {
          ASSERT_TRUE(bitwiseEqual(result, before[t]));
          continue;
        }
        for (size_t i = 0; i < result.size(); ++i)
          ASSERT_NEAR(result[i], twins.hostParams[t][i],
                      1e-5 * (1 + std::fabs(twins.hostParams[t][i])))
              << "step " << step << " tensor " << t << " element " << i;
      }
    }
  }
}

/// A custom CUDA optimizer that does not read found_inf: it only counts.
class CountingOptimizer : public Optimizer {
public:
  explicit CountingOptimizer(Tensor grad) : grads{grad} {}
  Device device() const override { return Device::CUDA; }
  TensorList gradients() const override { return grads; }
  Status step(const AmpStepArgs &) override {
    ++steps;
    return Status::success();
  }
  std::vector<Tensor> grads;
  int steps = 0;
};

TEST_F(CudaTest, GradScalerSkipsOptimizersThatDoNotSkipThemselves) {
  Expected<GradScaler> scaler = GradScaler::create(Device::CUDA);
  ASSERT_TRUE(scaler.ok());
  Buffer grad = upload({1.0f, kInf});
  Buffer loss = upload({0.25f}), scaled = upload({0.0f});
  CountingOptimizer custom(grad.tensor());
  TP_ASSERT_OK(scaler->scale(loss.tensor(), scaled.tensor()));
  TP_ASSERT_OK(scaler->step(custom));
  EXPECT_EQ(custom.steps, 0);
  TP_ASSERT_OK(scaler->update());
  TP_ASSERT_OK(grad.copyFromHost(std::vector<float>{1.0f, 2.0f}.data(), 8));
  TP_ASSERT_OK(scaler->scale(loss.tensor(), scaled.tensor()));
  TP_ASSERT_OK(scaler->step(custom));
  EXPECT_EQ(custom.steps, 1);
}

TEST_F(CudaTest, GradScalerTrainingLoopOnTheDevice) {
  Expected<GradScaler> scaler = GradScaler::create(Device::CUDA);
  ASSERT_TRUE(scaler.ok());
  ASSERT_TRUE(scaler->isEnabled());
  Buffer param = upload({1.0f, 2.0f, 3.0f, 4.0f});
  Buffer grad = upload({0.0f, 0.0f, 0.0f, 0.0f});
  Buffer loss = upload({0.25f}), scaled = upload({0.0f});
  for (bool fused : {false, true}) {
    SgdOptions options;
    options.lr = 0.5;
    options.fused = fused;
    Expected<std::unique_ptr<SGD>> sgd =
        SGD::create({param.tensor()}, {grad.tensor()}, options);
    ASSERT_TRUE(sgd.ok());
    for (int step = 0; step < 3; ++step) {
      bool inf = step == 1;
      TP_ASSERT_OK(scaler->scale(loss.tensor(), scaled.tensor()));
      float scaleValue = static_cast<float>(*scaler->getScale());
      EXPECT_EQ(read(scaled), 0.25f * scaleValue);
      std::vector<float> g(4, scaleValue);
      if (inf)
        g[2] = std::nanf("");
      TP_ASSERT_OK(grad.copyFromHost(g.data(), grad.bytes()));
      std::vector<float> before = download(param);
      TP_ASSERT_OK(scaler->step(**sgd));
      TP_ASSERT_OK(scaler->update());
      std::vector<float> after = download(param);
      if (inf) {
        EXPECT_TRUE(bitwiseEqual(before, after));
        EXPECT_EQ(*scaler->getScale(), scaleValue / 2);
      } else {
        EXPECT_EQ(after[0], before[0] - 0.5f);
        EXPECT_EQ(*scaler->getScale(), scaleValue);
      }
    }
  }
  EXPECT_EQ(*scaler->getGrowthTracker(), 1);
}

} // namespace
