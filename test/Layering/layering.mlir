// The build's layering: each target includes only the public headers of
// itself and of the libraries it links (cmake/TensorplayLayering.cmake
// records them, check-layering.py checks them).
// RUN: %python %S/check-layering.py %tp_obj_root/layering.json %tp_src_root | FileCheck %s
// CHECK: layering: {{[1-9][0-9]*}} targets, {{[1-9][0-9]*}} files, {{[1-9][0-9]*}} tensorplay includes checked, no violations
