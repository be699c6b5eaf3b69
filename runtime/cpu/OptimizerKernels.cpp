//===- OptimizerKernels.cpp - Fused SGD / AdamW on the CPU ----------------===//
//
// One pass over every (parameter, gradient, state...) element: optional
// unscale of the gradient (divided by the scale and written back, as torch's
// fused kernels do), then the update of OptimizerMath.h. A set found_inf
// returns before anything is read or written, the step counter included.
//
// The updates use fmaf. On x86-64 the loops are built twice: for the
// baseline ISA, where fmaf is a library call, and for AVX2 + FMA (target
// attribute, no global -mfma), where it is one vectorised instruction; the
// second runs on CPUs that have both. Both give the same bits. This file is
// compiled with -ffp-contract=off: no other multiply-add may fuse.
//
//===----------------------------------------------------------------------===//

#include "OptimizerMath.h"
#include "cpu/CpuKernels.h"
#include "cpu/FloatConversion.h"
#include "cpu/Parallel.h"

#include <atomic>
#include <type_traits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TP_RT_FMA_LOOPS 1
#define TP_RT_AVX2_FMA __attribute__((target("avx2,fma")))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TP_RT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TP_RT_ALWAYS_INLINE inline
#endif

namespace tensorplay::amp::cpu {
namespace {

using detail::AdamWBiasCorrection;
using detail::AdamWScalars;
using detail::SgdScalars;

bool cpuHasAvx2Fma() {
#ifdef TP_RT_FMA_LOOPS
  static const bool supported =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return supported;
#else
  return false;
#endif
}

/// Set by setOptimizerFmaLoops(false) (tests of the baseline build).
std::atomic<bool> fmaLoopsDisabled{false};

bool useFmaLoops() {
  return cpuHasAvx2Fma() && !fmaLoopsDisabled.load(std::memory_order_relaxed);
}

/// Gradient i; when Unscale, divided by `scale` and written back (rounded to
/// the element type), the update using the unrounded quotient as torch's
/// fused kernels do.
template <typename Elem, bool Unscale>
TP_RT_ALWAYS_INLINE float loadGrad(typename ElementTraits<Elem>::Storage *grad,
                                   int64_t i, float scale) {
  using Traits = ElementTraits<Elem>;
  float value = Traits::load(grad[i]);
  if (Unscale) {
    value = detail::unscaled(value, scale);
    grad[i] = Traits::store(value);
  }
  return value;
}

/// The elements [begin, end) of one tensor. Scalars come by value: as
/// locals they are loop invariants the compiler can hoist (through a
/// reference they might alias the tensors), and the loop vectorises.
template <typename Elem, bool Unscale, bool Momentum>
struct SgdLoop {
  using Storage = typename ElementTraits<Elem>::Storage;
  struct Args {
    SgdScalars s;
    bool firstStep;
    float scale;
    Storage *p, *g, *m;
    int64_t begin, end;
  };
  TP_RT_ALWAYS_INLINE static void run(const Args a) {
    using Traits = ElementTraits<Elem>;
    const SgdScalars s = a.s;
    const bool firstStep = a.firstStep;
    const float scale = a.scale;
    Storage *p = a.p, *g = a.g, *m = a.m;
    for (int64_t i = a.begin; i < a.end; ++i) {
      float grad = loadGrad<Elem, Unscale>(g, i, scale);
      float param = Traits::load(p[i]);
      float buf = Momentum ? Traits::load(m[i]) : 0.0f;
      detail::sgdUpdate<Momentum>(s, firstStep, param, grad, buf);
      p[i] = Traits::store(param);
      if (Momentum)
        m[i] = Traits::store(buf);
    }
  }
};

/// The elements [begin, end) of one tensor (scalars by value, as SgdLoop).
template <typename Elem, bool Unscale, bool Amsgrad>
struct AdamWLoop {
  using Storage = typename ElementTraits<Elem>::Storage;
  struct Args {
    AdamWScalars s;
    AdamWBiasCorrection bc;
    float scale;
    Storage *p, *g, *m, *v, *vmax;
    int64_t begin, end;
  };
  TP_RT_ALWAYS_INLINE static void run(const Args a) {
    using Traits = ElementTraits<Elem>;
    const AdamWScalars s = a.s;
    const AdamWBiasCorrection bc = a.bc;
    const float scale = a.scale;
    Storage *p = a.p, *g = a.g, *m = a.m, *v = a.v, *vmax = a.vmax;
    for (int64_t i = a.begin; i < a.end; ++i) {
      float grad = loadGrad<Elem, Unscale>(g, i, scale);
      float param = Traits::load(p[i]);
      float expAvg = Traits::load(m[i]);
      float expAvgSq = Traits::load(v[i]);
      float maxSq = Amsgrad ? Traits::load(vmax[i]) : 0.0f;
      detail::adamwUpdate<Amsgrad>(s, bc, param, grad, expAvg, expAvgSq, maxSq);
      p[i] = Traits::store(param);
      m[i] = Traits::store(expAvg);
      v[i] = Traits::store(expAvgSq);
      if (Amsgrad)
        vmax[i] = Traits::store(maxSq);
    }
  }
};

/// Loop::run, built for the baseline ISA or for AVX2 + FMA.
template <typename Loop>
void runBaseline(const typename Loop::Args &args) {
  Loop::run(args);
}
#ifdef TP_RT_FMA_LOOPS
template <typename Loop>
TP_RT_AVX2_FMA void runAvx2Fma(const typename Loop::Args &args) {
  Loop::run(args);
}
#endif

template <typename Loop>
void runLoop(const typename Loop::Args &args) {
#ifdef TP_RT_FMA_LOOPS
  if (useFmaLoops())
    return runAvx2Fma<Loop>(args);
#endif
  runBaseline<Loop>(args);
}

template <typename Elem, bool Unscale, bool Momentum>
void sgdTyped(const SgdScalars &s, bool firstStep, TensorList params,
              TensorList grads, TensorList buffers, float scale) {
  using Loop = SgdLoop<Elem, Unscale, Momentum>;
  using Storage = typename Loop::Storage;
  forEachRange(params, [&](const Range &r) {
    runLoop<Loop>({s, firstStep, scale, params[r.tensor].as<Storage>(),
                   grads[r.tensor].as<Storage>(),
                   Momentum ? buffers[r.tensor].as<Storage>() : nullptr,
                   r.begin, r.end});
  });
}

template <typename Elem, bool Unscale, bool Amsgrad>
void adamwTyped(const AdamWScalars &s, const AdamWBiasCorrection &bc,
                TensorList params, TensorList grads, TensorList expAvgs,
                TensorList expAvgSqs, TensorList maxExpAvgSqs, float scale) {
  using Loop = AdamWLoop<Elem, Unscale, Amsgrad>;
  using Storage = typename Loop::Storage;
  forEachRange(params, [&](const Range &r) {
    runLoop<Loop>({s, bc, scale, params[r.tensor].as<Storage>(),
                   grads[r.tensor].as<Storage>(),
                   expAvgs[r.tensor].as<Storage>(),
                   expAvgSqs[r.tensor].as<Storage>(),
                   Amsgrad ? maxExpAvgSqs[r.tensor].as<Storage>() : nullptr,
                   r.begin, r.end});
  });
}

/// Calls fn(Elem{}, std::bool_constant<A>{}, std::bool_constant<B>{}) for
/// the runtime dtype and flags.
template <typename Fn>
void dispatch(DType dtype, bool a, bool b, Fn &&fn) {
  auto withDType = [&](auto elem) {
    if (a) {
      if (b)
        fn(elem, std::true_type{}, std::true_type{});
      else
        fn(elem, std::true_type{}, std::false_type{});
    } else {
      if (b)
        fn(elem, std::false_type{}, std::true_type{});
      else
        fn(elem, std::false_type{}, std::false_type{});
    }
  };
  switch (dtype) {
  case DType::F32:
    return withDType(float{});
  case DType::F16:
    return withDType(F16Tag{});
  case DType::BF16:
    return withDType(BF16Tag{});
  }
}

bool skipped(const float *foundInf) { return foundInf && *foundInf != 0.0f; }

} // namespace

bool optimizerFmaLoops() { return useFmaLoops(); }

void setOptimizerFmaLoops(bool enabled) { fmaLoopsDisabled = !enabled; }

void sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
             TensorList momentumBuffers, int64_t *step, const float *gradScale,
             const float *foundInf) {
  if (skipped(foundInf) || params.empty())
    return;
  SgdScalars s = detail::makeSgdScalars(hyper);
  bool firstStep = *step == 0;
  float scale = gradScale ? *gradScale : 1.0f;
  dispatch(params[0].dtype, gradScale != nullptr, s.hasMomentum,
           [&](auto elem, auto unscale, auto momentum) {
             sgdTyped<decltype(elem), decltype(unscale)::value,
                      decltype(momentum)::value>(s, firstStep, params, grads,
                                                 momentumBuffers, scale);
           });
  ++*step;
}

void adamwStep(const AdamWHyperParams &hyper, TensorList params,
               TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
               TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
               const float *foundInf) {
  if (skipped(foundInf) || params.empty())
    return;
  AdamWScalars s = detail::makeAdamWScalars(hyper);
  AdamWBiasCorrection bc = detail::adamwBiasCorrection(s, *step + 1);
  float scale = gradScale ? *gradScale : 1.0f;
  dispatch(params[0].dtype, gradScale != nullptr, s.amsgrad,
           [&](auto elem, auto unscale, auto amsgrad) {
             adamwTyped<decltype(elem), decltype(unscale)::value,
                        decltype(amsgrad)::value>(
                 s, bc, params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, scale);
           });
  ++*step;
}

} // namespace tensorplay::amp::cpu
