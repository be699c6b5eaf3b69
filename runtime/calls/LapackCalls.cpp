//===- LapackCalls.cpp - Linear algebra of compiled code through LAPACK ---===//
//
// The tp_rt_lapack_* entry points (Codegen.h) that the lowering of the tp
// linear-algebra ops calls: each walks the batch of matrices of its
// operands (leading dimensions, broadcast against the first output's),
// copies each matrix into a column-major scratch buffer, runs the LAPACK
// (or BLAS) routine PyTorch's CPU kernel runs, and copies the result back
// through the output's strides. f32 calls the s* routines, f64 the d* ones.
// Failures PyTorch reports (a singular matrix, one that is not positive
// definite) go to the codegen error slot with PyTorch's wording.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "calls/CodegenError.h"
#include "calls/MemrefView.h"

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// Fortran LAPACK and BLAS (gfortran's ABI: every argument by reference,
// the lengths of character arguments appended).
extern "C" {
#define TP_DECLARE_LAPACK(P, T)                                                \
  void P##getrf_(const int *m, const int *n, T *a, const int *lda, int *ipiv,  \
                 int *info);                                                   \
  void P##getri_(const int *n, T *a, const int *lda, const int *ipiv, T *work, \
                 const int *lwork, int *info);                                 \
  void P##getrs_(const char *trans, const int *n, const int *nrhs, const T *a, \
                 const int *lda, const int *ipiv, T *b, const int *ldb,        \
                 int *info, size_t);                                           \
  void P##gesv_(const int *n, const int *nrhs, T *a, const int *lda,           \
                int *ipiv, T *b, const int *ldb, int *info);                   \
  void P##potrf_(const char *uplo, const int *n, T *a, const int *lda,         \
                 int *info, size_t);                                           \
  void P##potrs_(const char *uplo, const int *n, const int *nrhs, const T *a,  \
                 const int *lda, T *b, const int *ldb, int *info, size_t);     \
  void P##potri_(const char *uplo, const int *n, T *a, const int *lda,         \
                 int *info, size_t);                                           \
  void P##trsm_(const char *side, const char *uplo, const char *transa,        \
                const char *diag, const int *m, const int *n, const T *alpha,  \
                const T *a, const int *lda, T *b, const int *ldb, size_t,      \
                size_t, size_t, size_t);                                       \
  void P##syevd_(const char *jobz, const char *uplo, const int *n, T *a,       \
                 const int *lda, T *w, T *work, const int *lwork, int *iwork,  \
                 const int *liwork, int *info, size_t, size_t);                \
  void P##gesdd_(const char *jobz, const int *m, const int *n, T *a,           \
                 const int *lda, T *s, T *u, const int *ldu, T *vt,            \
                 const int *ldvt, T *work, const int *lwork, int *iwork,       \
                 int *info, size_t);                                           \
  void P##geqrf_(const int *m, const int *n, T *a, const int *lda, T *tau,     \
                 T *work, const int *lwork, int *info);                        \
  void P##orgqr_(const int *m, const int *n, const int *k, T *a,               \
                 const int *lda, const T *tau, T *work, const int *lwork,      \
                 int *info);                                                   \
  void P##ormqr_(const char *side, const char *trans, const int *m,            \
                 const int *n, const int *k, const T *a, const int *lda,       \
                 const T *tau, T *c, const int *ldc, T *work,                  \
                 const int *lwork, int *info, size_t, size_t);                 \
  void P##gels_(const char *trans, const int *m, const int *n,                 \
                const int *nrhs, T *a, const int *lda, T *b, const int *ldb,   \
                T *work, const int *lwork, int *info, size_t);                 \
  void P##gelsy_(const int *m, const int *n, const int *nrhs, T *a,            \
                 const int *lda, T *b, const int *ldb, int *jpvt,              \
                 const T *rcond, int *rank, T *work, const int *lwork,         \
                 int *info);                                                   \
  void P##gelsd_(const int *m, const int *n, const int *nrhs, T *a,            \
                 const int *lda, T *b, const int *ldb, T *s, const T *rcond,   \
                 int *rank, T *work, const int *lwork, int *iwork, int *info); \
  void P##gelss_(const int *m, const int *n, const int *nrhs, T *a,            \
                 const int *lda, T *b, const int *ldb, T *s, const T *rcond,   \
                 int *rank, T *work, const int *lwork, int *info);             \
  void P##geev_(const char *jobvl, const char *jobvr, const int *n, T *a,      \
                const int *lda, T *wr, T *wi, T *vl, const int *ldvl, T *vr,   \
                const int *ldvr, T *work, const int *lwork, int *info, size_t, \
                size_t);
TP_DECLARE_LAPACK(s, float)
TP_DECLARE_LAPACK(d, double)
#undef TP_DECLARE_LAPACK
}

