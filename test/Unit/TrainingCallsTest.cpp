//===- TrainingCallsTest.cpp - The tp_rt_codegen_* training entry points --===//
//
// The calls compiled train steps make (runtime/calls/TrainingCalls.cpp) on
// hand-built memref descriptors: a fused SGD step with momentum against a
// reference, the skip on found_inf, a bf16 gradient with a bf16 parameter
// copy against the f32 step, the finite check, and the refusal of a strided
// (non-dense) tensor with a message in the codegen error slot.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace {
/// A rank-1 descriptor over `data`.
struct Desc1 {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};
/// A rank-0 descriptor (a scalar).
struct Desc0 {
  void *allocated, *aligned;
  int64_t offset;
};

tp_rt_memref *mem(Desc1 &d) { return reinterpret_cast<tp_rt_memref *>(&d); }
tp_rt_memref *mem(Desc0 &d) { return reinterpret_cast<tp_rt_memref *>(&d); }

/// The SGD entry points (lr 0.1, momentum 0.9): f32 p with its momentum
/// buffer m, and an f32 gradient or a bf16 one with a bf16 copy.
tp_rt_status sgd(Desc1 &p, Desc1 &g, Desc1 &m, Desc0 &step, Desc0 &scale,
                 Desc0 &found) {
  Desc1 none{nullptr, nullptr, 0, 0, 1};
  return tp_rt_codegen_sgd_step_f32(1, mem(p), 1, mem(g), 1, mem(m), 0,
                                    mem(step), 0, mem(scale), 0, mem(found), 1,
                                    mem(none), /*lr=*/0.1, /*momentum=*/0.9,
                                    /*dampening=*/0.0, /*weight_decay=*/0.0,
                                    /*nesterov=*/0, /*maximize=*/0);
}

tp_rt_status sgdBf16(Desc1 &p, Desc1 &g, Desc1 &m, Desc0 &step, Desc0 &scale,
                     Desc0 &found, Desc1 &copy) {
  return tp_rt_codegen_sgd_step_f32_gbf16_cbf16(
      1, mem(p), 1, mem(g), 1, mem(m), 0, mem(step), 0, mem(scale), 0,
      mem(found), 1, mem(copy), /*lr=*/0.1, /*momentum=*/0.9,
      /*dampening=*/0.0, /*weight_decay=*/0.0,
      /*nesterov=*/0, /*maximize=*/0);
}

/// bf16 bits of `v` (round to nearest even; no NaN here).
uint16_t toBf16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
} // namespace

TEST(TrainingCalls, SgdStepWithMomentumAndSkip) {
  float p[4] = {1.0f, -2.0f, 0.5f, 3.0f}, g[4] = {2.0f, 4.0f, -8.0f, 0.0f};
  float m[4] = {0, 0, 0, 0}, scale = 2.0f, found = 0.0f;
  int64_t step = 0;
  Desc1 dp{p, p, 0, 4, 1}, dg{g, g, 0, 4, 1}, dm{m, m, 0, 4, 1};
  Desc0 dstep{&step, &step, 0}, dscale{&scale, &scale, 0},
      dfound{&found, &found, 0};
  tp_rt_codegen_clear_error();
  ASSERT_EQ(sgd(dp, dg, dm, dstep, dscale, dfound), TP_RT_SUCCESS)
      << tp_rt_codegen_error();
  // First step: the buffer is the unscaled gradient g / scale (the
  // gradient itself is unscaled in place, as torch's fused kernels do), and
  // p -= lr * buffer.
  const float p0[4] = {1.0f, -2.0f, 0.5f, 3.0f};
  const float g0[4] = {2.0f, 4.0f, -8.0f, 0.0f};
  for (int i = 0; i < 4; ++i) {
    EXPECT_FLOAT_EQ(m[i], g0[i] / 2.0f) << i;
    EXPECT_FLOAT_EQ(p[i], p0[i] - 0.1f * (g0[i] / 2.0f)) << i;
  }
  EXPECT_EQ(step, 1);
  // found_inf: nothing changes, bit for bit, the step counter included.
  float pBefore[4], mBefore[4];
  std::copy(p, p + 4, pBefore);
  std::copy(m, m + 4, mBefore);
  found = 1.0f;
  ASSERT_EQ(sgd(dp, dg, dm, dstep, dscale, dfound), TP_RT_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(p[i], pBefore[i]) << i;
    EXPECT_EQ(m[i], mBefore[i]) << i;
  }
  EXPECT_EQ(step, 1);
  EXPECT_STREQ(tp_rt_codegen_error(), "");
}

