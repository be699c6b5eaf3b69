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
#include "tensorplay/Runtime/FloatRounding.h"

#include "calls/CodegenError.h"
#include "calls/MemrefView.h"
#include "onednn/DescribableView.h"
#include "onednn/StridedConvert.h"
#include "onednn/WeightPacking.h"

#include <dnnl.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using dt = dnnl::memory::data_type;
using dims = dnnl::memory::dims;

using tensorplay::codegen::convertStrided;
using tensorplay::codegen::denseStrides;
using tensorplay::codegen::permutedDenseStrides;
using tensorplay::codegen::RoundToBf16;
using tensorplay::codegen::RoundToBf16InF32;
using tensorplay::codegen::WidenBf16;
using View = tensorplay::codegen::MemrefView;
using Described = tensorplay::codegen::DescribableView;

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

/// The oneDNN attributes of a product with epilogue `epilogue` (a checked
/// TP_RT_EPILOGUE_* value).
dnnl::primitive_attr epilogueAttr(int64_t epilogue) {
  dnnl::post_ops ops;
  switch (epilogue) {
  case TP_RT_EPILOGUE_RELU:
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    break;
  case TP_RT_EPILOGUE_GELU_ERF:
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
    break;
  case TP_RT_EPILOGUE_GELU_TANH:
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_tanh, 0.0f, 0.0f);
    break;
  case TP_RT_EPILOGUE_ACCUMULATE:
    ops.append_sum(1.0f);
    break;
  default:
    break;
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  return attr;
}

tp_rt_status checkEpilogue(const char *name, int64_t epilogue) {
  if (epilogue < TP_RT_EPILOGUE_NONE || epilogue > TP_RT_EPILOGUE_ACCUMULATE)
    return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT,
                                     std::string(name) + ": unknown epilogue " +
                                         std::to_string(epilogue));
  return TP_RT_SUCCESS;
}

/// Whether oneDNN computes bf16 primitives on this CPU. oneDNN 2.6 needs
/// AVX-512 for them; elsewhere (AVX2 CPUs) the bf16 entry points widen
/// their bf16 operands to f32 (exactly), compute in f32 (what oneDNN's bf16
/// kernels accumulate in) and round a bf16 result once, as tp.cast rounds.
/// TP_RT_DNNL_BF16=f32 in the environment forces the widening path (to
/// test it on CPUs that have bf16 kernels).
bool nativeBf16() {
  static const bool supported = [] {
    if (const char *env = std::getenv("TP_RT_DNNL_BF16"))
      if (std::strcmp(env, "f32") == 0)
        return false;
    try {
      dnnl::memory::desc d({16, 16}, dt::bf16, dnnl::memory::format_tag::ab);
      dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(d, d, d), engine());
      return true;
    } catch (...) {
      return false;
    }
  }();
  return supported;
}

/// The type oneDNN computes a primitive on `type` operands in.
dt computeType(dt type) {
  return type == dt::bf16 && !nativeBf16() ? dt::f32 : type;
}

/// The offset (in elements) of a memory descriptor's first element.
int64_t offsetOf(const dnnl::memory::desc &desc) { return desc.data.offset0; }

/// The element strides of a plain (non-blocked) memory descriptor, if it
/// is one.
std::optional<dims> plainStrides(const dnnl::memory::desc &desc) {
  const dnnl_memory_desc_t &d = desc.data;
  if (d.format_kind != dnnl_blocked || d.format_desc.blocking.inner_nblks)
    return std::nullopt;
  return dims(d.format_desc.blocking.strides,
              d.format_desc.blocking.strides + d.ndims);
}

/// A runtime buffer (the compiled code's allocator: reused across calls;
/// it never returns null, it ends the process with a message instead).
struct ScratchBuffer {
  void *data;
  explicit ScratchBuffer(size_t bytes)
      : data(_mlir_memref_to_llvm_aligned_alloc(64, bytes)) {}
  ~ScratchBuffer() { _mlir_memref_to_llvm_free(data); }
  ScratchBuffer(const ScratchBuffer &) = delete;
  ScratchBuffer &operator=(const ScratchBuffer &) = delete;
};

/// The temporary oneDNN memories of one call (operands converted for the
/// primitive, results before their conversion), from the runtime's caching
/// allocator: oneDNN's own allocation maps fresh pages, which fault on every
/// call. Freed when the call ends.
class Scratch {
public:
  dnnl::memory make(const dnnl::memory::desc &desc) {
    buffers.push_back(
        std::make_unique<ScratchBuffer>(std::max<size_t>(desc.get_size(), 1)));
    return dnnl::memory(desc, engine(), buffers.back()->data);
  }

private:
  std::vector<std::unique_ptr<ScratchBuffer>> buffers;
};

std::mutex cacheMutex;

/// The entry of `cache` under `key`, made by `make()` on first use (outside
/// the lock: creating a primitive JIT-compiles it).
template <typename Entry, typename Make>
std::shared_ptr<Entry>
cachedEntry(std::unordered_map<std::string, std::shared_ptr<Entry>> &cache,
            const std::string &key, Make make) {
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = cache.find(key);
    if (it != cache.end())
      return it->second;
  }
  std::shared_ptr<Entry> entry = make();
  std::lock_guard<std::mutex> lock(cacheMutex);
  return cache.emplace(key, entry).first->second;
}

/// A reorder primitive and the descriptors it was made for.
struct ReorderEntry {
  dnnl::memory::desc from, to;
  dnnl::reorder primitive;
};

/// Reorder primitives by a hash of their descriptors' sizes, element type,
/// offset and strides; entries are told apart by descriptor equality (the
/// descriptors hold padding bytes, which a byte-wise key would read).
std::unordered_map<size_t, std::vector<std::shared_ptr<ReorderEntry>>>
    reorderCache;

size_t hashDesc(const dnnl::memory::desc &desc, size_t h) {
  const dnnl_memory_desc_t &d = desc.data;
  auto mix = [&](int64_t v) { h = h * 1000003u ^ std::hash<int64_t>()(v); };
  mix(d.ndims);
  mix(d.data_type);
  mix(d.offset0);
  mix(d.format_kind);
  for (int i = 0; i < d.ndims; ++i)
    mix(d.dims[i]);
  if (d.format_kind == dnnl_blocked)
    for (int i = 0; i < d.ndims; ++i)
      mix(d.format_desc.blocking.strides[i]);
  return h;
}

