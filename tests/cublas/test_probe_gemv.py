"""The gemv probe's design (bitorder.cublas.gemv_design, bitorder.cublas.prober_gemv) on the CPU:
the tracer bits read off an order equal simt.matmul's bytes; the designed inputs give every distinct
summation tree among the prober's candidates (prober_gemv.structures) distinct bits (down vs seq, lanes, chunks, spans, merges:
what the survey left open); the fit of a simulated black box keeps exactly the true order's tree;
the GPU part imports without a GPU and says so when asked to run."""
import itertools
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from bitorder.cublas import gemv_design as G
from bitorder.cublas import prober_gemv as P
from bitorder.emulate import simt
from bitorder.emulate.simt import GemvOrder
from bitorder.gemm.shapes import Case

HERE = os.path.dirname(os.path.abspath(__file__))

SPLIT = ("gemv2T_kernel_val<int,int,h,f,f,f,128,16,4,4,false,false>(int, cublasGemvTensorStridedBatched<...>)",
         "void cublasLt::splitKreduce_kernel<...>")


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_tracer_bits_read_off_the_order_equal_the_arithmetic(dtype):
    for k in (37, 203):
        pairs, tracers = G.design(k, dtype, marks=[20, 50, 99])
        a = P._typed(G.dense_rows(k, pairs, tracers, dtype), dtype)
        ones = P._typed(np.ones((k, 1)), dtype)
        for lanes, chunk, fold, span, merge in itertools.product((1, 2, 8, 32), (None, 1, 4), simt.FOLDS, (None, 20),
                                                                 simt.MERGES):
            o = GemvOrder(lanes=lanes, chunk=chunk, fold=fold, span=span, merge=merge)
            got = G.decode(simt.matmul(a, ones, o)[:, 0].view(np.int16), dtype)
            assert np.array_equal(got, G.predict(o, k, pairs, tracers)), (k, o)
        # capped contiguous slices and chains banked per block (gemv2T's 512, scaled down)
        for o in (GemvOrder(lanes=4, cap=8), GemvOrder(lanes=2, cap=16, span=20), GemvOrder(lanes=16, chunk=1, fold="seq", block=64),
                  GemvOrder(lanes=4, chunk=1, fold="seq", block=16), GemvOrder(lanes=2, chunk=4, block=12, span=20),
                  GemvOrder(lanes=1, block=7)):
            got = G.decode(simt.matmul(a, ones, o)[:, 0].view(np.int16), dtype)
            assert np.array_equal(got, G.predict(o, k, pairs, tracers)), (k, o)


def test_tree_key_sees_the_blocks():
    intern = {}
    o = GemvOrder(lanes=4, chunk=1, fold="seq")
    assert G.tree_key(o, 300, intern) == G.tree_key(o.replace(block=512), 300, intern)
    assert G.tree_key(o, 300, intern) != G.tree_key(o.replace(block=64), 300, intern)
    assert G.tree_key(o.replace(block=64), 300, intern) != G.tree_key(o.replace(block=32), 300, intern)


def test_a_power_of_two_pair_would_leak_tracers():
    # why L is 1.5 * 2^14: below -2^14 the fp32 ulp halves, so -2^14 + (2^-11 + 2^-12) is not -2^14 again
    assert np.float32(-2.0 ** 14) + np.float32(2.0 ** -11 + 2.0 ** -12) != np.float32(-2.0 ** 14)
    assert np.float32(-G.L_VALUE) + np.float32(sum(G.tracer_values("fp16"))) == np.float32(-G.L_VALUE)


def _classes(cands, k, dtype):
    pairs, tracers = P.design_for(k, dtype)
    intern, by_bits = {}, {}
    for o in cands:
        by_bits.setdefault(G.predict(o, k, pairs, tracers).tobytes(), set()).add(G.tree_key(o, k, intern))
    trees = {G.tree_key(o, k, intern) for o in cands}
    return by_bits, trees


# the survey's unsplit K (fp16 and bf16 kinds) and decode-like ones
@pytest.mark.parametrize("k,dtype", [(14, "fp16"), (182, "fp16"), (240, "fp16"), (731, "fp16"), (988, "fp16"),
                                     (38, "bf16"), (203, "bf16"), (781, "bf16"), (2769, "bf16")])
def test_the_design_tells_every_unsplit_candidate_tree_apart(k, dtype):
    # (chains banked per block are outside this promise: the design was fixed before gemv2T's blocks
    # were known, and it conflates some; the fit then leaves a record open, never wrongly pinned)
    by_bits, trees = _classes([o for o in P.structures(k, False) if o.block is None], k, dtype)
    assert all(len(t) == 1 for t in by_bits.values())      # no two trees give the same bits
    assert len(by_bits) == len(trees)


@pytest.mark.parametrize("k,dtype,n_spans", [(1300, "fp16", 6), pytest.param(5050, "bf16", 3, marks=pytest.mark.by_hand)])
def test_the_design_tells_split_candidate_trees_apart(k, dtype, n_spans):
    # every lane layout x fold x merge for a sample of the spans the prober enumerates (all: minutes)
    spans = set(random.Random(k).sample(P.spans(k)[1:], n_spans))
    by_bits, trees = _classes([o for o in P.structures(k, True) if o.span in spans and o.block is None], k, dtype)
    assert all(len(t) == 1 for t in by_bits.values()) and len(by_bits) == len(trees)


