"""The survey's record writer (cublas/survey.record_all) on the CPU: batches, kernel names, errors."""
import gzip
import json

import pytest

pytest.importorskip("torch")
from bitorder.cublas import profiling, survey  # noqa: E402
from bitorder.gemm.shapes import Case  # noqa: E402


def test_records_get_their_calls_kernels_and_errors_are_written(tmp_path, monkeypatch):
    monkeypatch.setattr(profiling, "kernels_per_call", lambda calls: [[f"k{c()}"] for c in calls])

    def one(i, case):
        if i == 2:
            raise ValueError("no answer")
        calls = [lambda: i] + ([lambda: 100 + i] if i % 2 else [])   # odd cases: an lt call too
        return {"i": i}, calls

    cases = [Case("mm", "fp16", 8, 8, 8 * (j + 1)) for j in range(30)]
    path = str(tmp_path / "s.jsonl.gz")
    done, errors = survey.record_all(path, cases, one, 0.0, 1e12)
    recs = [json.loads(x) for x in gzip.open(path, "rt")]
    assert (done, errors) == (29, 1) and len(recs) == 30
    assert next(r for r in recs if "error" in r)["case"]["k"] == 24
    r1 = next(r for r in recs if r.get("i") == 1)
    assert r1["kernels"] == ["k1"] and r1["lt_kernels"] == ["k101"]
    assert "lt_kernels" not in next(r for r in recs if r.get("i") == 28)
