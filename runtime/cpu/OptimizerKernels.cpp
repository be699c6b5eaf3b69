//===- OptimizerKernels.cpp - Fused SGD / AdamW on the CPU ----------------===//
//
// One pass over every (parameter, gradient, state...) element: optional
// unscale of the gradient (used, not written back: the gradient buffers keep
// their scaled values), then the update of OptimizerMath.h. A set found_inf
// returns before anything is read or written, the step counter included.
//
//===----------------------------------------------------------------------===//

#include "OptimizerMath.h"
#include "cpu/CpuKernels.h"
#include "cpu/FloatConversion.h"
#include "cpu/Parallel.h"

#include <type_traits>

namespace tensorplay::amp::cpu {
namespace {

using detail::AdamWBiasCorrection;
using detail::AdamWScalars;
using detail::SgdScalars;

/// Gradient i, unscaled when Unscale and rounded to the element type as an
/// unscale pass would store it, so that the fused step computes exactly what
/// unscale-then-step computes.
template <typename Elem, bool Unscale>
inline float loadGrad(const typename ElementTraits<Elem>::Storage *grad,
                      int64_t i, float invScale) {
  using Traits = ElementTraits<Elem>;
  if (!Unscale)
    return Traits::load(grad[i]);
  return Traits::load(Traits::store(Traits::load(grad[i]) * invScale));
}

/// The elements [begin, end) of one tensor. Scalars come by value: as
/// locals they are loop invariants the compiler can hoist (through a
/// reference they might alias the tensors), and the loop vectorises.
template <typename Elem, bool Unscale, bool Momentum>
void sgdRange(const SgdScalars s, const bool firstStep, const float invScale,
              typename ElementTraits<Elem>::Storage *p,
              const typename ElementTraits<Elem>::Storage *g,
              typename ElementTraits<Elem>::Storage *m, int64_t begin,
              int64_t end) {
  using Traits = ElementTraits<Elem>;
  for (int64_t i = begin; i < end; ++i) {
    float grad = loadGrad<Elem, Unscale>(g, i, invScale);
    float param = Traits::load(p[i]);
    float buf = Momentum ? Traits::load(m[i]) : 0.0f;
    detail::sgdUpdate<Momentum>(s, firstStep, param, grad, buf);
    p[i] = Traits::store(param);
    if (Momentum)
      m[i] = Traits::store(buf);
  }
}

template <typename Elem, bool Unscale, bool Momentum>
void sgdTyped(const SgdScalars &s, bool firstStep, TensorList params,
              TensorList grads, TensorList buffers, float invScale) {
  using Storage = typename ElementTraits<Elem>::Storage;
  forEachRange(params, [&](const Range &r) {
    sgdRange<Elem, Unscale, Momentum>(
        s, firstStep, invScale, params[r.tensor].as<Storage>(),
        grads[r.tensor].as<Storage>(),
        Momentum ? buffers[r.tensor].as<Storage>() : nullptr, r.begin, r.end);
  });
}

/// The elements [begin, end) of one tensor (scalars by value, as sgdRange).
template <typename Elem, bool Unscale, bool Amsgrad>
void adamwRange(const AdamWScalars s, const AdamWBiasCorrection bc,
                const float invScale, typename ElementTraits<Elem>::Storage *p,
                const typename ElementTraits<Elem>::Storage *g,
                typename ElementTraits<Elem>::Storage *m,
                typename ElementTraits<Elem>::Storage *v,
                typename ElementTraits<Elem>::Storage *vmax, int64_t begin,
                int64_t end) {
  using Traits = ElementTraits<Elem>;
  for (int64_t i = begin; i < end; ++i) {
    float grad = loadGrad<Elem, Unscale>(g, i, invScale);
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

template <typename Elem, bool Unscale, bool Amsgrad>
void adamwTyped(const AdamWScalars &s, const AdamWBiasCorrection &bc,
                TensorList params, TensorList grads, TensorList expAvgs,
                TensorList expAvgSqs, TensorList maxExpAvgSqs, float invScale) {
  using Storage = typename ElementTraits<Elem>::Storage;
  forEachRange(params, [&](const Range &r) {
    adamwRange<Elem, Unscale, Amsgrad>(
        s, bc, invScale, params[r.tensor].as<Storage>(),
        grads[r.tensor].as<Storage>(), expAvgs[r.tensor].as<Storage>(),
        expAvgSqs[r.tensor].as<Storage>(),
        Amsgrad ? maxExpAvgSqs[r.tensor].as<Storage>() : nullptr, r.begin,
        r.end);
  });
}

/// Calls fn(Elem{}, std::bool_constant<A>{}, std::bool_constant<B>{}) for
/// the runtime dtype and flags.
template <typename Fn> void dispatch(DType dtype, bool a, bool b, Fn &&fn) {
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

void sgdStep(const SgdHyperParams &hyper, TensorList params, TensorList grads,
             TensorList momentumBuffers, int64_t *step, const float *gradScale,
             const float *foundInf) {
  if (skipped(foundInf) || params.empty())
    return;
  SgdScalars s = detail::makeSgdScalars(hyper);
  bool firstStep = *step == 0;
  float invScale = gradScale ? detail::inverseOf(*gradScale) : 1.0f;
  dispatch(params[0].dtype, gradScale != nullptr, s.hasMomentum,
           [&](auto elem, auto unscale, auto momentum) {
             sgdTyped<decltype(elem), decltype(unscale)::value,
                      decltype(momentum)::value>(s, firstStep, params, grads,
                                                 momentumBuffers, invScale);
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
  float invScale = gradScale ? detail::inverseOf(*gradScale) : 1.0f;
  dispatch(params[0].dtype, gradScale != nullptr, s.amsgrad,
           [&](auto elem, auto unscale, auto amsgrad) {
             adamwTyped<decltype(elem), decltype(unscale)::value,
                        decltype(amsgrad)::value>(s, bc, params, grads, expAvgs,
                                                  expAvgSqs, maxExpAvgSqs,
                                                  invScale);
           });
  ++*step;
}

} // namespace tensorplay::amp::cpu
