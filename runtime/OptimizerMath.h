//===- OptimizerMath.h - Per-element optimizer updates ----------*- C++ -*-===//
//
// The per-element SGD and AdamW updates, in f32 arithmetic, shared by the
// CPU kernels and the CUDA kernels so that both compute the same formulas
// (those of torch's fused SGD / AdamW kernels).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_OPTIMIZERMATH_H
#define TENSORPLAY_RUNTIME_OPTIMIZERMATH_H

#include "HostDevice.h"

#include "tensorplay/Runtime/Kernels.h"

namespace tensorplay::amp::detail {

/// SGD hyper-parameters as the element update uses them.
struct SgdScalars {
  float lr;
  float momentum;
  float dampening;
  float weightDecay;
  bool nesterov;
  bool maximize;
  bool hasMomentum;
};

/// AdamW hyper-parameters as the element update uses them.
struct AdamWScalars {
  float lr;
  float beta1;
  float beta2;
  float eps;
  float weightDecay;
  bool amsgrad;
  bool maximize;
  /// lr and the betas in double, for the bias corrections.
  double lrExact;
  double beta1Exact;
  double beta2Exact;
};

inline SgdScalars makeSgdScalars(const SgdHyperParams &h) {
  return {static_cast<float>(h.lr),
          static_cast<float>(h.momentum),
          static_cast<float>(h.dampening),
          static_cast<float>(h.weightDecay),
          h.nesterov,
          h.maximize,
          h.momentum != 0.0};
}

inline AdamWScalars makeAdamWScalars(const AdamWHyperParams &h) {
  return {static_cast<float>(h.lr),          static_cast<float>(h.beta1),
          static_cast<float>(h.beta2),       static_cast<float>(h.eps),
          static_cast<float>(h.weightDecay), h.amsgrad,
          h.maximize,                        h.lr,
          h.beta1,                           h.beta2};
}

/// The step-dependent AdamW factors of step number `step` (1-based):
/// lr / (1 - beta1^step) and sqrt(1 - beta2^step), computed in double.
struct AdamWBiasCorrection {
  float stepSize;
  float biasCorrection2Sqrt;
};

TP_RT_HOST_DEVICE inline AdamWBiasCorrection
adamwBiasCorrection(const AdamWScalars &s, int64_t step) {
  double bc1 = 1.0 - pow(s.beta1Exact, static_cast<double>(step));
  double bc2 = 1.0 - pow(s.beta2Exact, static_cast<double>(step));
  return {static_cast<float>(s.lrExact / bc1), static_cast<float>(sqrt(bc2))};
}

/// One SGD element update. `momentumBuf` is read and written only when
/// momentum != 0; `firstStep` initialises it with the gradient.
TP_RT_HOST_DEVICE inline void sgdUpdate(const SgdScalars &s, bool firstStep,
                                        float &param, float grad,
                                        float &momentumBuf) {
  if (s.maximize)
    grad = -grad;
  if (s.weightDecay != 0.0f)
    grad += s.weightDecay * param;
  if (s.hasMomentum) {
    momentumBuf = firstStep ? grad
                            : s.momentum * momentumBuf +
                                  (1.0f - s.dampening) * grad;
    grad = s.nesterov ? grad + s.momentum * momentumBuf : momentumBuf;
  }
  param -= s.lr * grad;
}

/// One AdamW element update. `maxExpAvgSq` is used only when amsgrad.
TP_RT_HOST_DEVICE inline void
adamwUpdate(const AdamWScalars &s, const AdamWBiasCorrection &bc,
            float &param, float grad, float &expAvg, float &expAvgSq,
            float &maxExpAvgSq) {
  if (s.maximize)
    grad = -grad;
  if (s.weightDecay != 0.0f)
    param -= s.lr * s.weightDecay * param;
  expAvg = s.beta1 * expAvg + (1.0f - s.beta1) * grad;
  expAvgSq = s.beta2 * expAvgSq + (1.0f - s.beta2) * grad * grad;
  float second = expAvgSq;
  if (s.amsgrad) {
    // std::max(max, v), as torch: a NaN v leaves the maximum unchanged.
    maxExpAvgSq = maxExpAvgSq < expAvgSq ? expAvgSq : maxExpAvgSq;
    second = maxExpAvgSq;
  }
  float denom = sqrtf(second) / bc.biasCorrection2Sqrt + s.eps;
  param -= bc.stepSize * expAvg / denom;
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_OPTIMIZERMATH_H