// A bf16 gradient and a bf16 parameter copy (a mixed-precision step with
// param-copies): the same parameter and buffer bits as the f32 step on the
// widened gradient, the copy the new parameter rounded, and on a skipped
// step the copy is written from the unchanged parameter.
TEST(TrainingCalls, NarrowGradientAndParamCopy) {
  const float p0[5] = {1.0f, -2.0f, 0.5f, 3.0f, 1e-3f};
  const float gv[5] = {2.5f, 4.0f, -8.125f, 0.0f, 3.0e-5f};
  float p[5], pRef[5], gRef[5], m[5] = {0}, mRef[5] = {0};
  uint16_t g[5], copy[5] = {0};
  std::copy(p0, p0 + 5, p);
  std::copy(p0, p0 + 5, pRef);
  for (int i = 0; i < 5; ++i) {
    g[i] = toBf16(gv[i]);
    gRef[i] = fromBf16(g[i]);
  }
  float scale = 4.0f, scaleRef = 4.0f, found = 0.0f, foundRef = 0.0f;
  int64_t step = 0, stepRef = 0;
  Desc1 dp{p, p, 0, 5, 1}, dg{g, g, 0, 5, 1}, dm{m, m, 0, 5, 1},
      dc{copy, copy, 0, 5, 1};
  Desc1 rp{pRef, pRef, 0, 5, 1}, rg{gRef, gRef, 0, 5, 1},
      rm{mRef, mRef, 0, 5, 1};
  Desc0 dstep{&step, &step, 0}, dscale{&scale, &scale, 0},
      dfound{&found, &found, 0};
  Desc0 rstep{&stepRef, &stepRef, 0}, rscale{&scaleRef, &scaleRef, 0},
      rfound{&foundRef, &foundRef, 0};
  tp_rt_codegen_clear_error();
  for (int k = 0; k < 2; ++k) {
    ASSERT_EQ(sgdBf16(dp, dg, dm, dstep, dscale, dfound, dc), TP_RT_SUCCESS)
        << tp_rt_codegen_error();
    // The reference unscales its f32 gradient in place; start it again.
    for (int i = 0; i < 5; ++i)
      gRef[i] = fromBf16(g[i]);
    ASSERT_EQ(sgd(rp, rg, rm, rstep, rscale, rfound), TP_RT_SUCCESS);
  }
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(std::memcmp(&p[i], &pRef[i], 4), 0) << i;
    EXPECT_EQ(std::memcmp(&m[i], &mRef[i], 4), 0) << i;
    EXPECT_EQ(copy[i], toBf16(p[i])) << i;
    EXPECT_EQ(g[i], toBf16(gv[i])) << i; // a narrow gradient is only read
  }
  EXPECT_EQ(step, 2);
  // Skipped: the copy is rewritten from the (unchanged) parameter.
  std::fill(copy, copy + 5, uint16_t(0));
  found = 1.0f;
  ASSERT_EQ(sgdBf16(dp, dg, dm, dstep, dscale, dfound, dc), TP_RT_SUCCESS);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(std::memcmp(&p[i], &pRef[i], 4), 0) << i;
    EXPECT_EQ(copy[i], toBf16(p[i])) << i;
  }
  EXPECT_EQ(step, 2);
  EXPECT_STREQ(tp_rt_codegen_error(), "");
}

