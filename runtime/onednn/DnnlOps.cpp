//===- DnnlOps.cpp - oneDNN matmul and convolution for compiled code ------===//
//
// The tp_rt_dnnl_* entry points of Codegen.h (oneDNN 2.6 API). Memref
// descriptors become oneDNN memory descriptors with their own strides, so
// transposed and sliced views need no copy. Primitives are created once per
// (shape, strides, dtypes, parameters) and cached: compiled code calls the
// same few shapes again and again. Convolutions let oneDNN choose blocked
// layouts and reorder into and out of them (cached as well). Errors are
// reported into the codegen error slot; no exception leaves this file.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Runtime/Codegen.h"

#include "codegen/CodegenError.h"

#include <dnnl.hpp>

#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using dt = dnnl::memory::data_type;
using dims = dnnl::memory::dims;

/// A memref descriptor viewed with its rank.
struct View {
  int64_t rank;
  tp_rt_memref *desc;

  int64_t size(int64_t i) const { return desc->sizes_and_strides[i]; }
  int64_t stride(int64_t i) const { return desc->sizes_and_strides[rank + i]; }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t i = 0; i < rank; ++i)
      n *= size(i);
    return n;
  }
  void *data(size_t elementSize) const {
    return static_cast<char *>(desc->aligned) + desc->offset * elementSize;
  }
  dims sizes() const {
    dims d;
    for (int64_t i = 0; i < rank; ++i)
      d.push_back(size(i));
    return d;
  }
  dims strides() const {
    dims d;
    for (int64_t i = 0; i < rank; ++i)
      d.push_back(size(i) == 1 ? 0 : stride(i));
    return d;
  }
};

size_t sizeOf(dt type) { return type == dt::f32 ? 4 : 2; }

dnnl::engine &engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

std::string key(const char *kind, std::initializer_list<dims> parts,
                std::initializer_list<int> types) {
  std::ostringstream os;
  os << kind;
  for (const dims &d : parts) {
    os << '|';
    for (int64_t v : d)
      os << v << ',';
  }
  for (int t : types)
    os << ';' << t;
  return os.str();
}

/// Strides with 0 for unit dimensions replaced by a valid dense stride
/// (oneDNN rejects zero strides on non-broadcast dims only).
dims fixStrides(const dims &sizes, dims strides) {
  int64_t dense = 1;
  for (int64_t i = (int64_t)sizes.size() - 1; i >= 0; --i) {
    if (strides[i] == 0)
      strides[i] = dense;
    dense = std::max<int64_t>(dense, strides[i] * sizes[i]);
  }
  return strides;
}

struct MatmulEntry {
  dnnl::matmul primitive;
  dnnl::memory::desc a, b, bias, c;
  bool hasBias;
};

std::mutex cacheMutex;
std::unordered_map<std::string, std::shared_ptr<MatmulEntry>> matmulCache;

