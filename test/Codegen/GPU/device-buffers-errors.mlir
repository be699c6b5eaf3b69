// What tp-device-buffers cannot move to the device is an error at the op.
// RUN: tp-opt %s --split-input-file --tp-device-buffers --verify-diagnostics -o /dev/null

func.func @strided_alloc() {
  // expected-error @+1 {{tp-device-buffers: a buffer with a layout cannot be allocated on the device}}
  %t = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  return
}
