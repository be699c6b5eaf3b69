//===- ScaleUpdateTest.cpp - Dynamic scale trajectories -------------------===//
//
// Expected scales derived by hand from torch's rule: inf/NaN -> scale *=
// backoff, tracker = 0; otherwise tracker + 1 and, when that equals
// growth_interval, scale *= growth (only if finite), tracker = 0.
//
//===----------------------------------------------------------------------===//

#include "ScalerRig.h"

#include <cmath>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

struct Point {
  bool inf;
  double scale;
  int64_t tracker;
};

void expectTrajectory(ScalerRig &rig, const std::vector<Point> &points) {
  for (size_t i = 0; i < points.size(); ++i) {
    SCOPED_TRACE("iteration " + std::to_string(i));
    TP_ASSERT_OK(rig.iterate(points[i].inf));
    EXPECT_EQ(rig.scale(), points[i].scale);
    EXPECT_EQ(rig.tracker(), points[i].tracker);
  }
}

TEST(ScaleUpdate, Defaults) {
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(GradScalerOptions()));
  EXPECT_TRUE(rig.scaler->isEnabled());
  EXPECT_EQ(rig.scale(), 65536.0);
  EXPECT_EQ(rig.scaler->getGrowthFactor(), 2.0);
  EXPECT_EQ(rig.scaler->getBackoffFactor(), 0.5);
  EXPECT_EQ(rig.scaler->getGrowthInterval(), 2000);
  EXPECT_EQ(rig.tracker(), 0);
}

TEST(ScaleUpdate, GrowsExactlyAtTheInterval) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 8.0;
  options.growthInterval = 3;
  TP_ASSERT_OK(rig.init(options));
  expectTrajectory(rig, {{false, 8, 1},
                         {false, 8, 2},
                         {false, 16, 0},
                         {false, 16, 1},
                         {false, 16, 2},
                         {false, 32, 0}});
}

TEST(ScaleUpdate, DefaultIntervalGrowsAtStep2000) {
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(GradScalerOptions()));
  for (int i = 1; i < 2000; ++i)
    TP_ASSERT_OK(rig.iterate(false));
  EXPECT_EQ(rig.scale(), 65536.0);
  EXPECT_EQ(rig.tracker(), 1999);
  TP_ASSERT_OK(rig.iterate(false));
  EXPECT_EQ(rig.scale(), 131072.0);
  EXPECT_EQ(rig.tracker(), 0);
}

TEST(ScaleUpdate, BacksOffOnInfAndResetsTheTracker) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 8.0;
  options.growthInterval = 3;
  TP_ASSERT_OK(rig.init(options));
  expectTrajectory(rig, {{false, 8, 1},
                         {false, 8, 2},
                         {true, 4, 0},
                         {false, 4, 1},
                         {false, 4, 2},
                         {false, 8, 0},
                         {true, 4, 0},
                         {true, 2, 0}});
}

TEST(ScaleUpdate, MixedTrajectory) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 1024.0;
  options.growthInterval = 2;
  TP_ASSERT_OK(rig.init(options));
  expectTrajectory(rig, {{false, 1024, 1},
                         {false, 2048, 0},
                         {true, 1024, 0},
                         {false, 1024, 1},
                         {true, 512, 0},
                         {true, 256, 0},
                         {false, 256, 1},
                         {false, 512, 0},
                         {false, 512, 1},
                         {false, 1024, 0}});
}

TEST(ScaleUpdate, NonPowerOfTwoFactorsApplyInDouble) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 1000.0;
  options.growthFactor = 1.1;
  options.backoffFactor = 0.3;
  options.growthInterval = 1;
  TP_ASSERT_OK(rig.init(options));
  float expected = 1000.0f;
  TP_ASSERT_OK(rig.iterate(true));
  expected = static_cast<float>(static_cast<double>(expected) * 0.3);
  EXPECT_EQ(rig.scale(), expected);
  TP_ASSERT_OK(rig.iterate(false));
  expected = static_cast<float>(static_cast<double>(expected) * 1.1);
  EXPECT_EQ(rig.scale(), expected);
}

TEST(ScaleUpdate, RefusesToGrowToInf) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = std::ldexp(1.0, 127); // 2^128 is not a finite float.
  options.growthInterval = 1;
  TP_ASSERT_OK(rig.init(options));
  expectTrajectory(rig, {{false, std::ldexp(1.0, 127), 0},
                         {false, std::ldexp(1.0, 127), 0},
                         {true, std::ldexp(1.0, 126), 0},
                         {false, std::ldexp(1.0, 127), 0},
                         {false, std::ldexp(1.0, 127), 0}});
}