tp_rt_status matmul(dt inType, dt outType, View a, View b, View bias, View c) {
  if (a.rank != b.rank || a.rank != c.rank || a.rank < 2 || a.rank > 6)
    return tensorplay::codegen::fail(
        TP_RT_ERROR_INVALID_ARGUMENT,
        "tp_rt_dnnl_matmul: ranks " + std::to_string(a.rank) + ", " +
            std::to_string(b.rank) + ", " + std::to_string(c.rank));
  int64_t r = a.rank;
  if (c.numel() == 0)
    return TP_RT_SUCCESS;
  bool hasBias = bias.numel() > 0;
  dims aSizes = a.sizes(), bSizes = b.sizes(), cSizes = c.sizes();
  dims aStrides = fixStrides(aSizes, a.strides());
  dims bStrides = fixStrides(bSizes, b.strides());
  dims cStrides = fixStrides(cSizes, c.strides());
  dims biasSizes(r, 1), biasStrides(r, 0);
  if (hasBias) {
    biasSizes[r - 1] = bias.size(0);
    biasStrides[r - 1] = bias.stride(0);
    biasStrides = fixStrides(biasSizes, biasStrides);
  }
  std::string k = key("mm",
                      {aSizes, aStrides, bSizes, bStrides, cSizes, cStrides,
                       biasSizes, biasStrides},
                      {(int)inType, (int)outType, hasBias});
  std::shared_ptr<MatmulEntry> entry;
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = matmulCache.find(k);
    if (it != matmulCache.end())
      entry = it->second;
  }
  if (!entry) {
    entry = std::make_shared<MatmulEntry>();
    entry->a = dnnl::memory::desc(aSizes, inType, aStrides);
    entry->b = dnnl::memory::desc(bSizes, inType, bStrides);
    entry->c = dnnl::memory::desc(cSizes, outType, cStrides);
    entry->hasBias = hasBias;
    if (hasBias)
      entry->bias = dnnl::memory::desc(biasSizes, inType, biasStrides);
    dnnl::matmul::desc desc =
        hasBias ? dnnl::matmul::desc(entry->a, entry->b, entry->bias, entry->c)
                : dnnl::matmul::desc(entry->a, entry->b, entry->c);
    dnnl::matmul::primitive_desc pd(desc, engine());
    entry->primitive = dnnl::matmul(pd);
    std::lock_guard<std::mutex> lock(cacheMutex);
    matmulCache.emplace(k, entry);
  }
  dnnl::stream stream(engine());
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, dnnl::memory(entry->a, engine(), a.data(sizeOf(inType)))},
      {DNNL_ARG_WEIGHTS,
       dnnl::memory(entry->b, engine(), b.data(sizeOf(inType)))},
      {DNNL_ARG_DST,
       dnnl::memory(entry->c, engine(), c.data(sizeOf(outType)))}};
  if (hasBias)
    args.emplace(DNNL_ARG_BIAS, dnnl::memory(entry->bias, engine(),
                                             bias.data(sizeOf(inType))));
  entry->primitive.execute(stream, args);
  stream.wait();
  return TP_RT_SUCCESS;
}

struct ConvEntry {
  dnnl::primitive primitive;
  dnnl::memory::desc userSrc, userWeights, userDst, bias;
  dnnl::memory::desc src, weights, dst;
  bool hasBias;
};

std::unordered_map<std::string, std::shared_ptr<ConvEntry>> convCache;

