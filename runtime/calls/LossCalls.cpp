//===- LossCalls.cpp - The CTC loss of compiled code ----------------------===//
//
// tp_rt_ctc_loss_{f32,f64} (Codegen.h): the negative log-likelihood of
// each sample's target under connectionist temporal classification, as
// tensorplay's CPU kernel (aten's ctc_loss_cpu_template) computes it: the
// forward variables alpha in log space over the extended target (blanks
// between the labels and at both ends), each step's three-term logsumexp
// summed in the same order, in the input's precision. The lengths are
// checked as tensorplay checks them; a violation is an error in its words.
// tp_rt_ctc_loss_backward_{f32,f64}: the gradient of each sample's
// negative log-likelihood with respect to the log-probabilities, from the
// forward variables alpha (the same recursion) and the backward variables
// beta: -exp(logsumexp_{s: l'_s = c}(alpha_t(s) + beta_t(s)) + nll -
// lp_t(c)) times the sample's incoming gradient, zero from its input
// length on, NaN for an impossible alignment (zero with zero_infinity). This is
// the exact derivative; aten adds exp(lp_t(c)), which vanishes through the
// log_softmax that produces normalized log-probabilities (the gradients of the
// logits agree) but is not the derivative of the loss in the log-probabilities
// themselves. The dynamic program is sequential in time and in data-dependent
// lengths, which is why it is a runtime loop and not generated code.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "calls/CodegenError.h"
#include "calls/MemrefView.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using View = tensorplay::codegen::MemrefView;

tp_rt_status invalid(const std::string &message) {
  return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT,
                                   "ctc_loss: " + message +
                                       " (while checking arguments for "
                                       "ctc_loss_cpu)");
}

/// tensorplay's check that a length is not negative.
tp_rt_status nonNegative(const char *name, int64_t length) {
  if (length >= 0)
    return TP_RT_SUCCESS;
  return invalid(std::string("Expected ") + name +
                 " to have value at least 0, but got value " +
                 std::to_string(length));
}

/// Element i of the 1-D i64 view v.
int64_t entry(const View &v, int64_t i) {
  return v.data<int64_t>()[i * v.stride(0)];
}

/// The offsets of each sample's target in `targets` (in elements, along
/// its last dimension) and the longest target, after tensorplay's checks.
tp_rt_status targetOffsets(const View &targets, const View &targetLengths,
                           int64_t batch, std::vector<int64_t> &offsets) {
  int64_t longest = 0, total = 0;
  for (int64_t n = 0; n < batch; ++n) {
    int64_t length = entry(targetLengths, n);
    if (tp_rt_status status = nonNegative("target_lengths", length))
      return status;
    offsets[n] = total;
    total += length;
    longest = std::max(longest, length);
  }
  if (targets.rank == 1) { // concatenated targets
    if (targets.size(0) != total)
      return invalid("Expected tensor to have size " + std::to_string(total) +
                     " at dimension 0, but got size " +
                     std::to_string(targets.size(0)) +
                     " for argument #2 'targets' (the sum of target_lengths)");
    return TP_RT_SUCCESS;
  }
  if (targets.size(1) < longest)
    return invalid("Expected tensor to have size at least " +
                   std::to_string(longest) + " at dimension 1, but got size " +
                   std::to_string(targets.size(1)) +
                   " for argument #2 'targets'");
  for (int64_t n = 0; n < batch; ++n)
    offsets[n] = 0;
  return TP_RT_SUCCESS;
}

/// The checks of both entry points; the target offsets on success.
tp_rt_status checkOperands(const View &logProbs, const View &targets,
                           const View &inputLengths, const View &targetLengths,
                           int64_t blank, std::vector<int64_t> &offsets) {
  int64_t time = logProbs.size(0), batch = logProbs.size(1),
          classes = logProbs.size(2);
  if (blank < 0 || blank >= classes)
    return invalid("blank must be in label range");
  offsets.assign(batch, 0);
  if (tp_rt_status status =
          targetOffsets(targets, targetLengths, batch, offsets))
    return status;
  for (int64_t n = 0; n < batch; ++n) {
    int64_t length = entry(inputLengths, n);
    if (tp_rt_status status = nonNegative("input_lengths", length))
      return status;
    if (length > time)
      return invalid("Expected input_lengths to have value at most " +
                     std::to_string(time) + ", but got value " +
                     std::to_string(length));
  }
  return TP_RT_SUCCESS;
}

