"""The SIMT gemv twin (emulate.simt) against the H200's gemv records (survey 2026-11-29, algorithm 13):
walks read off an order agree with walks run through the arithmetic; orders fitted by
benchmarks/fit_gemv.py replay stored records bytewise; planted faults (the lane fold reversed, a
one chain for lane-strided elements) make the replay fail."""
import itertools
import os

import numpy as np
import pytest

from bitorder.cublas import prober
from bitorder.cublas import walks as W
from bitorder.emulate import simt
from bitorder.emulate.simt import GemvOrder

SURVEY = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-11-29-survey",
                      "survey.jsonl.gz")


@pytest.fixture(scope="module")
def gemv_records():
    recs = [r for r in prober.load_records(SURVEY) if r.get("ran") and r["ran"][0]["algo_id"] == 13]
    assert len(recs) == 34
    return {(r["case"]["dtype"], r["case"]["m"], r["case"]["n"], r["case"]["k"]): r for r in recs}


def test_walks_read_off_the_order_equal_walks_through_the_arithmetic():
    for k in (7, 33, 130):
        pos = list(range(1, k - 1))
        for lanes, chunk, fold, span, merge, block in itertools.product((1, 2, 8), (None, 1, 4), simt.FOLDS,
                                                                        (None, 20), simt.MERGES, (None, 3)):
            o = GemvOrder(lanes=lanes, chunk=chunk, fold=fold, span=span, merge=merge, block=block)
            for r in (W.R_SMALL, W.R_EDGE):
                out = simt.epilogue(simt.accumulate(W.pair_rows(k, pos, r), np.ones((k, 1)), o), o, "fp16")
                assert np.array_equal(W.code(out[:, 0].astype(np.float64), r), simt.walk_codes(o, k, pos)), (k, o)


def test_fma_is_rounded_once():
    # 1 + (2^-24 + 2^-60): just above the midpoint between 1 and 1 + 2^-23. A float64 sum first
    # lands on the midpoint and then ties to even (1.0); one rounding gives 1 + 2^-23.
    acc = np.array([[1.0]], np.float32)
    p = np.array([[2.0 ** -24 + 2.0 ** -60]])
    assert (acc.astype(np.float64) + p).astype(np.float32)[0, 0] == np.float32(1.0)
    assert simt._fma(p, acc)[0, 0] == np.float32(1.0 + 2.0 ** -23)
    assert simt._fma(np.array([[2.0 ** -24]]), acc)[0, 0] == np.float32(1.0)      # a true tie: even


def test_schedules():
    assert simt.schedule("down", 4) == [(0, 2), (1, 3), (0, 1)]
    assert simt.schedule("up", 4) == [(0, 1), (2, 3), (0, 2)]
    assert simt.schedule("tree", 5) == [(0, 1), (2, 3), (0, 2), (0, 4)]
    assert simt.schedule("seq", 3) == [(0, 1), (0, 2)]


# (record key, an order the fit kept, why it is a good witness)
REPLAYS = [
    (("fp16", 3158, 1, 240), GemvOrder(lanes=32, chunk=4, fold="down")),                       # gemvNSP, 32 x 4
    (("bf16", 45, 1, 203), GemvOrder(lanes=32, chunk=None, fold="down")),                      # gemvx, contiguous
    (("bf16", 1, 1831, 2769), GemvOrder(lanes=32, chunk=64, fold="down")),                     # gemvx, 64-chunks
    (("fp16", 1, 989, 33693), GemvOrder(lanes=4, chunk=64, fold="down", span=1021)),           # gemvx + split 33
    (("fp16", 1, 10099, 731), GemvOrder(lanes=32, chunk=1, fold="down")),                      # gemv2T, strided
]


@pytest.mark.parametrize("key,order", REPLAYS, ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else "")
def test_fitted_orders_replay_the_h200_bytes(gemv_records, key, order):
    assert prober.gemv_mismatches(gemv_records[key], order) == (0, 0)


@pytest.mark.parametrize("key,order", REPLAYS[:4], ids=lambda v: "x".join(map(str, v)) if isinstance(v, tuple) else "")
def test_planted_fault_fold_reversed_fails_the_replay(gemv_records, key, order):
    # the butterfly counting up instead of down: the walks see it (the sampled bits of these
    # records do not: they have too few outputs, see the fit's README)
    bits, walked = prober.gemv_mismatches(gemv_records[key], order.replace(fold="up"))
    assert walked > 0


def test_planted_fault_one_chain_fails_the_bits(gemv_records):
    # gemv2T without a split: one fp32 chain over all of K instead of lane-strided elements. The
    # walks cannot tell the two apart (a count-down fold meets r first, as a chain does); the bits do.
    rec = gemv_records[("fp16", 1, 10099, 731)]
    bits, walked = prober.gemv_mismatches(rec, GemvOrder(lanes=1))
    assert bits > 0 and walked == 0


def test_block_banks_each_lanes_chain():
    """block=2 on one lane: (x0 + x1) + (x2 + x3) in fp32, not ((x0 + x1) + x2) + x3; block >= K is
    the plain chain (walk codes with a block: test_walks_read_off_the_order_...)."""
    x = np.array([[1.0, 2.0 ** -24, 2.0 ** -24, 2.0 ** -24]])
    one = np.ones((4, 1))
    f32 = np.float32
    banked = (f32(1.0) + f32(2.0 ** -24)) + (f32(2.0 ** -24) + f32(2.0 ** -24))
    assert simt.accumulate(x, one, GemvOrder(block=2))[0, 0] == banked == f32(1.0 + 2.0 ** -23)
    assert simt.accumulate(x, one, GemvOrder())[0, 0] == f32(1.0)
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((3, 50)) * 2.0 ** rng.integers(-12, 12, (3, 50)), rng.standard_normal((50, 1))
    for o in (GemvOrder(lanes=4, chunk=1, fold="seq"), GemvOrder(lanes=2, span=20)):
        assert np.array_equal(simt.accumulate(a, b, o), simt.accumulate(a, b, o.replace(block=64)))
