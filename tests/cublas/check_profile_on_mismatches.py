"""Every call a GPU gate found mismatched, surveyed on the H200 (recorded output bits and K walks),
against the arch profile on the CPU twin: each must be reproduced or fall back. Exit 1 otherwise.
Run as a script (a planted-fault test runs it on a copied tree)."""
import os
import sys

import bitorder
from bitorder.cublas.prober import load_records, sample_mismatches, walk_mismatches
from bitorder.cublas.profile import ArchProfile, layout_of

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks", "results")
FILES = ["2026-11-29-gate-2/survey-mismatch.jsonl.gz", "2026-11-30-gate/survey-mismatch.jsonl.gz"]

print(f"bitorder from {bitorder.__file__}")
profile = ArchProfile.load()
failures = described = 0
for f in FILES:
    for rec in load_records(os.path.join(RESULTS, f)):
        c = rec["case"]
        d = profile.describe(rec["ran"][0], c["k"], c["dtype"], c["op"] == "linear_bias", layout=layout_of(rec["query"]))
        if d is None:
            continue
        described += 1
        bad = sample_mismatches(rec, d, "narrow") + sample_mismatches(rec, d, "wide")
        walks = walk_mismatches(rec, d)
        if bad or walks:
            failures += 1
            print(f"FAIL {c} {d}: {bad} sampled elements, {walks} walk positions")
print(f"{failures} failures of {described} described")
sys.exit(1 if failures else 0)
