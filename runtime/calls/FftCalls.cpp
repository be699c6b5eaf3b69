//===- FftCalls.cpp - The discrete Fourier transforms of compiled code ----===//
//
// tp_rt_fft_* (Codegen.h): the transforms of the torch.fft ops over any set
// of dimensions of strided tensors, with each transformed dimension's
// signal trimmed or zero-padded to its size, scaled as `norm` asks. The
// 1-D transform is a mixed-radix Cooley-Tukey FFT (decimation in time,
// butterflies of any prime radix) and Bluestein's chirp-z algorithm for
// lengths with a prime factor above 61, in double precision for both f32
// and f64 tensors (twiddles from std::polar in double), then rounded to the
// result's type: the f32 results are at least as accurate as
// pocketfft's (tensorplay's CPU backend), which computes in float.
//
// - c2c: complex to complex (fft, ifft, fft2, fftn, ...);
// - r2c: real to complex, full or one-sided along the last transformed
//   dimension (fft of a real tensor, rfft*, ihfft);
// - c2r: one-sided complex to real, the last transformed dimension
//   extended by Hermitian symmetry after the others are transformed
//   (irfft*, hfft), as pocketfft's c2r; r2r the same from a real input.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "calls/CodegenError.h"
#include "calls/MemrefView.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <vector>

namespace {

using View = tensorplay::codegen::MemrefView;
using Complex = std::complex<double>;

// --- the 1-D transform -----------------------------------------------------

/// The plan of one length: its factors and twiddles e^{-2 pi i k / n}, or
/// Bluestein's chirp and the transformed kernel of a power-of-two length.
class Plan {
public:
  explicit Plan(int64_t n);
  /// data[0 .. n) in place; sign -1: forward (e^{-i...}), +1: inverse
  /// (unscaled).
  void run(Complex *data, int sign) const;

private:
  int64_t n;
  std::vector<int64_t> factors;
  std::vector<Complex> twiddle;
  // Bluestein: chirp w_k = e^{-i pi k^2 / n}, the FFT of the conjugate
  // chirp's circular extension, and the power-of-two plan.
  std::vector<Complex> chirp, kernel;
  std::shared_ptr<const Plan> inner;

  void recurse(const Complex *in, int64_t stride, Complex *out, int64_t m,
               size_t level, int sign, Complex *scratch) const;
  void bluestein(Complex *data, int sign) const;
};

/// The cached plan of length n (built outside the lock: a Bluestein plan
/// asks for its power-of-two plan while it is built).
std::shared_ptr<const Plan> planFor(int64_t n) {
  static std::mutex mutex;
  static std::map<int64_t, std::shared_ptr<const Plan>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(n);
    if (it != cache.end())
      return it->second;
  }
  auto plan = std::make_shared<const Plan>(n);
  std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(n, std::move(plan)).first->second;
}

constexpr int64_t kLargestButterfly = 61;

/// e^{-2 pi i k / n}, exact at the quarter turns (1, -i, -1, i), so that
/// the transforms of real signals have exactly real DC and Nyquist terms.
Complex unitRoot(int64_t k, int64_t n) {
  k %= n;
  if ((4 * k) % n == 0) {
    static const Complex quarter[] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
    return quarter[4 * k / n];
  }
  return std::polar(1.0, -2.0 * M_PI * (double)k / (double)n);
}

Plan::Plan(int64_t n) : n(n) {
  int64_t rest = n;
  for (int64_t p : {4, 2, 3, 5})
    while (rest % p == 0 && (p != 4 || rest % 4 == 0)) {
      factors.push_back(p);
      rest /= p;
    }
  for (int64_t p = 7; p * p <= rest; p += 2)
    while (rest % p == 0) {
      factors.push_back(p);
      rest /= p;
    }
  if (rest > 1)
    factors.push_back(rest);
  bool large =
      !factors.empty() &&
      *std::max_element(factors.begin(), factors.end()) > kLargestButterfly;
  if (!large) {
    twiddle.resize(n);
    for (int64_t k = 0; k < n; ++k)
      twiddle[k] = unitRoot(k, n);
    return;
  }
  factors.clear();
  int64_t m = 1;
  while (m < 2 * n - 1)
    m *= 2;
  inner = planFor(m);
  chirp.resize(n);
  for (int64_t k = 0; k < n; ++k) {
    // k^2 mod 2n keeps the angle exact for large k.
    int64_t k2 = (k * k) % (2 * n);
    chirp[k] = std::polar(1.0, -M_PI * (double)k2 / (double)n);
  }
  kernel.assign(m, Complex(0));
  for (int64_t k = 0; k < n; ++k) {
    kernel[k] = std::conj(chirp[k]);
    if (k)
      kernel[m - k] = std::conj(chirp[k]);
  }
  inner->run(kernel.data(), -1);
}