def test_the_design_tells_gemv2t_blocks_apart():
    """What the 2026-11-30i records needed: 16 strided lanes summed in order, banked every 256, 512
    or 1024 elements or not at all, are told apart wherever their trees differ (a block holding one
    element per lane is the plain chain's tree: K = 1026 under 1024)."""
    for k, dtype in ((530, "bf16"), (761, "fp16"), (878, "bf16"), (1026, "fp16"), (2100, "fp16")):
        cands = [GemvOrder(lanes=16, chunk=1, fold="seq", block=b) for b in (None, 256, 512, 1024) if (b or 0) < k]
        by_bits, trees = _classes(cands, k, dtype)
        assert len(by_bits) == len(trees) >= len(cands) - (k == 1026) and all(len(t) == 1 for t in by_bits.values()), k


def test_down_and_seq_give_other_bits_where_the_walks_saw_none():
    # the survey's walks (r at k = 0) give down and seq the same codes; a tracer in a later lane does not
    k, pairs, tracers = 203, *P.design_for(203, "bf16")
    down, seq = GemvOrder(lanes=32, fold="down"), GemvOrder(lanes=32, fold="seq")
    assert np.array_equal(simt.walk_codes(down, k, range(1, k - 1)), simt.walk_codes(seq, k, range(1, k - 1)))
    assert (G.predict(down, k, pairs, tracers) != G.predict(seq, k, pairs, tracers)).sum() > 10


# (case, the black box's true order, kernels): the open rows of the fit's README, in small
TRUE = [
    (Case("mm", "bf16", 45, 1, 203, 1, "nn"), GemvOrder(lanes=32, fold="seq"), None),
    (Case("mm", "bf16", 45, 1, 203, 1, "nn"), GemvOrder(lanes=32, fold="down"), None),
    (Case("linear_bias", "fp16", 2, 1, 182, 1, "nt"), GemvOrder(lanes=16, fold="down", bias="out"), None),
    (Case("mm", "bf16", 1, 1237, 781, 1, "nn"), GemvOrder(lanes=16, chunk=64, fold="seq"), None),
    (Case("mm", "fp16", 1, 318, 988, 1, "nn"), GemvOrder(lanes=8, chunk=1, fold="down"), None),
    (Case("mm", "fp16", 1, 318, 988, 1, "nn"), GemvOrder(lanes=64, chunk=1, fold="seq"), None),
    (Case("mm", "fp16", 3158, 1, 240, 1, "tt"), GemvOrder(lanes=32, chunk=4, fold="seq"), None),
    (Case("linear_bias", "fp16", 985, 1, 1300, 1, "nn"), GemvOrder(lanes=16, chunk=1, fold="seq", span=163), SPLIT),
    (Case("mm", "fp16", 1, 200, 1300, 1, "tt"), GemvOrder(lanes=4, chunk=2, fold="down", span=82, merge="tree"), SPLIT),
    (Case("mm", "fp16", 2, 1, 1300, 1, "nn"), GemvOrder(lanes=1, span=145), SPLIT),
]


@pytest.mark.parametrize("case,order,kernels", TRUE, ids=lambda v: str(v) if isinstance(v, GemvOrder) else "")
def test_the_fit_of_a_simulated_black_box_keeps_exactly_its_tree(case, order, kernels):
    rec = P.simulate_record(case, order, **({"kernels": kernels} if kernels else {}))
    row = P.fit_record(rec)
    assert row["pinned"] and row["trees"] == 1, row
    pairs, tracers = P.design_for(case.k, case.dtype)
    alive, _ = P.tree_survivors(rec, pairs, tracers, G.decode(rec["bits"], case.dtype))
    kept = P.confirm(rec, alive, pairs, tracers)
    intern = {}
    assert {G.tree_key(o, case.k, intern) for o in kept} == {G.tree_key(order, case.k, intern)}
    assert order in kept and order.replace(product="mul_add") in kept
    assert row["settled"]["bias"] == ([order.bias] if case.op == "linear_bias" else ["acc"])
    if order.lanes > 2:
        assert row["settled"]["fold"] == [order.fold]          # down vs seq decided
    assert row["settled"]["product"] == ["fma", "mul_add"]     # exact products: never decided


def test_a_kind_summary_shares_what_its_records_agree_on():
    recs = [P.simulate_record(c, o) for c, o, _ in TRUE[:2]]
    out = P.fit(recs)
    (kind, s), = out["kinds"].items()
    assert s["pinned"] == [0, 1] and s["shared"]["fold"] == []          # one seq, one down: no shared fold


def test_the_gpu_calls_place_the_design_in_every_layout_on_cpu_torch():
    # CPU torch has its own order (no bits claimed): a row placed in the wrong output or the
    # wrong K position would leave an uncancelled L, which is no tracer sum
    for layout, op, (m, n) in itertools.product(("nn", "nt", "tn", "tt"), ("mm", "linear_bias"), ((1, 7), (9, 1))):
        rec = P.probe_case(Case(op, "fp16", m, n, 40, 1, layout), device="cpu")
        assert (G.decode(rec["bits"], "fp16") >= 0).all(), (layout, op, m, n)
        assert rec["kernels"] == [] and rec["calls"] == -(-rec["design"]["experiments"] // max(m, n))
        if op == "linear_bias":
            assert len(set(rec["bias_bits"])) == 1


def test_the_gpu_part_imports_without_a_gpu_and_says_so():
    import torch
    if torch.cuda.is_available():
        pytest.skip("a GPU is here")
    with pytest.raises(SystemExit) as e:
        P.require_cuda()
    assert e.value.code == 2
    for cmd in ([os.path.join(HERE, "..", "..", "benchmarks", "probe_gemv.py")],     # the old command line
                ["-m", "bitorder", "probe", "gemv"]):
        p = subprocess.run([sys.executable, *cmd, "--out", "/tmp/bitorder-probe-gemv-none"], capture_output=True, text=True)
        assert p.returncode == 2 and "needs a CUDA GPU" in p.stderr, p.stderr