/// Reorders `from` into `to` with a primitive kept per pair of descriptors:
/// creating one per call (oneDNN's primitive cache still builds the
/// descriptor each time) was a few microseconds of serial work for each of
/// a convolution's operands.
void reorder(dnnl::stream &stream, dnnl::memory from, dnnl::memory to) {
  dnnl::memory::desc a = from.get_desc(), b = to.get_desc();
  size_t k = hashDesc(b, hashDesc(a, 0));
  auto find = [&]() -> std::shared_ptr<ReorderEntry> {
    for (const std::shared_ptr<ReorderEntry> &e : reorderCache[k])
      if (e->from == a && e->to == b)
        return e;
    return nullptr;
  };
  std::shared_ptr<ReorderEntry> entry;
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    entry = find();
  }
  if (!entry) {
    // Made outside the lock (creating a primitive JIT-compiles it).
    auto made = std::make_shared<ReorderEntry>(
        ReorderEntry{a, b,
                     dnnl::reorder(dnnl::reorder::primitive_desc(
                         engine(), a, engine(), b))});
    std::lock_guard<std::mutex> lock(cacheMutex);
    entry = find();
    if (!entry) {
      reorderCache[k].push_back(made);
      entry = made;
    }
  }
  entry->primitive.execute(stream, from, to);
}

/// `user` (the caller's memory) in `wanted`'s descriptor: itself when they
/// agree, otherwise a new memory it is reordered (converted) into.
dnnl::memory prepared(dnnl::stream &stream, Scratch &scratch, dnnl::memory user,
                      const dnnl::memory::desc &wanted) {
  dnnl::memory::desc have = user.get_desc();
  if (have == wanted)
    return user;
  // bf16 widened for an f32 primitive: by our loop into plain f32 (the
  // wanted layout when it is plain, else dense, then oneDNN's fast f32
  // reorder into the blocked one).
  std::optional<dims> strides = plainStrides(have);
  if (have.data_type() == dt::bf16 && wanted.data_type() == dt::f32 &&
      strides && offsetOf(have) == 0) {
    dims sizes = have.dims();
    std::optional<dims> wantedStrides = plainStrides(wanted);
    dnnl::memory::desc plain =
        wantedStrides && offsetOf(wanted) == 0
            ? wanted
            : dnnl::memory::desc(sizes, dt::f32, denseStrides(sizes));
    dnnl::memory widened = scratch.make(plain);
    convertStrided(static_cast<const uint16_t *>(user.get_data_handle()), sizes,
                   *strides, static_cast<float *>(widened.get_data_handle()),
                   *plainStrides(plain), WidenBf16());
    if (plain == wanted)
      return widened;
    dnnl::memory m = scratch.make(wanted);
    reorder(stream, widened, m);
    return m;
  }
  dnnl::memory m = scratch.make(wanted);
  reorder(stream, user, m);
  return m;
}

/// Moves `computed` (in its primitive's layout and type) into `user`: a
/// reorder, or for an f32 result of a bf16 call on a CPU without bf16
/// kernels, the rounding tp.cast does (oneDNN's reorder flushes subnormals).
void finish(dnnl::stream &stream, Scratch &scratch, dnnl::memory computed,
            dnnl::memory user) {
  dnnl::memory::desc want = user.get_desc();
  if (computed.get_desc() == want)
    return;
  if (want.data_type() != dt::bf16 ||
      computed.get_desc().data_type() != dt::f32) {
    reorder(stream, computed, user);
    return;
  }
  dims sizes = want.dims();
  dnnl::memory::desc denseDesc(sizes, dt::f32, denseStrides(sizes));
  dnnl::memory dense = computed;
  if (!(computed.get_desc() == denseDesc)) {
    dense = scratch.make(denseDesc);
    reorder(stream, computed, dense);
    stream.wait();
  }
  convertStrided(static_cast<const float *>(dense.get_data_handle()), sizes,
                 denseStrides(sizes),
                 static_cast<uint16_t *>(user.get_data_handle()),
                 *plainStrides(want), RoundToBf16());
}

/// A matmul primitive and the descriptors it computes on (a, b, bias, c)
/// and of the caller's buffers (user*: other element types or strides
/// where the primitive computes in f32 for a bf16 call).
struct MatmulEntry {
  dnnl::matmul primitive;
  dnnl::memory::desc a, b, bias, c;
  dnnl::memory::desc userA, userB, userBias, userC;
  bool hasBias = false;
};

std::unordered_map<std::string, std::shared_ptr<MatmulEntry>> matmulCache;

struct BiasLayout {
  dims sizes, strides;
};

/// The bias of a rank-`r` product as oneDNN wants it: [1, ..., 1, N] with
/// the bias's stride (all ones and zeros without a bias).
BiasLayout biasLayout(View bias, int64_t r) {
  BiasLayout layout{dims(r, 1), dims(r, 0)};
  if (bias.numel() > 0) {
    layout.sizes[r - 1] = bias.size(0);
    layout.strides[r - 1] = bias.stride(0);
    layout.strides = fixStrides(layout.sizes, layout.strides);
  }
  return layout;
}

/// A matmul primitive for the descriptors of `entry` (b may be `any`);
/// returns its primitive descriptor.
dnnl::matmul::primitive_desc matmulPrimitive(const MatmulEntry &entry,
                                             const dnnl::memory::desc &b,
                                             int64_t epilogue) {
  dnnl::matmul::desc desc =
      entry.hasBias ? dnnl::matmul::desc(entry.a, b, entry.bias, entry.c)
                    : dnnl::matmul::desc(entry.a, b, entry.c);
  return dnnl::matmul::primitive_desc(desc, epilogueAttr(epilogue), engine());
}