void Plan::recurse(const Complex *in, int64_t stride, Complex *out, int64_t m,
                   size_t level, int sign, Complex *scratch) const {
  if (m == 1) {
    out[0] = in[0];
    return;
  }
  int64_t p = factors[level], q = m / p;
  // Sub-transforms of the p decimated sequences, each q long.
  for (int64_t r = 0; r < p; ++r)
    recurse(in + r * stride, stride * p, out + r * q, q, level + 1, sign,
            scratch);
  // Butterflies: out[s q + k] = sum_r W_m^{r (s q + k)} sub_r[k].
  int64_t step = n / m;
  Complex *t = scratch;
  for (int64_t k = 0; k < q; ++k) {
    for (int64_t r = 0; r < p; ++r)
      t[r] = out[r * q + k];
    for (int64_t s = 0; s < p; ++s) {
      Complex sum = 0;
      int64_t j = s * q + k;
      for (int64_t r = 0; r < p; ++r) {
        Complex w = twiddle[((r * j) % m) * step];
        sum += (sign < 0 ? w : std::conj(w)) * t[r];
      }
      out[s * q + k] = sum;
    }
  }
}

void Plan::bluestein(Complex *data, int sign) const {
  int64_t m = kernel.size();
  std::vector<Complex> a(m, Complex(0));
  auto w = [&](int64_t k) { return sign < 0 ? chirp[k] : std::conj(chirp[k]); };
  for (int64_t k = 0; k < n; ++k)
    a[k] = data[k] * w(k);
  inner->run(a.data(), -1);
  // The kernel of the inverse direction is the conjugate chirp's
  // conjugate: FFT(conj(b)) = conj(FFT(b)) reversed.
  for (int64_t k = 0; k < m; ++k)
    a[k] *= sign < 0 ? kernel[k] : std::conj(kernel[(m - k) % m]);
  inner->run(a.data(), +1);
  for (int64_t k = 0; k < n; ++k)
    data[k] = a[k] * w(k) / (double)m;
}

void Plan::run(Complex *data, int sign) const {
  if (n <= 1)
    return;
  if (inner) {
    bluestein(data, sign);
    return;
  }
  std::vector<Complex> in(data, data + n), scratch(kLargestButterfly + 1);
  recurse(in.data(), 1, data, n, 0, sign, scratch.data());
}

// --- the n-dimensional drivers ---------------------------------------------

/// A dense row-major complex buffer of `shape`.
struct Work {
  std::vector<int64_t> shape, strides;
  std::vector<Complex> data;

  explicit Work(std::vector<int64_t> s) : shape(std::move(s)) {
    strides.assign(shape.size(), 1);
    int64_t n = 1;
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      strides[d] = n;
      n *= shape[d];
    }
    data.assign(n, Complex(0));
  }
  int64_t size() const { return data.size(); }
};

