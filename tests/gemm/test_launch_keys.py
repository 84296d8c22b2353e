"""The launch cache's keys (gemm/launch.py): a compiled kernel is reused only for arguments
Triton's JIT would specialise alike."""
import pytest

torch = pytest.importorskip("torch")

from bitorder.gemm import launch  # noqa: E402


def test_constexprs_key_by_value_and_ints_by_class():
    assert launch._spec(64, True) != launch._spec(128, True)          # BLOCK_M 64 vs 128
    assert launch._spec(64, False) == launch._spec(128, False)        # both multiples of 16
    assert launch._spec(1, False) != launch._spec(17, False)          # 1 is specialised
    assert launch._spec(16, False) != launch._spec(17, False)         # divisibility by 16
    assert launch._spec(2 ** 31, False) != launch._spec(16, False)    # i64 vs i32
    assert launch._spec(True, True) != launch._spec(False, True)


def test_tensors_key_by_dtype_and_alignment():
    buf = torch.zeros(64, dtype=torch.float16)
    assert launch._spec(buf, False) == launch._spec(buf[8:], False)   # 16 bytes apart
    assert launch._spec(buf, False) != launch._spec(buf[1:], False)   # 2 bytes apart
    assert launch._spec(buf, False) != launch._spec(buf.float(), False)


def test_the_fast_path_is_off_unless_asked():
    assert launch.FAST is (__import__("os").environ.get("BITORDER_FAST_LAUNCH") == "1")