/// log(exp(a) + exp(b) + exp(c)) as aten sums it (the largest factored
/// out; 0 when all are -inf, which cannot be subtracted).
template <typename T>
T logSumExp3(T a, T b, T c) {
  const T negInf = -std::numeric_limits<T>::infinity();
  T m = std::max(a, std::max(b, c));
  if (m == negInf)
    m = 0;
  return std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m)) + m;
}

/// One sample: its extended target l' (blank, l1, blank, ..., blank), its
/// forward variables for t < its input length (alpha[t * states + s]) and
/// its negative log-likelihood.
template <typename T>
struct Sample {
  int64_t inputLength = 0, targetLength = 0, states = 1;
  std::vector<int64_t> prime;
  std::vector<T> alpha;
  T nll = 0;
};

/// Fills `sample` for sample n; `table` keeps every step of alpha (for the
/// backward), otherwise only the last.
template <typename T>
tp_rt_status forwardSample(const View &logProbs, const View &targets,
                           const View &inputLengths, const View &targetLengths,
                           const std::vector<int64_t> &offsets, int64_t blank,
                           int64_t n, bool table, Sample<T> &sample) {
  const T negInf = -std::numeric_limits<T>::infinity();
  int64_t classes = logProbs.size(2);
  const T *lp = logProbs.data<T>();
  int64_t st = logProbs.stride(0), sn = logProbs.stride(1),
          sc = logProbs.stride(2);
  // The label stride and the sample stride of the padded form.
  int64_t ts = targets.stride(targets.rank - 1),
          tn = targets.rank == 2 ? targets.stride(0) : 0;
  sample.inputLength = entry(inputLengths, n);
  sample.targetLength = entry(targetLengths, n);
  int64_t time = sample.inputLength, length = sample.targetLength;
  int64_t states = sample.states = 2 * length + 1;
  if (time == 0) {
    sample.nll = length == 0 ? T(0) : -negInf;
    sample.alpha.clear();
    return TP_RT_SUCCESS;
  }
  const int64_t *label = targets.data<int64_t>() + n * tn + offsets[n] * ts;
  // A label out of [0, C) is an error (tensorplay reads out of bounds).
  sample.prime.assign(states, blank);
  for (int64_t s = 0; s < length; ++s) {
    int64_t l = label[s * ts];
    if (l < 0 || l >= classes)
      return invalid("target " + std::to_string(l) + " of sample " +
                     std::to_string(n) + " is not a class index in [0, " +
                     std::to_string(classes) + ")");
    sample.prime[2 * s + 1] = l;
  }
  const std::vector<int64_t> &prime = sample.prime;
  auto emission = [&](int64_t t, int64_t s) {
    return lp[t * st + n * sn + prime[s] * sc];
  };
  std::vector<T> &alpha = sample.alpha;
  alpha.assign((table ? time : 1) * states, negInf);
  alpha[0] = emission(0, 0);
  if (length > 0)
    alpha[1] = emission(0, 1);
  std::vector<T> next(states);
  for (int64_t t = 1; t < time; ++t) {
    const T *prev = table ? &alpha[(t - 1) * states] : alpha.data();
    T *cur = table ? &alpha[t * states] : next.data();
    for (int64_t s = 0; s < states; ++s) {
      T la2 = s > 0 ? prev[s - 1] : negInf;
      T la3 = s > 1 && prime[s - 2] != prime[s] ? prev[s - 2] : negInf;
      cur[s] = logSumExp3(prev[s], la2, la3) + emission(t, s);
    }
    if (!table)
      std::copy(next.begin(), next.end(), alpha.begin());
  }
  const T *last = table ? &alpha[(time - 1) * states] : alpha.data();
  if (length == 0) {
    sample.nll = -last[0];
    return TP_RT_SUCCESS;
  }
  sample.nll = -logSumExp3(last[states - 1], last[states - 2], negInf);
  return TP_RT_SUCCESS;
}