/// Runs the product of `entry` on the given buffers and waits for it.
void runMatmul(const MatmulEntry &entry, void *a, void *b, void *bias,
               void *c) {
  dnnl::stream stream(engine());
  Scratch scratch;
  auto in = [&](const dnnl::memory::desc &user,
                const dnnl::memory::desc &wanted, void *data) {
    return prepared(stream, scratch, dnnl::memory(user, engine(), data),
                    wanted);
  };
  dnnl::memory userC(entry.userC, engine(), c);
  dnnl::memory cMem = entry.c == entry.userC ? userC : scratch.make(entry.c);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, in(entry.userA, entry.a, a)},
      {DNNL_ARG_WEIGHTS, in(entry.userB, entry.b, b)},
      {DNNL_ARG_DST, cMem}};
  if (entry.hasBias)
    args.emplace(DNNL_ARG_BIAS, in(entry.userBias, entry.bias, bias));
  entry.primitive.execute(stream, args);
  finish(stream, scratch, cMem, userC);
  stream.wait();
}

/// Fills the descriptors of `entry` for buffers of `inType` (A, the bias;
/// B too unless `bType` says otherwise) and `outType` (C): the primitive
/// computes on them directly, or, where oneDNN has no bf16 kernels, on f32
/// copies, dense in the order of the caller's strides (a transposed weight
/// stays transposed: oneDNN's AVX2 f32 gemm runs a row-major B 1.7x slower
/// than a transposed one), and a bf16 C computed in dense row-major f32.
void describeMatmul(MatmulEntry &entry, dt inType, dt bType, dt outType,
                    const dims &aSizes, const dims &aStrides,
                    const dims &bSizes, const dims &bStrides,
                    const dims &cSizes, const dims &cStrides,
                    const BiasLayout *bias) {
  dt compute = computeType(inType);
  enum class Layout { Caller, LikeCaller, RowMajor };
  auto desc = [&](const dims &sizes, const dims &strides, dt user,
                  Layout layout, dnnl::memory::desc &userDesc) {
    userDesc = dnnl::memory::desc(sizes, user, strides);
    if (compute == inType || layout == Layout::Caller)
      return userDesc;
    return dnnl::memory::desc(sizes, dt::f32,
                              layout == Layout::RowMajor
                                  ? denseStrides(sizes)
                                  : permutedDenseStrides(sizes, strides));
  };
  entry.a = desc(aSizes, aStrides, inType, Layout::LikeCaller, entry.userA);
  // An f32 B (the rounded weight of a cast product) is used as it is.
  entry.b =
      desc(bSizes, bStrides, bType,
           bType == dt::f32 ? Layout::Caller : Layout::LikeCaller, entry.userB);
  // An f32 C is written in place; a bf16 C computed in f32 is rounded.
  entry.c =
      desc(cSizes, cStrides, outType,
           outType == dt::f32 ? Layout::Caller : Layout::RowMajor, entry.userC);
  entry.hasBias = bias != nullptr;
  if (bias)
    entry.bias = desc(bias->sizes, bias->strides, inType, Layout::LikeCaller,
                      entry.userBias);
}

/// C = A @ B (+ bias) with B given by its sizes, strides, element type
/// (inType, like A and the bias, or f32 where oneDNN computes bf16 products
/// in f32) and data; ranks already checked.
tp_rt_status matmulWithB(dt inType, dt outType, View a, const dims &bSizes,
                         const dims &bRawStrides, dt bType, void *bData,
                         View bias, View c, int64_t epilogue) {
  bool hasBias = bias.numel() > 0;
  dims aSizes = a.sizes(), cSizes = c.sizes();
  dims aStrides = fixStrides(aSizes, a.strides());
  dims bStrides = fixStrides(bSizes, bRawStrides);
  dims cStrides = fixStrides(cSizes, c.strides());
  BiasLayout biasDims = biasLayout(bias, a.rank);
  std::string k =
      key("mm",
          {aSizes, aStrides, bSizes, bStrides, cSizes, cStrides, biasDims.sizes,
           biasDims.strides},
          {(int)inType, (int)bType, (int)outType, hasBias, (int)epilogue});
  std::shared_ptr<MatmulEntry> entry = cachedEntry(matmulCache, k, [&] {
    auto entry = std::make_shared<MatmulEntry>();
    describeMatmul(*entry, inType, bType, outType, aSizes, aStrides, bSizes,
                   bStrides, cSizes, cStrides, hasBias ? &biasDims : nullptr);
    entry->primitive =
        dnnl::matmul(matmulPrimitive(*entry, entry->b, epilogue));
    return entry;
  });
  runMatmul(*entry, a.data(sizeOf(inType)), bData, bias.data(sizeOf(inType)),
            c.data(sizeOf(outType)));
  return TP_RT_SUCCESS;
}

tp_rt_status checkMatmulRanks(const char *name, View a, View b, View c) {
  if (a.rank != b.rank || a.rank != c.rank || a.rank < 2 || a.rank > 6)
    return tensorplay::codegen::fail(
        TP_RT_ERROR_INVALID_ARGUMENT,
        std::string(name) + ": ranks " + std::to_string(a.rank) + ", " +
            std::to_string(b.rank) + ", " + std::to_string(c.rank));
  return TP_RT_SUCCESS;
}

/// The argument checks every product entry point makes.
tp_rt_status checkMatmul(const char *name, View a, View b, View c,
                         int64_t epilogue) {
  if (tp_rt_status s = checkMatmulRanks(name, a, b, c))
    return s;
  return checkEpilogue(name, epilogue);
}

tp_rt_status matmul(dt inType, dt outType, View a, View b, View bias, View c,
                    int64_t epilogue) {
  if (tp_rt_status s = checkMatmul("tp_rt_dnnl_matmul", a, b, c, epilogue))
    return s;
  if (c.numel() == 0)
    return TP_RT_SUCCESS;
  return matmulWithB(inType, outType, a, b.sizes(), b.strides(), inType,
                     b.data(sizeOf(inType)), bias, c, epilogue);
}

// --- Products whose B arrives in f32 (tp_rt_dnnl_matmul_cast_*) -----------

using tensorplay::codegen::Bf16VnniLayout;

