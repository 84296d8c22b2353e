"""The arch profile against the H200's recorded bits, on the CPU twin (a gate script).

For a seeded sample of surveyed calls the profile describes, the twin must reproduce the
sampled output bits (narrow and wide draws) and the walks. Prints failures, exits nonzero
if any. Used by the planted-fault test with a mutated copy of the tree.
"""
import os
import random
import sys

import bitorder
from bitorder.cublas.prober import describe_record, load_records, record_mismatches
from bitorder.cublas.profile import ArchProfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from mutants import fail  # noqa: E402  (stops at the first FAIL in planted-fault runs)

HERE = os.path.dirname(os.path.abspath(__file__))
SURVEY = os.path.join(HERE, "..", "..", "benchmarks", "results", "2026-11-29-survey", "survey.jsonl.gz")

print(f"bitorder from {bitorder.__file__}")
profile = ArchProfile.load()
records = [r for r in load_records(SURVEY) if r.get("ran") and r["case"]["k"] <= 8000]
pool = [r for r in records if describe_record(profile, r) is not None]
split = [r for r in pool if r["ran"][0]["split_k"] > 1]
rng = random.Random(int(os.environ.get("SEED", "0")))
# CI's share: 30 calls and 20 split ones; 60 and 40 with BITORDER_ALL_TESTS=1 (or by hand with SEED)
n_any, n_split = (60, 40) if os.environ.get("BITORDER_ALL_TESTS") == "1" else (30, 20)
sample = rng.sample(pool, min(n_any, len(pool))) + rng.sample(split, min(n_split, len(split)))
failures = 0
for rec in sample:
    d = describe_record(profile, rec)
    bad, walks = record_mismatches(rec, d)
    if bad or walks:
        failures += 1
        fail(f"FAIL {rec['case']} {d}: {bad} sampled elements, {walks} walk positions")
print(f"{failures} failures of {len(sample)}")
sys.exit(1 if failures else 0)