namespace {

using View = tensorplay::codegen::MemrefView;

/// The routines of element type T.
template <typename T>
struct Lapack;

#define TP_LAPACK_TRAITS(P, T)                                                 \
  template <>                                                                  \
  struct Lapack<T> {                                                           \
    static constexpr auto getrf = P##getrf_;                                   \
    static constexpr auto getri = P##getri_;                                   \
    static constexpr auto getrs = P##getrs_;                                   \
    static constexpr auto gesv = P##gesv_;                                     \
    static constexpr auto potrf = P##potrf_;                                   \
    static constexpr auto potrs = P##potrs_;                                   \
    static constexpr auto potri = P##potri_;                                   \
    static constexpr auto trsm = P##trsm_;                                     \
    static constexpr auto syevd = P##syevd_;                                   \
    static constexpr auto gesdd = P##gesdd_;                                   \
    static constexpr auto geqrf = P##geqrf_;                                   \
    static constexpr auto orgqr = P##orgqr_;                                   \
    static constexpr auto ormqr = P##ormqr_;                                   \
    static constexpr auto gels = P##gels_;                                     \
    static constexpr auto gelsy = P##gelsy_;                                   \
    static constexpr auto gelsd = P##gelsd_;                                   \
    static constexpr auto gelss = P##gelss_;                                   \
    static constexpr auto geev = P##geev_;                                     \
  };
TP_LAPACK_TRAITS(s, float)
TP_LAPACK_TRAITS(d, double)
#undef TP_LAPACK_TRAITS

/// The tensors of one call: each a batch of items (matrices: `inner` = 2
/// trailing dimensions; vectors: 1; scalars: 0) whose leading dimensions
/// broadcast against the call's batch shape (aligned right).
struct Batched {
  View view;
  int64_t inner;

  int64_t batchRank() const { return view.rank - inner; }
  bool empty() const { return view.numel() == 0; }
  int64_t rows() const { return view.size(view.rank - 2); }
  int64_t cols() const { return view.size(view.rank - 1); }
  int64_t length() const { return view.size(view.rank - 1); }
  /// The element offset of item `index` (a multi-index over the call's
  /// batch shape, of which this tensor's batch dimensions are the last).
  int64_t offset(const std::vector<int64_t> &index) const {
    int64_t off = view.desc->offset, skip = index.size() - batchRank();
    for (int64_t d = 0; d < batchRank(); ++d)
      if (view.size(d) != 1)
        off += index[skip + d] * view.stride(d);
    return off;
  }
  template <typename T>
  T &at(int64_t off, int64_t i, int64_t j) const {
    return static_cast<T *>(
        view.desc->aligned)[off + i * view.stride(view.rank - 2) +
                            j * view.stride(view.rank - 1)];
  }
  template <typename T>
  T &at(int64_t off, int64_t i) const {
    return static_cast<T *>(
        view.desc->aligned)[off + i * view.stride(view.rank - 1)];
  }
  template <typename T>
  T &scalar(int64_t off) const {
    return static_cast<T *>(view.desc->aligned)[off];
  }

  /// The matrix at `off` into column-major `out` (leading dimension ld),
  /// transposed when asked.
  template <typename T>
  void load(int64_t off, T *out, int64_t ld, bool transpose = false) const {
    for (int64_t i = 0; i < rows(); ++i)
      for (int64_t j = 0; j < cols(); ++j)
        (transpose ? out[j + i * ld] : out[i + j * ld]) = at<T>(off, i, j);
  }
  /// Column-major `in` (leading dimension ld) into the matrix at `off`.
  template <typename T>
  void store(int64_t off, const T *in, int64_t ld,
             bool transpose = false) const {
    for (int64_t i = 0; i < rows(); ++i)
      for (int64_t j = 0; j < cols(); ++j)
        at<T>(off, i, j) = transpose ? in[j + i * ld] : in[i + j * ld];
  }
};

/// Calls body(index) for every multi-index of the batch shape of `shape`
/// (its first `batchRank` dimensions), in row-major order, with the flat
/// batch element number.
template <typename Body>
void forEachItem(const Batched &shape, Body body) {
  int64_t rank = shape.batchRank(), count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= shape.view.size(d);
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    body(index, n);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape.view.size(d))
        break;
      index[d] = 0;
    }
  }
}

/// PyTorch's prefix of a batch element's error: "(Batch element 3): ".
std::string batchElement(const Batched &shape, int64_t n) {
  return shape.batchRank() ? "(Batch element " + std::to_string(n) + "): "
                           : std::string();
}

tp_rt_status illegal(const char *what, const char *routine, int info) {
  std::string detail = std::string("LAPACK ") + routine +
                       " rejected its argument " + std::to_string(-info);
  return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT, what,
                                   detail.c_str());
}

tp_rt_status failure(const std::string &message) {
  return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT, message);
}

int dim(int64_t n) { return static_cast<int>(std::max<int64_t>(n, 1)); }

/// The status of an iterative routine's `result` (LAPACK's info): an
/// illegal argument, or a failure to converge on batch element `item`, in
/// tensorplay's words for `what` ("linalg.eigh") and its `values`
/// ("eigenvalues").
tp_rt_status convergence(const char *what, const char *routine,
                         const char *values, const Batched &shape, int64_t item,
                         int result) {
  if (result < 0)
    return illegal(what, routine, result);
  if (result > 0)
    return failure(std::string(what) + ": " + batchElement(shape, item) +
                   "The algorithm failed to converge because the input "
                   "matrix is ill-conditioned or has too many repeated " +
                   values + " (error code: " + std::to_string(result) + ").");
  return TP_RT_SUCCESS;
}

/// Vector `index` of `v` (its first `count` entries) into `data`.
template <typename T>
void loadVector(const Batched &v, const std::vector<int64_t> &index, T *data,
                int64_t count) {
  int64_t off = v.offset(index);
  for (int64_t i = 0; i < count; ++i)
    data[i] = v.at<T>(off, i);
}