TEST(TrainingCalls, CheckFiniteSetsFoundInf) {
  float g[3] = {1.0f, std::numeric_limits<float>::infinity(), 2.0f};
  float found = 0.0f;
  Desc1 dg{g, g, 0, 3, 1};
  Desc0 dfound{&found, &found, 0};
  tp_rt_codegen_clear_error();
  ASSERT_EQ(tp_rt_codegen_check_finite_f32(1, mem(dg), 0, mem(dfound)),
            TP_RT_SUCCESS);
  EXPECT_EQ(found, 1.0f);
  g[1] = 0.5f;
  found = 0.0f;
  ASSERT_EQ(tp_rt_codegen_check_finite_f32(1, mem(dg), 0, mem(dfound)),
            TP_RT_SUCCESS);
  EXPECT_EQ(found, 0.0f);
}

TEST(TrainingCalls, StridedTensorIsAnError) {
  // Every other element of 8: not dense, which the kernels cannot update.
  float p[8] = {0}, g[8] = {0}, m[8] = {0}, scale = 1.0f, found = 0.0f;
  int64_t step = 0;
  Desc1 dp{p, p, 0, 4, 2}, dg{g, g, 0, 4, 1}, dm{m, m, 0, 4, 1};
  Desc0 dstep{&step, &step, 0}, dscale{&scale, &scale, 0},
      dfound{&found, &found, 0};
  tp_rt_codegen_clear_error();
  EXPECT_EQ(sgd(dp, dg, dm, dstep, dscale, dfound),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("not dense row-major"),
            std::string::npos)
      << tp_rt_codegen_error();
  EXPECT_EQ(step, 0);
  tp_rt_codegen_clear_error();
}

// The optimizer kernels split large tensors over the compiled code's
// threads (the OpenMP team where oneDNN runs on it): the same bits on 1 and
// 2 threads, and called from inside a parallel loop (where they run on the
// calling thread).
namespace {
struct NestedSgd {
  Desc1 *p, *g, *m;
  Desc0 *step, *scale, *found;
  tp_rt_status status = TP_RT_SUCCESS;
};

void nestedSgd(void *context, int64_t begin, int64_t end) {
  auto *n = static_cast<NestedSgd *>(context);
  if (begin == 0) // the piece holding index 0 runs the step
    n->status = sgd(*n->p, *n->g, *n->m, *n->step, *n->scale, *n->found);
  (void)end;
}
} // namespace

TEST(TrainingCalls, LargeStepSameOnAnyThreadCount) {
  const int64_t n = 1 << 18;
  std::vector<std::vector<float>> params(3), grads(3), buffers(3);
  for (int k = 0; k < 3; ++k) {
    params[k].resize(n);
    grads[k].resize(n);
    buffers[k].assign(n, 0.0f);
    for (int64_t i = 0; i < n; ++i) {
      params[k][i] = std::sin(0.001f * i);
      grads[k][i] = std::cos(0.003f * i);
    }
  }
  float scale = 1.0f, found = 0.0f;
  int64_t steps[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    Desc1 dp{params[k].data(), params[k].data(), 0, n, 1},
        dg{grads[k].data(), grads[k].data(), 0, n, 1},
        dm{buffers[k].data(), buffers[k].data(), 0, n, 1};
    Desc0 dstep{&steps[k], &steps[k], 0}, dscale{&scale, &scale, 0},
        dfound{&found, &found, 0};
    ASSERT_EQ(tp_rt_set_num_threads(k == 0 ? 1 : 2), TP_RT_SUCCESS);
    if (k < 2) {
      ASSERT_EQ(sgd(dp, dg, dm, dstep, dscale, dfound), TP_RT_SUCCESS);
    } else {
      NestedSgd nested{&dp, &dg, &dm, &dstep, &dscale, &dfound};
      tp_rt_parallel_for(nestedSgd, &nested, 0, 4);
      ASSERT_EQ(nested.status, TP_RT_SUCCESS);
    }
    EXPECT_EQ(steps[k], 1);
  }
  ASSERT_EQ(tp_rt_set_num_threads(0), TP_RT_SUCCESS);
  for (int k = 1; k < 3; ++k) {
    EXPECT_EQ(std::memcmp(params[k].data(), params[0].data(), n * 4), 0) << k;
    EXPECT_EQ(std::memcmp(buffers[k].data(), buffers[0].data(), n * 4), 0) << k;
  }
}
