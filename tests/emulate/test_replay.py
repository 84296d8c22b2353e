"""Replaying a saved plan on the CPU: numpy or torch operands, 2-D or batched, same bits."""
import numpy as np
import pytest

from bitorder import emulate
from bitorder.desc import GEMMDesc
from bitorder.draws import numpy_draw

torch = pytest.importorskip("torch")
from bitorder.gemm.api import Plan  # noqa: E402


def u16(x):
    return np.asarray(x).view(np.uint16)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_a_saved_plan_replays_to_the_twins_bytes_for_numpy_and_torch(dtype):
    desc = GEMMDesc("plain", dtype, 96, "wgmma", 16)
    text = Plan("triton", desc, {"algo_id": 66}, "gemm").to_json()
    a, b = numpy_draw((5, 96), dtype, 3, 1, "wide"), numpy_draw((96, 7), dtype, 3, 2, "wide")
    want = emulate.matmul(a, b, desc)
    assert np.array_equal(u16(emulate.replay(text, a, b)), u16(want))
    ta, tb = (torch.from_numpy(x.view(np.int16)).view(getattr(torch, {"fp16": "float16", "bf16": "bfloat16"}[dtype]))
              for x in (a, b))
    got = emulate.replay(text, ta, tb.t().contiguous().t())   # a transposed view is read by value
    assert got.dtype == ta.dtype and np.array_equal(got.view(torch.int16).numpy().view(np.uint16), u16(want))


def test_batched_operands_replay_per_batch():
    desc = GEMMDesc("plain", "fp16", 48, "wgmma", 16)
    a, b = numpy_draw((3, 4, 48), "fp16", 4, 1, "wide"), numpy_draw((3, 48, 6), "fp16", 4, 2, "wide")
    out = emulate.replay(desc, a, b)
    for i in range(3):
        assert np.array_equal(u16(out[i]), u16(emulate.matmul(a[i], b[i], desc)))
    folded = emulate.replay(desc, a, b[0])
    assert np.array_equal(u16(folded[2]), u16(emulate.matmul(a[2], b[0], desc)))


def test_what_cannot_be_replayed_says_why():
    with pytest.raises(ValueError, match="ran cuBLAS itself .*dot kernel"):
        emulate.replay(Plan("cublas", None, None, "gemm", "cuBLAS's dot kernel").to_json(), np.zeros((1, 1)),
                       np.zeros((1, 1)))
    with pytest.raises(TypeError, match="fp16/bf16/fp8"):
        emulate.replay(GEMMDesc("plain", "fp16", 8, "wgmma", 16), torch.zeros(2, 8), torch.zeros(8, 2))
    with pytest.raises(ValueError, match="batch sizes differ"):
        emulate.replay(GEMMDesc("plain", "fp16", 8, "wgmma", 16), np.zeros((2, 1, 8), np.float16),
                       np.zeros((3, 8, 1), np.float16))


def test_the_twin_gates_cpu_half_compares_bytes(tmp_path):
    import json

    from bitorder.gemm.shapes import Case
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    import twin_gate
    desc = GEMMDesc("plain", "bf16", 32, "wgmma", 16)
    a, b = numpy_draw((4, 32), "bf16", 1, 1, "wide"), numpy_draw((32, 3), "bf16", 1, 2, "wide")
    want = emulate.matmul(a, b, desc).view(np.int16)
    text = Plan("triton", desc, None, "gemm").to_json()
    assert twin_gate.cpu_side(("wide", text, a, b, None, want)) == ("wide", True, 0, {})
    bad = want.copy()
    bad[1, 2] ^= 1
    kind, same, n, detail = twin_gate.cpu_side(("wide", text, a, b, None, bad))
    assert (kind, same, n) == ("wide", False, 1)
    assert detail["first"] == [(5, hex(int(bad[1, 2])), hex(int(want[1, 2])))]   # flat index, torch's, the twin's
    path = os.path.join(str(tmp_path), "kept.npz")   # a small mismatch keeps its inputs for fitting
    twin_gate.save_kept(path, [(Case("mm", "bf16", 4, 3, 32), detail["item"])])
    saved = np.load(path)
    assert json.loads(str(saved["case0"]))["draw"] == "wide" and np.array_equal(saved["want0"], bad)


def test_the_twin_gates_cpu_half_takes_fp8_scales_and_out_types():
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    import twin_gate
    desc = GEMMDesc("plain", "e4m3", 64, "wgmma", 32, promotion=None, epilogue=("scale", "round"))
    a, b = numpy_draw((4, 64), "e4m3", 2, 1, "wide"), numpy_draw((64, 16), "e4m3", 2, 2, "wide")
    sa, sb = np.float32(0.37), np.float32(1.7000001)
    text = Plan("triton", desc, None, "scaled_gemm").to_json()
    for out, ints in (("fp32", np.int32), ("bf16", np.int16)):
        want = emulate.matmul(a, b, desc, None, out, sa, sb).view(ints)
        assert twin_gate.cpu_side(("narrow", text, a, b, None, want, sa, sb, out)) == ("narrow", True, 0, {})
        bad = want.copy()
        bad[0, 0] ^= 1
        assert twin_gate.cpu_side(("narrow", text, a, b, None, bad, sa, sb, out))[:3] == ("narrow", False, 1)


