"""The OCP 8-bit floats through tensorplay.compile (tensorplay 1.1 has
float8_e4m3fn and float8_e5m2): `.to(float8_*)` and back compile to tp.cast
and give eager's bits (the independent reference) on every f16 value, on
f32 values around each rounding boundary and on the special values; f8
tensors cross the compiled function's boundary both ways. (tensorplay
saturates E4M3FN and overflows E5M2 to infinity; NaN is S.1111.111.)"""

import numpy as np
import pytest
import tensorplay

from tensorplay_mlir import dtypes

FORMATS = ["float8_e4m3fn", "float8_e5m2"]

pytestmark = pytest.mark.skipif(
    not all(hasattr(tensorplay, f) for f in FORMATS),
    reason="this tensorplay has no float8 dtypes")


def _f32(bits):
    return tensorplay.from_numpy(np.asarray(bits, np.uint32).view(np.float32))


def _inputs():
    """Every f16 value widened to f32 (the rounding boundaries of both f8
    formats are f16 values), their f32 neighbours, and the specials."""
    halves = np.arange(65536, dtype=np.uint16).view(np.float16)
    wide = halves.astype(np.float32).view(np.uint32)
    bits = np.concatenate([wide, wide + 1, wide - 1,
                           np.array([0x7f800000, 0xff800000, 0x7fc00000,
                                     0xffc00001, 0x7f7fffff, 1], np.uint32)])
    return _f32(bits)


def _bits(t):
    return t.view(tensorplay.uint8).numpy()


@pytest.mark.parametrize("fmt", FORMATS)
def test_to_float8_and_back_is_eager_bit_for_bit(fmt):
    dtype = getattr(tensorplay, fmt)

    def roundtrip(x):
        q = x.to(dtype)
        return q, q.to(tensorplay.float32)

    x = _inputs()
    compiled = tensorplay.compile(roundtrip, backend="mlir",
                                  options={"fallback": False})
    q, back = compiled(x)
    eager_q, eager_back = roundtrip(x)
    assert q.dtype == dtype
    # Bit for bit, NaN codes and the widened NaNs' payloads included.
    got, want = _bits(q), _bits(eager_q)
    assert np.array_equal(got, want), np.flatnonzero(got != want)[:10]
    assert np.array_equal(back.numpy().view(np.uint32),
                          eager_back.numpy().view(np.uint32))


@pytest.mark.parametrize("fmt", FORMATS)
def test_float8_arguments_and_bf16_results(fmt):
    dtype = getattr(tensorplay, fmt)
    codes = tensorplay.from_numpy(np.arange(256, dtype=np.uint8)).view(dtype)

    def widen(q):
        return q.to(tensorplay.bfloat16) * 2

    compiled = tensorplay.compile(widen, backend="mlir",
                                  options={"fallback": False})
    got = compiled(codes).to(tensorplay.float32).numpy()
    want = widen(codes).to(tensorplay.float32).numpy()
    # NaN stays NaN (bf16's NaN bits are the bf16 rounding's business).
    nan = np.isnan(want)
    assert nan.any() and np.isnan(got[nan]).all()
    assert np.array_equal(got[~nan].view(np.uint32),
                          want[~nan].view(np.uint32))


def test_the_dtype_table_comes_from_the_compiler():
    # ElementTypes.def, through _core: f8 included, complex left to eager.
    assert dtypes.mlir_type(tensorplay.float8_e4m3fn) == "f8E4M3FN"
    assert dtypes.mlir_type(tensorplay.float8_e5m2) == "f8E5M2"
    assert dtypes.mlir_type(tensorplay.bfloat16) == "bf16"
    with pytest.raises(dtypes.UnsupportedDtype):
        dtypes.mlir_type(tensorplay.complex64)
