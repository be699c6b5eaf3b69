//===- OptimizerReferenceTest.cpp - Bit equality with torch ---------------===//
//
// The CPU optimizers against values recorded from torch's fused=True CPU
// SGD / AdamW, alone and under torch.amp.GradScaler (Data/OptimizerReference.
// inc, written once by Data/gen_optimizer_reference.py; torch is not needed
// here). Every element of the parameters, the gradients after the step and
// every state tensor, the step count, the scale and the growth tracker must
// be bit-identical after every step, through the C++ API (SGD / AdamW, driven
// by GradScaler) and through the C ABI as compiled code calls it, with both
// builds of the CPU loops (AVX2 + FMA, and baseline x86-64 calling fmaf).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "cpu/CpuKernels.h"
#include "cpu/FloatConversion.h"
#include "tensorplay/Runtime/Buffer.h"
#include "tensorplay/Runtime/CAPI.h"
#include "tensorplay/Runtime/GradScaler.h"
#include "tensorplay/Runtime/Optimizers.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

/// torch's hyper-parameters of one case (SGD or AdamW, the other fields 0).
struct ReferenceHyper {
  double lr, momentum, dampening, weightDecay, beta1, beta2, eps;
  bool nesterov, amsgrad, maximize;
};

/// One recorded run. Tensors of one list are concatenated; per-step arrays
/// hold all steps in order. Values are float bit patterns (16-bit values
/// widened to float).
struct ReferenceCase {
  const char *name;
  bool adamw;
  DType dtype;
  ReferenceHyper hyper;
  /// GradScaler options; initScale 0 for a run without one.
  double initScale, growthFactor, backoffFactor;
  int64_t growthInterval;
  /// SGD: momentum_buffer (if momentum); AdamW: exp_avg, exp_avg_sq
  /// (, max_exp_avg_sq).
  int numStates;
  std::vector<int64_t> sizes;
  /// Per step: applied steps so far (torch's state["step"]).
  std::vector<int64_t> stepCounts;
  /// Per step, after GradScaler.update: growth tracker and scale.
  std::vector<int32_t> trackers;
  std::vector<uint32_t> scales;
  std::vector<uint32_t> params0;
  /// Per step: the gradients given to the step (scaled under a GradScaler)
  /// and the gradients after it.
  std::vector<uint32_t> grads, gradsAfter;
  /// Per step: the parameters; per step and state list: the state.
  std::vector<uint32_t> params, states;
};

const ReferenceCase kCases[] = {
#include "Data/OptimizerReference.inc"
};

//===----------------------------------------------------------------------===//
// Tensors of any dtype as float bit patterns
//===----------------------------------------------------------------------===//

uint32_t loadBits(const Tensor &t, int64_t i) {
  switch (t.dtype) {
  case DType::F32:
    return cpu::floatBits(t.as<float>()[i]);
  case DType::BF16:
    return cpu::floatBits(cpu::bf16ToFloat(t.as<uint16_t>()[i]));
  case DType::F16:
    return cpu::floatBits(cpu::f16ToFloat(t.as<uint16_t>()[i]));
  }
  return 0;
}

/// Stores a value exactly representable in t's dtype.
void storeBits(const Tensor &t, int64_t i, uint32_t bits) {
  float value = cpu::bitsToFloat(bits);
  switch (t.dtype) {
  case DType::F32:
    t.as<float>()[i] = value;
    return;
  case DType::BF16:
    t.as<uint16_t>()[i] = cpu::floatToBf16(value);
    return;
  case DType::F16:
    t.as<uint16_t>()[i] = cpu::floatToF16(value);
    return;
  }
}

std::vector<uint32_t> read(TensorList list) {
  std::vector<uint32_t> bits;
  for (const Tensor &t : list)
    for (int64_t i = 0; i < t.numel; ++i)
      bits.push_back(loadBits(t, i));
  return bits;
}

void write(TensorList list, const uint32_t *bits) {
  for (const Tensor &t : list)
    for (int64_t i = 0; i < t.numel; ++i)
      storeBits(t, i, *bits++);
}