/// `desc` as a Bf16VnniLayout of B[k, n] (oneDNN's BA16a64b2a or
/// AB16a64b2a, no extra data), if it is one.
std::optional<Bf16VnniLayout> vnniLayoutOf(const dnnl::memory::desc &desc,
                                           int64_t k, int64_t n) {
  const dnnl_memory_desc_t &d = desc.data;
  if (d.ndims != 2 || d.data_type != dnnl_bf16 ||
      d.format_kind != dnnl_blocked || d.offset0 != 0 || d.extra.flags != 0 ||
      d.dims[0] != k || d.dims[1] != n)
    return std::nullopt;
  const dnnl_blocking_desc_t &blk = d.format_desc.blocking;
  if (blk.inner_nblks != 3 || blk.inner_blks[0] != 16 ||
      blk.inner_idxs[0] != 0 || blk.inner_blks[1] != 64 ||
      blk.inner_idxs[1] != 1 || blk.inner_blks[2] != 2 ||
      blk.inner_idxs[2] != 0)
    return std::nullopt;
  Bf16VnniLayout layout{k, n, blk.strides[0], blk.strides[1]};
  int64_t kBlocks = layout.paddedK() / 32, nBlocks = layout.paddedN() / 64;
  if (d.padded_dims[0] != layout.paddedK() ||
      d.padded_dims[1] != layout.paddedN() ||
      desc.get_size() != (size_t)(layout.paddedK() * layout.paddedN() * 2))
    return std::nullopt;
  bool kInner =
      layout.kBlockStride == 2048 && layout.nBlockStride == kBlocks * 2048;
  bool nInner =
      layout.nBlockStride == 2048 && layout.kBlockStride == nBlocks * 2048;
  if (!kInner && !nInner)
    return std::nullopt;
  return layout;
}

/// A product whose B (product.b) is oneDNN's blocked bf16 layout.
struct PackedMatmulEntry {
  MatmulEntry product;
  /// False: oneDNN does not want the layout the packing kernel writes.
  bool packed = false;
  Bf16VnniLayout layout{};
};

std::unordered_map<std::string, std::shared_ptr<PackedMatmulEntry>>
    packedMatmulCache;

/// The packing work of one call, split by 16-row groups.
struct PackJob {
  const float *w;
  int64_t ldw;
  Bf16VnniLayout layout;
  uint16_t *out;
};

void packPiece(void *context, int64_t begin, int64_t end) {
  const PackJob &job = *static_cast<const PackJob *>(context);
  tensorplay::codegen::packTransposedBf16Vnni(job.w, job.ldw, job.layout,
                                              job.out, begin, end);
}

/// The packed-weights primitive for a 2-D product with A/C/bias as given
/// and B of [k, n]; its `packed` says whether the packing kernel applies.
std::shared_ptr<PackedMatmulEntry> packedEntry(dt outType, View a, int64_t k,
                                               int64_t n, View bias, View c,
                                               int64_t epilogue) {
  bool hasBias = bias.numel() > 0;
  dims aSizes = a.sizes(), cSizes = c.sizes();
  dims aStrides = fixStrides(aSizes, a.strides());
  dims cStrides = fixStrides(cSizes, c.strides());
  BiasLayout biasDims = biasLayout(bias, 2);
  std::string cacheKey = key("mmpack",
                             {aSizes,
                              aStrides,
                              {k, n},
                              cSizes,
                              cStrides,
                              biasDims.sizes,
                              biasDims.strides},
                             {(int)outType, hasBias, (int)epilogue});
  return cachedEntry(packedMatmulCache, cacheKey, [&] {
    auto entry = std::make_shared<PackedMatmulEntry>();
    MatmulEntry &product = entry->product;
    product.a = product.userA = dnnl::memory::desc(aSizes, dt::bf16, aStrides);
    product.c = product.userC = dnnl::memory::desc(cSizes, outType, cStrides);
    product.hasBias = hasBias;
    if (hasBias)
      product.bias = product.userBias =
          dnnl::memory::desc(biasDims.sizes, dt::bf16, biasDims.strides);
    dnnl::matmul::primitive_desc pd = matmulPrimitive(
        product,
        dnnl::memory::desc({k, n}, dt::bf16, dnnl::memory::format_tag::any),
        epilogue);
    if (std::optional<Bf16VnniLayout> layout =
            vnniLayoutOf(pd.weights_desc(), k, n)) {
      product.b = product.userB = pd.weights_desc();
      product.primitive = dnnl::matmul(pd);
      entry->layout = *layout;
      entry->packed = true;
    }
    return entry;
  });
}

/// The f32 tensor `b` rounded to bf16 by `round` (into bf16, or kept in
/// f32) into `out`, dense with b's dimensions nested as b's strides nest
/// them (a transposed view stays transposed); returns the strides of `out`.
template <typename Out, typename Round>
dims roundToDense(View b, Out *out, Round round) {
  dims sizes = b.sizes(), strides = fixStrides(sizes, b.strides());
  dims outStrides = permutedDenseStrides(sizes, strides);
  convertStrided(static_cast<const float *>(b.data(4)), sizes, strides, out,
                 outStrides, round);
  return outStrides;
}

/// C = epilogue(A @ round_bf16(B) (+ bias)): A and the bias bf16, B f32, C
/// outType.
tp_rt_status castMatmul(dt outType, View a, View b, View bias, View c,
                        int64_t epilogue) {
  if (tp_rt_status s = checkMatmul("tp_rt_dnnl_matmul_cast", a, b, c, epilogue))
    return s;
  if (c.numel() == 0)
    return TP_RT_SUCCESS;
  int64_t r = b.rank;
  dims bSizes = b.sizes(), bStrides = fixStrides(bSizes, b.strides());
  // B = W^T with W [N, K] row-major-ish (linear's weight): one pass into
  // the layout oneDNN computes on.
  if (r == 2 && bStrides[0] == 1 && bSizes[0] > 0 && bSizes[1] > 0 &&
      tensorplay::codegen::canPackBf16Vnni() && nativeBf16()) {
    std::shared_ptr<PackedMatmulEntry> entry =
        packedEntry(outType, a, bSizes[0], bSizes[1], bias, c, epilogue);
    if (entry->packed) {
      ScratchBuffer packed(entry->product.b.get_size());
      PackJob job{static_cast<const float *>(b.data(4)), bStrides[1],
                  entry->layout, static_cast<uint16_t *>(packed.data)};
      tp_rt_parallel_for(packPiece, &job, 0,
                         tensorplay::codegen::vnniRowGroups(entry->layout));
      runMatmul(entry->product, a.data(2), packed.data, bias.data(2),
                c.data(sizeOf(outType)));
      return TP_RT_SUCCESS;
    }
  }
  // Where oneDNN computes bf16 products in f32: B rounded to bf16 and kept
  // in f32, in one pass, for the f32 primitive.
  if (!nativeBf16()) {
    ScratchBuffer rounded((size_t)b.numel() * 4);
    dims roundedStrides =
        roundToDense(b, static_cast<float *>(rounded.data), RoundToBf16InF32());
    return matmulWithB(dt::bf16, outType, a, bSizes, roundedStrides, dt::f32,
                       rounded.data, bias, c, epilogue);
  }
  // Otherwise what the unfused program does: round B into a bf16 tensor,
  // then the plain product.
  ScratchBuffer rounded((size_t)b.numel() * 2);
  dims roundedStrides =
      roundToDense(b, static_cast<uint16_t *>(rounded.data), RoundToBf16());
  return matmulWithB(dt::bf16, outType, a, bSizes, roundedStrides, dt::bf16,
                     rounded.data, bias, c, epilogue);
}

