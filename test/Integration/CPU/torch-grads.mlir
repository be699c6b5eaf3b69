// tp-autodiff's gradients against PyTorch's, where PyTorch's backward
// makes a choice finite differences cannot see (ties of amax / max /
// max_dim / maximum, zeros of prod and norm, the kinks of l1 / smooth_l1 /
// huber, normalize's eps, binary_cross_entropy's clamps, embedding's
// padding_idx and scale_grad_by_freq) or where the forward's definition
// matters (label smoothing with weights and ignored targets, pads,
// conv_transpose with output_padding, bilinear, tensordot). The expected
// values were made once with PyTorch 2.15 (Inputs/torch-grads/gen.py) and
// are stored in Inputs/torch-grads/expected.json; this test does not
// import torch.
// RUN: %python %S/Inputs/torch-grads/run.py --tp-opt tp-opt --tp-run tp-run --tmp %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: torch-grads: {{[1-9][0-9]*}} cases, 0 failed
