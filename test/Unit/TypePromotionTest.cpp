//===- TypePromotionTest.cpp - tensorplay's native type promotion ---------===//
//
// Expectations follow torch.result_type (PyTorch's documented promotion
// rules), written out by hand.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/DtypeRules.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tp;

namespace {
class TypePromotion : public ::testing::Test {
protected:
  MLIRContext ctx;
  Type f16 = Float16Type::get(&ctx), bf16 = BFloat16Type::get(&ctx),
       f32 = Float32Type::get(&ctx), f64 = Float64Type::get(&ctx),
       i1 = IntegerType::get(&ctx, 1), i8 = IntegerType::get(&ctx, 8),
       u8 = IntegerType::get(&ctx, 8, IntegerType::Unsigned),
       i16 = IntegerType::get(&ctx, 16), i32 = IntegerType::get(&ctx, 32),
       i64 = IntegerType::get(&ctx, 64), c64 = ComplexType::get(f32),
       c128 = ComplexType::get(f64);
};

TEST_F(TypePromotion, DimensionedTensors) {
  EXPECT_EQ(promoteTypes({f16, f32}, {2, 1}), f32);
  EXPECT_EQ(promoteTypes({f16, bf16}, {1, 1}), f32);
  EXPECT_EQ(promoteTypes({bf16, bf16}, {1, 1}), bf16);
  EXPECT_EQ(promoteTypes({i64, f16}, {1, 1}), f16);
  EXPECT_EQ(promoteTypes({i32, i64}, {1, 1}), i64);
  EXPECT_EQ(promoteTypes({u8, i8}, {1, 1}), i16);
  EXPECT_EQ(promoteTypes({i1, i32}, {1, 1}), i32);
  EXPECT_EQ(promoteTypes({f64, c64}, {1, 1}), c128);
  EXPECT_EQ(promoteTypes({f16, c64}, {1, 1}), c64);
}

TEST_F(TypePromotion, ZeroDimTensorsHaveLowerPriority) {
  // A 0-d f32 tensor does not promote an f16 tensor of the same category.
  EXPECT_EQ(promoteTypes({f16, f32}, {2, 0}), f16);
  EXPECT_EQ(promoteTypes({i32, i64}, {1, 0}), i32);
  // A higher category among the 0-d tensors wins.
  EXPECT_EQ(promoteTypes({i32, f64}, {1, 0}), f64);
  EXPECT_EQ(promoteTypes({i64, f16}, {1, 0}), f16);
  EXPECT_EQ(promoteTypes({f32, c128}, {1, 0}), c64);
  // All zero-dimensional: ordinary promotion.
  EXPECT_EQ(promoteTypes({f16, f32}, {0, 0}), f32);
  // Bool tensors take the 0-d type.
  EXPECT_EQ(promoteTypes({i1, i64}, {1, 0}), i64);
}

TEST_F(TypePromotion, WidestFloat) {
  EXPECT_EQ(widestFloatType(f16, f32), f32);
  EXPECT_EQ(widestFloatType(bf16, f16), f32);
  EXPECT_EQ(widestFloatType(bf16, bf16), bf16);
  EXPECT_EQ(widestFloatType(f64, f16), f64);
}
} // namespace
