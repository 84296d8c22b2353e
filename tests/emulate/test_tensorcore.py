"""The tensor-core step model: exact products, truncation below 2^(Emax-F), one rounding toward zero."""
import numpy as np
import pytest

from bitorder.desc import GEMMDesc
from bitorder.emulate import k_groups, matmul
from bitorder.emulate.tensorcore import CANONICAL_NAN, mma_step


def step(prods, c, fmt="fp16"):
    a = np.array([prods], dtype=np.float64)
    b = np.ones((len(prods), 1))
    return mma_step(a, b, np.array([[c]], np.float32), fmt)[0, 0]


def bits(x):
    return np.float32(x).view(np.uint32)


def test_one_rounding_toward_zero():
    # 1 + 1.5 ulp: round-to-nearest would give 1 + 2 ulp, the step gives 1 + 1 ulp
    u = 2.0 ** -24
    assert step([u, u, u] + [0] * 13, 1.0) == np.float32(1 + 2 ** -23)


def test_terms_truncated_below_the_largest_exponent():
    # 16 products of 2^-26 beside c = 1: each falls under 2^(0-25) and is dropped, so the sum stays 1
    assert step([2.0 ** -26] * 16, 1.0) == np.float32(1.0)
    # without the large c they add up exactly
    assert step([2.0 ** -26] * 16, 0.0) == np.float32(2.0 ** -22)


def test_specials():
    a = np.array([[np.inf]]); b = np.array([[0.0]])
    assert bits(mma_step(a, b, np.zeros((1, 1), np.float32), "fp16")[0, 0]) == 0x7FFFFFFF
    assert step([np.inf, 1.0], 0.0) == np.inf
    assert bits(step([np.inf, -np.inf], 0.0)) == 0x7FFFFFFF
    assert bits(step([1.0, -1.0], -0.0)) == 0  # exact zero is +0.0


def test_k_groups_tail_last_and_first():
    plain = GEMMDesc("plain", "fp16", 40, "wgmma", 16)
    assert k_groups(plain, 0, 40) == [(0, 16), (16, 32), (32, 40)]
    first = GEMMDesc("plain", "fp16", 100, "mma_sync", 8, k_tail="first", k_step=32)
    g = k_groups(first, 0, 100)
    assert g[0] == (0, 4) and g[1] == (4, 12) and g[-1] == (92, 100)


def test_plain_matmul_is_close_to_float64():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((8, 300)).astype(np.float16)
    b = rng.standard_normal((300, 5)).astype(np.float16)
    out = matmul(a, b, GEMMDesc("plain", "fp16", 300, "wgmma", 16))
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert out.dtype == np.float16 and np.allclose(out, ref, rtol=2e-3, atol=2e-2)


def test_matmul_checks_its_inputs():
    d = GEMMDesc("plain", "fp16", 16, "wgmma", 16)
    with pytest.raises(ValueError, match="K=16"):
        matmul(np.zeros((2, 8), np.float16), np.zeros((8, 2), np.float16), d)
    with pytest.raises(ValueError, match="bias"):
        matmul(np.zeros((2, 16), np.float16), np.zeros((16, 2), np.float16), d, bias=np.zeros(2))


@pytest.mark.parametrize("dtype, family", [("fp16", "plain"), ("bf16", "plain"), ("bf16", "split_k")])
def test_nan_outputs_are_written_as_the_gpu_writes_them(dtype, family):
    """A NaN row comes out as 0x7FFF in fp16 and bf16 (cvt.rn's canonical NaN; ml_dtypes alone
    writes bf16 NaN as 0x7FC0) and as 0x7FFFFFFF in fp32 partials and outputs."""
    from bitorder.draws import numpy_draw
    a, b = numpy_draw((4, 64), dtype, 5, 1), numpy_draw((64, 8), dtype, 5, 2)
    a[0, 0] = np.nan
    desc = (GEMMDesc("plain", dtype, 64, "wgmma", 16) if family == "plain" else
            GEMMDesc("split_k", dtype, 64, "wgmma", 16, k_cuts=(32,), partial_dtype="fp32", merge_dtype="fp32",
                     merge_order="sequential"))
    out = matmul(a, b, desc)
    assert (np.asarray(out).view(np.uint16)[0] == 0x7FFF).all()
    out32 = matmul(a, b, desc, out_dtype="fp32")
    assert (np.asarray(out32).view(np.uint32)[0] == 0x7FFFFFFF).all()
