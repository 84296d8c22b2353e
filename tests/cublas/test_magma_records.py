"""magma_sgemmEx's order (bitorder.cublas.gemv_rule.MAGMA_ORDER: one fp32 chain per output in K order,
bias in fp32) against the H200's recorded bytes (2026-12-01 probe): the designed experiments of every
algorithm-16 record, read off the order without arithmetic, and the seeded draws (first rows)."""
import gzip
import json
import os
import sys

import numpy as np

from bitorder.cublas import gemv_design as G
from bitorder.cublas.gemv_rule import magma_order_for
from bitorder.emulate import simt

HERE = os.path.dirname(__file__)
PROBE = os.path.join(HERE, "..", "..", "benchmarks", "results", "2026-12-01-simt-probe", "probe_simt.json.gz")
sys.path.insert(0, os.path.join(HERE, ".."))
from gate_draws import draw  # noqa: E402


def test_every_magma_record_gives_the_orders_bytes():
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
    from probe_gemv import design_for
    with gzip.open(PROBE, "rt") as f:
        recs = [r for r in json.load(f)["simt"] if r.get("answer", {}).get("algo_id") == 16 and "launch" in r]
    assert len(recs) >= 6 and {r["case"]["layout"] for r in recs} == {"tn", "tt"}
    for rec in recs:
        c = rec["case"]
        order = magma_order_for(rec["answer"])
        assert order is not None and "magma_sgemmEx" in rec["launch"][0]["name"]
        bits = np.array(rec["bits"])
        assert (bits == bits[:, :1]).all()                   # every output of the short side: the same bits
        pairs, tracers = design_for(c["k"], c["dtype"])
        assert G.digest(pairs, tracers) == rec["design"]["digest"]
        assert np.array_equal(G.predict(order, c["k"], pairs, tracers), G.decode(bits[:, 0].tolist(), c["dtype"]))
        rows = list(range(min(8, c["m"]))) + [c["m"] - 1]
        for key, want in rec["draws"].items():
            a, b, bias = draw(c, int(key.split(":")[0]), key.split(":")[1])
            got = simt.matmul(a[rows], b, order, bias=bias).view(np.int16)
            want = np.array(want, np.int64).astype(np.int16).reshape(len(rows), c["n"])
            assert np.array_equal(got, want), (c, key)


def test_planted_fault_magma_two_lanes_fails(tmp_path):
    """A copied tree whose magma order runs two strided lanes: the record test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json", '"magma": {"lanes": 1, "chunk": null,',
                           '"magma": {"lanes": 2, "chunk": 1,',
                           "tests/cublas/test_magma_records.py::test_every_magma_record_gives_the_orders_bytes")
