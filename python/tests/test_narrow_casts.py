"""f32 -> bf16 and f32 -> f16 through tensorplay.compile give eager's bits
(the independent reference), NaN payloads included: every f32 exponent and
sign with the low 16 bits at and around the bf16 ties, and NaNs of both
signs with payloads, quiet and signalling. The input length is a multiple of
64 so that eager rounds every element with its vectorized conversion: its
scalar loop for a remainder shorter than a vector keeps a signalling NaN
signalling and turns 0x7f800001 into infinity; compiled code (and the
runtime, tensorplay/Runtime/FloatRounding.h) never does. f32 subnormals are
left out of the bf16 comparison: eager flushes them to zero on CPUs with
AVX512-BF16 (vcvtneps2bf16) and rounds them elsewhere; compiled code rounds
them everywhere (test/Unit/NarrowFloatCastTest.cpp checks every pattern)."""

import numpy as np
import pytest
import tensorplay


def _inputs():
    high = np.arange(65536, dtype=np.uint32) << 16
    lows = np.array([0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff],
                    np.uint32)
    bits = (high[:, None] | lows[None, :]).ravel()
    nans = np.array([0x7f800001, 0xff800001, 0x7f810000, 0xff812345,
                     0x7fc00000, 0xffc00000, 0x7fffffff, 0xffffffff,
                     0x7fa5a5a5, 0xffdead00, 0x7f802000, 0xff80ffff],
                    np.uint32)
    bits = np.concatenate([bits, np.tile(nans, 16)])
    bits = bits[: len(bits) // 64 * 64]
    assert len(bits) % 64 == 0 and np.isin(nans, bits).all()
    return tensorplay.from_numpy(bits.view(np.float32))


def _bits(t):
    return t.view(tensorplay.int16).numpy().view(np.uint16)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_narrowing_is_eager_bit_for_bit(dtype):
    target = getattr(tensorplay, dtype)

    def narrow(x):
        return x.to(target)

    x = _inputs()
    compiled = tensorplay.compile(narrow, backend="mlir",
                                  options={"fallback": False})
    got, want = _bits(compiled(x)), _bits(narrow(x))
    bits = x.numpy().view(np.uint32)
    subnormal = ((bits & 0x7f800000) == 0) & ((bits & 0x7fffff) != 0)
    compared = ~subnormal if dtype == "bfloat16" else np.ones_like(subnormal)
    differ = np.flatnonzero((got != want) & compared)
    assert differ.size == 0, [
        (hex(bits[i]), hex(got[i]), hex(want[i]))
        for i in differ[:8]]
    # The NaNs were there and kept their sign and payload (made quiet).
    nan = np.isnan(x.numpy())
    assert nan.sum() > 1000
    quiet = 0x7fc0 if dtype == "bfloat16" else 0x7e00
    assert np.all(got[nan] & quiet == quiet)
    signs = (bits[nan] >> 16) & 0x8000
    assert np.array_equal(got[nan] & 0x8000, signs)
    assert len(np.unique(got[nan])) > 2
