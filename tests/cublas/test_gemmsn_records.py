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
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/gemv_rule.py",
                           '1: GemvOrder(lanes=4, fold="seq", block=128, block_in_chunk=True)',
                           '1: GemvOrder(lanes=4, fold="seq", block=64, block_in_chunk=True)',
                           "tests/cublas/test_gemmsn_records.py::test_every_gemmsn_record_has_its_order_and_the_order_gives_its_bytes")
