//===- StateFileTest.cpp - state_dict and the versioned state file --------===//

#include "ScalerRig.h"

#include "tensorplay/Runtime/GradScalerState.h"

#include "Crc32.h"

#include <cstdio>
#include <fstream>
#include <iterator>

using namespace tensorplay::amp;
using namespace tensorplay::amp::test;

namespace {

std::vector<char> readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string &path, const std::vector<char> &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Rewrites the last 4 bytes as the CRC-32 of the others, as a writer of
/// any version does.
void withChecksum(std::vector<char> &bytes) {
  uint32_t crc = detail::crc32(
      reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size() - 4);
  for (int i = 0; i < 4; ++i)
    bytes[bytes.size() - 4 + i] = static_cast<char>(crc >> (8 * i));
}

/// A scaler moved away from its defaults: scale 3 * 2^10, tracker 2.
void trainedRig(ScalerRig &rig) {
  GradScalerOptions options;
  options.initScale = 3072.0;
  options.growthFactor = 4.0;
  options.backoffFactor = 0.25;
  options.growthInterval = 5;
  ASSERT_TRUE(rig.init(options).ok());
  ASSERT_TRUE(rig.iterate(false).ok());
  ASSERT_TRUE(rig.iterate(false).ok());
}

class StateFileTest : public ::testing::Test {
protected:
  void TearDown() override { std::remove(path.c_str()); }
  std::string path =
      tempPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
};

TEST_F(StateFileTest, StateDictHoldsScaleTrackerAndFactors) {
  ScalerRig rig;
  trainedRig(rig);
  Expected<GradScalerState> state = rig.scaler->stateDict();
  ASSERT_TRUE(state.ok());
  EXPECT_FALSE(state->empty);
  EXPECT_EQ(state->scale, 3072.0);
  EXPECT_EQ(state->growthFactor, 4.0);
  EXPECT_EQ(state->backoffFactor, 0.25);
  EXPECT_EQ(state->growthInterval, 5);
  EXPECT_EQ(state->growthTracker, 2);
}

TEST_F(StateFileTest, RoundTripThroughAFile) {
  ScalerRig source;
  trainedRig(source);
  TP_ASSERT_OK(source.scaler->saveState(path));

  ScalerRig restored;
  TP_ASSERT_OK(restored.init(GradScalerOptions()));
  TP_ASSERT_OK(restored.scaler->loadState(path));
  EXPECT_EQ(*restored.scaler->stateDict(), *source.scaler->stateDict());

  // Both continue identically: growth at the restored interval and factor.
  for (bool inf : {false, false, false, true, false}) {
    TP_ASSERT_OK(source.iterate(inf));
    TP_ASSERT_OK(restored.iterate(inf));
    EXPECT_EQ(restored.scale(), source.scale());
    EXPECT_EQ(restored.tracker(), source.tracker());
  }
  EXPECT_EQ(restored.scale(), 12288.0 * 0.25);
}

TEST_F(StateFileTest, DisabledScalerSavesAnEmptyState) {
  ScalerRig disabled;
  GradScalerOptions options;
  options.enabled = false;
  TP_ASSERT_OK(disabled.init(options));
  EXPECT_TRUE(disabled.scaler->stateDict()->empty);
  TP_ASSERT_OK(disabled.scaler->saveState(path));
  Expected<GradScalerState> state = readGradScalerState(path);
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(state->empty);

  ScalerRig enabled;
  TP_ASSERT_OK(enabled.init(GradScalerOptions()));
  Status status = enabled.scaler->loadState(path);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(status.message(),
            "The source state dict is empty, possibly because it was saved "
            "from a disabled instance of GradScaler.");
  // Loading into a disabled scaler is a no-op.
  TP_EXPECT_OK(disabled.scaler->loadState(path));
}

TEST_F(StateFileTest, CorruptFilesAreClearErrors) {
  ScalerRig rig;
  trainedRig(rig);
  TP_ASSERT_OK(rig.scaler->saveState(path));
  const std::vector<char> good = readBytes(path);
  ASSERT_EQ(good.size(), 60u);

  auto expectLoad = [&](const std::vector<char> &bytes, StatusCode code,
                        const char *fragment) {
    writeBytes(path, bytes);
    ScalerRig target;
    ASSERT_TRUE(target.init(GradScalerOptions()).ok());
    Status status = target.scaler->loadState(path);
    EXPECT_EQ(status.code(), code) << status.toString();
    EXPECT_NE(status.message().find(fragment), std::string::npos)
        << status.message();
    // A failed load changes nothing.
    EXPECT_EQ(target.scale(), 65536.0);
  };

  std::vector<char> flipped = good;
  flipped[20] ^= 0x10; // a bit of the scale
  expectLoad(flipped, StatusCode::CorruptFile, "checksum mismatch");

  std::vector<char> badMagic = good;
  badMagic[0] = 'X';
  expectLoad(badMagic, StatusCode::CorruptFile, "bad magic");

  expectLoad(std::vector<char>(good.begin(), good.begin() + 40),
             StatusCode::CorruptFile, "truncated");
  std::vector<char> longer = good;
  longer.push_back(0);
  expectLoad(longer, StatusCode::CorruptFile, "trailing bytes");

  // Every prefix of a state file is truncated, not a bad magic.
  for (size_t size = 0; size < good.size(); ++size) {
    SCOPED_TRACE(std::to_string(size) + " bytes");
    expectLoad(std::vector<char>(good.begin(), good.begin() + size),
               StatusCode::CorruptFile, "truncated");
  }
  expectLoad({'T', 'P', 'G', 'X'}, StatusCode::CorruptFile, "bad magic");

  // The checksum is checked before the version: a bit flip there is
  // corruption.
  for (size_t byte = 8; byte < 12; ++byte) {
    std::vector<char> flippedVersion = good;
    flippedVersion[byte] ^= 0x02;
    expectLoad(flippedVersion, StatusCode::CorruptFile, "checksum mismatch");
  }
  // An intact file of another version (of another size, too) is one.
  for (size_t size : {good.size(), good.size() + 8}) {
    std::vector<char> newer = good;
    newer.resize(size);
    newer[8] = 2; // version 2
    withChecksum(newer);
    expectLoad(newer, StatusCode::VersionMismatch, "version 2");
  }
}

TEST(StateFileChecksum, IsZlibsCrc32) {
  const char *check = "123456789";
  EXPECT_EQ(detail::crc32(reinterpret_cast<const unsigned char *>(check), 9),
            0xcbf43926u);
}

TEST_F(StateFileTest, MissingFileIsAnIOError) {
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(GradScalerOptions()));
  TP_EXPECT_ERROR(rig.scaler->loadState(path + ".missing"),
                  StatusCode::IOError);
  TP_EXPECT_ERROR(rig.scaler->saveState("/nonexistent-dir/state.bin"),
                  StatusCode::IOError);
}

