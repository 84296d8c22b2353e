"""cuBLASLt's bias placement on its gemv path (bitorder.cublas.gemv_rule.lt_bias_placement) against the
2026-12-01b H200 probe: every F.linear call with M = 1 answered as gemv whose bytes one placement
alone gave (under the rule's order) gets that placement from its answer."""
import gzip
import json
import os

from bitorder.cublas.gemv_rule import lt_bias_placement

PROBE = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-01b-ltbias",
                     "probe_ltbias.json.gz")


def test_every_probed_call_with_one_fit_gets_that_placement():
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    with gzip.open(PROBE, "rt") as f:
        rows = json.load(f)["rows"]
    single = [r for r in rows if r["fit"] in ("acc", "out")]
    assert len(single) >= 1500 and {r["fit"] for r in single} == {"acc", "out"}
    for r in single:
        assert lt_bias_placement(r["answer"]) == r["fit"], (r["case"], r["answer"])
        # the kernels agree: a split call launched the epilogue kernel that adds the bias to the rounded output
        assert (r["fit"] == "out") == any("epilogue" in k["name"] for k in r["launch"])


def test_planted_fault_placement_by_option_fails(tmp_path):
    """A copied tree that reads the placement off the custom option instead of the split: the test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/gemv_rule.py",
                           'return "out" if int(answer.get("split_k") or 1) > 1 else "acc"',
                           'return "out" if int(answer.get("custom_option") or 0) in (10, 75, 100) else "acc"',
                           "tests/cublas/test_ltbias_records.py::test_every_probed_call_with_one_fit_gets_that_placement")
