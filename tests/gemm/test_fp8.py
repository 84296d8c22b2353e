"""bitorder.scaled_mm on the CPU: torch's input rules as clear errors, the fp8 kernels
compiling for sm90 with the instructions the chain model needs, the twin's scale steps."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import bitorder  # noqa: E402
from bitorder import emulate  # noqa: E402
from bitorder.desc import GEMMDesc  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.kernels_fp8 import chain8_kernel  # noqa: E402


# chain8_kernel's runtime arguments, and what the JIT specialises as 16-divisible for whole tiles
SIG8 = {n: "i32" for n in ("M", "N", "K", "stride_a", "stride_b", "stride_om")}
SIG8.update(a_ptr="*fp8e4nv", b_ptr="*fp8e4nv", out_ptr="*bf16", bias_ptr="*bf16", sa_ptr="*fp32", sb_ptr="*fp32")
ALIGNED8 = ["a_ptr", "b_ptr", "out_ptr", "M", "N", "K", "stride_a", "stride_b", "stride_om"]


def test_cpu_tensors_and_wrong_types_get_clear_errors():
    a = torch.zeros(32, 64).to(torch.float8_e4m3fn)
    b = torch.zeros(64, 32).to(torch.float8_e4m3fn)
    one = torch.ones(())
    with pytest.raises(ValueError, match="CUDA"):
        bitorder.scaled_mm(a, b, one, one, out_dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="float8"):
        fp8._check(torch.zeros(2, 2, device="meta"), b, one, one, None, torch.bfloat16, devices=("meta",))


def _meta(shape, dtype, t=False):
    x = torch.empty(shape[::-1] if t else shape, dtype=dtype, device="meta")
    return x.t() if t else x


@pytest.mark.parametrize("why, kw", [
    ("multiples of 16", dict(b=_meta((64, 40), torch.float8_e4m3fn, t=True))),
    ("row-major", dict(a=_meta((32, 64), torch.float8_e4m3fn, t=True))),
    ("column-major", dict(b=_meta((64, 32), torch.float8_e4m3fn))),
    ("out_dtype", dict(out_dtype=torch.int8)),
    ("float32", dict(bias=_meta((32,), torch.float32), out_dtype=torch.float32)),
    ("e5m2", dict(a=_meta((32, 64), torch.float8_e5m2), b=_meta((64, 32), torch.float8_e5m2, t=True))),
])
def test_torch_rules_become_clear_errors(why, kw):
    args = dict(a=_meta((32, 64), torch.float8_e4m3fn), b=_meta((64, 32), torch.float8_e4m3fn, t=True),
                scale_a=torch.ones((), device="meta"), scale_b=torch.ones((), device="meta"), bias=None,
                out_dtype=torch.bfloat16)
    args.update(kw)
    with pytest.raises((ValueError, TypeError), match=why):
        fp8._check(args["a"], args["b"], args["scale_a"], args["scale_b"], args["bias"], args["out_dtype"],
                   devices=("meta",))


def test_scalings_are_told_apart():
    a, b = _meta((32, 64), torch.float8_e4m3fn), _meta((64, 48), torch.float8_e4m3fn, t=True)
    s = lambda *shape: torch.ones(shape, device="meta")  # noqa: E731
    assert fp8._scaling(a, b, s(), s(1)) == "tensor"
    assert fp8._scaling(a, b, s(32, 1), s(1, 48)) == "row"
    with pytest.raises(ValueError, match="row-wise"):
        fp8._scaling(a, b, s(32), s(48))


def test_row_wise_planning_off_falls_back_before_any_query(monkeypatch):
    # BITORDER_FP8_ROWWISE_EPILOGUE=none: row-wise calls go to cuBLAS without asking cuBLASLt
    import functools
    monkeypatch.setenv("BITORDER_FP8_ROWWISE_EPILOGUE", "none")
    monkeypatch.setattr(fp8, "_check", functools.partial(fp8._check, devices=("meta",)))
    monkeypatch.setattr(fp8, "lt_query", lambda *a, **k: pytest.fail("row-wise calls must not be planned"))
    a, b = _meta((32, 64), torch.float8_e4m3fn), _meta((64, 48), torch.float8_e4m3fn, t=True)
    p = fp8.plan(a, b, torch.ones((32, 1), device="meta"), torch.ones((1, 48), device="meta"),
                 out_dtype=torch.bfloat16)
    assert p.path == "cublas" and "row-wise" in p.reason


def test_a_probed_row_wise_order_plans_only_as_a_candidate(monkeypatch):
    """Row-wise calls plan with fp8.ROW_WISE_DEFAULT (gated whole on 2026-12-04) by default, and with another
    order BITORDER_FP8_ROWWISE_EPILOGUE names only under BITORDER_UNVERIFIED=1."""
    import functools
    monkeypatch.setattr(fp8, "_check", functools.partial(fp8._check, devices=("meta",)))
    monkeypatch.setattr(fp8, "lt_query", lambda *a, **k: None)
    tensor_wise = GEMMDesc("plain", "e4m3", 64, "wgmma", 32, epilogue=("scale", "round"))
    monkeypatch.setattr(fp8, "_describe", lambda q, k, bias, fast, *trial: ({"algo_id": 66}, tensor_wise))
    a, b = _meta((32, 64), torch.float8_e4m3fn), _meta((64, 48), torch.float8_e4m3fn, t=True)
    sa, sb = torch.ones((32, 1), device="meta"), torch.ones((1, 48), device="meta")
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    p = fp8.plan(a, b, sa, sb, out_dtype=torch.bfloat16)                          # the gated default plans
    assert p.path == "triton" and p.desc.epilogue == ("scale_b", "scale_a", "round")
    monkeypatch.setenv("BITORDER_FP8_ROWWISE_EPILOGUE", "nobias=(acc*sa)*sb;bias=fma(acc,sa*sb,bias)")
    assert fp8.plan(a, b, sa, sb, out_dtype=torch.bfloat16).path == "cublas"      # not a candidate run
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    p = fp8.plan(a, b, sa, sb, out_dtype=torch.bfloat16)
    assert p.path == "triton" and p.desc.epilogue == ("scale_a", "scale_b", "round")
    monkeypatch.setenv("BITORDER_FP8_ROWWISE_EPILOGUE", "nobias=fma(acc*sa,sb,bias)")   # no kernel for it
    assert fp8.plan(a, b, sa, sb, out_dtype=torch.bfloat16).path == "cublas"
    monkeypatch.setenv("BITORDER_FP8_ROWWISE_EPILOGUE", "none")                         # row-wise planning off
    assert fp8.plan(a, b, sa, sb, out_dtype=torch.bfloat16).path == "cublas"
    monkeypatch.delenv("BITORDER_FP8_ROWWISE_EPILOGUE")     # the gated default: scale_b, then scale_a
    p = fp8.plan(a, b, sa, sb, out_dtype=torch.bfloat16)
    assert p.path == "triton" and p.desc.epilogue == ("scale_b", "scale_a", "round")
    assert fp8.row_wise_epilogue(True) == ("scale_b", "scale_a", "bias_acc")


@pytest.mark.parametrize("promote", [0, 128])
@pytest.mark.parametrize("scale", [1, 2, 3, 4])
def test_fp8_chain_kernel_compiles_for_sm90(promote, scale):
    c = bitorder.compile(chain8_kernel, "sm90", signature=SIG8, num_warps=8, constexprs=dict(
        A_ROW=True, B_ROW=False, PROMOTE=promote, SCALE=scale, ROWWISE=False, HAS_BIAS=True,
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=128), aligned=["a_ptr", "b_ptr", "out_ptr", "M", "N", "K", "stride_a"])
    ptx = c.ptx
    assert "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3" in ptx
    assert ("fma.rn.f32" in ptx) == (scale == 4)        # the epilogue fuses only where asked to
    assert ("add.f32" in ptx) == (promote > 0)          # the promotion adds, once per 128 of K
    assert ptx.count("mul.rn.f32") >= {1: 64, 2: 128, 3: 128, 4: 1}[scale]


@pytest.mark.parametrize("promote", [0, 128])
def test_fp8_wave_tiles_compile_pipelined_and_fit(promote):
    """The tiles fp8.run takes (the wave model's, 128 deep) compile for sm90 within 227 KB, their
    whole-tile loads asynchronous copies (pipelined)."""
    from bitorder.gemm import launch
    for bm, bn, _, warps, stages in sorted({t for t, _ in launch._WAVE_TILES}):
        c = bitorder.compile(chain8_kernel, "sm90", signature=SIG8, num_warps=warps, num_stages=min(stages, 4),
                             constexprs=dict(A_ROW=True, B_ROW=False, PROMOTE=promote, SCALE=1, ROWWISE=False,
                                             HAS_BIAS=False, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=128),
                             aligned=ALIGNED8)
        assert c.metadata["shared"] <= 227 * 1024, (bm, bn, c.metadata["shared"])
        assert "cp.async" in c.ptx and "wgmma.mma_async" in c.ptx
        t = bitorder.compile(chain8_kernel, "sm90", signature=SIG8, num_warps=warps, num_stages=min(stages, 4),
                             constexprs=dict(A_ROW=True, B_ROW=False, PROMOTE=promote, SCALE=1, ROWWISE=False,
                                             HAS_BIAS=False, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=128, TMA=True),
                             aligned=ALIGNED8)
        assert "cp.async.bulk.tensor" in t.ptx and t.metadata["shared"] <= 227 * 1024   # the TMA variant


@pytest.mark.parametrize("m, n", [(1, 64), (16, 1), (16, 64), (1, 1)])
def test_row_wise_scales_reach_the_kernel_as_row_wise_whatever_m(monkeypatch, m, n):
    """A row-wise call with M = 1 has one scale_a element: the kernel must still read scale_b per
    column (the 2026-11-30d row-wise gate's two misses, 1x64x1520 and 1x16x16, were every column but
    the first: ROWWISE was read off scale_a alone)."""
    seen = {}

    class Recorder:
        def __getitem__(self, grid):
            return lambda *args, **kw: seen.update(kw)

    monkeypatch.setattr(fp8, "chain8_kernel", Recorder())
    a = torch.zeros(m, 32).to(torch.float8_e4m3fn)
    b = torch.zeros(n, 32).to(torch.float8_e4m3fn).t()
    sa, sb = torch.ones(m, 1), torch.ones(1, n)
    desc = GEMMDesc("plain", "e4m3", 32, "wgmma", 32, promotion=128, epilogue=("scale_b", "scale_a", "round"))
    fp8.run(a, b, sa, sb, desc, out_dtype=torch.bfloat16, tma=False)
    assert seen["ROWWISE"] is (m * n != 1)   # 1 x 1: row-wise and tensor-wise scales are the same numbers
    fp8.run(a, b, torch.ones(()), torch.ones(()), desc, out_dtype=torch.bfloat16, tma=False)
    assert seen["ROWWISE"] is False


def test_twin_scales_in_the_order_the_descriptor_names():
    rng = np.random.default_rng(3)
    import ml_dtypes
    a = (rng.standard_normal((8, 256)) * 4).astype(ml_dtypes.float8_e4m3fn)
    b = (rng.standard_normal((256, 8)) * 4).astype(ml_dtypes.float8_e4m3fn)
    sa, sb = np.float32(1 / 3), np.float32(3.0000002)
    base = dict(operand_dtype="e4m3", k=256, family="plain", instruction="wgmma", instruction_k=32)
    one = emulate.matmul(a, b, GEMMDesc(**base, epilogue=("scale", "round")), out_dtype="fp32", scale_a=sa, scale_b=sb)
    two = emulate.matmul(a, b, GEMMDesc(**base, epilogue=("scale_a", "scale_b", "round")), out_dtype="fp32",
                         scale_a=sa, scale_b=sb)
    acc = emulate.accumulate(a.astype(np.float64), b.astype(np.float64), GEMMDesc(**base))
    assert np.array_equal(one.view(np.int32), (acc * np.float32(sa * sb)).astype(np.float32).view(np.int32))
    assert np.array_equal(two.view(np.int32), ((acc * sa).astype(np.float32) * sb).astype(np.float32).view(np.int32))
    assert not np.array_equal(one.view(np.int32), two.view(np.int32))   # the order shows in the bits


def test_twin_scale_bias_fma_rounds_once():
    import ml_dtypes
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((8, 64)) * 4).astype(ml_dtypes.float8_e4m3fn)
    b = (rng.standard_normal((64, 16)) * 4).astype(ml_dtypes.float8_e4m3fn)
    bias = rng.standard_normal(16).astype(np.float32)
    sa, sb = np.float32(1 / 3), np.float32(3.0000002)
    base = dict(operand_dtype="e4m3", k=64, family="plain", instruction="wgmma", instruction_k=32)
    got = emulate.matmul(a, b, GEMMDesc(**base, epilogue=("scale_bias_fma", "round")), bias, "fp32", sa, sb)
    acc = emulate.accumulate(a.astype(np.float64), b.astype(np.float64), GEMMDesc(**base))
    want = (acc.astype(np.float64) * np.float64(np.float32(sa * sb)) + bias.astype(np.float64)).astype(np.float32)
    assert np.array_equal(got.view(np.int32), want.view(np.int32))


def test_the_row_wise_probe_names_the_planners_orders():
    """benchmarks/probe_rowwise.py's candidate names are the keys fp8.row_wise_epilogue maps (its two
    fma forms with a scaled accumulator have no kernel: a call probed to use them falls back)."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    import probe_rowwise
    acc, sa, sb = torch.randn(4, 5), torch.rand(4, 1) + 0.3, torch.rand(1, 5) + 0.3
    names = set(probe_rowwise.candidates(acc, sa, sb, None)) | set(probe_rowwise.candidates(acc, sa, sb, torch.randn(5)))
    assert names - set(fp8.ROW_WISE_ORDERS) == {"fma(acc*sa,sb,bias)", "fma(acc*sb,sa,bias)"}


