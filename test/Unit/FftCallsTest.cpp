//===- FftCallsTest.cpp - The tp_rt_fft_* entry points
//---------------------===//
//
// The transforms compiled code calls (runtime/calls/FftCalls.cpp) on
// hand-built descriptors: a transform worked out by hand, every length
// from 1 to 70 and a few large primes (radix butterflies and Bluestein)
// against the direct O(n^2) sum in long double, the one-sided real
// transform and its inverse, strided operands, padding and trimming, and
// the refusal of inconsistent operands.
//
//===----------------------------------------------------------------------===//

#include "MemrefDescriptors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

using tensorplay::test::Desc1;
using tensorplay::test::Desc2;
using tensorplay::test::memref;

namespace {

using C = std::complex<double>;

Desc1 vec(void *data, int64_t n, int64_t stride = 1) {
  return {data, data, 0, n, stride};
}

/// The direct DFT, sign -1 forward.
std::vector<C> dft(const std::vector<C> &x, int sign) {
  size_t n = x.size();
  std::vector<C> y(n);
  for (size_t k = 0; k < n; ++k) {
    std::complex<long double> sum = 0;
    for (size_t j = 0; j < n; ++j) {
      long double angle = sign * 2.0L * 3.14159265358979323846264338327950288L *
                          (long double)((j * k) % n) / (long double)n;
      sum += std::complex<long double>(x[j].real(), x[j].imag()) *
             std::complex<long double>(std::cos(angle), std::sin(angle));
    }
    y[k] = C((double)sum.real(), (double)sum.imag());
  }
  return y;
}

std::vector<C> signal(size_t n) {
  std::vector<C> x(n);
  for (size_t j = 0; j < n; ++j)
    x[j] = C(std::sin(0.7 * j + 0.3), std::cos(1.3 * j) - 0.25);
  return x;
}

double maxError(const std::vector<C> &a, const std::vector<C> &b) {
  double e = 0;
  for (size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

} // namespace

TEST(FftCalls, TransformWorkedByHand) {
  std::vector<std::complex<float>> x = {1, 2, 3, 4}, y(4);
  Desc1 dx = vec(x.data(), 4), dy = vec(y.data(), 4);
  ASSERT_EQ(tp_rt_fft_c2c_f32(1, memref(&dx), 1, memref(&dy), /*mask=*/1,
                              /*sign=*/-1, /*scale=*/1.0),
            TP_RT_SUCCESS);
  std::vector<std::complex<float>> want = {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}};
  EXPECT_EQ(y, want); // exact: the twiddles at quarter turns are exact
}

TEST(FftCalls, EveryLengthMatchesTheDirectSum) {
  std::vector<int64_t> lengths;
  for (int64_t n = 1; n <= 70; ++n)
    lengths.push_back(n);
  for (int64_t n : {97, 127, 251, 256, 360, 1009})
    lengths.push_back(n);
  for (int64_t n : lengths) {
    std::vector<C> x = signal(n), y(n);
    Desc1 dx = vec(x.data(), n), dy = vec(y.data(), n);
    for (int sign : {-1, 1}) {
      ASSERT_EQ(tp_rt_fft_c2c_f64(1, memref(&dx), 1, memref(&dy), 1, sign, 1.0),
                TP_RT_SUCCESS);
      EXPECT_LE(maxError(y, dft(x, sign)), 1e-12 * n) << "n = " << n;
    }
  }
}

TEST(FftCalls, OneSidedRealTransformAndItsInverse) {
  for (int64_t n : {8, 9, 67}) {
    std::vector<double> x(n), back(n);
    std::vector<C> full(n);
    for (int64_t j = 0; j < n; ++j)
      full[j] = x[j] = std::sin(0.9 * j) + 0.1 * j;
    std::vector<C> want = dft(full, -1), half(n / 2 + 1);
    Desc1 dx = vec(x.data(), n), dh = vec(half.data(), n / 2 + 1),
          db = vec(back.data(), n);
    ASSERT_EQ(tp_rt_fft_r2c_f64(1, memref(&dx), 1, memref(&dh), 1,
                                /*last_dim=*/0, /*signal=*/n, -1, 1.0),
              TP_RT_SUCCESS);
    want.resize(n / 2 + 1);
    EXPECT_LE(maxError(half, want), 1e-12 * n);
    EXPECT_EQ(half[0].imag(), 0.0);
    // irfft(rfft(x)) = x.
    ASSERT_EQ(
        tp_rt_fft_c2r_f64(1, memref(&dh), 1, memref(&db), 1, 0, +1, 1.0 / n),
        TP_RT_SUCCESS);
    for (int64_t j = 0; j < n; ++j)
      EXPECT_NEAR(back[j], x[j], 1e-12 * n);
  }
}

// A 3 x 4 real matrix seen transposed (strides 1, 3), transformed along
// its first dimension padded to 6; the second dimension untouched.
TEST(FftCalls, StridedPaddedOperands) {
  std::vector<double> storage(12);
  for (int i = 0; i < 12; ++i)
    storage[i] = i * 0.5 - 2;
  Desc2 in{storage.data(), storage.data(), 0, {4, 3}, {1, 4}};
  std::vector<C> out(6 * 3);
  Desc2 o{out.data(), out.data(), 0, {6, 3}, {3, 1}};
  ASSERT_EQ(tp_rt_fft_r2c_f64(2, memref(&in), 2, memref(&o), /*mask=*/1,
                              /*last_dim=*/0, /*signal=*/6, -1, 1.0),
            TP_RT_SUCCESS);
  for (int c = 0; c < 3; ++c) {
    std::vector<C> column(6, 0.0), got(6);
    for (int r = 0; r < 4; ++r)
      column[r] = storage[r + 4 * c];
    for (int r = 0; r < 6; ++r)
      got[r] = out[r * 3 + c];
    EXPECT_LE(maxError(got, dft(column, -1)), 1e-12) << "column " << c;
  }
}

TEST(FftCalls, RefusesInconsistentOperands) {
  std::vector<C> x(4), y(8);
  Desc1 dx = vec(x.data(), 4);
  Desc2 dy{y.data(), y.data(), 0, {2, 4}, {4, 1}};
  tp_rt_codegen_clear_error();
  EXPECT_EQ(tp_rt_fft_c2c_f64(1, memref(&dx), 2, memref(&dy), 1, -1, 1.0),
            TP_RT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tp_rt_codegen_error()).find("tp_rt_fft_c2c"),
            std::string::npos);
  tp_rt_codegen_clear_error();
}