TEST_F(StateFileTest, InvalidValuesInAWellFormedFileAreRefused) {
  GradScalerState state;
  state.empty = false;
  state.scale = 1024.0;
  state.growthFactor = 0.5; // must be > 1
  TP_ASSERT_OK(writeGradScalerState(path, state));
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(GradScalerOptions()));
  TP_EXPECT_ERROR(rig.scaler->loadState(path), StatusCode::InvalidArgument);
  state.growthFactor = 2.0;
  state.growthTracker = -1;
  TP_EXPECT_ERROR(rig.scaler->loadStateDict(state),
                  StatusCode::InvalidArgument);
  state.growthTracker = 0;
  state.scale = -1.0;
  TP_EXPECT_ERROR(rig.scaler->loadStateDict(state),
                  StatusCode::InvalidArgument);
  EXPECT_EQ(rig.scale(), 65536.0);
}

TEST_F(StateFileTest, GrowthIntervalPastTheInt32TrackerIsRefused) {
  GradScalerState state;
  state.empty = false;
  state.scale = 1024.0;
  state.growthInterval = int64_t(1) << 40;
  TP_ASSERT_OK(writeGradScalerState(path, state));
  ScalerRig rig;
  TP_ASSERT_OK(rig.init(GradScalerOptions()));
  Status status = rig.scaler->loadState(path);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument) << status.toString();
  EXPECT_NE(status.message().find("growth_interval"), std::string::npos)
      << status.message();
  state.growthInterval = kMaxGrowthInterval + 1;
  TP_EXPECT_ERROR(rig.scaler->loadStateDict(state),
                  StatusCode::InvalidArgument);
  EXPECT_EQ(rig.scaler->getGrowthInterval(), 2000);
  EXPECT_EQ(rig.scale(), 65536.0);
  state.growthInterval = kMaxGrowthInterval;
  TP_EXPECT_OK(rig.scaler->loadStateDict(state));
  EXPECT_EQ(rig.scaler->getGrowthInterval(), kMaxGrowthInterval);
}

} // namespace