/// Calls body(index, flat) for every index of `shape`, row-major.
template <typename F>
void forEachIndex(const std::vector<int64_t> &shape, F body) {
  int64_t count = 1;
  for (int64_t s : shape)
    count *= s;
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    body(index, flat);
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

int64_t offsetOf(const View &v, const std::vector<int64_t> &index) {
  int64_t off = 0;
  for (int64_t d = 0; d < v.rank; ++d)
    off += index[d] * v.stride(d);
  return off;
}

template <typename T>
Complex load(const T *p) {
  return Complex((double)*p, 0.0);
}
template <typename T>
Complex load(const std::complex<T> *p) {
  return Complex((double)p->real(), (double)p->imag());
}

/// `in` (element type E) into `work`: each dimension trimmed or
/// zero-padded to the work's size.
template <typename E>
void loadInto(const View &in, Work &work) {
  const E *base = in.data<E>();
  forEachIndex(work.shape,
               [&](const std::vector<int64_t> &index, int64_t flat) {
                 for (int64_t d = 0; d < in.rank; ++d)
                   if (index[d] >= in.size(d))
                     return;
                 work.data[flat] = load(base + offsetOf(in, index));
               });
}

/// 1-D transforms of every line of `work` along dimension d.
void transformAlong(Work &work, int64_t d, int sign) {
  int64_t n = work.shape[d];
  if (n <= 1 || work.size() == 0)
    return;
  std::shared_ptr<const Plan> plan = planFor(n);
  std::vector<int64_t> outer = work.shape;
  outer[d] = 1;
  std::vector<Complex> line(n);
  int64_t stride = work.strides[d];
  forEachIndex(outer, [&](const std::vector<int64_t> &index, int64_t) {
    int64_t base = 0;
    for (size_t k = 0; k < index.size(); ++k)
      base += index[k] * work.strides[k];
    for (int64_t i = 0; i < n; ++i)
      line[i] = work.data[base + i * stride];
    plan->run(line.data(), sign);
    for (int64_t i = 0; i < n; ++i)
      work.data[base + i * stride] = line[i];
  });
}

template <typename T>
void store(T *p, Complex v) {
  *p = (T)v.real();
}
template <typename T>
void store(std::complex<T> *p, Complex v) {
  *p = std::complex<T>((T)v.real(), (T)v.imag());
}

/// The first out.size(d) entries of `work` along each dimension, times
/// `scale`, into `out` (element type E).
template <typename E>
void storeFrom(const Work &work, const View &out, double scale) {
  E *base = out.data<E>();
  forEachIndex(out.sizes(), [&](const std::vector<int64_t> &index, int64_t) {
    int64_t flat = 0;
    for (size_t d = 0; d < index.size(); ++d)
      flat += index[d] * work.strides[d];
    store(base + offsetOf(out, index), work.data[flat] * scale);
  });
}

bool transformed(int64_t mask, int64_t d) { return (mask >> d) & 1; }

tp_rt_status badCall(const char *what) {
  return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT, what,
                                   "operands of different ranks, or a "
                                   "dimension out of range");
}

/// c2c and r2c: the work shape is the output's, with `signal` (the full
/// signal length) along `lastDim` where the output is one-sided.
template <typename In, typename Out>
tp_rt_status forward(const char *what, View in, View out, int64_t mask,
                     int64_t lastDim, int64_t signal, int64_t sign,
                     double scale) {
  if (in.rank != out.rank || lastDim < 0 || lastDim >= out.rank ||
      signal < out.size(lastDim))
    return badCall(what);
  std::vector<int64_t> shape = out.sizes();
  shape[lastDim] = signal;
  Work work(shape);
  loadInto<In>(in, work);
  int dir = sign < 0 ? -1 : 1;
  if constexpr (!std::is_same_v<In, std::complex<float>> &&
                !std::is_same_v<In, std::complex<double>>) {
    // A real signal first along lastDim, where its DC and Nyquist terms
    // are real: exactly so (rounding leaves ~1e-16 imaginary parts).
    if (transformed(mask, lastDim)) {
      transformAlong(work, lastDim, dir);
      int64_t n = work.shape[lastDim], stride = work.strides[lastDim];
      for (int64_t i = 0; i < work.size(); ++i) {
        int64_t k = (i / stride) % n;
        if (k == 0 || 2 * k == n)
          work.data[i].imag(0.0);
      }
    }
    for (int64_t d = 0; d < out.rank; ++d)
      if (d != lastDim && transformed(mask, d))
        transformAlong(work, d, dir);
  } else {
    for (int64_t d = 0; d < out.rank; ++d)
      if (transformed(mask, d))
        transformAlong(work, d, dir);
  }
  storeFrom<Out>(work, out, scale);
  return TP_RT_SUCCESS;
}

