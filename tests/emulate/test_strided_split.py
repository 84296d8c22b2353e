"""The twin's strided split (split_k layout="strided": K tiles dealt to the parts in turn, algorithm 35)."""
import numpy as np
import pytest

from bitorder.desc import GEMMDesc
from bitorder.emulate import matmul
from bitorder.emulate import tensorcore as tc
from bitorder.emulate.gemm import _merge, epilogue


def _desc(k, parts, tile=64, **kw):
    return GEMMDesc("split_k", "fp16", k, "mma_sync", 16, k_cuts=(tile,), k_parts=parts, partial_dtype="fp32",
                    merge_dtype="fp32", merge_order="sequential", layout="strided", **kw)


def _operands(k, seed=0, m=3, n=5):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((m, k)) * np.exp2(rng.integers(-5, 5, (m, k)))).astype(np.float16)
    b = (rng.standard_normal((k, n)) * np.exp2(rng.integers(-5, 5, (k, n)))).astype(np.float16)
    return a, b


@pytest.mark.parametrize("k, parts", [(200, 2), (1000, 3), (1000, 9), (577, 9), (64 * 9 + 1, 9)])
def test_strided_twin_is_the_dealt_chains(k, parts):
    """Each part one k16 chain over tiles p, p + parts, ... (groups from each tile's start), fp32
    partials summed in part order, the bias in fp32, one rounding."""
    a, b = _operands(k)
    bias = np.linspace(-3, 3, b.shape[1]).astype(np.float16)
    d = _desc(k, parts, epilogue=("bias_acc", "round"))
    tiles = [(s, min(s + 64, k)) for s in range(0, k, 64)]
    chains = [tc.chain(a.astype(np.float64), b.astype(np.float64),
                       [(s, min(s + 16, e)) for ts, e in tiles[p::parts] for s in range(ts, e, 16)], "fp16")
              for p in range(parts)]
    want = epilogue(_merge(chains, d), d, "fp16", bias.astype(np.float64))
    got = matmul(a, b, d, bias=bias.astype(np.float64))
    assert np.array_equal(got.view(np.int16), want.view(np.int16))


def test_one_tile_a_part_is_the_contiguous_split():
    """When every part holds one tile, dealing in turn and contiguous spans are the same cut."""
    k = 64 * 4 + 10
    a, b = _operands(k, 1)
    d = _desc(k, 5)
    assert np.array_equal(matmul(a, b, d).view(np.int16), matmul(a, b, d.replace(layout=None)).view(np.int16))


def test_strided_differs_from_contiguous_somewhere():
    """Deep K with cancelling draws: the dealt order is not the contiguous one (a sanity check that
    the layout is read at all)."""
    k = 64 * 40 + 17
    differ = 0
    for seed in range(4):
        a, b = _operands(k, seed, m=8, n=8)
        d = _desc(k, 9)
        differ += int((matmul(a, b, d).view(np.int16) != matmul(a, b, d.replace(layout=None)).view(np.int16)).sum())
    assert differ > 0