def test_a_plan_cached_before_the_unverified_switch_flips_does_not_answer_after_it(monkeypatch):
    """fp8._describe is memoised per query; BITORDER_UNVERIFIED is part of its key, so a process that
    turns the switch on (or off) after planning gets the profile's answer for the switch as it is. (The
    fp8 entries are verified since 2026-12-04: the test makes them candidates again.)"""
    import dataclasses
    from bitorder.cublas import lt
    from bitorder.cublas.profile import ArchProfile

    real = ArchProfile.load()
    trial = ArchProfile({**real.meta, "entries": []})
    trial.entries = [dataclasses.replace(e, verified=False) if "e4m3" in str(e.match.get("dtype")) else e
                     for e in real.entries]
    monkeypatch.setattr(ArchProfile, "load", classmethod(lambda cls, *a, **k: trial))

    class Answer:
        def to_dict(self):
            return {"algo_id": 66, "tile": "128x128", "stages": "128xAUTO", "split_k": 1, "reduction_scheme": 0,
                    "swizzle": 0, "custom_option": 0, "inner_shape": 0, "cluster_shape": "1x1x1"}

    monkeypatch.setattr(lt, "heuristic", lambda q, n: [Answer()])
    fp8._describe.cache_clear()
    q = fp8.lt_query(64, 64, 256, out="bf16")
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    from bitorder.cublas.profile import candidates_allowed
    assert fp8._describe(q, 256, False, True, candidates_allowed())[1] is None          # a candidate entry
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert fp8._describe(q, 256, False, True, candidates_allowed())[1] is not None      # planned as a candidate
    fp8._describe.cache_clear()
