"""Every call a GPU gate found mismatched, surveyed on the H200 (recorded output bits and K walks),
against the arch profile on the CPU twin: each must be reproduced or fall back. Exit 1 otherwise.
Run as a script (a planted-fault test runs it on a copied tree)."""
import os
import sys

import bitorder
from bitorder.cublas.prober import describe_record, load_records, record_mismatches
from bitorder.cublas.profile import ArchProfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from mutants import fail  # noqa: E402  (stops at the first FAIL in planted-fault runs)

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "results")
FILES = ["2026-11-29-gate-2/survey-mismatch.jsonl.gz", "2026-11-30-gate/survey-mismatch.jsonl.gz"]

# CI time: calls deeper than 100k (one: 2026-11-29's algorithm-21 serial split at K 382,392, a third
# of the run; tests/cublas/test_algo21_records.py replays that entry on CI) by hand, BITORDER_ALL_TESTS=1
DEEP = os.environ.get("BITORDER_ALL_TESTS") == "1"

print(f"bitorder from {bitorder.__file__}")
profile = ArchProfile.load()
failures = described = deep = 0
for f in FILES:
    for rec in load_records(os.path.join(RESULTS, f)):
        d = describe_record(profile, rec)
        if d is None:
            continue
        if rec["case"]["k"] > 100_000 and not DEEP:
            deep += 1
            continue
        described += 1
        bad, walks = record_mismatches(rec, d)
        if bad or walks:
            failures += 1
            fail(f"FAIL {rec['case']} {d}: {bad} sampled elements, {walks} walk positions")
print(f"{failures} failures of {described} described" + (f" ({deep} deeper than 100k by hand)" if deep else ""))
sys.exit(1 if failures else 0)