tp_rt_status conv(dt inType, dt outType, View src, View w, View bias, View dst,
                  View params) {
  const int64_t *p =
      static_cast<const int64_t *>(params.desc->aligned) + params.desc->offset;
  int64_t r = p[0];
  bool transposed = p[1] != 0;
  int64_t groups = p[2];
  if (r < 1 || r > 3 || src.rank != r + 2 || w.rank != r + 2 ||
      dst.rank != r + 2 || groups < 1)
    return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT,
                                     "tp_rt_dnnl_conv: bad geometry");
  if (dst.numel() == 0)
    return TP_RT_SUCCESS;
  dims strides(p + 3, p + 3 + r), padL(p + 3 + r, p + 3 + 2 * r),
      padR(p + 3 + 2 * r, p + 3 + 3 * r), dil(p + 3 + 3 * r, p + 3 + 4 * r);
  for (int64_t &d : dil)
    d -= 1;
  bool hasBias = bias.numel() > 0;
  dims srcSizes = src.sizes(), srcStrides = fixStrides(srcSizes, src.strides());
  dims dstSizes = dst.sizes(), dstStrides = fixStrides(dstSizes, dst.strides());
  dims wTorchSizes = w.sizes(),
       wTorchStrides = fixStrides(wTorchSizes, w.strides());
  // oneDNN weights: [G,] O, I, K... with O the output and I the input
  // channels of one group.
  dims wSizes, wStrides;
  int64_t cout = dstSizes[1], cin = srcSizes[1];
  int64_t og = cout / groups, ig = cin / groups;
  if (groups > 1) {
    wSizes = {groups, og, ig};
    if (!transposed)
      wStrides = {og * wTorchStrides[0], wTorchStrides[0], wTorchStrides[1]};
    else
      wStrides = {ig * wTorchStrides[0], wTorchStrides[1], wTorchStrides[0]};
  } else {
    wSizes = {cout, cin};
    if (!transposed)
      wStrides = {wTorchStrides[0], wTorchStrides[1]};
    else
      wStrides = {wTorchStrides[1], wTorchStrides[0]};
  }
  for (int64_t i = 0; i < r; ++i) {
    wSizes.push_back(wTorchSizes[2 + i]);
    wStrides.push_back(wTorchStrides[2 + i]);
  }
  std::string k = key("conv",
                      {srcSizes, srcStrides, wSizes, wStrides, dstSizes,
                       dstStrides, strides, padL, padR, dil},
                      {(int)inType, (int)outType, hasBias, transposed});
  std::shared_ptr<ConvEntry> entry;
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = convCache.find(k);
    if (it != convCache.end())
      entry = it->second;
  }
  if (!entry) {
    entry = std::make_shared<ConvEntry>();
    entry->hasBias = hasBias;
    entry->userSrc = dnnl::memory::desc(srcSizes, inType, srcStrides);
    entry->userWeights = dnnl::memory::desc(wSizes, inType, wStrides);
    entry->userDst = dnnl::memory::desc(dstSizes, outType, dstStrides);
    if (hasBias)
      entry->bias = dnnl::memory::desc(
          {cout}, inType, dims{bias.size(0) == 1 ? 1 : bias.stride(0)});
    auto any = [](const dims &d, dt t) {
      return dnnl::memory::desc(d, t, dnnl::memory::format_tag::any);
    };
    dnnl::memory::desc srcAny = any(srcSizes, inType),
                       wAny = any(wSizes, inType),
                       dstAny = any(dstSizes, outType);
    if (!transposed) {
      auto desc = hasBias
                      ? dnnl::convolution_forward::desc(
                            dnnl::prop_kind::forward_inference,
                            dnnl::algorithm::convolution_direct, srcAny, wAny,
                            entry->bias, dstAny, strides, dil, padL, padR)
                      : dnnl::convolution_forward::desc(
                            dnnl::prop_kind::forward_inference,
                            dnnl::algorithm::convolution_direct, srcAny, wAny,
                            dstAny, strides, dil, padL, padR);
      dnnl::convolution_forward::primitive_desc pd(desc, engine());
      entry->src = pd.src_desc();
      entry->weights = pd.weights_desc();
      entry->dst = pd.dst_desc();
      entry->primitive = dnnl::convolution_forward(pd);
    } else {
      auto desc = hasBias
                      ? dnnl::deconvolution_forward::desc(
                            dnnl::prop_kind::forward_inference,
                            dnnl::algorithm::deconvolution_direct, srcAny, wAny,
                            entry->bias, dstAny, strides, dil, padL, padR)
                      : dnnl::deconvolution_forward::desc(
                            dnnl::prop_kind::forward_inference,
                            dnnl::algorithm::deconvolution_direct, srcAny, wAny,
                            dstAny, strides, dil, padL, padR);
      dnnl::deconvolution_forward::primitive_desc pd(desc, engine());
      entry->src = pd.src_desc();
      entry->weights = pd.weights_desc();
      entry->dst = pd.dst_desc();
      entry->primitive = dnnl::deconvolution_forward(pd);
    }
    std::lock_guard<std::mutex> lock(cacheMutex);
    convCache.emplace(k, entry);
  }
  dnnl::stream stream(engine());
  dnnl::memory userSrc(entry->userSrc, engine(), src.data(sizeOf(inType)));
  dnnl::memory userWeights(entry->userWeights, engine(),
                           w.data(sizeOf(inType)));
  dnnl::memory userDst(entry->userDst, engine(), dst.data(sizeOf(outType)));
  auto prepare = [&](dnnl::memory &user, const dnnl::memory::desc &wanted) {
    if (user.get_desc() == wanted)
      return user;
    dnnl::memory m(wanted, engine());
    dnnl::reorder(user, m).execute(stream, user, m);
    return m;
  };
  dnnl::memory srcMem = prepare(userSrc, entry->src);
  dnnl::memory wMem = prepare(userWeights, entry->weights);
  dnnl::memory dstMem = entry->dst == entry->userDst
                            ? userDst
                            : dnnl::memory(entry->dst, engine());
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, srcMem}, {DNNL_ARG_WEIGHTS, wMem}, {DNNL_ARG_DST, dstMem}};
  if (hasBias)
    args.emplace(DNNL_ARG_BIAS, dnnl::memory(entry->bias, engine(),
                                             bias.data(sizeOf(inType))));
  entry->primitive.execute(stream, args);
  if (!(entry->dst == entry->userDst))
    dnnl::reorder(dstMem, userDst).execute(stream, dstMem, userDst);
  stream.wait();
  return TP_RT_SUCCESS;
}