/// The geometry of a tp_rt_dnnl_conv* call (`params`, see Codegen.h) and
/// the oneDNN descriptors of its operands: src [N, Cin, S...] and dst [N,
/// Cout, O...] with their own strides, the weight (tensorplay's layout) as
/// oneDNN's [G,] O, I, K... with O the output and I the input channels of
/// one group.
struct ConvShape {
  bool transposed = false;
  dims strides, padL, padR, dil;
  dims srcSizes, srcStrides, dstSizes, dstStrides, wSizes, wStrides;
  int64_t cout = 0;
};

std::optional<ConvShape> readConvShape(View src, View w, View dst,
                                       View params) {
  const int64_t *p =
      static_cast<const int64_t *>(params.desc->aligned) + params.desc->offset;
  int64_t r = p[0];
  ConvShape c;
  c.transposed = p[1] != 0;
  int64_t groups = p[2];
  if (r < 1 || r > 3 || src.rank != r + 2 || w.rank != r + 2 ||
      dst.rank != r + 2 || groups < 1)
    return std::nullopt;
  c.strides = dims(p + 3, p + 3 + r);
  c.padL = dims(p + 3 + r, p + 3 + 2 * r);
  c.padR = dims(p + 3 + 2 * r, p + 3 + 3 * r);
  c.dil = dims(p + 3 + 3 * r, p + 3 + 4 * r);
  for (int64_t &d : c.dil)
    d -= 1;
  c.srcSizes = src.sizes();
  c.srcStrides = fixStrides(c.srcSizes, src.strides());
  c.dstSizes = dst.sizes();
  c.dstStrides = fixStrides(c.dstSizes, dst.strides());
  dims wTorchSizes = w.sizes(),
       wTorchStrides = fixStrides(wTorchSizes, w.strides());
  int64_t cout = c.dstSizes[1], cin = c.srcSizes[1];
  if (cout % groups || cin % groups)
    return std::nullopt;
  int64_t og = cout / groups, ig = cin / groups;
  if (groups > 1) {
    c.wSizes = {groups, og, ig};
    if (!c.transposed)
      c.wStrides = {og * wTorchStrides[0], wTorchStrides[0], wTorchStrides[1]};
    else
      c.wStrides = {ig * wTorchStrides[0], wTorchStrides[1], wTorchStrides[0]};
  } else {
    c.wSizes = {cout, cin};
    if (!c.transposed)
      c.wStrides = {wTorchStrides[0], wTorchStrides[1]};
    else
      c.wStrides = {wTorchStrides[1], wTorchStrides[0]};
  }
  for (int64_t i = 0; i < r; ++i) {
    c.wSizes.push_back(wTorchSizes[2 + i]);
    c.wStrides.push_back(wTorchStrides[2 + i]);
  }
  c.cout = cout;
  return c;
}

/// A descriptor of `d` in `t` that lets the primitive choose the layout.
dnnl::memory::desc anyLayout(const dims &d, dt t) {
  return dnnl::memory::desc(d, t, dnnl::memory::format_tag::any);
}

struct ConvEntry {
  dnnl::primitive primitive;
  dnnl::memory::desc userSrc, userWeights, userDst, bias, computeBias;
  dnnl::memory::desc src, weights, dst;
  bool hasBias;
};

std::unordered_map<std::string, std::shared_ptr<ConvEntry>> convCache;

/// The inference primitive `Fwd` (convolution_forward with
/// convolution_direct, deconvolution_forward with deconvolution_direct) of
/// `c` on the layouts oneDNN picks from `srcAny`, `wAny`, `dstAny` (and the
/// entry's compute bias), recorded in `entry`.
template <typename Fwd>
void buildConvForward(ConvEntry &entry, dnnl::algorithm algorithm,
                      const ConvShape &c, const dnnl::memory::desc &srcAny,
                      const dnnl::memory::desc &wAny,
                      const dnnl::memory::desc &dstAny) {
  auto kind = dnnl::prop_kind::forward_inference;
  auto desc =
      entry.hasBias
          ? typename Fwd::desc(kind, algorithm, srcAny, wAny, entry.computeBias,
                               dstAny, c.strides, c.dil, c.padL, c.padR)
          : typename Fwd::desc(kind, algorithm, srcAny, wAny, dstAny, c.strides,
                               c.dil, c.padL, c.padR);
  typename Fwd::primitive_desc pd(desc, engine());
  entry.src = pd.src_desc();
  entry.weights = pd.weights_desc();
  entry.dst = pd.dst_desc();
  entry.primitive = Fwd(pd);
}