template <typename T>
tp_rt_status ctcLoss(View logProbs, View targets, View inputLengths,
                     View targetLengths, View out, int64_t blank) {
  std::vector<int64_t> offsets;
  if (tp_rt_status status = checkOperands(logProbs, targets, inputLengths,
                                          targetLengths, blank, offsets))
    return status;
  Sample<T> sample;
  for (int64_t n = 0; n < logProbs.size(1); ++n) {
    if (tp_rt_status status =
            forwardSample(logProbs, targets, inputLengths, targetLengths,
                          offsets, blank, n, /*table=*/false, sample))
      return status;
    out.data<T>()[n * out.stride(0)] = sample.nll;
  }
  return TP_RT_SUCCESS;
}

template <typename T>
tp_rt_status ctcGradient(View grad, View logProbs, View targets,
                         View inputLengths, View targetLengths, View out,
                         int64_t blank, bool zeroInfinity) {
  std::vector<int64_t> offsets;
  if (tp_rt_status status = checkOperands(logProbs, targets, inputLengths,
                                          targetLengths, blank, offsets))
    return status;
  const T negInf = -std::numeric_limits<T>::infinity();
  int64_t time = logProbs.size(0), batch = logProbs.size(1),
          classes = logProbs.size(2);
  const T *lp = logProbs.data<T>();
  int64_t st = logProbs.stride(0), sn = logProbs.stride(1),
          sc = logProbs.stride(2);
  T *g = out.data<T>();
  int64_t ot = out.stride(0), on = out.stride(1), oc = out.stride(2);
  Sample<T> sample;
  std::vector<T> beta, lcab(classes);
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t t = 0; t < time; ++t)
      for (int64_t c = 0; c < classes; ++c)
        g[t * ot + n * on + c * oc] = 0;
    if (tp_rt_status status =
            forwardSample(logProbs, targets, inputLengths, targetLengths,
                          offsets, blank, n, /*table=*/true, sample))
      return status;
    int64_t steps = sample.inputLength, states = sample.states;
    T nll = sample.nll;
    if (steps == 0 || (zeroInfinity && nll == -negInf))
      continue;
    T scale = grad.data<T>()[n * grad.stride(0)];
    if (nll == -negInf) {
      // An impossible alignment: the loss is infinite and has no
      // gradient (NaN, as aten's; zero_infinity makes it 0).
      for (int64_t t = 0; t < steps; ++t)
        for (int64_t c = 0; c < classes; ++c)
          g[t * ot + n * on + c * oc] = std::numeric_limits<T>::quiet_NaN();
      continue;
    }
    const std::vector<int64_t> &prime = sample.prime;
    auto emission = [&](int64_t t, int64_t s) {
      return lp[t * st + n * sn + prime[s] * sc];
    };
    // beta[t * states + s]: the log-probability of the rest of the target
    // from state s at step t (emission t included).
    beta.assign(steps * states, negInf);
    T *lastBeta = &beta[(steps - 1) * states];
    lastBeta[states - 1] = emission(steps - 1, states - 1);
    if (states > 1)
      lastBeta[states - 2] = emission(steps - 1, states - 2);
    for (int64_t t = steps - 2; t >= 0; --t) {
      const T *after = &beta[(t + 1) * states];
      T *cur = &beta[t * states];
      for (int64_t s = 0; s < states; ++s) {
        T lb2 = s + 1 < states ? after[s + 1] : negInf;
        T lb3 =
            s + 2 < states && prime[s + 2] != prime[s] ? after[s + 2] : negInf;
        cur[s] = logSumExp3(after[s], lb2, lb3) + emission(t, s);
      }
    }
    for (int64_t t = 0; t < steps; ++t) {
      std::fill(lcab.begin(), lcab.end(), negInf);
      for (int64_t s = 0; s < states; ++s) {
        T v = sample.alpha[t * states + s] + beta[t * states + s];
        T &acc = lcab[prime[s]];
        acc = logSumExp3(acc, v, negInf);
      }
      for (int64_t c = 0; c < classes; ++c)
        if (lcab[c] != negInf)
          g[t * ot + n * on + c * oc] =
              -std::exp(lcab[c] + nll - lp[t * st + n * sn + c * sc]) * scale;
    }
  }
  return TP_RT_SUCCESS;
}

} // namespace