/// The distance between two values in ulps of `dtype`.
int64_t ulpDistance(uint32_t a, uint32_t b, DType dtype) {
  auto ordered = [dtype](uint32_t bits) -> int64_t {
    int64_t magnitude, negative = bits >> 31;
    if (dtype == DType::F32)
      magnitude = bits & 0x7fffffffu;
    else if (dtype == DType::BF16)
      magnitude = (bits & 0x7fffffffu) >> 16;
    else
      magnitude = cpu::floatToF16(cpu::bitsToFloat(bits)) & 0x7fffu;
    return negative ? -magnitude : magnitude;
  };
  return std::abs(ordered(a) - ordered(b));
}

/// Fails unless `actual` has the bits of `expected` everywhere, reporting
/// the number of differing elements, the largest distance in ulps and the
/// first difference.
::testing::AssertionResult sameBits(const std::vector<uint32_t> &actual,
                                    const uint32_t *expected, DType dtype) {
  size_t mismatches = 0, first = 0;
  int64_t worst = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] == expected[i])
      continue;
    if (mismatches++ == 0)
      first = i;
    worst = std::max(worst, ulpDistance(actual[i], expected[i], dtype));
  }
  if (mismatches == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << mismatches << " of " << actual.size()
         << " elements differ, by up to " << worst << " ulps; element " << first
         << ": " << cpu::bitsToFloat(actual[first]) << " vs torch "
         << cpu::bitsToFloat(expected[first]);
}

//===----------------------------------------------------------------------===//
// The two entry points
//===----------------------------------------------------------------------===//

/// Host memory for the lists of one case.
struct Lists {
  std::vector<Buffer> storage;

  std::vector<Tensor> allocate(const ReferenceCase &c) {
    std::vector<Tensor> list;
    for (int64_t n : c.sizes) {
      Expected<Buffer> buffer = Buffer::allocate(Device::CPU, c.dtype, n);
      EXPECT_TRUE(buffer.ok()) << buffer.status().toString();
      list.push_back(buffer->tensor(c.dtype, n));
      storage.push_back(buffer.take());
    }
    return list;
  }
};

/// What a run exposes after each step.
struct Observed {
  std::vector<uint32_t> params, grads;
  std::vector<std::vector<uint32_t>> states;
  int64_t stepCount = 0;
  float scale = 0.0f;
  int64_t tracker = 0;
};

/// A run through one entry point: step() applies one step (and, under a
/// scaler, the scale update) to the gradients the test wrote.
class ReferenceRun {
public:
  virtual ~ReferenceRun() = default;
  virtual Status step() = 0;
  virtual Observed observe() = 0;

  std::vector<Tensor> params, grads;

protected:
  explicit ReferenceRun(const ReferenceCase &c) : c(c) {
    params = lists.allocate(c);
    grads = lists.allocate(c);
    write(params, c.params0.data());
  }
  bool scaled() const { return c.initScale != 0.0; }

  const ReferenceCase &c;
  Lists lists;
};

/// SGD / AdamW objects, driven by a CPU GradScaler with fused steps.
class ApiRun : public ReferenceRun {
public:
  explicit ApiRun(const ReferenceCase &c) : ReferenceRun(c) {
    const ReferenceHyper &h = c.hyper;
    if (c.adamw) {
      AdamWOptions o;
      o.lr = h.lr;
      o.beta1 = h.beta1;
      o.beta2 = h.beta2;
      o.eps = h.eps;
      o.weightDecay = h.weightDecay;
      o.amsgrad = h.amsgrad;
      o.maximize = h.maximize;
      o.fused = true;
      Expected<std::unique_ptr<AdamW>> created =
          AdamW::create(params, grads, o);
      EXPECT_TRUE(created.ok()) << created.status().toString();
      adamw = created.take();
    } else {
      SgdOptions o;
      o.lr = h.lr;
      o.momentum = h.momentum;
      o.dampening = h.dampening;
      o.weightDecay = h.weightDecay;
      o.nesterov = h.nesterov;
      o.maximize = h.maximize;
      o.fused = true;
      Expected<std::unique_ptr<SGD>> created = SGD::create(params, grads, o);
      EXPECT_TRUE(created.ok()) << created.status().toString();
      sgd = created.take();
    }
    if (scaled()) {
      GradScalerOptions o;
      o.initScale = c.initScale;
      o.growthFactor = c.growthFactor;
      o.backoffFactor = c.backoffFactor;
      o.growthInterval = c.growthInterval;
      Expected<GradScaler> created = GradScaler::create(Device::CPU, o);
      EXPECT_TRUE(created.ok()) << created.status().toString();
      scaler.emplace(created.take());
    }
  }

