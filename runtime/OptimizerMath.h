//===- OptimizerMath.h - Per-element optimizer updates ----------*- C++ -*-===//
//
// The per-element SGD and AdamW updates, in f32 arithmetic, shared by the
// CPU kernels and the CUDA kernels. They reproduce, operation for operation,
// the vector loops of torch's fused CPU kernels (FusedSGDKernel.cpp,
// FusedAdamKernel.cpp, built for AVX2 / AVX-512): hyper-parameter
// expressions are evaluated in double and rounded to float once, and every
// fused multiply-add of torch's (written vec::fmadd, or contracted by its
// compiler) is an fmaf here. The files that include this header are compiled
// without floating-point contraction, so no other operation fuses.
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
  /// (float)-lr.
  float negLr;
  float momentum;
  /// (float)(1 - dampening), the difference taken in double.
  float oneMinusDampening;
  float weightDecay;
  /// -1 to maximize, +1 otherwise (the product is torch's negation).
  float gradSign;
  /// weight_decay != 0, tested in double as torch does.
  bool hasWeightDecay;
  bool nesterov;
  bool hasMomentum;
};

/// AdamW hyper-parameters as the element update uses them.
struct AdamWScalars {
  /// exp_avg.lerp_(grad, w), w = (float)(1 - beta1): for |w| < 0.5,
  /// exp_avg + w * (grad - exp_avg); otherwise grad + (w - 1) * (grad -
  /// exp_avg), each one fmaf (torch's vectorised lerp).
  float lerpCoeff;
  bool lerpFromExpAvg;
  float beta2;
  /// (float)(1 - beta2), the difference taken in double.
  float oneMinusBeta2;
  float eps;
  /// The decoupled weight decay factor (float)(1 - lr * weight_decay)
  /// (exactly 1 without weight decay).
  float decay;
  float gradSign;
  bool amsgrad;
  /// lr and the betas in double, for the bias corrections.
  double lrExact;
  double beta1Exact;
  double beta2Exact;
};

inline SgdScalars makeSgdScalars(const SgdHyperParams &h) {
  return {static_cast<float>(-h.lr),
          static_cast<float>(h.momentum),
          static_cast<float>(1.0 - h.dampening),
          static_cast<float>(h.weightDecay),
          h.maximize ? -1.0f : 1.0f,
          h.weightDecay != 0.0,
          h.nesterov,
          h.momentum != 0.0};
}

inline AdamWScalars makeAdamWScalars(const AdamWHyperParams &h) {
  const float weight = static_cast<float>(1.0 - h.beta1);
  const bool small = weight < 0.5f; // weight > 0: 0 <= beta1 < 1
  return {small ? weight : weight - 1.0f,
          small,
          static_cast<float>(h.beta2),
          static_cast<float>(1.0 - h.beta2),
          static_cast<float>(h.eps),
          static_cast<float>(1.0 - h.lr * h.weightDecay),
          h.maximize ? -1.0f : 1.0f,
          h.amsgrad,
          h.lr,
          h.beta1,
          h.beta2};
}

/// The step-dependent AdamW factors of step number `step` (1-based), in
/// double and rounded once: -(lr / (1 - beta1^step)) and
/// sqrt(1 - beta2^step).
struct AdamWBiasCorrection {
  float negStepSize;
  float biasCorrection2Sqrt;
};

TP_RT_HOST_DEVICE inline AdamWBiasCorrection
adamwBiasCorrection(const AdamWScalars &s, int64_t step) {
  double bc1 = 1.0 - pow(s.beta1Exact, static_cast<double>(step));
  double bc2 = 1.0 - pow(s.beta2Exact, static_cast<double>(step));
  return {static_cast<float>(-(s.lrExact / bc1)),
          static_cast<float>(sqrt(bc2))};
}

/// The gradient of a fused step under a GradScaler: grad / scale (torch's
/// fused kernels divide; its unscale_ multiplies by the rounded inverse,
/// which differs for scales that are not powers of two).
TP_RT_HOST_DEVICE inline float unscaled(float grad, float scale) {
  return grad / scale;
}

/// One SGD element update (torch.optim.SGD): weight decay, momentum buffer
/// (initialised with the gradient on the first step), nesterov, maximize.
/// `momentumBuf` is used only when Momentum.
template <bool Momentum>
TP_RT_HOST_DEVICE inline void sgdUpdate(const SgdScalars &s, bool firstStep,
                                        float &param, float grad,
                                        float &momentumBuf) {
  grad *= s.gradSign;
  grad = s.hasWeightDecay ? fmaf(param, s.weightDecay, grad) : grad;
  if (Momentum) {
    momentumBuf =
        firstStep ? grad
                  : fmaf(s.oneMinusDampening, grad, momentumBuf * s.momentum);
    grad = s.nesterov ? fmaf(momentumBuf, s.momentum, grad) : momentumBuf;
  }
  param = fmaf(grad, s.negLr, param);
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
  expAvg = fmaf(s.lerpCoeff, grad - expAvg, s.lerpFromExpAvg ? expAvg : grad);
  expAvgSq = fmaf(s.oneMinusBeta2 * grad, grad, expAvgSq * s.beta2);
  float second = expAvgSq;
  if (Amsgrad) {
    // torch's vectorised maximum: NaN if either operand is NaN.
    maxExpAvgSq =
        maxExpAvgSq < expAvgSq || expAvgSq != expAvgSq ? expAvgSq : maxExpAvgSq;
    second = maxExpAvgSq;
  }
  float denom = sqrtf(second) / bc.biasCorrection2Sqrt + s.eps;
  param = param + bc.negStepSize * expAvg / denom;
}

} // namespace tensorplay::amp::detail

#endif // TENSORPLAY_RUNTIME_OPTIMIZERMATH_H
