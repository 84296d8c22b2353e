"""Shared exp/log and a softmax built on them: the H200's bits equal the CPU's."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.gpu

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import bitorder  # noqa: E402,F401
from bitorder.emulate import pinned_reduce, pinned_sum  # noqa: E402
from bitorder.math import exp, log, tl_exp, tl_log  # noqa: E402


@triton.jit
def _apply(x_ptr, y_ptr, z_ptr, n, B: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * B + tl.arange(0, B)
    x = tl.load(x_ptr + o, mask=o < n)
    tl.store(y_ptr + o, tl_exp(x), mask=o < n)
    tl.store(z_ptr + o, tl_log(x), mask=o < n)


def inputs_2_24():
    """2^24 float32 inputs spanning the whole range: every 256th bit pattern, plus specials."""
    bits = np.arange(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32).copy()
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 88.72283935546875]
    return x


@pytest.mark.parametrize("fusion", [True, False])
def test_exp_log_bits_equal_cpu(fusion):
    x = inputs_2_24()
    xt = torch.from_numpy(x).cuda()
    y, z = torch.empty_like(xt), torch.empty_like(xt)
    _apply[(triton.cdiv(x.size, 1024),)](xt, y, z, x.size, B=1024, enable_fp_fusion=fusion)
    for got, want in ((y.cpu().numpy(), exp(x)), (z.cpu().numpy(), log(x))):
        g, w = got.view(np.uint32), want.view(np.uint32)
        nan = np.isnan(got) & np.isnan(want)
        assert int(((g != w) & ~nan).sum()) == 0


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _softmax(x_ptr, y_ptr, C: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * C + tl.arange(0, C))
    m = tl.reduce(x, 0, _max, pinned=True)
    e = tl_exp(x - m)
    # tl.math.div_rn: "/" is div.full.f32 (approximate) on NVIDIA; div_rn rounds as numpy does
    tl.store(y_ptr + row * C + tl.arange(0, C), tl.math.div_rn(e, tl.sum(e, axis=0, pinned=True)))


@pytest.mark.parametrize("warps", [1, 4, 8])
def test_softmax_bits_equal_cpu(warps):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((512, 1024)) * 8).astype(np.float32)
    y = torch.empty(512, 1024, device="cuda")
    _softmax[(512,)](torch.from_numpy(x).cuda(), y, C=1024, num_warps=warps)
    m = pinned_reduce(x, 1, np.maximum)
    e = exp(x - m[:, None])
    want = (e / pinned_sum(e, 1)[:, None]).astype(np.float32)
    assert np.array_equal(y.cpu().numpy().view(np.int32), want.view(np.int32))