/// The first `count` entries of `data` into vector `index` of `v`.
template <typename T>
void storeVector(const Batched &v, const std::vector<int64_t> &index,
                 const T *data, int64_t count) {
  int64_t off = v.offset(index);
  for (int64_t i = 0; i < count; ++i)
    v.at<T>(off, i) = data[i];
}

/// Keeps the `upper` (or lower) triangle of the n x n column-major `a`
/// (ld n), zeroing the rest.
template <typename T>
void keepTriangle(T *a, int64_t n, bool upper) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (upper ? i > j : i < j)
        a[i + j * n] = T(0);
}

// --- inverse, LU, solves ---------------------------------------------------

template <typename T>
tp_rt_status inverse(Batched a, Batched out, Batched info, bool check) {
  int n = static_cast<int>(a.rows()), ld = dim(n);
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n));
  std::vector<int> ipiv(ld);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(out, [&](const std::vector<int64_t> &index, int64_t k) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), m.data(), ld);
    int result = 0;
    Lapack<T>::getrf(&n, &n, m.data(), &ld, ipiv.data(), &result);
    if (result == 0 && n > 0) {
      int lwork = -1;
      T query;
      Lapack<T>::getri(&n, m.data(), &ld, ipiv.data(), &query, &lwork, &result);
      lwork = std::max(1, static_cast<int>(query));
      std::vector<T> work(lwork);
      Lapack<T>::getri(&n, m.data(), &ld, ipiv.data(), work.data(), &lwork,
                       &result);
    }
    if (result < 0) {
      status = illegal("linalg.inv", "getri", result);
      return;
    }
    out.store(out.offset(index), m.data(), ld);
    if (!info.empty())
      info.scalar<int32_t>(info.offset(index)) = result;
    if (result > 0 && check)
      status = failure("linalg.inv: " + batchElement(out, k) +
                       "The diagonal element " + std::to_string(result) +
                       " is zero, the inversion could not be completed "
                       "because the input matrix is singular.");
  });
  return status;
}

template <typename T>
tp_rt_status luFactor(Batched a, Batched lu, Batched pivots, Batched info) {
  int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols()),
      ld = dim(m), k = std::min(m, n);
  std::vector<T> buffer(std::max<int64_t>(1, (int64_t)ld * n));
  std::vector<int> ipiv(dim(k));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(lu, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), buffer.data(), ld);
    int result = 0;
    if (m > 0 && n > 0)
      Lapack<T>::getrf(&m, &n, buffer.data(), &ld, ipiv.data(), &result);
    if (result < 0) {
      status = illegal("lu", "getrf", result);
      return;
    }
    lu.store(lu.offset(index), buffer.data(), ld);
    int64_t p = pivots.offset(index);
    for (int i = 0; i < k; ++i)
      pivots.at<int32_t>(p, i) = ipiv[i];
    info.scalar<int32_t>(info.offset(index)) = result;
  });
  return status;
}

template <typename T>
tp_rt_status luSolve(Batched b, Batched lu, Batched pivots, Batched x) {
  int n = static_cast<int>(lu.rows()), nrhs = static_cast<int>(b.cols()),
      ld = dim(n);
  std::vector<T> factor(std::max<int64_t>(1, (int64_t)n * n)),
      rhs(std::max<int64_t>(1, (int64_t)n * nrhs));
  std::vector<int> ipiv(ld);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(x, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    lu.load(lu.offset(index), factor.data(), ld);
    b.load(b.offset(index), rhs.data(), ld);
    int64_t p = pivots.offset(index);
    for (int i = 0; i < n; ++i)
      ipiv[i] = pivots.at<int32_t>(p, i);
    int result = 0;
    if (n > 0 && nrhs > 0)
      Lapack<T>::getrs("N", &n, &nrhs, factor.data(), &ld, ipiv.data(),
                       rhs.data(), &ld, &result, 1);
    if (result < 0) {
      status = illegal("lu_solve", "getrs", result);
      return;
    }
    x.store(x.offset(index), rhs.data(), ld);
  });
  return status;
}

/// A X = B (left) or X A = B, as A^T X^T = B^T.
template <typename T>
tp_rt_status solve(Batched a, Batched b, Batched x, bool left) {
  int n = static_cast<int>(a.rows()), ld = dim(n);
  int nrhs = static_cast<int>(left ? b.cols() : b.rows());
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n)),
      rhs(std::max<int64_t>(1, (int64_t)n * nrhs));
  std::vector<int> ipiv(ld);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(x, [&](const std::vector<int64_t> &index, int64_t k) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), m.data(), ld, !left);
    b.load(b.offset(index), rhs.data(), ld, !left);
    int result = 0;
    if (n > 0)
      Lapack<T>::gesv(&n, &nrhs, m.data(), &ld, ipiv.data(), rhs.data(), &ld,
                      &result);
    if (result < 0) {
      status = illegal("linalg.solve", "gesv", result);
      return;
    }
    if (result > 0) {
      status = failure("linalg.solve: " + batchElement(x, k) +
                       "The solver failed because the input matrix is "
                       "singular.");
      return;
    }
    x.store(x.offset(index), rhs.data(), ld, !left);
  });
  return status;
}