TEST(ScaleUpdate, GrowsUpToTheLargestFiniteResult) {
  // 1.5 * 2^127 * 1.125 = 1.6875 * 2^127 and * 1.125 again = 1.8984375 *
  // 2^127 stay below FLT_MAX (~1.99999988 * 2^127): allowed; once more
  // (~2.136 * 2^127) overflows: refused.
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 1.5 * std::ldexp(1.0, 127);
  options.growthFactor = 1.125;
  options.growthInterval = 1;
  TP_ASSERT_OK(rig.init(options));
  expectTrajectory(rig, {{false, 1.6875 * std::ldexp(1.0, 127), 0},
                         {false, 1.8984375 * std::ldexp(1.0, 127), 0},
                         {false, 1.8984375 * std::ldexp(1.0, 127), 0}});
}

TEST(ScaleUpdate, ScaleFallsBelowOne) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 1.0;
  TP_ASSERT_OK(rig.init(options));
  expectTrajectory(
      rig,
      {{true, 0.5, 0}, {true, 0.25, 0}, {true, 0.125, 0}, {true, 0.0625, 0}});
  // Unscaling by a scale below 1 enlarges the gradients: 1/0.0625 = 16.
  TP_ASSERT_OK(
      rig.scaler->scale(cpuTensor(rig.loss), cpuTensor(rig.scaledLoss)));
  EXPECT_EQ(rig.scaledLoss[0], 0.5f * 0.0625f);
  std::fill(rig.grad.begin(), rig.grad.end(), 1.0f);
  TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd));
  EXPECT_EQ(rig.grad[0], 16.0f);
}

TEST(ScaleUpdate, UpdateWithNewScale) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 8.0;
  options.growthInterval = 3;
  TP_ASSERT_OK(rig.init(options));
  TP_ASSERT_OK(rig.iterate(false));
  TP_ASSERT_OK(rig.iterate(false));
  ASSERT_EQ(rig.tracker(), 2);

  // update(new_scale) sets the scale, leaves the tracker, ends the iteration.
  TP_ASSERT_OK(
      rig.scaler->scale(cpuTensor(rig.loss), cpuTensor(rig.scaledLoss)));
  TP_ASSERT_OK(rig.writeGradients(true));
  TP_ASSERT_OK(rig.scaler->step(*rig.sgd));
  TP_ASSERT_OK(rig.scaler->update(3.0));
  EXPECT_EQ(rig.scale(), 3.0);
  EXPECT_EQ(rig.tracker(), 2);
  TP_ASSERT_OK(rig.scaler->unscale(*rig.sgd));

  // Without a recorded step, update(new_scale) is still allowed.
  TP_ASSERT_OK(rig.scaler->update(0.75));
  EXPECT_EQ(rig.scale(), 0.75);

  TP_EXPECT_ERROR(rig.scaler->update(0.0), StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->update(-1.0), StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->update(1e39), StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->update(std::nan("")),
                  StatusCode::InvalidArgument);
  EXPECT_EQ(rig.scale(), 0.75);
}

TEST(ScaleUpdate, SettersChangeTheRule) {
  ScalerRig rig;
  GradScalerOptions options;
  options.initScale = 64.0;
  TP_ASSERT_OK(rig.init(options));
  TP_ASSERT_OK(rig.scaler->setGrowthInterval(2));
  TP_ASSERT_OK(rig.scaler->setGrowthFactor(4.0));
  TP_ASSERT_OK(rig.scaler->setBackoffFactor(0.25));
  expectTrajectory(rig, {{false, 64, 1}, {false, 256, 0}, {true, 64, 0}});
  TP_EXPECT_ERROR(rig.scaler->setGrowthFactor(1.0),
                  StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->setBackoffFactor(1.0),
                  StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->setBackoffFactor(0.0),
                  StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->setGrowthInterval(0),
                  StatusCode::InvalidArgument);
  EXPECT_EQ(rig.scaler->getGrowthFactor(), 4.0);
  EXPECT_EQ(rig.scaler->getBackoffFactor(), 0.25);
  EXPECT_EQ(rig.scaler->getGrowthInterval(), 2);
}

TEST(ScaleUpdate, ATrackerPastTheIntervalCountsOnWithoutGrowth) {
  // torch grows only when tracker + 1 == growth_interval: a tracker loaded
  // past the interval keeps counting until a backoff resets it.
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(GradScalerOptions()));
  GradScalerState state = *rig.scaler->stateDict();
  state.scale = 8.0;
  state.growthInterval = 3;
  state.growthTracker = 5;
  TP_ASSERT_OK(rig.scaler->loadStateDict(state));
  expectTrajectory(rig, {{false, 8, 6},
                         {false, 8, 7},
                         {true, 4, 0},
                         {false, 4, 1},
                         {false, 4, 2},
                         {false, 8, 0}});
  // Lowering the interval below the tracker does the same.
  expectTrajectory(rig, {{false, 8, 1}, {false, 8, 2}});
  TP_ASSERT_OK(rig.scaler->setGrowthInterval(2));
  expectTrajectory(rig, {{false, 8, 3}, {false, 8, 4}});
}