tp_rt_status conv(dt inType, dt outType, View src, View w, View bias, View dst,
                  View params) {
  std::optional<ConvShape> c = readConvShape(src, w, dst, params);
  if (!c)
    return tensorplay::codegen::fail(TP_RT_ERROR_INVALID_ARGUMENT,
                                     "tp_rt_dnnl_conv: bad geometry");
  if (dst.numel() == 0)
    return TP_RT_SUCCESS;
  bool hasBias = bias.numel() > 0, transposed = c->transposed;
  std::string k =
      key("conv",
          {c->srcSizes, c->srcStrides, c->wSizes, c->wStrides, c->dstSizes,
           c->dstStrides, c->strides, c->padL, c->padR, c->dil},
          {(int)inType, (int)outType, hasBias, transposed});
  std::shared_ptr<ConvEntry> entry = cachedEntry(convCache, k, [&] {
    auto entry = std::make_shared<ConvEntry>();
    entry->hasBias = hasBias;
    entry->userSrc = dnnl::memory::desc(c->srcSizes, inType, c->srcStrides);
    entry->userWeights = dnnl::memory::desc(c->wSizes, inType, c->wStrides);
    entry->userDst = dnnl::memory::desc(c->dstSizes, outType, c->dstStrides);
    if (hasBias)
      entry->bias = dnnl::memory::desc(
          {c->cout}, inType, dims{bias.size(0) == 1 ? 1 : bias.stride(0)});
    // Where oneDNN has no bf16 kernels, the primitive computes in f32:
    // the reorders into its layouts widen the operands.
    dnnl::memory::desc srcAny = anyLayout(c->srcSizes, computeType(inType)),
                       wAny = anyLayout(c->wSizes, computeType(inType)),
                       dstAny = anyLayout(c->dstSizes, computeType(outType));
    if (hasBias)
      entry->computeBias =
          dnnl::memory::desc({c->cout}, computeType(inType), dims{1});
    if (transposed)
      buildConvForward<dnnl::deconvolution_forward>(
          *entry, dnnl::algorithm::deconvolution_direct, *c, srcAny, wAny,
          dstAny);
    else
      buildConvForward<dnnl::convolution_forward>(
          *entry, dnnl::algorithm::convolution_direct, *c, srcAny, wAny,
          dstAny);
    return entry;
  });
  dnnl::stream stream(engine());
  Scratch scratch;
  dnnl::memory userSrc(entry->userSrc, engine(), src.data(sizeOf(inType)));
  dnnl::memory userWeights(entry->userWeights, engine(),
                           w.data(sizeOf(inType)));
  dnnl::memory userDst(entry->userDst, engine(), dst.data(sizeOf(outType)));
  dnnl::memory srcMem = prepared(stream, scratch, userSrc, entry->src);
  dnnl::memory wMem = prepared(stream, scratch, userWeights, entry->weights);
  dnnl::memory dstMem =
      entry->dst == entry->userDst ? userDst : scratch.make(entry->dst);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, srcMem}, {DNNL_ARG_WEIGHTS, wMem}, {DNNL_ARG_DST, dstMem}};
  if (hasBias)
    args.emplace(
        DNNL_ARG_BIAS,
        prepared(stream, scratch,
                 dnnl::memory(entry->bias, engine(), bias.data(sizeOf(inType))),
                 entry->computeBias));
  entry->primitive.execute(stream, args);
  finish(stream, scratch, dstMem, userDst);
  stream.wait();
  return TP_RT_SUCCESS;
}

/// A backward-weights primitive and the descriptors it computes on.
struct ConvBackwardEntry {
  dnnl::primitive primitive;
  dnnl::memory::desc userSrc, userDiffDst, userDiffWeights, userDiffBias;
  dnnl::memory::desc src, diffDst, diffWeights, diffBias;
  bool hasBias;
};

std::unordered_map<std::string, std::shared_ptr<ConvBackwardEntry>>
    convBackwardCache;

/// Creates the backward-weights primitive `Bwd` (with the forward `Fwd` of
/// the same geometry as its hint) into `entry`: the convolution and the
/// deconvolution have the same descriptors. A zero `diffBias` descriptor:
/// no bias gradient.
template <typename Fwd, typename Bwd>
void buildBackwardWeights(ConvBackwardEntry &entry, dnnl::algorithm algorithm,
                          const ConvShape &c, const dnnl::memory::desc &src,
                          const dnnl::memory::desc &weights,
                          const dnnl::memory::desc &diffWeights,
                          const dnnl::memory::desc &diffBias,
                          const dnnl::memory::desc &dst) {
  typename Fwd::primitive_desc hint(
      typename Fwd::desc(dnnl::prop_kind::forward_training, algorithm, src,
                         weights, dst, c.strides, c.dil, c.padL, c.padR),
      engine());
  typename Bwd::primitive_desc pd(
      typename Bwd::desc(algorithm, src, diffWeights, diffBias, dst, c.strides,
                         c.dil, c.padL, c.padR),
      engine(), hint);
  entry.src = pd.src_desc();
  entry.diffDst = pd.diff_dst_desc();
  entry.diffWeights = pd.diff_weights_desc();
  entry.diffBias = pd.diff_bias_desc();
  entry.primitive = Bwd(pd);
}

