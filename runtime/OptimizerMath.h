//===- OptimizerMath.h - Per-element optimizer updates ----------*- C++ -*-===//
//
// The per-element SGD and AdamW updates, in f32 arithmetic, shared by the
// CPU kernels and the CUDA kernels so that both compute the same formulas
// (those of torch.optim.SGD / torch.optim.AdamW).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_RUNTIME_OPTIMIZERMATH_H
#define TENSORPLAY_RUNTIME_OPTIMIZERMATH_H

#include "HostDevice.h"

#include "tensorplay/Runtime/Kernels.h"

namespace tensorplay::amp::detail {

/// SGD hyper-parameters as the element update uses them. Flags that would
/// branch per element are folded into factors (gradSign) or selects, so
/// that the CPU loops vectorise.
struct SgdScalars {
  float lr;
  float momentum;
  float oneMinusDampening;
  float weightDecay;
  /// -1 to maximize, +1 otherwise (negation is exact).
  float gradSign;
  bool nesterov;
  bool hasMomentum;
};

/// AdamW hyper-parameters as the element update uses them.
struct AdamWScalars {
  float beta1;
  float oneMinusBeta1;
  float beta2;
  float oneMinusBeta2;
  float eps;
  /// The decoupled weight decay factor 1 - lr * weight_decay (exactly 1
  /// without weight decay).
  float decay;
  float gradSign;
  bool amsgrad;
  /// lr and the betas in double, for the bias corrections.
  double lrExact;
  double beta1Exact;
  double beta2Exact;
};

inline SgdScalars makeSgdScalars(const SgdHyperParams &h) {
  return {static_cast<float>(h.lr),
          static_cast<float>(h.momentum),
          1.0f - static_cast<float>(h.dampening),
          static_cast<float>(h.weightDecay),
          h.maximize ? -1.0f : 1.0f,
          h.nesterov,
          h.momentum != 0.0};
}

inline AdamWScalars makeAdamWScalars(const AdamWHyperParams &h) {
  return {static_cast<float>(h.beta1),
          1.0f - static_cast<float>(h.beta1),
          static_cast<float>(h.beta2),
          1.0f - static_cast<float>(h.beta2),
          static_cast<float>(h.eps),
          static_cast<float>(1.0 - h.lr * h.weightDecay),
          h.maximize ? -1.0f : 1.0f,
          h.amsgrad,
          h.lr,
          h.beta1,
          h.beta2};
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

/// One SGD element update (torch.optim.SGD): weight decay, momentum buffer
/// (initialised with the gradient on the first step), nesterov, maximize.
/// `momentumBuf` is used only when Momentum.
template <bool Momentum>
TP_RT_HOST_DEVICE inline void sgdUpdate(const SgdScalars &s, bool firstStep,
                                        float &param, float grad,
                                        float &momentumBuf) {
  grad *= s.gradSign;
  grad = s.weightDecay != 0.0f ? grad + s.weightDecay * param : grad;
  if (Momentum) {
    momentumBuf = firstStep
                      ? grad
                      : s.momentum * momentumBuf + s.oneMinusDampening * grad;
    grad = s.nesterov ? grad + s.momentum * momentumBuf : momentumBuf;
  }
  param -= s.lr * grad;
}

/// One AdamW element update (torch.optim.AdamW): decoupled weight decay,
/// moment estimates, bias correction, amsgrad, maximize. `maxExpAvgSq` is
/// used only when Amsgrad.
template <bool Amsgrad>
TP_RT_HOST_DEVICE inline void
adamwUpdate(const AdamWScalars &s, const AdamWBiasCorrection &bc, float &param,
            float grad, float &expAvg, float &expAvgSq, float &maxExpAvgSq) {
  grad *= s.gradSign;
  param *= s.decay;
  expAvg = s.beta1 * expAvg + s.oneMinusBeta1 * grad;
  expAvgSq = s.beta2 * expAvgSq + s.oneMinusBeta2 * grad * grad;
  float second = expAvgSq;
  if (Amsgrad) {
    // std::max(max, v), as torch: a NaN v leaves the maximum unchanged.
    maxExpAvgSq = maxExpAvgSq < expAvgSq ? expAvgSq : maxExpAvgSq;
    second = maxExpAvgSq;
  }
  float denom = sqrtf(second) / bc.biasCorrection2Sqrt + s.eps;
  param -= bc.stepSize * expAvg / denom;
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_OPTIMIZERMATH_H
