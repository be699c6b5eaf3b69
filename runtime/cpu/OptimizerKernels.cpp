//===- OptimizerKernels.cpp - Fused SGD / AdamW on the CPU ----------------===//
//
// One pass over every (parameter, gradient, state...) element: optional
// unscale of the gradient (divided by the scale and written back, as torch's
// fused kernels do), then the update of OptimizerMath.h, and with parameter
// copies the updated parameter rounded into its bf16 / f16 copy. f32
// parameters may have bf16 / f16 gradients, widened exactly as they are
// read (a compiled mixed-precision step's gradients need no up-cast). A set
// found_inf returns before anything else is read or written, the step
// counter included; only the copies are then written, from the unchanged
// parameters.
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

template <typename Elem>
using StorageOf = typename ElementTraits<Elem>::Storage;

/// The CopyElem of the loops when there are no parameter copies.
struct NoCopy {};

/// Gradient i, read in its own type (the parameter's, or a narrower bf16 /
/// f16 one, widened exactly); when Unscale, divided by `scale`, the update
/// using the unrounded quotient as torch's fused kernels do. A gradient of
/// the parameter's type is written back unscaled (rounded to it), as
/// torch's are; a narrower one is only read.
template <typename Elem, typename GradElem, bool Unscale>
TP_RT_ALWAYS_INLINE float loadGrad(StorageOf<GradElem> *grad, int64_t i,
                                   float scale) {
  using Traits = ElementTraits<GradElem>;
  float value = Traits::load(grad[i]);
  if (Unscale) {
    value = detail::unscaled(value, scale);
    if constexpr (std::is_same_v<Elem, GradElem>)
      grad[i] = Traits::store(value);
  }
  return value;
}

/// Element i of the parameter's copy: the updated parameter rounded to the
/// copy's type (nothing without a copy).
template <typename CopyElem>
TP_RT_ALWAYS_INLINE void storeCopy(void *copy, int64_t i, float param) {
  if constexpr (!std::is_same_v<CopyElem, NoCopy>)
    static_cast<StorageOf<CopyElem> *>(copy)[i] =
        ElementTraits<CopyElem>::store(param);
}

/// The element types of one optimizer loop: parameter and state, gradient,
/// parameter copy (NoCopy when none).
template <typename Elem, typename GradElem, typename CopyElem>
struct Types {
  using Param = Elem;
  using Grad = GradElem;
  using Copy = CopyElem;
};

/// The elements [begin, end) of one tensor. Scalars come by value: as
/// locals they are loop invariants the compiler can hoist (through a
/// reference they might alias the tensors), and the loop vectorises.
template <typename T, bool Unscale, bool Momentum>
struct SgdLoop {
  using Storage = StorageOf<typename T::Param>;
  struct Args {
    SgdScalars s;
    bool firstStep;
    float scale;
    Storage *p, *m;
    StorageOf<typename T::Grad> *g;
    void *copy;
    int64_t begin, end;
  };
  TP_RT_ALWAYS_INLINE static void run(const Args a) {
    using Traits = ElementTraits<typename T::Param>;
    const SgdScalars s = a.s;
    const bool firstStep = a.firstStep;
    const float scale = a.scale;
    Storage *p = a.p, *m = a.m;
    StorageOf<typename T::Grad> *g = a.g;
    void *copy = a.copy;
    for (int64_t i = a.begin; i < a.end; ++i) {
      float grad =
          loadGrad<typename T::Param, typename T::Grad, Unscale>(g, i, scale);
      float param = Traits::load(p[i]);
      float buf = Momentum ? Traits::load(m[i]) : 0.0f;
      detail::sgdUpdate<Momentum>(s, firstStep, param, grad, buf);
      p[i] = Traits::store(param);
      storeCopy<typename T::Copy>(copy, i, param);
      if (Momentum)
        m[i] = Traits::store(buf);
    }
  }
};