/// The weight (and bias) gradient of the convolution taking `src` to an
/// output whose gradient is `diffDst`, through oneDNN's backward-weights
/// primitive. The gradients are accumulated and kept in f32, then rounded
/// once into bf16 results (as tp.cast rounds).
tp_rt_status convBackwardWeights(dt type, View diffDst, View src,
                                 View diffWeights, View diffBias, View params) {
  std::optional<ConvShape> c = readConvShape(src, diffWeights, diffDst, params);
  if (!c || (diffBias.numel() > 0 &&
             (diffBias.rank != 1 || diffBias.size(0) != c->dstSizes[1])))
    return tensorplay::codegen::fail(
        TP_RT_ERROR_INVALID_ARGUMENT,
        "tp_rt_dnnl_conv_backward_weights: bad geometry");
  bool hasBias = diffBias.numel() > 0, transposed = c->transposed;
  if (diffWeights.numel() == 0)
    return TP_RT_SUCCESS;
  std::string k =
      key("conv_backward_weights",
          {c->srcSizes, c->srcStrides, c->wSizes, c->wStrides, c->dstSizes,
           c->dstStrides, c->strides, c->padL, c->padR, c->dil},
          {(int)type, hasBias, transposed});
  std::shared_ptr<ConvBackwardEntry> entry =
      cachedEntry(convBackwardCache, k, [&] {
        auto entry = std::make_shared<ConvBackwardEntry>();
        entry->hasBias = hasBias;
        entry->userSrc = dnnl::memory::desc(c->srcSizes, type, c->srcStrides);
        entry->userDiffDst =
            dnnl::memory::desc(c->dstSizes, type, c->dstStrides);
        entry->userDiffWeights =
            dnnl::memory::desc(c->wSizes, type, c->wStrides);
        if (hasBias)
          entry->userDiffBias = dnnl::memory::desc(
              {c->cout}, type,
              dims{diffBias.size(0) == 1 ? 1 : diffBias.stride(0)});
        dt in = computeType(type);
        dnnl::memory::desc srcAny = anyLayout(c->srcSizes, in),
                           dstAny = anyLayout(c->dstSizes, in),
                           wAny = anyLayout(c->wSizes, dt::f32),
                           bias({c->cout}, dt::f32, dims{1});
        dnnl::memory::desc biasOrNone = hasBias ? bias : dnnl::memory::desc();
        if (!transposed)
          buildBackwardWeights<dnnl::convolution_forward,
                               dnnl::convolution_backward_weights>(
              *entry, dnnl::algorithm::convolution_direct, *c, srcAny,
              anyLayout(c->wSizes, in), wAny, biasOrNone, dstAny);
        else
          buildBackwardWeights<dnnl::deconvolution_forward,
                               dnnl::deconvolution_backward_weights>(
              *entry, dnnl::algorithm::deconvolution_direct, *c, srcAny,
              anyLayout(c->wSizes, in), wAny, biasOrNone, dstAny);
        return entry;
      });
  size_t width = sizeOf(type);
  dnnl::stream stream(engine());
  Scratch scratch;
  dnnl::memory srcMem = prepared(
      stream, scratch, dnnl::memory(entry->userSrc, engine(), src.data(width)),
      entry->src);
  dnnl::memory diffDstMem =
      prepared(stream, scratch,
               dnnl::memory(entry->userDiffDst, engine(), diffDst.data(width)),
               entry->diffDst);
  dnnl::memory userDiffWeights(entry->userDiffWeights, engine(),
                               diffWeights.data(width));
  dnnl::memory diffWeightsMem = entry->diffWeights == entry->userDiffWeights
                                    ? userDiffWeights
                                    : scratch.make(entry->diffWeights);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, srcMem},
      {DNNL_ARG_DIFF_DST, diffDstMem},
      {DNNL_ARG_DIFF_WEIGHTS, diffWeightsMem}};
  std::optional<dnnl::memory> userDiffBias, diffBiasMem;
  if (hasBias) {
    userDiffBias.emplace(entry->userDiffBias, engine(), diffBias.data(width));
    diffBiasMem = entry->diffBias == entry->userDiffBias
                      ? *userDiffBias
                      : scratch.make(entry->diffBias);
    args.emplace(DNNL_ARG_DIFF_BIAS, *diffBiasMem);
  }
  entry->primitive.execute(stream, args);
  finish(stream, scratch, diffWeightsMem, userDiffWeights);
  if (hasBias)
    finish(stream, scratch, *diffBiasMem, *userDiffBias);
  stream.wait();
  return TP_RT_SUCCESS;
}

/// A softmax or logsoftmax backward primitive and its descriptors (the
/// primitive's: dense, in the compute type; the caller's: its strides).
struct SoftmaxBackwardEntry {
  dnnl::primitive primitive;
  dnnl::memory::desc data, userDiffDst, userDst, userDiffSrc;
};

std::unordered_map<std::string, std::shared_ptr<SoftmaxBackwardEntry>>
    softmaxBackwardCache;

/// The forward hint and the backward primitive of (log)softmax along
/// `axis` on `data`.
template <typename Fwd, typename Bwd>
dnnl::primitive buildSoftmaxBackward(const dnnl::memory::desc &data, int axis) {
  typename Fwd::primitive_desc hint(
      typename Fwd::desc(dnnl::prop_kind::forward_training, data, axis),
      engine());
  return Bwd(typename Bwd::primitive_desc(typename Bwd::desc(data, data, axis),
                                          engine(), hint));
}

/// The input gradient of softmax (logsoftmax when `log`) along `axis` from
/// its output `dst` and the output's gradient `diffDst`, through oneDNN's
/// backward primitive; bf16 without bf16 kernels computes in f32 and
/// rounds once.
tp_rt_status softmaxBackward(dt type, View diffDst, View dst, View diffSrc,
                             int64_t axis, int64_t log) {
  dims sizes = dst.sizes();
  if (diffDst.sizes() != sizes || diffSrc.sizes() != sizes || axis < 0 ||
      axis >= dst.rank)
    return tensorplay::codegen::fail(
        TP_RT_ERROR_INVALID_ARGUMENT,
        "tp_rt_dnnl_softmax_backward: the gradient, the output and the "
        "result must have one shape and the axis must be one of its dims");
  if (dst.numel() == 0)
    return TP_RT_SUCCESS;
  dims gStrides = fixStrides(sizes, diffDst.strides()),
       yStrides = fixStrides(sizes, dst.strides()),
       dStrides = fixStrides(sizes, diffSrc.strides());
  std::string k = key("softmax_backward", {sizes, gStrides, yStrides, dStrides},
                      {(int)type, (int)axis, (int)log});
  std::shared_ptr<SoftmaxBackwardEntry> entry =
      cachedEntry(softmaxBackwardCache, k, [&] {
        auto entry = std::make_shared<SoftmaxBackwardEntry>();
        entry->userDiffDst = dnnl::memory::desc(sizes, type, gStrides);
        entry->userDst = dnnl::memory::desc(sizes, type, yStrides);
        entry->userDiffSrc = dnnl::memory::desc(sizes, type, dStrides);
        entry->data =
            dnnl::memory::desc(sizes, computeType(type), denseStrides(sizes));
        int a = static_cast<int>(axis);
        entry->primitive =
            log ? buildSoftmaxBackward<dnnl::logsoftmax_forward,
                                       dnnl::logsoftmax_backward>(entry->data,
                                                                  a)
                : buildSoftmaxBackward<dnnl::softmax_forward,
                                       dnnl::softmax_backward>(entry->data, a);
        return entry;
      });
  size_t width = sizeOf(type);
  dnnl::stream stream(engine());
  Scratch scratch;
  dnnl::memory g =
      prepared(stream, scratch,
               dnnl::memory(entry->userDiffDst, engine(), diffDst.data(width)),
               entry->data);
  dnnl::memory y = prepared(
      stream, scratch, dnnl::memory(entry->userDst, engine(), dst.data(width)),
      entry->data);
  dnnl::memory user(entry->userDiffSrc, engine(), diffSrc.data(width));
  dnnl::memory d =
      entry->data == entry->userDiffSrc ? user : scratch.make(entry->data);
  entry->primitive.execute(
      stream,
      {{DNNL_ARG_DST, y}, {DNNL_ARG_DIFF_DST, g}, {DNNL_ARG_DIFF_SRC, d}});
  finish(stream, scratch, d, user);
  stream.wait();
  return TP_RT_SUCCESS;
}

