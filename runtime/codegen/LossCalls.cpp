//===- LossCalls.cpp - The CTC loss of compiled code ----------------------===//
//
// tp_rt_ctc_loss_{f32,f64} (Codegen.h): the negative log-likelihood of
// each sample's target under connectionist temporal classification, as
// tensorplay's CPU kernel (aten's ctc_loss_cpu_template) computes it: the
// forward variables alpha in log space over the extended target (blanks
// between the labels and at both ends), each step's three-term logsumexp
// summed in the same order, in the input's precision. The lengths are
// checked as tensorplay checks them; a violation is an error in its words.
// The dynamic program is sequential in time and in data-dependent lengths,
// which is why it is a runtime loop and not generated code.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "codegen/CodegenError.h"
#include "codegen/MemrefView.h"

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

template <typename T>
tp_rt_status ctcLoss(View logProbs, View targets, View inputLengths,
                     View targetLengths, View out, int64_t blank) {
  int64_t time = logProbs.size(0), batch = logProbs.size(1),
          classes = logProbs.size(2);
  if (blank < 0 || blank >= classes)
    return invalid("blank must be in label range");
  std::vector<int64_t> offsets(batch);
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
  const T negInf = -std::numeric_limits<T>::infinity();
  const T *lp = logProbs.data<T>();
  int64_t st = logProbs.stride(0), sn = logProbs.stride(1),
          sc = logProbs.stride(2);
  const int64_t *tg = targets.data<int64_t>();
  // The label stride and the sample stride of the padded form.
  int64_t ts = targets.stride(targets.rank - 1),
          tn = targets.rank == 2 ? targets.stride(0) : 0;
  std::vector<T> alpha, next;
  for (int64_t n = 0; n < batch; ++n) {
    int64_t inputLength = entry(inputLengths, n),
            targetLength = entry(targetLengths, n);
    T &result = out.data<T>()[n * out.stride(0)];
    if (inputLength == 0) {
      result = targetLength == 0 ? T(0) : -negInf;
      continue;
    }
    const int64_t *label = tg + n * tn + offsets[n] * ts;
    int64_t states = 2 * targetLength + 1;
    // The extended target l': blank, l1, blank, l2, ..., blank. A label
    // out of [0, C) is an error (tensorplay reads out of bounds).
    std::vector<int64_t> prime(states, blank);
    for (int64_t s = 0; s < targetLength; ++s) {
      int64_t l = label[s * ts];
      if (l < 0 || l >= classes)
        return invalid("target " + std::to_string(l) + " of sample " +
                       std::to_string(n) + " is not a class index in [0, " +
                       std::to_string(classes) + ")");
      prime[2 * s + 1] = l;
    }
    auto emission = [&](int64_t t, int64_t s) {
      return lp[t * st + n * sn + prime[s] * sc];
    };
    alpha.assign(states, negInf);
    alpha[0] = emission(0, 0);
    if (targetLength > 0)
      alpha[1] = emission(0, 1);
    next.resize(states);
    for (int64_t t = 1; t < inputLength; ++t) {
      for (int64_t s = 0; s < states; ++s) {
        T la1 = alpha[s], lamax = la1, la2 = negInf, la3 = negInf;
        if (s > 0) {
          la2 = alpha[s - 1];
          lamax = std::max(lamax, la2);
        }
        if (s > 1 && prime[s - 2] != prime[s]) {
          la3 = alpha[s - 2];
          lamax = std::max(lamax, la3);
        }
        if (lamax == negInf) // cannot do -inf - -inf
          lamax = 0;
        next[s] = std::log(std::exp(la1 - lamax) + std::exp(la2 - lamax) +
                           std::exp(la3 - lamax)) +
                  lamax + emission(t, s);
      }
      alpha.swap(next);
    }
    if (targetLength == 0) {
      result = -alpha[0];
      continue;
    }
    T l1 = alpha[2 * targetLength], l2 = alpha[2 * targetLength - 1];
    T m = std::max(l1, l2);
    m = m == negInf ? T(0) : m;
    result = -(std::log(std::exp(l1 - m) + std::exp(l2 - m)) + m);
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

extern "C" {
TP_CTC_ENTRY_POINT(f32, float)
TP_CTC_ENTRY_POINT(f64, double)
}
#undef TP_CTC_ENTRY_POINT
