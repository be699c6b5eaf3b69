//===- OptimizerKernels.cpp - Fused SGD / AdamW on the CPU ----------------===//
//
// One pass over every (parameter, gradient, state...) element: optional
// unscale of the gradient (written back, as torch's fused optimizers do), then
// the update of OptimizerMath.h. A set found_inf returns before anything is
// read or written, the step counter included.
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

/// Loads gradient i, unscaling it in place first when Unscale. The value
/// returned is the stored (rounded) one, so that the fused step computes
/// exactly what unscale-then-step computes.
template <typename Elem, bool Unscale>
inline float loadGrad(typename ElementTraits<Elem>::Storage *grad, int64_t i,
                      float invScale) {
  using Traits = ElementTraits<Elem>;
  if (Unscale)
    grad[i] = Traits::store(Traits::load(grad[i]) * invScale);
  return Traits::load(grad[i]);
}

template <typename Elem, bool Unscale, bool Momentum>
void sgdTyped(const SgdScalars &s, bool firstStep, TensorList params,
              TensorList grads, TensorList buffers, float invScale) {
  using Traits = ElementTraits<Elem>;
  using Storage = typename Traits::Storage;
  forEachRange(params, [&](const Range &r) {
    Storage *p = params[r.tensor].as<Storage>();
    Storage *g = grads[r.tensor].as<Storage>();
    Storage *m = Momentum ? buffers[r.tensor].as<Storage>() : nullptr;
    for (int64_t i = r.begin; i < r.end; ++i) {
      float grad = loadGrad<Elem, Unscale>(g, i, invScale);
      float param = Traits::load(p[i]);
      float buf = Momentum ? Traits::load(m[i]) : 0.0f;
      detail::sgdUpdate(s, firstStep, param, grad, buf);
      p[i] = Traits::store(param);
      if (Momentum)
        m[i] = Traits::store(buf);
    }
  });
}

template <typename Elem, bool Unscale, bool Amsgrad>
void adamwTyped(const AdamWScalars &s, const AdamWBiasCorrection &bc,
                TensorList params, TensorList grads, TensorList expAvgs,
                TensorList expAvgSqs, TensorList maxExpAvgSqs,
                float invScale) {
  using Traits = ElementTraits<Elem>;
  using Storage = typename Traits::Storage;
  forEachRange(params, [&](const Range &r) {
    Storage *p = params[r.tensor].as<Storage>();
    Storage *g = grads[r.tensor].as<Storage>();
    Storage *m = expAvgs[r.tensor].as<Storage>();
    Storage *v = expAvgSqs[r.tensor].as<Storage>();
    Storage *vmax = Amsgrad ? maxExpAvgSqs[r.tensor].as<Storage>() : nullptr;
    for (int64_t i = r.begin; i < r.end; ++i) {
      float grad = loadGrad<Elem, Unscale>(g, i, invScale);
      float param = Traits::load(p[i]);
      float expAvg = Traits::load(m[i]);
      float expAvgSq = Traits::load(v[i]);
      float maxSq = Amsgrad ? Traits::load(vmax[i]) : 0.0f;
      detail::adamwUpdate(s, bc, param, grad, expAvg, expAvgSq, maxSq);
      p[i] = Traits::store(param);
      m[i] = Traits::store(expAvg);
      v[i] = Traits::store(expAvgSq);
      if (Amsgrad)
        vmax[i] = Traits::store(maxSq);
    }
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
                      decltype(momentum)::value>(
                 s, firstStep, params, grads, momentumBuffers, invScale);
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
                        decltype(amsgrad)::value>(s, bc, params, grads,
                                                  expAvgs, expAvgSqs,
                                                  maxExpAvgSqs, invScale);
           });
  ++*step;
}

} // namespace tensorplay::amp::cpu
