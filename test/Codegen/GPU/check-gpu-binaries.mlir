// A kernel module that gpu-module-to-binary left in place (it failed to
// serialize) is an error, so tp-lower-to-nvvm never emits it silently.
// RUN: tp-opt %s --tp-check-gpu-binaries --verify-diagnostics -o /dev/null

module attributes {gpu.container_module} {
  // expected-error @+1 {{tp-lower-to-nvvm: kernel module @k was not compiled to a binary}}
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
}
