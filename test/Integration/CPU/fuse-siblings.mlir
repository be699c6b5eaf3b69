// tp-fuse-siblings on generated programs (sums, means, sums of products
// and elementwise results of shared operands over random shapes): each
// compiled with and without the pass gives the same bits, matches NumPy,
// and the pass leaves fewer loops (linalg.generic ops).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fuse_siblings.py --tp-run tp-run --tp-opt tp-opt --tmp %t | FileCheck %s
// CHECK: 24 programs: fused and unfused results equal bit for bit and match NumPy; loops {{[0-9]+}} -> {{[0-9]+}}