template <typename T>
tp_rt_status triangularSolve(Batched b, Batched a, Batched x, bool upper,
                             bool transpose, bool unitriangular) {
  int n = static_cast<int>(a.rows()), nrhs = static_cast<int>(b.cols()),
      ld = dim(n);
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n)),
      rhs(std::max<int64_t>(1, (int64_t)n * nrhs));
  T one = 1;
  forEachItem(x, [&](const std::vector<int64_t> &index, int64_t) {
    a.load(a.offset(index), m.data(), ld);
    b.load(b.offset(index), rhs.data(), ld);
    if (n > 0 && nrhs > 0)
      Lapack<T>::trsm("L", upper ? "U" : "L", transpose ? "T" : "N",
                      unitriangular ? "U" : "N", &n, &nrhs, &one, m.data(), &ld,
                      rhs.data(), &ld, 1, 1, 1, 1);
    x.store(x.offset(index), rhs.data(), ld);
  });
  return TP_RT_SUCCESS;
}

// --- Cholesky ----------------------------------------------------------------

template <typename T>
tp_rt_status cholesky(Batched a, Batched out, Batched info, bool upper,
                      bool check) {
  int n = static_cast<int>(a.rows()), ld = dim(n);
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(out, [&](const std::vector<int64_t> &index, int64_t k) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), m.data(), ld);
    int result = 0;
    if (n > 0)
      Lapack<T>::potrf(upper ? "U" : "L", &n, m.data(), &ld, &result, 1);
    if (result < 0) {
      status = illegal("linalg.cholesky", "potrf", result);
      return;
    }
    keepTriangle(m.data(), n, upper);
    out.store(out.offset(index), m.data(), ld);
    if (!info.empty())
      info.scalar<int32_t>(info.offset(index)) = result;
    if (result > 0 && check)
      status = failure("linalg.cholesky: " + batchElement(out, k) +
                       "The factorization could not be completed because "
                       "the input is not positive-definite (the leading "
                       "minor of order " +
                       std::to_string(result) + " is not positive-definite).");
  });
  return status;
}

template <typename T>
tp_rt_status choleskySolve(Batched b, Batched factor, Batched x, bool upper) {
  int n = static_cast<int>(factor.rows()), nrhs = static_cast<int>(b.cols()),
      ld = dim(n);
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n)),
      rhs(std::max<int64_t>(1, (int64_t)n * nrhs));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(x, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    factor.load(factor.offset(index), m.data(), ld);
    b.load(b.offset(index), rhs.data(), ld);
    int result = 0;
    if (n > 0 && nrhs > 0)
      Lapack<T>::potrs(upper ? "U" : "L", &n, &nrhs, m.data(), &ld, rhs.data(),
                       &ld, &result, 1);
    if (result < 0) {
      status = illegal("cholesky_solve", "potrs", result);
      return;
    }
    x.store(x.offset(index), rhs.data(), ld);
  });
  return status;
}

template <typename T>
tp_rt_status choleskyInverse(Batched factor, Batched out, bool upper) {
  int n = static_cast<int>(factor.rows()), ld = dim(n);
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(out, [&](const std::vector<int64_t> &index, int64_t k) {
    if (status != TP_RT_SUCCESS)
      return;
    factor.load(factor.offset(index), m.data(), ld);
    int result = 0;
    if (n > 0)
      Lapack<T>::potri(upper ? "U" : "L", &n, m.data(), &ld, &result, 1);
    if (result < 0) {
      status = illegal("cholesky_inverse", "potri", result);
      return;
    }
    if (result > 0) {
      status = failure("cholesky_inverse: " + batchElement(out, k) +
                       "The diagonal element " + std::to_string(result) +
                       " of the factor is zero, the inversion could not be "
                       "completed because the input matrix is singular.");
      return;
    }
    // potri fills the `upper` (lower) triangle: mirror it.
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (upper ? i > j : i < j)
          m[i + j * ld] = m[j + i * ld];
    out.store(out.offset(index), m.data(), ld);
  });
  return status;
}

// --- eigenvalues, singular values, QR ---------------------------------------

template <typename T>
tp_rt_status eigh(Batched a, Batched w, Batched v, bool upper) {
  int n = static_cast<int>(a.rows()), ld = dim(n);
  bool vectors = !v.empty();
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n)), values(ld);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(w, [&](const std::vector<int64_t> &index, int64_t k) {
    if (status != TP_RT_SUCCESS || n == 0)
      return;
    a.load(a.offset(index), m.data(), ld);
    const char *jobz = vectors ? "V" : "N", *uplo = upper ? "U" : "L";
    int lwork = -1, liwork = -1, iquery = 0, result = 0;
    T query = 0;
    Lapack<T>::syevd(jobz, uplo, &n, m.data(), &ld, values.data(), &query,
                     &lwork, &iquery, &liwork, &result, 1, 1);
    lwork = std::max(1, static_cast<int>(query));
    liwork = std::max(1, iquery);
    std::vector<T> work(lwork);
    std::vector<int> iwork(liwork);
    Lapack<T>::syevd(jobz, uplo, &n, m.data(), &ld, values.data(), work.data(),
                     &lwork, iwork.data(), &liwork, &result, 1, 1);
    status = convergence("linalg.eigh", "syevd", "eigenvalues", w, k, result);
    if (status != TP_RT_SUCCESS)
      return;
    storeVector(w, index, values.data(), n);
    if (vectors)
      v.store(v.offset(index), m.data(), ld);
  });
  return status;
}