/// Runs `fn`, turning oneDNN and C++ errors into a status and the error slot.
template <typename Fn> tp_rt_status guarded(const char *what, Fn &&fn) {
  try {
    return fn();
  } catch (const dnnl::error &e) {
    return tensorplay::codegen::fail(
        TP_RT_ERROR_INTERNAL, std::string(what) + ": oneDNN: " + e.what());
  } catch (const std::bad_alloc &) {
    return tensorplay::codegen::fail(TP_RT_ERROR_OUT_OF_MEMORY,
                                     std::string(what) + ": out of memory");
  } catch (...) {
    return tensorplay::codegen::fail(TP_RT_ERROR_INTERNAL,
                                     std::string(what) + ": unexpected error");
  }
}

} // namespace

extern "C" {

int32_t tp_rt_onednn_available(void) { return 1; }

#define TP_MATMUL(NAME, IN, OUT)                                               \
  tp_rt_status NAME(int64_t ar, tp_rt_memref *a, int64_t br, tp_rt_memref *b,  \
                    int64_t biasr, tp_rt_memref *bias, int64_t cr,             \
                    tp_rt_memref *c) {                                         \
    return guarded(#NAME, [&] {                                                \
      return matmul(IN, OUT, View{ar, a}, View{br, b}, View{biasr, bias},      \
                    View{cr, c});                                              \
    });                                                                        \
  }
TP_MATMUL(tp_rt_dnnl_matmul_f32_f32, dt::f32, dt::f32)
TP_MATMUL(tp_rt_dnnl_matmul_bf16_bf16, dt::bf16, dt::bf16)
TP_MATMUL(tp_rt_dnnl_matmul_bf16_f32, dt::bf16, dt::f32)
#undef TP_MATMUL

#define TP_CONV(NAME, IN, OUT)                                                 \
  tp_rt_status NAME(int64_t sr, tp_rt_memref *s, int64_t wr, tp_rt_memref *w,  \
                    int64_t biasr, tp_rt_memref *bias, int64_t dr,             \
                    tp_rt_memref *d, int64_t pr, tp_rt_memref *p) {            \
    return guarded(#NAME, [&] {                                                \
      return conv(IN, OUT, View{sr, s}, View{wr, w}, View{biasr, bias},        \
                  View{dr, d}, View{pr, p});                                   \
    });                                                                        \
  }
TP_CONV(tp_rt_dnnl_conv_f32_f32, dt::f32, dt::f32)
TP_CONV(tp_rt_dnnl_conv_bf16_bf16, dt::bf16, dt::bf16)
#undef TP_CONV

} // extern "C"
