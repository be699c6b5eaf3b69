//===- LossCallsTest.cpp - The tp_rt_ctc_loss_* entry points
//---------------===//
//
// The CTC kernel compiled code calls (runtime/calls/LossCalls.cpp) on
// hand-built memref descriptors: losses worked out by hand from the
// alignments of tiny inputs, the same input seen through permuted strides,
// concatenated targets, an impossible alignment (inf), and the run-time
// checks, whose messages land in the codegen error slot.
//
//===----------------------------------------------------------------------===//

#include "MemrefDescriptors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using tensorplay::test::Desc1;
using tensorplay::test::memref;

namespace {

/// A rank-3 descriptor.
struct Desc3 {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
};
/// A rank-2 descriptor (padded targets).
using tensorplay::test::Desc2;

Desc1 vec(void *data, int64_t n) { return {data, data, 0, n, 1}; }

/// log_probs (T, N, C) row-major from probabilities.
std::vector<double> logOf(std::vector<double> probabilities) {
  for (double &p : probabilities)
    p = std::log(p);
  return probabilities;
}

/// tp_rt_ctc_loss_f64 on (T, N, C) `lp` and padded (N, S) targets.
tp_rt_status ctc(Desc3 &lp, Desc2 &targets, std::vector<int64_t> &il,
                 std::vector<int64_t> &tl, std::vector<double> &out,
                 int64_t blank = 0) {
  Desc1 dil = vec(il.data(), il.size()), dtl = vec(tl.data(), tl.size()),
        dout = vec(out.data(), out.size());
  return tp_rt_ctc_loss_f64(3, memref(&lp), 2, memref(&targets), 1,
                            memref(&dil), 1, memref(&dtl), 1, memref(&dout),
                            blank);
}

} // namespace

// T = 2, C = 2 (blank 0, label 1), target [1]: the alignments (1, 1),
// (0, 1) and (1, 0); T = 3, target [1, 1]: only (1, 0, 1).
TEST(LossCalls, CtcMatchesTheAlignmentsWorkedByHand) {
  // Frames of sample 0: [0.4, 0.6], [0.7, 0.3], [.5, .5] (T = 3, only two
  // used); sample 1: [0.2, 0.8], [0.9, 0.1], [0.25, 0.75].
  std::vector<double> lp =
      logOf({0.4, 0.6, 0.2, 0.8, 0.7, 0.3, 0.9, 0.1, 0.5, 0.5, 0.25, 0.75});
  int64_t targets[2][2] = {{1, 99}, {1, 1}}; // 99: padding, never read
  Desc3 dlp{lp.data(), lp.data(), 0, {3, 2, 2}, {4, 2, 1}};
  Desc2 dt{targets, targets, 0, {2, 2}, {2, 1}};
  std::vector<int64_t> il = {2, 3}, tl = {1, 2};
  std::vector<double> out(2);
  ASSERT_EQ(ctc(dlp, dt, il, tl, out), TP_RT_SUCCESS) << tp_rt_codegen_error();
  EXPECT_NEAR(out[0], -std::log(0.6 * 0.3 + 0.4 * 0.3 + 0.6 * 0.7), 1e-14);
  EXPECT_NEAR(out[1], -std::log(0.8 * 0.9 * 0.75), 1e-14);

  // The same values through a (N, T, C) buffer seen as (T, N, C).
  std::vector<double> permuted(12);
  for (int t = 0; t < 3; ++t)
    for (int n = 0; n < 2; ++n)
      for (int c = 0; c < 2; ++c)
        permuted[n * 6 + t * 2 + c] = lp[t * 4 + n * 2 + c];
  Desc3 strided{permuted.data(), permuted.data(), 0, {3, 2, 2}, {2, 6, 1}};
  std::vector<double> again(2);
  ASSERT_EQ(ctc(strided, dt, il, tl, again), TP_RT_SUCCESS);
  EXPECT_EQ(again, out);
}