  Status step() override {
    Optimizer &optimizer = adamw ? static_cast<Optimizer &>(*adamw) : *sgd;
    if (!scaler)
      return optimizer.step();
    // The loss is irrelevant; scale() starts the iteration.
    std::vector<float> loss = {1.0f}, scaledLoss = {0.0f};
    TP_RT_RETURN_IF_ERROR(
        scaler->scale(cpuTensor(loss), cpuTensor(scaledLoss)));
    TP_RT_RETURN_IF_ERROR(scaler->step(optimizer));
    return scaler->update();
  }

  Observed observe() override {
    Observed o;
    o.params = read(params);
    o.grads = read(grads);
    std::vector<TensorList> states;
    if (adamw)
      states = {adamw->expAvgs(), adamw->expAvgSqs(), adamw->maxExpAvgSqs()};
    else
      states = {sgd->momentumBuffers()};
    for (TensorList list : states)
      if (!list.empty())
        o.states.push_back(read(list));
    Expected<int64_t> count = adamw ? adamw->stepCount() : sgd->stepCount();
    o.stepCount = count.ok() ? *count : -1;
    if (scaler) {
      o.scale = static_cast<float>(*scaler->getScale());
      o.tracker = *scaler->getGrowthTracker();
    }
    return o;
  }

private:
  std::unique_ptr<SGD> sgd;
  std::unique_ptr<AdamW> adamw;
  std::optional<GradScaler> scaler;
};

std::vector<tp_rt_buffer> descriptors(const std::vector<Tensor> &list) {
  std::vector<tp_rt_buffer> result;
  for (const Tensor &t : list)
    result.push_back({t.data, t.numel, static_cast<tp_rt_dtype>(t.dtype),
                      static_cast<tp_rt_device>(t.device)});
  return result;
}

/// tp_rt_* calls on buffers the test owns: under a scaler, check_finite,
/// the fused step with the scale and found_inf, then update_scale.
class CAbiRun : public ReferenceRun {
public:
  explicit CAbiRun(const ReferenceCase &c)
      : ReferenceRun(c), scale(c.initScale) {
    for (int i = 0; i < c.numStates; ++i)
      states.push_back(lists.allocate(c));
  }

  Status step() override {
    std::vector<tp_rt_buffer> p = descriptors(params), g = descriptors(grads);
    std::vector<std::vector<tp_rt_buffer>> s;
    for (const std::vector<Tensor> &list : states)
      s.push_back(descriptors(list));
    auto stateData = [&](int i) {
      return i < c.numStates ? s[i].data() : nullptr;
    };
    const int64_t n = static_cast<int64_t>(params.size());
    float found = 0.0f;
    if (scaled() && tp_rt_check_finite(g.data(), n, &found) != TP_RT_SUCCESS)
      return lastError();
    const float *gradScale = scaled() ? &scale : nullptr;
    const float *foundInf = scaled() ? &found : nullptr;
    const ReferenceHyper &h = c.hyper;
    tp_rt_status status;
    if (c.adamw) {
      tp_rt_adamw_options o = {h.lr,          h.beta1,   h.beta2,   h.eps,
                               h.weightDecay, h.amsgrad, h.maximize};
      status = tp_rt_adamw_step(p.data(), g.data(), stateData(0), stateData(1),
                                stateData(2), n, &o, &stepCount, gradScale,
                                foundInf);
    } else {
      tp_rt_sgd_options o = {h.lr,          h.momentum, h.dampening,
                             h.weightDecay, h.nesterov, h.maximize};
      status = tp_rt_sgd_step(p.data(), g.data(), stateData(0), n, &o,
                              &stepCount, gradScale, foundInf);
    }
    if (status != TP_RT_SUCCESS)
      return lastError();
    if (scaled() && tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &found, 1,
                                       c.growthFactor, c.backoffFactor,
                                       c.growthInterval) != TP_RT_SUCCESS)
      return lastError();
    return Status::success();
  }

  Observed observe() override {
    Observed o;
    o.params = read(params);
    o.grads = read(grads);
    for (const std::vector<Tensor> &list : states)
      o.states.push_back(read(list));
    o.stepCount = stepCount;
    o.scale = scale;
    o.tracker = tracker;
    return o;
  }

