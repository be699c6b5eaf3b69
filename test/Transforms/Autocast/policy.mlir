// --autocast-policy: a JSON file adds op names to or removes them from any
// list of any device; bad files are errors naming the file and entry.
// RUN: tp-opt --autocast=cuda:fp16 --autocast-policy=%S/Inputs/policy-add-remove.json %s | FileCheck %s
// RUN: tp-opt --autocast=cpu --autocast-policy=%S/Inputs/policy-add-remove.json %s | FileCheck %s --check-prefix=CPU
// RUN: not tp-opt --autocast=cuda --autocast-policy=%S/Inputs/policy-unknown-op.json %s 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not tp-opt --autocast=cuda --autocast-policy=%S/Inputs/policy-unknown-list.json %s 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: not tp-opt --autocast=cuda --autocast-policy=%S/Inputs/policy-bad-remove.json %s 2>&1 | FileCheck %s --check-prefix=REMOVE
// RUN: not tp-opt --autocast=cuda --autocast-policy=%S/Inputs/policy-bad-json.json %s 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not tp-opt --autocast=cuda --autocast-policy=%S/Inputs/no-such-file.json %s 2>&1 | FileCheck %s --check-prefix=MISSING
// Deep nesting is refused before the recursive parser sees it (100000
// nested arrays overflowed the stack), also inside a valid-looking file;
// brackets in strings do not count.
// RUN: %python -c "print('[' * 100000 + ']' * 100000)" > %t.deep.json
// RUN: not tp-opt --autocast=cuda --autocast-policy=%t.deep.json %s 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: %python -c "print('{\"cuda\": {\"fp32\": {\"add\": [' + '{\"a\": ' * 50000 + '1' + '}' * 50000 + ']}}}')" > %t.deep2.json
// RUN: not tp-opt --autocast=cuda --autocast-policy=%t.deep2.json %s 2>&1 | FileCheck %s --check-prefix=DEEP2
// RUN: %python -c "print('{\"cuda\": {\"fp32\": {\"add\": [\"' + '[' * 100 + '\"]}}}')" > %t.brackets.json
// RUN: not tp-opt --autocast=cuda --autocast-policy=%t.brackets.json %s 2>&1 | FileCheck %s --check-prefix=BRACKETS

// mm is no longer on the cuda lower list, add is; relu is now fp32, exp not.
// CHECK-LABEL: func.func @edited
// CHECK: tp.mm %arg0, %arg0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: tp.add %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// CHECK: %[[W:.*]] = tp.cast %{{.*}} : tensor<4x4xf16> to tensor<4x4xf32>
// CHECK: tp.relu %[[W]] : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: tp.exp %{{.*}} : (tensor<4x4xf16>) -> tensor<4x4xf16>
// The cpu policy is untouched.
// CPU: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
// CPU: tp.add %arg0, %{{.*}} : (tensor<4x4xf32>, tensor<4x4xbf16>) -> tensor<4x4xf32>
func.func @edited(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = tp.add %a, %m : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tp.relu %s : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tp.exp %s : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m, %r, %e : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// OP: error: {{.*}}policy-unknown-op.json: unknown op 'not_an_op' in 'cuda.fp32.add'
// LIST: error: {{.*}}policy-unknown-list.json: unknown list 'cuda.fastest' (expected lower, fp32, promote or banned)
// REMOVE: error: {{.*}}policy-bad-remove.json: cannot remove 'exp' from 'xpu.lower': it is not on that list
// JSON: error: {{.*}}policy-bad-json.json: invalid JSON
// MISSING: error: cannot read the autocast policy file: {{.*}}no-such-file.json
// DEEP: error: {{.*}}deep.json: JSON nested deeper than 32 levels at offset 32 (a policy file nests 4: devices, lists, add/remove, names)
// DEEP2: error: {{.*}}deep2.json: JSON nested deeper than 32 levels at offset
// BRACKETS: error: {{.*}}brackets.json: unknown op '{{\[+}}' in 'cuda.fp32.add'