/// geev of a general real matrix: the eigenvalues wr + i wi as complex
/// numbers and (unless v has zero elements) the right eigenvectors, a
/// conjugate pair's from LAPACK's two real columns (re, im), as
/// tensorplay's linalg.eig builds them.
template <typename T>
tp_rt_status eig(Batched a, Batched w, Batched v) {
  using C = std::complex<T>;
  int n = static_cast<int>(a.rows()), ld = dim(n);
  bool vectors = !v.empty();
  int ldvr = vectors ? ld : 1, ldvl = 1;
  std::vector<T> m(std::max<int64_t>(1, (int64_t)n * n)), wr(ld), wi(ld),
      vr(vectors ? std::max<int64_t>(1, (int64_t)n * n) : 1), vl(1);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(w, [&](const std::vector<int64_t> &index, int64_t k) {
    if (status != TP_RT_SUCCESS || n == 0)
      return;
    a.load(a.offset(index), m.data(), ld);
    const char *jobvr = vectors ? "V" : "N";
    int lwork = -1, result = 0;
    T query = 0;
    Lapack<T>::geev("N", jobvr, &n, m.data(), &ld, wr.data(), wi.data(),
                    vl.data(), &ldvl, vr.data(), &ldvr, &query, &lwork, &result,
                    1, 1);
    lwork = std::max(1, static_cast<int>(query));
    std::vector<T> work(lwork);
    Lapack<T>::geev("N", jobvr, &n, m.data(), &ld, wr.data(), wi.data(),
                    vl.data(), &ldvl, vr.data(), &ldvr, work.data(), &lwork,
                    &result, 1, 1);
    status = convergence("linalg.eig", "geev", "eigenvalues", w, k, result);
    if (status != TP_RT_SUCCESS)
      return;
    int64_t woff = w.offset(index);
    for (int j = 0; j < n; ++j)
      w.at<C>(woff, j) = C(wr[j], wi[j]);
    if (!vectors)
      return;
    int64_t voff = v.offset(index);
    for (int j = 0; j < n; ++j) {
      if (wi[j] == T(0) || j + 1 == n) {
        for (int i = 0; i < n; ++i)
          v.at<C>(voff, i, j) = C(vr[i + j * ld], T(0));
        continue;
      }
      for (int i = 0; i < n; ++i) {
        C z(vr[i + j * ld], vr[i + (j + 1) * ld]);
        v.at<C>(voff, i, j) = z;
        v.at<C>(voff, i, j + 1) = std::conj(z);
      }
      ++j;
    }
  });
  return status;
}

/// mode 0: singular values only; 1: the reduced U and Vh; 2: the full ones.
template <typename T>
tp_rt_status svd(Batched a, Batched u, Batched s, Batched vh, int64_t mode) {
  int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols()),
      k = std::min(m, n), lda = dim(m);
  int ucols = mode == 2 ? m : k, vrows = mode == 2 ? n : k;
  int ldu = dim(m), ldvt = dim(vrows);
  std::vector<T> buffer(std::max<int64_t>(1, (int64_t)m * n)), values(dim(k)),
      left(mode ? std::max<int64_t>(1, (int64_t)m * ucols) : 1),
      right(mode ? std::max<int64_t>(1, (int64_t)vrows * n) : 1);
  std::vector<int> iwork(dim(8 * k));
  const char *jobz = mode == 0 ? "N" : mode == 1 ? "S" : "A";
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(s, [&](const std::vector<int64_t> &index, int64_t k2) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), buffer.data(), lda);
    int result = 0;
    if (k > 0) {
      int lwork = -1;
      T query = 0;
      Lapack<T>::gesdd(jobz, &m, &n, buffer.data(), &lda, values.data(),
                       left.data(), &ldu, right.data(), &ldvt, &query, &lwork,
                       iwork.data(), &result, 1);
      lwork = std::max(1, static_cast<int>(query));
      std::vector<T> work(lwork);
      Lapack<T>::gesdd(jobz, &m, &n, buffer.data(), &lda, values.data(),
                       left.data(), &ldu, right.data(), &ldvt, work.data(),
                       &lwork, iwork.data(), &result, 1);
    } else if (mode == 2) {
      // No singular values: U and Vh are identities.
      std::fill(left.begin(), left.end(), T(0));
      std::fill(right.begin(), right.end(), T(0));
      for (int i = 0; i < m; ++i)
        left[i + i * ldu] = 1;
      for (int i = 0; i < n; ++i)
        right[i + i * ldvt] = 1;
    }
    status =
        convergence("linalg.svd", "gesdd", "singular values", s, k2, result);
    if (status != TP_RT_SUCCESS)
      return;
    storeVector(s, index, values.data(), k);
    if (mode) {
      u.store(u.offset(index), left.data(), ldu);
      vh.store(vh.offset(index), right.data(), ldvt);
    }
  });
  return status;
}

/// geqrf in place on the column-major m x n `a` (ld m) into `tau`.
template <typename T>
int householder(int m, int n, T *a, T *tau) {
  int ld = dim(m), lwork = -1, result = 0;
  if (m == 0 || n == 0)
    return 0;
  T query = 0;
  Lapack<T>::geqrf(&m, &n, a, &ld, tau, &query, &lwork, &result);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<T> work(lwork);
  Lapack<T>::geqrf(&m, &n, a, &ld, tau, work.data(), &lwork, &result);
  return result;
}

