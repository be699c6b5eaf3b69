//===- TestShapeSweep.cpp - Shape variants of tp ops that verify ----------===//
//
// test-tp-shape-sweep: for every tp compute op of the input (a template: a
// function whose op takes the function's arguments), generates variants of
// its operand types (a dimension inserted, removed, set to 1, to 0 or to
// another size, in one operand, in all of them at once, and random pairs),
// builds the op on each through its InferTypeOpInterface (its shape and
// dtype rules) and keeps those that verify, each in a function of its own
// returning the op's results, and beside each its out= form where that
// verifies (`<name>_out`, the destinations as more arguments). The templates
// are replaced by the variants; a remark on the module counts the variants
// tried, kept and refused. The shape-sweep test lowers every kept variant and
// requires code or a diagnostic, never an abort: a verifier that accepts what a
// lowering or decomposition cannot build is caught here. The variants also seed
// the fuzzer (tools/tp-fuzz).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSet.h"

#include <random>

using namespace mlir;

namespace {

using Shape = SmallVector<int64_t>;

/// One change of a shape; `apply` fails when it does not fit the rank.
struct Mutation {
  enum Kind { Insert, Erase, Set } kind;
  int64_t pos; // a negative position counts from the end
  int64_t size;

  std::optional<Shape> apply(ArrayRef<int64_t> shape) const {
    int64_t rank = shape.size();
    int64_t p = pos < 0 ? pos + rank + (kind == Insert ? 1 : 0) : pos;
    Shape out(shape);
    switch (kind) {
    case Insert:
      if (p < 0 || p > rank)
        return std::nullopt;
      out.insert(out.begin() + p, size);
      return out;
    case Erase:
      if (p < 0 || p >= rank)
        return std::nullopt;
      out.erase(out.begin() + p);
      return out;
    case Set:
      if (p < 0 || p >= rank || ShapedType::isDynamic(shape[p]))
        return std::nullopt;
      out[p] = size < 0 ? shape[p] + 1 : size;
      if (out[p] == shape[p])
        return std::nullopt;
      return out;
    }
    return std::nullopt;
  }
};

/// Every single change of a shape of `rank`: a dimension of 1 or 2 inserted
/// anywhere, each dimension removed, or set to 1, 0 or its size + 1.
SmallVector<Mutation> mutationsOfRank(int64_t rank) {
  SmallVector<Mutation> out;
  for (int64_t p = 0; p <= rank; ++p)
    for (int64_t size : {1, 2})
      out.push_back({Mutation::Insert, p, size});
  for (int64_t p = 0; p < rank; ++p) {
    out.push_back({Mutation::Erase, p, 0});
    for (int64_t size : {1, 0, -1})
      out.push_back({Mutation::Set, p, size});
  }
  return out;
}

/// The changes applied to every operand at once (batch dimensions added,
/// removed, emptied; the last dimension emptied or made 1).
const Mutation kAllOperands[] = {
    {Mutation::Insert, 0, 1}, {Mutation::Insert, 0, 2},
    {Mutation::Insert, 0, 3}, {Mutation::Erase, 0, 0},
    {Mutation::Set, 0, 0},    {Mutation::Set, 0, 1},
    {Mutation::Set, -1, 0},   {Mutation::Set, -1, 1},
    {Mutation::Set, -2, 0},   {Mutation::Set, -2, 1}};

struct TestShapeSweep
    : public PassWrapper<TestShapeSweep, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestShapeSweep)
  TestShapeSweep() = default;
  TestShapeSweep(const TestShapeSweep &other) : PassWrapper(other) {}
  StringRef getArgument() const final { return "test-tp-shape-sweep"; }
  StringRef getDescription() const final {
    return "Replace each tp op's template function by the shape variants of "
           "its operands that verify (one function each)";
  }
  Option<unsigned> seed{*this, "seed",
                        llvm::cl::desc("Seed of the random pairs"),
                        llvm::cl::init(1)};
  Option<unsigned> pairs{
      *this, "pairs",
      llvm::cl::desc("Random two-operand variants tried per op"),
      llvm::cl::init(24)};
  Option<unsigned> maxKept{
      *this, "max-per-op",
      llvm::cl::desc("At most this many variants kept per op"),
      llvm::cl::init(32)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<func::FuncOp> templates(module.getOps<func::FuncOp>());
    SmallVector<Operation *> ops;
    for (func::FuncOp fn : templates)
      fn.walk([&](Operation *op) {
        if (isa<tp::ComputeOpInterface>(op) && isa<InferTypeOpInterface>(op))
          ops.push_back(op);
      });
    std::mt19937 rng(seed);
    OpBuilder builder(ctx);
    builder.setInsertionPointToEnd(module.getBody());
    unsigned tried = 0, kept = 0, refused = 0;
    for (Operation *op : ops) {
      SmallVector<SmallVector<Type>> variants = variantsOf(op, rng);
      unsigned keptHere = 0, index = 0;
      for (ArrayRef<Type> types : variants) {
        if (keptHere >= maxKept)
          break;
        ++tried;
        auto parent = op->getParentOfType<func::FuncOp>();
        std::string name =
            (parent.getSymName() + "_" + std::to_string(index++)).str();
        if (build(builder, op, types, name)) {
          ++kept;
          ++keptHere;
        } else {
          ++refused;
        }
      }
      if (keptHere == 0)
        op->emitRemark("no shape variant verifies");
    }
    for (func::FuncOp fn : templates)
      fn.erase();
    module->emitRemark() << ops.size() << " ops, " << tried
                         << " variants tried, " << kept << " kept, " << refused
                         << " refused";
  }

  /// The operand types of the variants of `op`: the template's own first,
  /// then single-operand changes, changes of all operands, random pairs; no
  /// list twice.
  SmallVector<SmallVector<Type>> variantsOf(Operation *op,
                                            std::mt19937 &rng) const {
    SmallVector<Type> base(op->getOperandTypes());
    SmallVector<SmallVector<Type>> out = {base};
    llvm::StringSet<> seen;
    auto key = [](ArrayRef<Type> types) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleaveComma(types, os);
      return text;
    };
    seen.insert(key(base));
    auto add = [&](SmallVector<Type> types) {
      if (seen.insert(key(types)).second)
        out.push_back(std::move(types));
    };
    auto mutated = [&](Type type, const Mutation &m) -> Type {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        return {};
      std::optional<Shape> shape = m.apply(tensor.getShape());
      return shape ? tensor.clone(*shape) : Type();
    };
    for (unsigned i = 0; i < base.size(); ++i) {
      auto tensor = dyn_cast<RankedTensorType>(base[i]);
      if (!tensor)
        continue;
      for (const Mutation &m : mutationsOfRank(tensor.getRank())) {
        SmallVector<Type> types(base);
        if ((types[i] = mutated(base[i], m)))
          add(types);
      }
    }
    for (const Mutation &m : kAllOperands) {
      SmallVector<Type> types(base);
      bool any = false;
      for (Type &t : types)
        if (Type changed = mutated(t, m)) {
          t = changed;
          any = true;
        }
      if (any)
        add(types);
    }
    if (base.size() >= 2)
      for (unsigned n = 0; n < pairs; ++n) {
        unsigned i = rng() % base.size(), j = rng() % base.size();
        if (i == j)
          continue;
        SmallVector<Type> types(base);
        bool ok = true;
        for (unsigned k : {i, j}) {
          auto tensor = dyn_cast<RankedTensorType>(base[k]);
          if (!tensor) {
            ok = false;
            break;
          }
          SmallVector<Mutation> ms = mutationsOfRank(tensor.getRank());
          ok = ok && (types[k] = mutated(base[k], ms[rng() % ms.size()]));
        }
        if (ok)
          add(types);
      }
    return out;
  }

  /// A function @name taking `types` whose body is `op` on its arguments,
  /// kept when the op's rules infer its result types and it verifies; then
  /// also its out= form in @name_out (the destinations as more arguments),
  /// kept when that verifies (the op has an out= overload).
  bool build(OpBuilder &builder, Operation *op, ArrayRef<Type> types,
             StringRef name) const {
    // The rules emit their reasons: silenced, a refusal is counted.
    ScopedDiagnosticHandler silence(op->getContext(),
                                    [](Diagnostic &) { return success(); });
    NamedAttrList attrs(op->getAttrDictionary());
    func::FuncOp fn = startFunction(builder, op->getLoc(), name, types);
    // Ops whose results the rules cannot infer alone (mkldnn_rnn_layer's
    // workspace, quantile with an f64 q) keep the template's result types:
    // the verifier then keeps the variants that do not change them.
    FailureOr<SmallVector<Type>> inferred =
        tp::inferResultTypes(op->getContext(), op->getName().getStringRef(),
                             fn.getArguments(), attrs.getAttrs());
    SmallVector<Type> results = succeeded(inferred)
                                    ? *inferred
                                    : SmallVector<Type>(op->getResultTypes());
    if (!finishFunction(fn, op->getName(), attrs, results))
      return false;
    SmallVector<Type> outTypes(types);
    outTypes.append(results);
    finishFunction(
        startFunction(builder, op->getLoc(), (name + "_out").str(), outTypes),
        op->getName(), tp::attributesWithOutSegment(op, op->getNumResults()),
        results);
    return true;
  }

  /// An empty function @name taking `types`.
  func::FuncOp startFunction(OpBuilder &builder, Location loc, StringRef name,
                             ArrayRef<Type> types) const {
    auto fn = func::FuncOp::create(builder, loc, name,
                                   builder.getFunctionType(types, {}));
    fn.addEntryBlock();
    return fn;
  }

  /// `fn`'s body: the op `opName` with `attrs` on all of fn's arguments,
  /// returning its results of `results`; fn is erased (false) when it does
  /// not verify.
  bool finishFunction(func::FuncOp fn, OperationName opName,
                      const NamedAttrList &attrs,
                      ArrayRef<Type> results) const {
    OpBuilder body = OpBuilder::atBlockEnd(&fn.front());
    Operation *op = body.create(OperationState(
        fn.getLoc(), opName, fn.getArguments(), results, attrs.getAttrs()));
    func::ReturnOp::create(body, fn.getLoc(), op->getResults());
    fn.setType(body.getFunctionType(fn.getArgumentTypes(), results));
    if (succeeded(verify(fn)))
      return true;
    fn.erase();
    return false;
  }
};

} // namespace

namespace mlir::tp::test {
void registerTestShapeSweep() { PassRegistration<TestShapeSweep>(); }
} // namespace mlir::tp::test