/// c2r (and r2r): the half spectrum (n / 2 + 1 along lastDim) transformed
/// along the other dimensions, then each lastDim line extended by
/// Hermitian symmetry and transformed to its real part.
template <typename In, typename Out>
tp_rt_status backward(const char *what, View in, View out, int64_t mask,
                      int64_t lastDim, int64_t sign, double scale) {
  if (in.rank != out.rank || lastDim < 0 || lastDim >= out.rank)
    return badCall(what);
  int64_t n = out.size(lastDim);
  std::vector<int64_t> half = out.sizes();
  half[lastDim] = n / 2 + 1;
  Work h(half);
  loadInto<In>(in, h);
  int dir = sign < 0 ? -1 : 1;
  for (int64_t d = 0; d < out.rank; ++d)
    if (d != lastDim && transformed(mask, d))
      transformAlong(h, d, dir);
  Work full(out.sizes());
  if (full.size() == 0)
    return TP_RT_SUCCESS;
  std::shared_ptr<const Plan> plan = planFor(n);
  std::vector<int64_t> outer = half;
  outer[lastDim] = 1;
  std::vector<Complex> line(n);
  forEachIndex(outer, [&](const std::vector<int64_t> &index, int64_t) {
    int64_t hb = 0, fb = 0;
    for (size_t k = 0; k < index.size(); ++k) {
      hb += index[k] * h.strides[k];
      fb += index[k] * full.strides[k];
    }
    int64_t hs = h.strides[lastDim], fs = full.strides[lastDim];
    for (int64_t k = 0; k < n; ++k)
      line[k] = k <= n / 2 ? h.data[hb + k * hs]
                           : std::conj(h.data[hb + (n - k) * hs]);
    plan->run(line.data(), dir);
    for (int64_t k = 0; k < n; ++k)
      full.data[fb + k * fs] = Complex(line[k].real(), 0.0);
  });
  storeFrom<Out>(full, out, scale);
  return TP_RT_SUCCESS;
}

} // namespace

#define TP_M(name) int64_t name##_rank, tp_rt_memref *name
#define TP_FFT_ENTRY_POINTS(SUFFIX, T)                                         \
  tp_rt_status tp_rt_fft_c2c_##SUFFIX(TP_M(in), TP_M(out), int64_t mask,       \
                                      int64_t sign, double scale) {            \
    View out_{out_rank, out};                                                  \
    int64_t last = out_rank ? out_rank - 1 : 0;                                \
    if (out_rank == 0)                                                         \
      return badCall("tp_rt_fft_c2c");                                         \
    return forward<std::complex<T>, std::complex<T>>(                          \
        "tp_rt_fft_c2c", View{in_rank, in}, out_, mask, last, out_.size(last), \
        sign, scale);                                                          \
  }                                                                            \
  tp_rt_status tp_rt_fft_r2c_##SUFFIX(TP_M(in), TP_M(out), int64_t mask,       \
                                      int64_t last_dim, int64_t signal,        \
                                      int64_t sign, double scale) {            \
    return forward<T, std::complex<T>>("tp_rt_fft_r2c", View{in_rank, in},     \
                                       View{out_rank, out}, mask, last_dim,    \
                                       signal, sign, scale);                   \
  }                                                                            \
  tp_rt_status tp_rt_fft_c2r_##SUFFIX(TP_M(in), TP_M(out), int64_t mask,       \
                                      int64_t last_dim, int64_t sign,          \
                                      double scale) {                          \
    return backward<std::complex<T>, T>("tp_rt_fft_c2r", View{in_rank, in},    \
                                        View{out_rank, out}, mask, last_dim,   \
                                        sign, scale);                          \
  }                                                                            \
  tp_rt_status tp_rt_fft_r2r_##SUFFIX(TP_M(in), TP_M(out), int64_t mask,       \
                                      int64_t last_dim, int64_t sign,          \
                                      double scale) {                          \
    return backward<T, T>("tp_rt_fft_r2r", View{in_rank, in},                  \
                          View{out_rank, out}, mask, last_dim, sign, scale);   \
  }

extern "C" {
TP_FFT_ENTRY_POINTS(f32, float)
TP_FFT_ENTRY_POINTS(f64, double)
}
#undef TP_FFT_ENTRY_POINTS
#undef TP_M