#define TP_CTC_ENTRY_POINT(SUFFIX, T)                                          \
  tp_rt_status tp_rt_ctc_loss_##SUFFIX(                                        \
      int64_t log_probs_rank, tp_rt_memref *log_probs, int64_t targets_rank,   \
      tp_rt_memref *targets, int64_t input_lengths_rank,                       \
      tp_rt_memref *input_lengths, int64_t target_lengths_rank,                \
      tp_rt_memref *target_lengths, int64_t out_rank, tp_rt_memref *out,       \
      int64_t blank) {                                                         \
    View lp{log_probs_rank, log_probs}, tg{targets_rank, targets},             \
        il{input_lengths_rank, input_lengths},                                 \
        tl{target_lengths_rank, target_lengths}, nll{out_rank, out};           \
    if (lp.rank != 3 || (tg.rank != 1 && tg.rank != 2) || il.rank != 1 ||      \
        tl.rank != 1 || nll.rank != 1 || il.size(0) != lp.size(1) ||           \
        tl.size(0) != lp.size(1) || nll.size(0) != lp.size(1) ||               \
        (tg.rank == 2 && tg.size(0) != lp.size(1)))                            \
      return tensorplay::codegen::fail(                                        \
          TP_RT_ERROR_INVALID_ARGUMENT, "tp_rt_ctc_loss",                      \
          "expects log_probs (T, N, C), targets (N, S) or (sum of lengths), "  \
          "input and target lengths (N) and an (N) result");                   \
    return ctcLoss<T>(lp, tg, il, tl, nll, blank);                             \
  }

#define TP_CTC_BACKWARD_ENTRY_POINT(SUFFIX, T)                                 \
  tp_rt_status tp_rt_ctc_loss_backward_##SUFFIX(                               \
      int64_t grad_rank, tp_rt_memref *grad, int64_t log_probs_rank,           \
      tp_rt_memref *log_probs, int64_t targets_rank, tp_rt_memref *targets,    \
      int64_t input_lengths_rank, tp_rt_memref *input_lengths,                 \
      int64_t target_lengths_rank, tp_rt_memref *target_lengths,               \
      int64_t out_rank, tp_rt_memref *out, int64_t blank,                      \
      int64_t zero_infinity) {                                                 \
    View gr{grad_rank, grad}, lp{log_probs_rank, log_probs},                   \
        tg{targets_rank, targets}, il{input_lengths_rank, input_lengths},      \
        tl{target_lengths_rank, target_lengths}, g{out_rank, out};             \
    if (lp.rank != 3 || (tg.rank != 1 && tg.rank != 2) || il.rank != 1 ||      \
        tl.rank != 1 || gr.rank != 1 || g.rank != 3 ||                         \
        il.size(0) != lp.size(1) || tl.size(0) != lp.size(1) ||                \
        gr.size(0) != lp.size(1) ||                                            \
        (tg.rank == 2 && tg.size(0) != lp.size(1)) ||                          \
        g.size(0) != lp.size(0) || g.size(1) != lp.size(1) ||                  \
        g.size(2) != lp.size(2))                                               \
      return tensorplay::codegen::fail(                                        \
          TP_RT_ERROR_INVALID_ARGUMENT, "tp_rt_ctc_loss_backward",             \
          "expects an (N) gradient, log_probs (T, N, C), targets (N, S) or "   \
          "(sum of lengths), input and target lengths (N) and a (T, N, C) "    \
          "result");                                                           \
    return ctcGradient<T>(gr, lp, tg, il, tl, g, blank, zero_infinity != 0);   \
  }

extern "C" {
TP_CTC_ENTRY_POINT(f32, float)
TP_CTC_ENTRY_POINT(f64, double)
TP_CTC_BACKWARD_ENTRY_POINT(f32, float)
TP_CTC_BACKWARD_ENTRY_POINT(f64, double)
}
#undef TP_CTC_ENTRY_POINT
#undef TP_CTC_BACKWARD_ENTRY_POINT