/// orgqr in place: the first n columns of the product of the k reflectors
/// held in the column-major m x n `a` (ld m).
template <typename T>
int formQ(int m, int n, int k, T *a, const T *tau) {
  int ld = dim(m), lwork = -1, result = 0;
  if (m == 0 || n == 0)
    return 0;
  T query = 0;
  Lapack<T>::orgqr(&m, &n, &k, a, &ld, tau, &query, &lwork, &result);
  lwork = std::max(1, static_cast<int>(query));
  std::vector<T> work(lwork);
  Lapack<T>::orgqr(&m, &n, &k, a, &ld, tau, work.data(), &lwork, &result);
  return result;
}

template <typename T>
tp_rt_status geqrf(Batched a, Batched out, Batched tau) {
  int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols()),
      k = std::min(m, n);
  std::vector<T> buffer(std::max<int64_t>(1, (int64_t)m * n)), t(dim(k));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(out, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), buffer.data(), dim(m));
    if (int result = householder(m, n, buffer.data(), t.data()); result < 0) {
      status = illegal("geqrf", "geqrf", result);
      return;
    }
    out.store(out.offset(index), buffer.data(), dim(m));
    storeVector(tau, index, t.data(), k);
  });
  return status;
}

/// mode 0: reduced (Q m x k, R k x n); 1: complete (Q m x m, R m x n);
/// 2: R only.
template <typename T>
tp_rt_status qr(Batched a, Batched q, Batched r, int64_t mode) {
  int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols()),
      k = std::min(m, n), qcols = mode == 1 ? m : k;
  int width = std::max(n, qcols), ld = dim(m);
  std::vector<T> buffer(std::max<int64_t>(1, (int64_t)m * width)), t(dim(k)),
      upper;
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(r, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    std::fill(buffer.begin(), buffer.end(), T(0));
    a.load(a.offset(index), buffer.data(), ld);
    int result = householder(m, n, buffer.data(), t.data());
    if (result < 0) {
      status = illegal("linalg.qr", "geqrf", result);
      return;
    }
    // R: the upper triangle of the first rows of the factored matrix.
    int rrows = static_cast<int>(r.rows());
    upper.assign(std::max<int64_t>(1, (int64_t)rrows * n), T(0));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= std::min(j, rrows - 1); ++i)
        upper[i + j * dim(rrows)] = buffer[i + j * ld];
    r.store(r.offset(index), upper.data(), dim(rrows));
    if (mode == 2)
      return;
    result = formQ(m, qcols, k, buffer.data(), t.data());
    if (result < 0) {
      status = illegal("linalg.qr", "orgqr", result);
      return;
    }
    q.store(q.offset(index), buffer.data(), ld);
  });
  return status;
}

template <typename T>
tp_rt_status orgqr(Batched a, Batched tau, Batched q) {
  int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols()),
      k = static_cast<int>(tau.length());
  std::vector<T> buffer(std::max<int64_t>(1, (int64_t)m * n)), t(dim(k));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(q, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), buffer.data(), dim(m));
    loadVector(tau, index, t.data(), k);
    if (int result = formQ(m, n, k, buffer.data(), t.data()); result < 0) {
      status = illegal("linalg.householder_product", "orgqr", result);
      return;
    }
    q.store(q.offset(index), buffer.data(), dim(m));
  });
  return status;
}

template <typename T>
tp_rt_status ormqr(Batched a, Batched tau, Batched c, Batched out, bool left,
                   bool transpose) {
  int rows = static_cast<int>(a.rows()), k = static_cast<int>(tau.length());
  int m = static_cast<int>(c.rows()), n = static_cast<int>(c.cols());
  int cols = static_cast<int>(a.cols());
  std::vector<T> reflectors(std::max<int64_t>(1, (int64_t)rows * cols)),
      t(dim(k)), buffer(std::max<int64_t>(1, (int64_t)m * n));
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(out, [&](const std::vector<int64_t> &index, int64_t) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), reflectors.data(), dim(rows));
    c.load(c.offset(index), buffer.data(), dim(m));
    loadVector(tau, index, t.data(), k);
    int result = 0;
    if (m > 0 && n > 0 && k > 0) {
      int lda = dim(rows), ldc = dim(m), lwork = -1;
      T query = 0;
      const char *side = left ? "L" : "R", *trans = transpose ? "T" : "N";
      Lapack<T>::ormqr(side, trans, &m, &n, &k, reflectors.data(), &lda,
                       t.data(), buffer.data(), &ldc, &query, &lwork, &result,
                       1, 1);
      lwork = std::max(1, static_cast<int>(query));
      std::vector<T> work(lwork);
      Lapack<T>::ormqr(side, trans, &m, &n, &k, reflectors.data(), &lda,
                       t.data(), buffer.data(), &ldc, work.data(), &lwork,
                       &result, 1, 1);
    }
    if (result < 0) {
      status = illegal("ormqr", "ormqr", result);
      return;
    }
    out.store(out.offset(index), buffer.data(), dim(m));
  });
  return status;
}