// Concatenated targets [2 | 1, 2] with blank 1 (C = 3), f32; an input too
// short for its target (two frames for [1, 1], which needs three) is inf.
TEST(LossCalls, CtcConcatenatedTargetsAndImpossibleAlignment) {
  std::vector<float> lp(2 * 2 * 3, std::log(1.0f / 3));
  int64_t targets[3] = {2, 0, 2};
  Desc3 dlp{lp.data(), lp.data(), 0, {2, 2, 3}, {6, 3, 1}};
  Desc1 dt = vec(targets, 3);
  std::vector<int64_t> il = {2, 2}, tl = {1, 2};
  std::vector<float> out(2);
  Desc1 dil = vec(il.data(), 2), dtl = vec(tl.data(), 2),
        dout = vec(out.data(), 2);
  ASSERT_EQ(tp_rt_ctc_loss_f32(3, memref(&dlp), 1, memref(&dt), 1, memref(&dil),
                               1, memref(&dtl), 1, memref(&dout),
                               /*blank=*/1),
            TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  // [2] in two frames of uniform 1/3: (2,2), (1,2), (2,1): 3 / 9.
  EXPECT_NEAR(out[0], -std::log(3.0f / 9), 1e-6);
  // [0, 2] in two frames: only (0, 2): 1 / 9.
  EXPECT_NEAR(out[1], -std::log(1.0f / 9), 1e-6);

  int64_t repeated[2] = {0, 0};
  Desc1 dr = vec(repeated, 2);
  std::vector<int64_t> one = {0, 2}, two = {0, 2};
  Desc1 dil2 = vec(one.data(), 2), dtl2 = vec(two.data(), 2);
  ASSERT_EQ(tp_rt_ctc_loss_f32(3, memref(&dlp), 1, memref(&dr), 1,
                               memref(&dil2), 1, memref(&dtl2), 1,
                               memref(&dout), 1),
            TP_RT_SUCCESS);
  EXPECT_EQ(out[0], 0.0f); // an empty input and an empty target
  EXPECT_EQ(out[1], std::numeric_limits<float>::infinity());
}

TEST(LossCalls, CtcChecksItsArguments) {
  std::vector<double> lp(2 * 1 * 2, std::log(0.5));
  int64_t targets[1][2] = {{1, 1}};
  Desc3 dlp{lp.data(), lp.data(), 0, {2, 1, 2}, {2, 2, 1}};
  Desc2 dt{targets, targets, 0, {1, 2}, {2, 1}};
  std::vector<double> out(1);
  struct Bad {
    int64_t il, tl, blank;
    const char *message;
  } cases[] = {
      {3, 1, 0,
       "Expected input_lengths to have value at most 2, but got "
       "value 3"},
      {2, 3, 0, "Expected tensor to have size at least 3 at dimension 1"},
      {2, -1, 0, "Expected target_lengths to have value at least 0"},
      {2, 1, 2, "blank must be in label range"},
      {2, 1, 1, ""}, // valid: label 1 is the blank's index, still a class
  };
  for (const Bad &bad : cases) {
    tp_rt_codegen_clear_error();
    std::vector<int64_t> il = {bad.il}, tl = {bad.tl};
    tp_rt_status status = ctc(dlp, dt, il, tl, out, bad.blank);
    std::string error = tp_rt_codegen_error();
    if (!*bad.message) {
      EXPECT_EQ(status, TP_RT_SUCCESS) << error;
      continue;
    }
    EXPECT_EQ(status, TP_RT_ERROR_INVALID_ARGUMENT) << bad.message;
    EXPECT_NE(error.find(bad.message), std::string::npos) << error;
    EXPECT_NE(error.find("(while checking arguments for ctc_loss_cpu)"),
              std::string::npos)
        << error;
  }
  // A label that is no class index.
  tp_rt_codegen_clear_error();
  targets[0][0] = 5;
  std::vector<int64_t> il = {2}, tl = {1};
  EXPECT_EQ(ctc(dlp, dt, il, tl, out), TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("target 5 of sample 0"),
            std::string::npos);
  // Operands of the wrong rank.
  tp_rt_codegen_clear_error();
  Desc1 flat = vec(lp.data(), 4), dil = vec(il.data(), 1),
        dtl = vec(tl.data(), 1), dout = vec(out.data(), 1);
  EXPECT_EQ(tp_rt_ctc_loss_f64(1, memref(&flat), 2, memref(&dt), 1,
                               memref(&dil), 1, memref(&dtl), 1, memref(&dout),
                               0),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("expects log_probs"),
            std::string::npos);
  tp_rt_codegen_clear_error();
}

namespace {
/// tp_rt_ctc_loss_backward_f64 on (T, N, C) `lp`, padded targets and the
/// per-sample gradient `grad`, into `out` (T, N, C).
tp_rt_status ctcBackward(std::vector<double> &grad, Desc3 &lp, Desc2 &targets,
                         std::vector<int64_t> &il, std::vector<int64_t> &tl,
                         Desc3 &out, int64_t blank, bool zeroInfinity) {
  Desc1 dg = vec(grad.data(), grad.size()), dil = vec(il.data(), il.size()),
        dtl = vec(tl.data(), tl.size());
  return tp_rt_ctc_loss_backward_f64(
      1, memref(&dg), 3, memref(&lp), 2, memref(&targets), 1, memref(&dil), 1,
      memref(&dtl), 3, memref(&out), blank, zeroInfinity);
}
} // namespace

// The backward entry point against central differences of the forward
// one, for every element of a (T = 5, N = 3, C = 4) input: a repeated
// label, blank 2, a sample shorter than the time axis (zero gradient from
// its length on), an empty target, per-sample gradients; with
// zero_infinity an impossible sample gets zeros, without it NaN (as
// aten's).
TEST(LossCalls, CtcBackwardMatchesCentralDifferences) {
  const int64_t T = 5, N = 3, C = 4;
  std::vector<double> lp(T * N * C);
  for (size_t i = 0; i < lp.size(); ++i)
    lp[i] = -0.3 - 0.9 * std::fabs(std::sin(1.7 * static_cast<double>(i)));
  int64_t targets[3][2] = {{1, 1}, {3, 0}, {0, 0}};
  Desc3 dlp{lp.data(), lp.data(), 0, {T, N, C}, {N * C, C, 1}};
  Desc2 dt{targets, targets, 0, {3, 2}, {2, 1}};
  std::vector<int64_t> il = {5, 3, 4}, tl = {2, 1, 0};
  std::vector<double> grad = {0.5, -1.25, 2.0}, g(T * N * C, 7.0);
  Desc3 dg{g.data(), g.data(), 0, {T, N, C}, {N * C, C, 1}};
  ASSERT_EQ(ctcBackward(grad, dlp, dt, il, tl, dg, 2, false), TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  std::vector<double> out(N);
  auto weighted = [&]() {
    EXPECT_EQ(ctc(dlp, dt, il, tl, out, 2), TP_RT_SUCCESS);
    return grad[0] * out[0] + grad[1] * out[1] + grad[2] * out[2];
  };
  const double h = 1e-6;
  for (int64_t i = 0; i < T * N * C; ++i) {
    double keep = lp[i];
    lp[i] = keep + h;
    double up = weighted();
    lp[i] = keep - h;
    double down = weighted();
    lp[i] = keep;
    double fd = (up - down) / (2 * h);
    EXPECT_NEAR(g[i], fd, 1e-7 * (1 + std::fabs(fd))) << "element " << i;
    int64_t t = i / (N * C), n = (i / C) % N;
    if (t >= il[n])
      EXPECT_EQ(g[i], 0.0) << "element " << i;
  }
  // Sample 0 made impossible: [1, 1] needs 3 steps, it gets 2.
  il = {2, 3, 4};
  ASSERT_EQ(ctcBackward(grad, dlp, dt, il, tl, dg, 2, true), TP_RT_SUCCESS);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t c = 0; c < C; ++c)
      EXPECT_EQ(g[t * N * C + c], 0.0);
  ASSERT_EQ(ctcBackward(grad, dlp, dt, il, tl, dg, 2, false), TP_RT_SUCCESS);
  for (int64_t t = 0; t < 2; ++t)
    for (int64_t c = 0; c < C; ++c)
      EXPECT_TRUE(std::isnan(g[t * N * C + c]));
  EXPECT_EQ(g[2 * N * C], 0.0); // after its input length
  // The forward's checks hold for the backward too.
  il = {6, 3, 4};
  EXPECT_EQ(ctcBackward(grad, dlp, dt, il, tl, dg, 2, false),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error())
                .find("Expected input_lengths to have value at most 5"),
            std::string::npos);
  tp_rt_codegen_clear_error();
}