TEST(ScaleUpdate, CAbiTrackerAtOrPastTheInterval) {
  float scale = 8.0f, clean = 0.0f;
  int32_t tracker = 3;
  // tracker + 1 == 4 == interval: growth.
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &clean, 1, 2.0, 0.5, 4),
      TP_RT_SUCCESS);
  EXPECT_EQ(scale, 16.0f);
  EXPECT_EQ(tracker, 0);
  // tracker + 1 == 5 > interval: counting only.
  tracker = 4;
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &clean, 1, 2.0, 0.5, 4),
      TP_RT_SUCCESS);
  EXPECT_EQ(scale, 16.0f);
  EXPECT_EQ(tracker, 5);
}

TEST(ScaleUpdate, GrowthIntervalIsBoundedByTheInt32Tracker) {
  const int64_t tooLarge = kMaxGrowthInterval + 1;
  GradScalerOptions options;
  options.growthInterval = tooLarge;
  Expected<GradScaler> created = GradScaler::create(Device::CPU, options);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(created.status().message().find("2147483647"), std::string::npos)
      << created.status().message();
  options.growthInterval = kMaxGrowthInterval;
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(options));
  TP_EXPECT_ERROR(rig.scaler->setGrowthInterval(tooLarge),
                  StatusCode::InvalidArgument);
  TP_EXPECT_ERROR(rig.scaler->setGrowthInterval(int64_t(1) << 40),
                  StatusCode::InvalidArgument);
  EXPECT_EQ(rig.scaler->getGrowthInterval(), kMaxGrowthInterval);
}

TEST(ScaleUpdate, CAbiRefusesIntervalsTheTrackerCannotReach) {
  float scale = 8.0f, clean = 0.0f;
  int32_t tracker = INT32_MAX;
  // An interval past INT32_MAX used to count the tracker past it, wrapping
  // to INT32_MIN.
  EXPECT_EQ(tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &clean, 1, 2.0, 0.5,
                               int64_t(1) << 40),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_last_error_message()).find("growth_interval"),
            std::string::npos);
  EXPECT_EQ(tracker, INT32_MAX);
  EXPECT_EQ(scale, 8.0f);
  // At the largest interval, the tracker reaches it and resets.
  tracker = INT32_MAX - 1;
  ASSERT_EQ(tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &clean, 1, 2.0, 0.5,
                               kMaxGrowthInterval),
            TP_RT_SUCCESS);
  EXPECT_EQ(scale, 16.0f);
  EXPECT_EQ(tracker, 0);
  // Past it, the count (INT32_MAX + 1) never equals the interval: no growth,
  // and the tracker stays at INT32_MAX where torch's int32 would overflow.
  tracker = INT32_MAX;
  ASSERT_EQ(tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &clean, 1, 2.0, 0.5,
                               kMaxGrowthInterval),
            TP_RT_SUCCESS);
  EXPECT_EQ(scale, 16.0f);
  EXPECT_EQ(tracker, INT32_MAX);
}

TEST(ScaleUpdate, CAbiRefusesANegativeTracker) {
  float scale = 8.0f, clean = 0.0f;
  int32_t tracker = -5;
  EXPECT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, &clean, 1, 2.0, 0.5, 2),
      TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_last_error_message()).find("growth_tracker"),
            std::string::npos);
  EXPECT_EQ(tracker, -5);
  EXPECT_EQ(scale, 8.0f);
}

TEST(ScaleUpdate, CAbiSumsFoundInfs) {
  float scale = 100.0f;
  int32_t tracker = 0;
  float clean[3] = {0.0f, 0.0f, 0.0f};
  float oneInf[3] = {0.0f, 1.0f, 0.0f};
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, clean, 3, 2.0, 0.5, 2),
      TP_RT_SUCCESS);
  EXPECT_EQ(scale, 100.0f);
  EXPECT_EQ(tracker, 1);
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, clean, 3, 2.0, 0.5, 2),
      TP_RT_SUCCESS);
  EXPECT_EQ(scale, 200.0f);
  EXPECT_EQ(tracker, 0);
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, clean, 3, 2.0, 0.5, 2),
      TP_RT_SUCCESS);
  EXPECT_EQ(tracker, 1);
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, oneInf, 3, 2.0, 0.5, 2),
      TP_RT_SUCCESS);
  EXPECT_EQ(scale, 100.0f);
  EXPECT_EQ(tracker, 0);
  // Only the first found_inf counts when num_found_inf is 1.
  ASSERT_EQ(
      tp_rt_update_scale(TP_RT_CPU, &scale, &tracker, oneInf, 1, 2.0, 0.5, 2),
      TP_RT_SUCCESS);
  EXPECT_EQ(scale, 100.0f);
  EXPECT_EQ(tracker, 1);
}

} // namespace
