//===- MathFallback.cpp - f64 libm fallback for rare f32 lanes ------------===//
//
// See MathFallback.h.
//
//===----------------------------------------------------------------------===//

#include "MathFallback.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

Value tp::mathConstant(OpBuilder &b, Location loc, Type type, double value) {
  TypedAttr scalar = b.getFloatAttr(getElementTypeOrSelf(type), value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     SplatElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

Value tp::withF64Fallback(
    OpBuilder &b, Location loc, Value x, Value mask, Value inlineResult,
    function_ref<Value(OpBuilder &, Location, Value)> exact) {
  Type type = x.getType();
  Value any = mask;
  if (auto vector = dyn_cast<VectorType>(type)) {
    Value flat = mask;
    if (vector.getRank() != 1)
      flat = vector::ShapeCastOp::create(
          b, loc, VectorType::get({vector.getNumElements()}, b.getI1Type()),
          mask);
    any = vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, flat);
  }
  Type f64Type = isa<VectorType>(type)
                     ? (Type)cast<VectorType>(type).clone(b.getF64Type())
                     : b.getF64Type();
  auto branch = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &nb, Location nloc) {
        // LLVM may run a branch unconditionally when everything in it can
        // be speculated, which the f64 op (an intrinsic without side
        // effects) can: O3 turned the branch into a select and called libm
        // for every element (10% of a GPT forward). An empty asm
        // statement with side effects cannot be speculated, emits no
        // instruction, and keeps the branch.
        LLVM::InlineAsmOp::create(
            nb, nloc, TypeRange{}, ValueRange{}, /*asm_string=*/"",
            /*constraints=*/"", /*has_side_effects=*/true,
            /*is_align_stack=*/false, LLVM::TailCallKind::None,
            /*asm_dialect=*/LLVM::AsmDialectAttr(),
            /*operand_attrs=*/ArrayAttr());
        Value xd = arith::ExtFOp::create(nb, nloc, f64Type, x);
        Value narrowed =
            arith::TruncFOp::create(nb, nloc, type, exact(nb, nloc, xd));
        scf::YieldOp::create(nb, nloc,
                             ValueRange{arith::SelectOp::create(
                                 nb, nloc, mask, narrowed, inlineResult)});
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, ValueRange{inlineResult});
      });
  return branch.getResult(0);
}