/// Least squares by `driver` (0 gels, 1 gelsy, 2 gelsd, 3 gelss), as
/// tensorplay's linalg_lstsq: the solution (n x k), the rank (gelsy,
/// gelsd, gelss), the singular values (gelsd, gelss) and, where their
/// tensor has elements, the squared residuals of each column (rows n..m of
/// LAPACK's result; only for m > n and full rank, as tensorplay computes
/// them).
template <typename T>
tp_rt_status lstsq(Batched a, Batched b, Batched x, Batched residuals,
                   Batched rank, Batched values, int64_t driver, double rcond) {
  int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols()),
      k = static_cast<int>(b.cols()), rows = std::max(m, n);
  int lda = dim(m), ldb = dim(rows), mn = std::min(m, n);
  std::vector<T> matrix(std::max<int64_t>(1, (int64_t)m * n)),
      rhs(std::max<int64_t>(1, (int64_t)rows * k)), s(dim(mn)), column(dim(n));
  std::vector<int> jpvt(dim(n));
  T threshold = static_cast<T>(rcond);
  tp_rt_status status = TP_RT_SUCCESS;
  forEachItem(x, [&](const std::vector<int64_t> &index, int64_t item) {
    if (status != TP_RT_SUCCESS)
      return;
    a.load(a.offset(index), matrix.data(), lda);
    std::fill(rhs.begin(), rhs.end(), T(0));
    b.load(b.offset(index), rhs.data(), ldb);
    int result = 0, r = 0, lwork = -1;
    T query = 0;
    if (m > 0 && n > 0 && k > 0) {
      auto run = [&](T *work, int *iwork) {
        switch (driver) {
        case 0:
          Lapack<T>::gels("N", &m, &n, &k, matrix.data(), &lda, rhs.data(),
                          &ldb, work, &lwork, &result, 1);
          r = mn;
          break;
        case 1:
          std::fill(jpvt.begin(), jpvt.end(), 0);
          Lapack<T>::gelsy(&m, &n, &k, matrix.data(), &lda, rhs.data(), &ldb,
                           jpvt.data(), &threshold, &r, work, &lwork, &result);
          break;
        case 2:
          Lapack<T>::gelsd(&m, &n, &k, matrix.data(), &lda, rhs.data(), &ldb,
                           s.data(), &threshold, &r, work, &lwork, iwork,
                           &result);
          break;
        default:
          Lapack<T>::gelss(&m, &n, &k, matrix.data(), &lda, rhs.data(), &ldb,
                           s.data(), &threshold, &r, work, &lwork, &result);
        }
      };
      int iquery = 1;
      run(&query, &iquery);
      lwork = std::max(1, static_cast<int>(query));
      std::vector<T> work(lwork);
      std::vector<int> iwork(std::max(1, iquery));
      run(work.data(), iwork.data());
    }
    if (result < 0) {
      status = illegal("linalg.lstsq", "gels", result);
      return;
    }
    if (result > 0) {
      status = failure(
          "linalg.lstsq: " + batchElement(x, item) +
          (driver == 0
               ? "The least squares solution could not be computed because "
                 "the input matrix does not have full rank (error code: " +
                     std::to_string(result) + ")."
               : "The SVD failed to converge (error code: " +
                     std::to_string(result) + ")."));
      return;
    }
    x.store(x.offset(index), rhs.data(), ldb);
    if (!rank.empty())
      rank.scalar<int64_t>(rank.offset(index)) = r;
    if (!values.empty())
      storeVector(values, index, s.data(), mn);
    if (!residuals.empty()) {
      if (r != n) {
        status = failure(
            "linalg.lstsq: " + batchElement(x, item) + "the matrix has rank " +
            std::to_string(r) + " < " + std::to_string(n) +
            ": tensorplay returns no residuals then, but the residuals' type "
            "holds them");
        return;
      }
      int64_t off = residuals.offset(index);
      for (int j = 0; j < k; ++j) {
        T sum = 0;
        for (int i = n; i < m; ++i)
          sum += rhs[i + j * ldb] * rhs[i + j * ldb];
        residuals.at<T>(off, j) = sum;
      }
    }
  });
  return status;
}

/// The batched view of a (rank, descriptor) argument.
Batched matrices(int64_t rank, tp_rt_memref *desc) {
  return {View{rank, desc}, 2};
}
Batched vectors(int64_t rank, tp_rt_memref *desc) {
  return {View{rank, desc}, 1};
}
Batched scalars(int64_t rank, tp_rt_memref *desc) {
  return {View{rank, desc}, 0};
}

} // namespace

