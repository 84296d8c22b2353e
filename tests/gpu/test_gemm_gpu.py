"""bitorder.matmul / linear on the H200: torch's exact bytes for each family of the arch profile."""
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.gpu

import torch.nn.functional as F  # noqa: E402

import bitorder  # noqa: E402
import bitorder.emulate  # noqa: E402,F401
from bitorder.draws import torch_draw  # noqa: E402
from bitorder.gemm import api  # noqa: E402

SHAPES = [  # (M, N, K): nvjet plain, nvjet split-K, misaligned (cutlass s1688 / wmma), serial split, deep K
    (1000, 768, 512), (8, 4096, 14336), (64, 64, 65536), (777, 513, 1999), (1147, 839, 848), (17, 2201, 6359),
    (94, 2, 715), (3, 9, 17626), (4096, 4096, 4096)]


def bits(x):
    return x.contiguous().view(torch.int16)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("m, n, k", SHAPES)
@pytest.mark.parametrize("layout", ["nn", "nt", "tn", "tt"])
def test_matmul_bytes(dtype, m, n, k, layout):
    a = torch_draw((k, m) if layout[0] == "t" else (m, k), dtype, 5, 1, "wide")
    b = torch_draw((n, k) if layout[1] == "t" else (k, n), dtype, 5, 2, "wide")
    a = a.t() if layout[0] == "t" else a
    b = b.t() if layout[1] == "t" else b
    assert torch.equal(bits(bitorder.matmul(a, b)), bits(torch.matmul(a, b))), str(api.plan(a, b))


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_linear_bias_bytes(dtype, m, n, k):
    x = torch_draw((m, k), dtype, 6, 1, "wide")
    w = torch_draw((n, k), dtype, 6, 2, "wide")
    bias = torch_draw((n,), dtype, 6, 3, "narrow")
    assert torch.equal(bits(bitorder.linear(x, w, bias)), bits(F.linear(x, w, bias))), str(api.plan(x, w.t(), bias))


def test_batched_and_folded():
    a = torch_draw((6, 100, 300), "fp16", 7, 1, "wide")
    b = torch_draw((6, 300, 70), "fp16", 7, 2, "wide")
    w = torch_draw((300, 70), "fp16", 7, 3, "wide")
    assert torch.equal(bits(bitorder.matmul(a, b)), bits(torch.matmul(a, b)))
    assert torch.equal(bits(bitorder.matmul(a, w)), bits(torch.matmul(a, w)))            # folded into M
    at = a.transpose(0, 1)                                                              # not foldable: bmm
    assert torch.equal(bits(bitorder.matmul(at, w)), bits(torch.matmul(at, w)))


def test_unknown_answers_fall_back_and_are_counted():
    api.reset_stats()
    x = torch_draw((1, 4096), "fp16", 8, 1, "narrow")   # M = N = 1: cuBLAS's dot kernel, not in the profile
    w = torch_draw((1, 4096), "fp16", 8, 2, "narrow")
    with pytest.warns(UserWarning, match="falling back to cuBLAS"):
        out = bitorder.linear(x, w)
    assert torch.equal(bits(out), bits(F.linear(x, w)))
    assert api.stats().get("cublas", 0) >= 1


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("m, n, k", [(94, 2, 715), (8, 512, 14336), (64, 64, 65536), (777, 13, 1999)])
def test_a_plan_saved_here_replays_on_the_cpu_to_the_same_bytes(dtype, m, n, k):
    a = torch_draw((m, k), dtype, 9, 1, "wide")
    b = torch_draw((k, n), dtype, 9, 2, "wide")
    p = api.plan(a, b)
    if p.path != "triton":
        pytest.skip(f"cuBLAS runs this call itself: {p.reason}")
    got = bitorder.emulate.replay(p.to_json(), a.cpu(), b.cpu())
    assert torch.equal(bits(got), bits(bitorder.matmul(a, b).cpu())), str(p)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_kept_kernels_relaunch_with_torch_bytes(dtype, monkeypatch):
    """The launch cache (launch._launch) reuses a compiled kernel only for arguments that
    specialise alike: fresh draws, shifted (unaligned) operands and a bias, call after call."""
    from bitorder.gemm import launch
    monkeypatch.setattr(launch, "FAST", True)
    for m, n, k in ((8, 4096, 4096), (256, 512, 1024), (33, 65, 1001), (5, 24, 40)):
        for seed in range(3):
            for shift in (0, 8, 1):   # aligned, aligned elsewhere, unaligned (cuBLAS runs it)
                buf = torch_draw((m * k + shift,), dtype, 40 + seed, 1, "wide")
                x = buf[shift:].view(m, k)
                w = torch_draw((n, k), dtype, 40 + seed, 2, "wide")
                bias = torch_draw((n,), dtype, 40 + seed, 3, "narrow")
                if shift == 1:
                    assert bitorder.plan(x, w.t()).reason == "operand address not 16-byte aligned"
                assert torch.equal(bits(bitorder.linear(x, w)), bits(F.linear(x, w))), (m, n, k, seed, shift)
                assert torch.equal(bits(bitorder.linear(x, w, bias)), bits(F.linear(x, w, bias))), (m, n, k, shift)
    assert launch._COMPILED, "the launch cache kept nothing"


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("out", [torch.bfloat16, torch.float16, torch.float32])
def test_scaled_mm_returns_torch_bytes_and_counts_its_path(fast, out):
    """Until the fp8 entry is verified every call is torch._scaled_mm itself: same bytes, counted."""
    a = torch_draw((64, 256), "e4m3", 9, 1, "wide")
    b = torch_draw((128, 256), "e4m3", 9, 2, "wide").t()
    sa, sb = torch.tensor(0.37, device="cuda"), torch.tensor(1.7, device="cuda")
    before = api.stats().get("cublas", 0) + api.stats().get("triton", 0)
    got = bitorder.scaled_mm(a, b, sa, sb, out_dtype=out, use_fast_accum=fast)
    want = torch._scaled_mm(a, b, sa, sb, out_dtype=out, use_fast_accum=fast)
    w = 2 if out != torch.float32 else 4
    view = {2: torch.int16, 4: torch.int32}[w]
    assert torch.equal(got.view(view), want.view(view))
    assert api.stats().get("cublas", 0) + api.stats().get("triton", 0) == before + 1
