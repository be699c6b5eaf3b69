//===- OpRegistryTest.cpp - Every seed name is a tp op --------------------===//
//
// Every name of the seed's tables (after the spelling rules) must be a
// registered tp op implementing the compute-op interface, and the everyday
// ops of DESIGN.md must exist too.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Dialect/TP/Policy/AutocastPolicy.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace mlir::tp;

namespace {
class OpRegistry : public ::testing::Test {
protected:
  OpRegistry() { ctx.loadDialect<TPDialect>(); }
  std::optional<RegisteredOperationName> lookup(StringRef name) {
    return RegisteredOperationName::lookup(("tp." + name).str(), &ctx);
  }
  MLIRContext ctx;
};

TEST_F(OpRegistry, EverySeedNameIsAComputeOp) {
  std::set<std::string> names;
  for (const SeedTable &table : getSeedTables())
    for (const char *seedName : table.names)
      names.insert(seedNameToOpName(seedName));
  names.insert("binary_cross_entropy");
  ASSERT_EQ(names.size(), 164u);
  for (const std::string &name : names) {
    std::optional<RegisteredOperationName> op = lookup(name);
    EXPECT_TRUE(op.has_value()) << "tp." << name << " is not registered";
    if (!op)
      continue;
    EXPECT_TRUE(op->hasInterface<ComputeOpInterface>()) << name;
  }
}

TEST_F(OpRegistry, EverydayOps) {
  for (StringRef name :
       {"add",    "sub",      "mul",   "div",       "neg",     "relu",
        "gelu",   "sigmoid",  "tanh",  "transpose", "permute", "reshape",
        "expand", "mean",     "max",   "embedding", "dropout", "constant",
        "cast",   "autocast", "yield", "where"})
    EXPECT_TRUE(lookup(name).has_value()) << "tp." << name.str();
}
} // namespace