def test_emulate_plan_is_the_saved_call_as_a_function():
    desc = GEMMDesc("plain", "fp16", 64, "wgmma", 16)
    run = emulate.plan(Plan("triton", desc, {"algo_id": 66}, "gemm").to_json())
    a, b = numpy_draw((3, 64), "fp16", 5, 1, "wide"), numpy_draw((64, 4), "fp16", 5, 2, "wide")
    assert run.desc == desc and np.array_equal(u16(run(a, b)), u16(emulate.matmul(a, b, desc)))
    with pytest.raises(ValueError, match="ran cuBLAS itself"):
        emulate.plan(Plan("cublas", None, None, "gemm", "gemv").to_json())


@pytest.mark.parametrize("promotion", [None, 128])
def test_fp8_special_values_replay_without_error(promotion):
    """The twin gate's fp8 special draw (NaN, subnormal run, 448 rows and columns, -0.0 row):
    NaN rows come out canonical, 448 x 448 sums stay finite in fp32, -0.0 rows give zeros."""
    import ml_dtypes
    desc = GEMMDesc("plain", "e4m3", 64, "wgmma", 32, promotion=promotion, epilogue=("scale", "round"))
    a, b = numpy_draw((6, 64), "e4m3", 2, 1, "wide").astype(np.float32), numpy_draw((64, 8), "e4m3", 2, 2, "wide").astype(np.float32)
    a[0, 0], a[1, :16], a[5, :], b[:, 0], a[3, :] = np.nan, 2.0 ** -9, 448.0, 448.0, -0.0
    a, b = a.astype(ml_dtypes.float8_e4m3fn), b.astype(ml_dtypes.float8_e4m3fn)
    out = emulate.matmul(a, b, desc, None, "bf16", np.float32(1.0), np.float32(1.0))
    bits = np.asarray(out).view(np.uint16)
    assert (bits[0] == 0x7FFF).all()
    assert np.asarray(out, np.float32)[5, 0] == np.float32(448.0 * 448.0 * 64)   # 49 x 2^18: exact in bf16
    assert (np.asarray(out, np.float32)[3] == 0).all()


def test_the_twin_gate_labels_the_entry_that_described_the_plan(monkeypatch):
    """twin_gate._entry names the entry whose GEMMDesc the plan carries: under BITORDER_UNVERIFIED=1 a
    later candidate describing what the first matching entry leaves open is named, not the first."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    import twin_gate
    from bitorder.cublas import profile
    from bitorder.gemm.shapes import Case
    desc = {"family": "split_k", "instruction": "mma_sync", "instruction_k": 16, "k_tail": "first", "k_step": 16,
            "partial_dtype": "fp32", "merge_dtype": "fp32", "merge_order": "sequential"}
    match = {"algo_id": [21], "split": True}
    entries = [dict(name="first", match=match, desc=desc,
                    span={"rule": "round_up", "granule": 8, "unknown_when": "k_multiple_of", "of": 64}),
               dict(name="candidate", match=match, desc=desc, span={"rule": "round_up", "granule": 64}, verified=False)]
    fake = profile.ArchProfile({"arch": "sm_90", "cublas": "13.1.0", "entries": entries})
    monkeypatch.setattr(profile.ArchProfile, "load", classmethod(lambda cls, *a, **k: fake))
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    ans = {"algo_id": 21, "stages": "64x6", "split_k": 3, "reduction_scheme": 1}
    for k, name in ((640, "candidate"), (648, "first")):
        d = fake.describe(ans, k, "fp16")
        assert twin_gate._entry(Plan("triton", d, ans, "gemm").to_json(), Case("mm", "fp16", 4, 4, k)) == name, k


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_a_segment_k_plan_replays_to_the_readings_bytes(dtype):
    """A "segk" plan (cuBLAS's run-time split, bitorder.gemm.segment_k) keeps its SegmentKPlan in the
    JSON, and replay gives segment_k.matmul's bytes: on a wide draw, and on products 1, 2^26, -2^26, 1
    in four segments, where the plain chain keeps the last 1 and the pairwise merge, (1 + 2^26) +
    (-2^26 + 1), gives 0: the left-over tiles (the last three in serpentine order) read 0, the others 1."""
    from bitorder.cublas import segment_k as S
    from bitorder.emulate.gemm import np_dtype
    k = 256
    p = S.SegmentKPlan(k, dtype, S.segment_bounds(k, 4), "pairwise", 16, 2, 3, 3)
    text = Plan("segk", None, {"algo_id": 42}, "gemm", "segment-K", order=p).to_json()
    a, b = numpy_draw((40, k), dtype, 6, 1, "wide"), numpy_draw((k, 30), dtype, 6, 2, "wide")
    want = S.matmul(a.astype(np.float64), b.astype(np.float64), p)
    assert np.array_equal(u16(emulate.replay(text, a, b)), u16(want))
    a, b = np.zeros((40, k)), np.zeros((k, 30))
    a[:, [0, 64, 128, 192]] = [1, 2.0 ** 13, -2.0 ** 13, 1]
    b[[0, 64, 128, 192], :] = np.array([1, 2.0 ** 13, 2.0 ** 13, 1])[:, None]
    got = emulate.replay(text, a.astype(np_dtype(dtype)), b.astype(np_dtype(dtype))).astype(np.float64)
    left_over = np.zeros((40, 30), bool)
    left_over[16:32, :16] = True    # row tile 1 runs its column tiles descending: tile 0 is order 3
    left_over[32:] = True           # row tile 2: orders 4 and 5
    assert (got[left_over] == 0).all() and (got[~left_over] == 1).all()
    with pytest.raises(ValueError, match="2-D product without a bias"):
        emulate.replay(text, a, b, bias=np.zeros(30))