#define TP_M(name) int64_t name##_rank, tp_rt_memref *name
#define TP_LAPACK_ENTRY_POINTS(SUFFIX, T)                                      \
  tp_rt_status tp_rt_lapack_inv_##SUFFIX(TP_M(a), TP_M(out), TP_M(info),       \
                                         int64_t check) {                      \
    return inverse<T>(matrices(a_rank, a), matrices(out_rank, out),            \
                      scalars(info_rank, info), check != 0);                   \
  }                                                                            \
  tp_rt_status tp_rt_lapack_lu_##SUFFIX(TP_M(a), TP_M(lu), TP_M(pivots),       \
                                        TP_M(info)) {                          \
    return luFactor<T>(matrices(a_rank, a), matrices(lu_rank, lu),             \
                       vectors(pivots_rank, pivots),                           \
                       scalars(info_rank, info));                              \
  }                                                                            \
  tp_rt_status tp_rt_lapack_lu_solve_##SUFFIX(TP_M(b), TP_M(lu), TP_M(pivots), \
                                              TP_M(x)) {                       \
    return luSolve<T>(matrices(b_rank, b), matrices(lu_rank, lu),              \
                      vectors(pivots_rank, pivots), matrices(x_rank, x));      \
  }                                                                            \
  tp_rt_status tp_rt_lapack_solve_##SUFFIX(TP_M(a), TP_M(b), TP_M(x),          \
                                           int64_t left) {                     \
    return solve<T>(matrices(a_rank, a), matrices(b_rank, b),                  \
                    matrices(x_rank, x), left != 0);                           \
  }                                                                            \
  tp_rt_status tp_rt_lapack_triangular_solve_##SUFFIX(                         \
      TP_M(b), TP_M(a), TP_M(x), int64_t upper, int64_t transpose,             \
      int64_t unitriangular) {                                                 \
    return triangularSolve<T>(matrices(b_rank, b), matrices(a_rank, a),        \
                              matrices(x_rank, x), upper != 0, transpose != 0, \
                              unitriangular != 0);                             \
  }                                                                            \
  tp_rt_status tp_rt_lapack_cholesky_##SUFFIX(TP_M(a), TP_M(out), TP_M(info),  \
                                              int64_t upper, int64_t check) {  \
    return cholesky<T>(matrices(a_rank, a), matrices(out_rank, out),           \
                       scalars(info_rank, info), upper != 0, check != 0);      \
  }                                                                            \
  tp_rt_status tp_rt_lapack_cholesky_solve_##SUFFIX(TP_M(b), TP_M(factor),     \
                                                    TP_M(x), int64_t upper) {  \
    return choleskySolve<T>(matrices(b_rank, b),                               \
                            matrices(factor_rank, factor),                     \
                            matrices(x_rank, x), upper != 0);                  \
  }                                                                            \
  tp_rt_status tp_rt_lapack_cholesky_inverse_##SUFFIX(TP_M(factor), TP_M(out), \
                                                      int64_t upper) {         \
    return choleskyInverse<T>(matrices(factor_rank, factor),                   \
                              matrices(out_rank, out), upper != 0);            \
  }                                                                            \
  tp_rt_status tp_rt_lapack_eigh_##SUFFIX(TP_M(a), TP_M(w), TP_M(v),           \
                                          int64_t upper) {                     \
    return eigh<T>(matrices(a_rank, a), vectors(w_rank, w),                    \
                   matrices(v_rank, v), upper != 0);                           \
  }                                                                            \
  tp_rt_status tp_rt_lapack_eig_##SUFFIX(TP_M(a), TP_M(w), TP_M(v)) {          \
    return eig<T>(matrices(a_rank, a), vectors(w_rank, w),                     \
                  matrices(v_rank, v));                                        \
  }                                                                            \
  tp_rt_status tp_rt_lapack_svd_##SUFFIX(TP_M(a), TP_M(u), TP_M(s), TP_M(vh),  \
                                         int64_t mode) {                       \
    return svd<T>(matrices(a_rank, a), matrices(u_rank, u),                    \
                  vectors(s_rank, s), matrices(vh_rank, vh), mode);            \
  }                                                                            \
  tp_rt_status tp_rt_lapack_geqrf_##SUFFIX(TP_M(a), TP_M(out), TP_M(tau)) {    \
    return geqrf<T>(matrices(a_rank, a), matrices(out_rank, out),              \
                    vectors(tau_rank, tau));                                   \
  }                                                                            \
  tp_rt_status tp_rt_lapack_qr_##SUFFIX(TP_M(a), TP_M(q), TP_M(r),             \
                                        int64_t mode) {                        \
    return qr<T>(matrices(a_rank, a), matrices(q_rank, q),                     \
                 matrices(r_rank, r), mode);                                   \
  }                                                                            \
  tp_rt_status tp_rt_lapack_orgqr_##SUFFIX(TP_M(a), TP_M(tau), TP_M(q)) {      \
    return orgqr<T>(matrices(a_rank, a), vectors(tau_rank, tau),               \
                    matrices(q_rank, q));                                      \
  }                                                                            \
  tp_rt_status tp_rt_lapack_lstsq_##SUFFIX(                                    \
      TP_M(a), TP_M(b), TP_M(x), TP_M(residuals), TP_M(rank), TP_M(values),    \
      int64_t driver, double rcond) {                                          \
    return lstsq<T>(matrices(a_rank, a), matrices(b_rank, b),                  \
                    matrices(x_rank, x), vectors(residuals_rank, residuals),   \
                    scalars(rank_rank, rank), vectors(values_rank, values),    \
                    driver, rcond);                                            \
  }                                                                            \
  tp_rt_status tp_rt_lapack_ormqr_##SUFFIX(TP_M(a), TP_M(tau), TP_M(c),        \
                                           TP_M(out), int64_t left,            \
                                           int64_t transpose) {                \
    return ormqr<T>(matrices(a_rank, a), vectors(tau_rank, tau),               \
                    matrices(c_rank, c), matrices(out_rank, out), left != 0,   \
                    transpose != 0);                                           \
  }

extern "C" {
TP_LAPACK_ENTRY_POINTS(f32, float)
TP_LAPACK_ENTRY_POINTS(f64, double)
}
#undef TP_LAPACK_ENTRY_POINTS
#undef TP_M