/// Runs `fn`, turning oneDNN and C++ errors into a status and the error slot.
template <typename Fn>
tp_rt_status guarded(const char *what, Fn &&fn) {
  try {
    return fn();
  } catch (const dnnl::error &e) {
    return tensorplay::codegen::fail(TP_RT_ERROR_INTERNAL, what,
                                     "oneDNN: ", e.what());
  } catch (const std::bad_alloc &) {
    return tensorplay::codegen::fail(TP_RT_ERROR_OUT_OF_MEMORY, what,
                                     "out of memory");
  } catch (...) {
    return tensorplay::codegen::fail(TP_RT_ERROR_INTERNAL, what,
                                     "unexpected error");
  }
}

} // namespace

extern "C" {

int32_t tp_rt_onednn_available(void) { return 1; }

#define TP_MATMUL(NAME, IN, OUT)                                               \
  tp_rt_status NAME(int64_t ar, tp_rt_memref *a, int64_t br, tp_rt_memref *b,  \
                    int64_t biasr, tp_rt_memref *bias, int64_t cr,             \
                    tp_rt_memref *c, int64_t epilogue) {                       \
    return guarded(#NAME, [&] {                                                \
      Described A({ar, a}, sizeOf(IN)), B({br, b}, sizeOf(IN)),                \
          Bias({biasr, bias}, sizeOf(IN)), C({cr, c}, sizeOf(OUT));            \
      return C.after(matmul(IN, OUT, A.view(), B.view(), Bias.view(),          \
                            C.view(), epilogue));                              \
    });                                                                        \
  }
TP_MATMUL(tp_rt_dnnl_matmul_f32_f32, dt::f32, dt::f32)
TP_MATMUL(tp_rt_dnnl_matmul_bf16_bf16, dt::bf16, dt::bf16)
TP_MATMUL(tp_rt_dnnl_matmul_bf16_f32, dt::bf16, dt::f32)
#undef TP_MATMUL

#define TP_CAST_MATMUL(NAME, OUT)                                              \
  tp_rt_status NAME(int64_t ar, tp_rt_memref *a, int64_t br, tp_rt_memref *b,  \
                    int64_t biasr, tp_rt_memref *bias, int64_t cr,             \
                    tp_rt_memref *c, int64_t epilogue) {                       \
    return guarded(#NAME, [&] {                                                \
      return castMatmul(OUT, View{ar, a}, View{br, b}, View{biasr, bias},      \
                        View{cr, c}, epilogue);                                \
    });                                                                        \
  }
TP_CAST_MATMUL(tp_rt_dnnl_matmul_cast_bf16_bf16, dt::bf16)
TP_CAST_MATMUL(tp_rt_dnnl_matmul_cast_bf16_f32, dt::f32)
#undef TP_CAST_MATMUL

#define TP_CONV(NAME, IN, OUT)                                                 \
  tp_rt_status NAME(int64_t sr, tp_rt_memref *s, int64_t wr, tp_rt_memref *w,  \
                    int64_t biasr, tp_rt_memref *bias, int64_t dr,             \
                    tp_rt_memref *d, int64_t pr, tp_rt_memref *p) {            \
    return guarded(#NAME, [&] {                                                \
      Described S({sr, s}, sizeOf(IN)), W({wr, w}, sizeOf(IN)),                \
          Bias({biasr, bias}, sizeOf(IN)), D({dr, d}, sizeOf(OUT));            \
      return D.after(conv(IN, OUT, S.view(), W.view(), Bias.view(), D.view(),  \
                          View{pr, p}));                                       \
    });                                                                        \
  }
TP_CONV(tp_rt_dnnl_conv_f32_f32, dt::f32, dt::f32)
TP_CONV(tp_rt_dnnl_conv_bf16_bf16, dt::bf16, dt::bf16)
#undef TP_CONV

#define TP_CONV_BACKWARD_WEIGHTS(NAME, TYPE)                                   \
  tp_rt_status NAME(int64_t gr, tp_rt_memref *g, int64_t sr, tp_rt_memref *s,  \
                    int64_t dwr, tp_rt_memref *dw, int64_t dbr,                \
                    tp_rt_memref *db, int64_t pr, tp_rt_memref *p) {           \
    return guarded(#NAME, [&] {                                                \
      Described G({gr, g}, sizeOf(TYPE)), S({sr, s}, sizeOf(TYPE)),            \
          DW({dwr, dw}, sizeOf(TYPE)), DB({dbr, db}, sizeOf(TYPE));            \
      return DB.after(DW.after(convBackwardWeights(                            \
          TYPE, G.view(), S.view(), DW.view(), DB.view(), View{pr, p})));      \
    });                                                                        \
  }
TP_CONV_BACKWARD_WEIGHTS(tp_rt_dnnl_conv_backward_weights_f32, dt::f32)
TP_CONV_BACKWARD_WEIGHTS(tp_rt_dnnl_conv_backward_weights_bf16, dt::bf16)
#undef TP_CONV_BACKWARD_WEIGHTS

#define TP_SOFTMAX_BACKWARD(NAME, TYPE)                                        \
  tp_rt_status NAME(int64_t gr, tp_rt_memref *g, int64_t yr, tp_rt_memref *y,  \
                    int64_t dr, tp_rt_memref *d, int64_t axis, int64_t log) {  \
    return guarded(#NAME, [&] {                                                \
      Described G({gr, g}, sizeOf(TYPE)), Y({yr, y}, sizeOf(TYPE)),            \
          D({dr, d}, sizeOf(TYPE));                                            \
      return D.after(                                                          \
          softmaxBackward(TYPE, G.view(), Y.view(), D.view(), axis, log));     \
    });                                                                        \
  }
TP_SOFTMAX_BACKWARD(tp_rt_dnnl_softmax_backward_f32, dt::f32)
TP_SOFTMAX_BACKWARD(tp_rt_dnnl_softmax_backward_bf16, dt::bf16)
#undef TP_SOFTMAX_BACKWARD

} // extern "C"
