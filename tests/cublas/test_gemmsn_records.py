"""gemmSN's probed orders (bitorder.cublas.gemv_rule.gemmsn_order_for) against the H200's recorded
bytes (2026-12-01 probe): the designed experiments of every algorithm-11 record, read off the order
without arithmetic and replayed through the twin, and the seeded draws (first rows, 400 columns; K up to 1000 here)."""
import gzip
import json
import os
import sys

import numpy as np

from bitorder.cublas import gemv_design as G
from bitorder.cublas.gemv_rule import gemmsn_order_for
from bitorder.emulate import simt

PROBE = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-01-simt-probe",
                     "probe_simt.json.gz")
HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, ".."))
from gate_draws import draw  # noqa: E402


def _records():
    with gzip.open(PROBE, "rt") as f:
        return [r for r in json.load(f)["simt"] if r.get("answer", {}).get("algo_id") == 11 and "launch" in r]


def _design(k, dtype):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
    from probe_gemv import design_for
    return design_for(k, dtype)


def test_every_gemmsn_record_has_its_order_and_the_order_gives_its_bytes():
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    recs = _records()
    assert len(recs) >= 10
    for rec in recs:
        c = rec["case"]
        order = gemmsn_order_for(rec["answer"], c["layout"], c["m"], c["op"] == "linear_bias")
        assert order is not None, c
        if "bits" in rec:                               # designed: every output row gave the same bits
            bits = np.array(rec["bits"])
            assert (bits == bits[:, :1]).all()
            pairs, tracers = _design(c["k"], c["dtype"])
            assert G.digest(pairs, tracers) == rec["design"]["digest"]
            assert np.array_equal(G.predict(order, c["k"], pairs, tracers), G.decode(bits[:, 0].tolist(), c["dtype"]))
        if c["k"] > 1000:                               # (long K: the designed rows above; draws on the GPU)
            continue
        rows = list(range(min(8, c["m"]))) + [c["m"] - 1]
        cols = min(c["n"], 400)
        for key, want in rec["draws"].items():
            a, b, bias = draw(c, int(key.split(":")[0]), key.split(":")[1])
            bias = None if bias is None else bias[:cols]
            got = simt.matmul(a[rows], b[:, :cols], order, bias=bias).view(np.int16)
            want = np.array(want, np.int64).astype(np.int16).reshape(len(rows), c["n"])[:, :cols]
            assert np.array_equal(got, want), (c, key)


def test_planted_fault_gemmsn_nn_banked_every_64_fails(tmp_path):
    """A copied tree whose 4-lane NN order banks every 64 instead of 128: the record test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json",
                           '"1": {"lanes": 4, "chunk": null, "cap": null, "fold": "seq", "block": 128,',
                           '"1": {"lanes": 4, "chunk": null, "cap": null, "fold": "seq", "block": 64,',
                           "tests/cublas/test_gemmsn_records.py::test_every_gemmsn_record_has_its_order_and_the_order_gives_its_bytes")


SURVEY = os.path.join(os.path.dirname(PROBE), "..", "2026-12-01c-gate", "survey-fallback.jsonl.gz")


def test_the_two_lane_nn_kernel_banks_every_256():
    """gemmSN_NN_kernel<float, 128, 2, ...> (option 0): the 2026-12-01c survey's walk of 2x10219x666
    (r = 2^-17 at 0, +L at m, -L at m + 1) is GEMMSN_NN[0]'s (block 256) at every walked position and
    not block 128's; the 2026-12-01b sn-check call that differed from block 128 (2x10104x739 fp16,
    seed 20261230 * 11 + 2489 ... + 2) differed on exactly the outputs where 128 and 256 differ."""
    import bitorder
    from bitorder.cublas.gemv_rule import GEMMSN_NN
    from bitorder.cublas.walks import L_VALUE, R_SMALL, walk_positions
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    with gzip.open(SURVEY, "rt") as f:
        rec = [r for r in map(json.loads, f) if r["case"]["k"] == 666 and r["case"]["n"] == 10219][0]
    k = rec["case"]["k"]
    pos = [p for p in walk_positions(k, max(256, rec["case"]["n"] * 24)) if 0 < p < k - 1]
    codes, i = {}, 0
    for code, lo, hi in rec["walk_small"]:
        while i < len(pos) and pos[i] <= hi:
            codes[pos[i]] = code
            i += 1

    def walk(order, sample):
        out = []
        for m in sample:
            col = np.zeros((k, 1))
            col[0], col[m], col[m + 1] = R_SMALL, L_VALUE, -L_VALUE
            v = float(np.asarray(simt.matmul(np.ones((1, k), np.float16), col.astype(np.float16), order)).ravel()[0])
            out.append(1 if v == R_SMALL else 0 if v == 0 else 2)
        return out
    sample = pos[::12] + [255, 256, 331, 332, 333]
    assert GEMMSN_NN[0].block == 256
    assert walk(GEMMSN_NN[0], sample) == [codes[m] for m in sample]
    b128 = simt.GemvOrder(lanes=2, fold="seq", block=128, block_in_chunk=True)
    assert walk(b128, sample) != [codes[m] for m in sample]
    case = {"dtype": "fp16", "m": 2, "n": 10104, "k": 739, "layout": "nn", "op": "mm"}
    differ = []
    for j, kind in enumerate(("narrow", "wide", "cancel")):
        a, b, _ = draw(case, 20261230 * 11 + 13974 + j, kind)
        x = np.asarray(simt.matmul(a, b, b128)).view(np.int16)
        y = np.asarray(simt.matmul(a, b, GEMMSN_NN[0])).view(np.int16)
        differ.append(int((x != y).sum()))
    assert differ == [38, 31, 180]          # the H200's mismatch counts against block 128 (sn_check.json.gz)


def test_planted_fault_two_lane_nn_banked_every_128_fails(tmp_path):
    """A copied tree whose 2-lane NN order banks every 128 (the reading before 2026-12-01d): the test above must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json",
                           '"0": {"lanes": 2, "chunk": null, "cap": null, "fold": "seq", "block": 256,',
                           '"0": {"lanes": 2, "chunk": null, "cap": null, "fold": "seq", "block": 128,',
                           "tests/cublas/test_gemmsn_records.py::test_the_two_lane_nn_kernel_banks_every_256")