private:
  static Status lastError() {
    return Status(StatusCode::Internal, tp_rt_last_error_message());
  }

  std::vector<std::vector<Tensor>> states;
  int64_t stepCount = 0;
  float scale;
  int32_t tracker = 0;
};

//===----------------------------------------------------------------------===//
// The test
//===----------------------------------------------------------------------===//

enum class Entry { Api, CAbi };

/// Case index, entry point, AVX2 + FMA loops (else the baseline build).
using ReferenceParam = std::tuple<size_t, Entry, bool>;

class OptimizerReferenceTest : public ::testing::TestWithParam<ReferenceParam> {
protected:
  void SetUp() override {
    cpu::setOptimizerFmaLoops(std::get<2>(GetParam()));
    if (std::get<2>(GetParam()) && !cpu::optimizerFmaLoops())
      GTEST_SKIP() << "no AVX2 + FMA build of the loops on this CPU";
  }
  void TearDown() override { cpu::setOptimizerFmaLoops(true); }
};

TEST_P(OptimizerReferenceTest, BitIdenticalToTorchAfterEveryStep) {
  const ReferenceCase &c = kCases[std::get<0>(GetParam())];
  ASSERT_EQ(cpu::optimizerFmaLoops(), std::get<2>(GetParam()));
  std::unique_ptr<ReferenceRun> run;
  if (std::get<1>(GetParam()) == Entry::Api)
    run = std::make_unique<ApiRun>(c);
  else
    run = std::make_unique<CAbiRun>(c);
  size_t total = 0;
  for (int64_t n : c.sizes)
    total += static_cast<size_t>(n);
  const size_t steps = c.stepCounts.size();
  ASSERT_EQ(c.grads.size(), steps * total);
  ASSERT_EQ(c.states.size(), steps * total * c.numStates);
  for (size_t s = 0; s < steps; ++s) {
    SCOPED_TRACE("step " + std::to_string(s));
    const size_t at = s * total;
    write(run->grads, c.grads.data() + at);
    TP_ASSERT_OK(run->step());
    Observed o = run->observe();
    EXPECT_TRUE(sameBits(o.params, c.params.data() + at, c.dtype)) << "params";
    EXPECT_TRUE(sameBits(o.grads, c.gradsAfter.data() + at, c.dtype))
        << "grads after the step";
    ASSERT_EQ(o.states.size(), static_cast<size_t>(c.numStates));
    for (int k = 0; k < c.numStates; ++k)
      EXPECT_TRUE(sameBits(o.states[k],
                           c.states.data() + (s * c.numStates + k) * total,
                           c.dtype))
          << "state list " << k;
    EXPECT_EQ(o.stepCount, c.stepCounts[s]);
    if (c.initScale != 0.0) {
      EXPECT_EQ(cpu::floatBits(o.scale), c.scales[s])
          << o.scale << " vs torch " << cpu::bitsToFloat(c.scales[s]);
      EXPECT_EQ(o.tracker, c.trackers[s]);
    }
  }
}

std::string
referenceName(const ::testing::TestParamInfo<ReferenceParam> &info) {
  return std::string(kCases[std::get<0>(info.param)].name) +
         (std::get<1>(info.param) == Entry::Api ? "_Api" : "_CAbi") +
         (std::get<2>(info.param) ? "_Avx2Fma" : "_Baseline");
}

INSTANTIATE_TEST_SUITE_P(
    Torch, OptimizerReferenceTest,
    ::testing::Combine(::testing::Range<size_t>(0, std::size(kCases)),
                       ::testing::Values(Entry::Api, Entry::CAbi),
                       ::testing::Bool()),
    referenceName);

} // namespace