/// The elements [begin, end) of one tensor (scalars by value, as SgdLoop).
template <typename T, bool Unscale, bool Amsgrad>
struct AdamWLoop {
  using Storage = StorageOf<typename T::Param>;
  struct Args {
    AdamWScalars s;
    AdamWBiasCorrection bc;
    float scale;
    Storage *p, *m, *v, *vmax;
    StorageOf<typename T::Grad> *g;
    void *copy;
    int64_t begin, end;
  };
  TP_RT_ALWAYS_INLINE static void run(const Args a) {
    using Traits = ElementTraits<typename T::Param>;
    const AdamWScalars s = a.s;
    const AdamWBiasCorrection bc = a.bc;
    const float scale = a.scale;
    Storage *p = a.p, *m = a.m, *v = a.v, *vmax = a.vmax;
    StorageOf<typename T::Grad> *g = a.g;
    void *copy = a.copy;
    for (int64_t i = a.begin; i < a.end; ++i) {
      float grad =
          loadGrad<typename T::Param, typename T::Grad, Unscale>(g, i, scale);
      float param = Traits::load(p[i]);
      float expAvg = Traits::load(m[i]);
      float expAvgSq = Traits::load(v[i]);
      float maxSq = Amsgrad ? Traits::load(vmax[i]) : 0.0f;
      detail::adamwUpdate<Amsgrad>(s, bc, param, grad, expAvg, expAvgSq, maxSq);
      p[i] = Traits::store(param);
      storeCopy<typename T::Copy>(copy, i, param);
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

/// Tensor `index` of `list` as `Elem` storage, or null when the list is
/// empty (an absent state).
template <typename Elem>
StorageOf<Elem> *storageOf(TensorList list, size_t index) {
  return list.empty() ? nullptr : list[index].as<StorageOf<Elem>>();
}

/// The copy of parameter `index`, or null without copies.
template <typename CopyElem>
void *copyOf(TensorList copies, size_t index) {
  if constexpr (std::is_same_v<CopyElem, NoCopy>)
    return nullptr;
  else
    return storageOf<CopyElem>(copies, index);
}

template <typename T, bool Unscale, bool Momentum>
void sgdTyped(const SgdScalars &s, bool firstStep, TensorList params,
              TensorList grads, TensorList buffers, TensorList copies,
              float scale) {
  using Loop = SgdLoop<T, Unscale, Momentum>;
  using Param = typename T::Param;
  forEachRange(params, [&](const Range &r) {
    runLoop<Loop>({s, firstStep, scale, storageOf<Param>(params, r.tensor),
                   storageOf<Param>(buffers, r.tensor),
                   storageOf<typename T::Grad>(grads, r.tensor),
                   copyOf<typename T::Copy>(copies, r.tensor), r.begin, r.end});
  });
}

template <typename T, bool Unscale, bool Amsgrad>
void adamwTyped(const AdamWScalars &s, const AdamWBiasCorrection &bc,
                TensorList params, TensorList grads, TensorList expAvgs,
                TensorList expAvgSqs, TensorList maxExpAvgSqs,
                TensorList copies, float scale) {
  using Loop = AdamWLoop<T, Unscale, Amsgrad>;
  using Param = typename T::Param;
  forEachRange(params, [&](const Range &r) {
    runLoop<Loop>({s, bc, scale, storageOf<Param>(params, r.tensor),
                   storageOf<Param>(expAvgs, r.tensor),
                   storageOf<Param>(expAvgSqs, r.tensor),
                   storageOf<Param>(maxExpAvgSqs, r.tensor),
                   storageOf<typename T::Grad>(grads, r.tensor),
                   copyOf<typename T::Copy>(copies, r.tensor), r.begin, r.end});
  });
}

/// Calls fn(Elem{}) for a 16- or 32-bit floating dtype.
template <typename Fn>
void withElement(DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::F32:
    return fn(float{});
  case DType::F16:
    return fn(F16Tag{});
  case DType::BF16:
    return fn(BF16Tag{});
  }
}

/// Calls fn(Types<...>{}, std::bool_constant<A>{}, std::bool_constant<B>{})
/// for the dtypes of the parameters, gradients and copies (Kernels.cpp
/// admits narrower gradients and copies only for f32 parameters) and the
/// flags.
template <typename Fn>
void dispatch(TensorList params, TensorList grads, TensorList copies, bool a,
              bool b, Fn &&fn) {
  auto withFlags = [&](auto types) {
    if (a) {
      if (b)
        fn(types, std::true_type{}, std::true_type{});
      else
        fn(types, std::true_type{}, std::false_type{});
    } else {
      if (b)
        fn(types, std::false_type{}, std::true_type{});
      else
        fn(types, std::false_type{}, std::false_type{});
    }
  };
  if (params[0].dtype != DType::F32)
    return withElement(params[0].dtype, [&](auto elem) {
      using Elem = decltype(elem);
      withFlags(Types<Elem, Elem, NoCopy>{});
    });
  withElement(grads[0].dtype, [&](auto grad) {
    if (copies.empty())
      return withFlags(Types<float, decltype(grad), NoCopy>{});
    withElement(copies[0].dtype, [&](auto copy) {
      withFlags(Types<float, decltype(grad), decltype(copy)>{});
    });
  });
}

bool skipped(const float *foundInf) { return foundInf && *foundInf != 0.0f; }

/// copies[i] = params[i] rounded to the copies' dtype (the copies of a
/// skipped step: the parameters are unchanged).
void roundParamsToCopies(TensorList params, TensorList copies) {
  withElement(copies[0].dtype, [&](auto copy) {
    using Copy = decltype(copy);
    forEachRange(params, [&](const Range &r) {
      const float *p = params[r.tensor].as<float>();
      void *c = copyOf<Copy>(copies, r.tensor);
      for (int64_t i = r.begin; i < r.end; ++i)
        storeCopy<Copy>(c, i, p[i]);
    });
  });
}

/// Whether the step is skipped; the copies are then written from the
/// unchanged parameters.
bool skipStep(TensorList params, TensorList copies, const float *foundInf) {
  if (params.empty())
    return true;
  if (!skipped(foundInf))
    return false;
  if (!copies.empty())
    roundParamsToCopies(params, copies);
  return true;
}

} // namespace

bool optimizerFmaLoops() { return useFmaLoops(); }

void setOptimizerFmaLoops(bool enabled) { fmaLoopsDisabled = !enabled; }

void sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
             TensorList momentumBuffers, int64_t *step, const float *gradScale,
             const float *foundInf, TensorList paramCopies) {
  if (skipStep(params, paramCopies, foundInf))
    return;
  SgdScalars s = detail::makeSgdScalars(hyper);
  bool firstStep = *step == 0;
  float scale = gradScale ? *gradScale : 1.0f;
  dispatch(params, grads, paramCopies, gradScale != nullptr, s.hasMomentum,
           [&](auto types, auto unscale, auto momentum) {
             sgdTyped<decltype(types), decltype(unscale)::value,
                      decltype(momentum)::value>(s, firstStep, params, grads,
                                                 momentumBuffers, paramCopies,
                                                 scale);
           });
  ++*step;
}

void adamwStep(const AdamWHyperParams &hyper, TensorList params,
               TensorList grads, TensorList expAvgs, TensorList expAvgSqs,
               TensorList maxExpAvgSqs, int64_t *step, const float *gradScale,
               const float *foundInf, TensorList paramCopies) {
  if (skipStep(params, paramCopies, foundInf))
    return;
  AdamWScalars s = detail::makeAdamWScalars(hyper);
  AdamWBiasCorrection bc = detail::adamwBiasCorrection(s, *step + 1);
  float scale = gradScale ? *gradScale : 1.0f;
  dispatch(params, grads, paramCopies, gradScale != nullptr, s.amsgrad,
           [&](auto types, auto unscale, auto amsgrad) {
             adamwTyped<decltype(types), decltype(unscale)::value,
                        decltype(amsgrad)::value>(s, bc, params, grads, expAvgs,
                                                  expAvgSqs, maxExpAvgSqs,
                                                  paramCopies, scale);
           });
  ++*step;
}

} // namespace tensorplay::amp::cpu
