"""The arch profile: integrity, and every entry against what the H200 recorded (survey 2026-11-29)."""
import json
import os
import random
import re
import subprocess
import sys

import pytest

from bitorder.cublas.profile import ArchProfile, Entry, ProfileError, cublas_defect
from bitorder.cublas.prober import describe_record, load_records, sample_mismatches, walk_mismatches
from bitorder.desc import GEMMDesc

SURVEY = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-11-29-survey",
                      "survey.jsonl.gz")


@pytest.fixture(scope="module")
def records():
    return [r for r in load_records(SURVEY) if r.get("ran")]


@pytest.fixture(scope="module")
def profile():
    return ArchProfile.load()


def test_profile_loads_and_entries_are_well_formed(profile):
    assert profile.arch == "sm_90" and profile.cublas == "13.1.0"
    for e in profile.entries:
        ans = {"algo_id": e.match.get("algo_id", [66])[0], "stages": "64x3" if e.match.get("stages_named", True) else "UNDEFINED",
               "split_k": 4 if e.match.get("split") else 1, "reduction_scheme": e.match.get("reduction_scheme", [0])[0]}
        dtype = e.match.get("dtype", ["fp16"])[0]
        for k in (17, 1000, 5000, 70001):
            for bias in (False, True):
                d = e.describe(ans, k, dtype, bias)
                assert d is None or (isinstance(d, GEMMDesc) and d.k == k)
                tiles_unread = e.span is not None and e.span["rule"] == "tiles" and -(-k // e.span["tile"]) < ans["split_k"]
                if not bias and not tiles_unread:      # (a strided split's part without a tile: unread)
                    assert d is not None, (e.name, k)


def test_malformed_entries_are_rejected():
    with pytest.raises(ProfileError, match="unknown match key"):
        Entry("x", {"tile": ["64x64"]}, {"family": "plain", "instruction": "wgmma", "instruction_k": 16})
    with pytest.raises(ProfileError, match="needs a span rule"):
        Entry("x", {}, {"family": "split_k", "instruction": "wgmma", "instruction_k": 16})
    with pytest.raises(ProfileError, match="bias must be"):
        Entry("x", {}, {"family": "plain", "instruction": "wgmma", "instruction_k": 16}, bias="late")
    with pytest.raises(ProfileError, match="lacks"):
        ArchProfile({"arch": "sm_90"})


def test_known_unknowns_fall_back(profile):
    nvjet = {"algo_id": 66, "stages": "64xAUTO", "split_k": 26, "reduction_scheme": 2}
    assert profile.describe(nvjet, 33304, "fp16") is None           # cuBLAS drops the tail there
    assert "drops the last 24" in cublas_defect(nvjet, 33304)
    assert profile.describe(nvjet, 33280, "fp16") is not None        # s divides K
    assert cublas_defect(nvjet, 33280) is None
    s1688 = {"algo_id": 24, "stages": "UNDEFINED", "split_k": 3, "reduction_scheme": 2}
    d = profile.describe(s1688, 512, "bf16", bias=True, layout="nt")  # gate-1's mismatches (twin)
    assert d.k_cuts == (176,) and d.epilogue == ("round", "bias_out")
    # K % 64 == 0 with an operand along K: spans round to 64 (the 2026-11-30 gate's mismatches)
    assert profile.describe(s1688, 512, "fp16", layout="tt").k_cuts == (192,)
    assert profile.describe(s1688, 512, "bf16") is None               # the rule needs the layout
    assert profile.describe(s1688, 520, "bf16", layout="tt").k_cuts == (176,)
    k16 = {"algo_id": 23, "stages": "64x3", "split_k": 5, "reduction_scheme": 1}
    assert profile.describe(k16, 24832, "bf16", layout="tn").k_cuts == (4992,)   # algo 23's walk
    assert profile.describe({"algo_id": 21, "stages": "64x4", "split_k": 1, "reduction_scheme": 0}, 64, "fp16") is None
    # split_k -1 (the split left to run time): no entry, not even sm90-xmma's unsplit one (the
    # 2026-12-01e gate: 8717x13x13440 bf16, algo 42, read as unsplit, differed from cuBLAS)
    xmma = {"algo_id": 42, "tile": "64x64", "stages": "64xAUTO", "split_k": 1, "reduction_scheme": 0}
    assert profile.describe(xmma, 13440, "bf16") is not None
    assert profile.describe(dict(xmma, split_k=-1, reduction_scheme=2), 13440, "bf16") is None


def test_gate1_mismatches_are_explained(profile):
    """Every call gate-1 found mismatched is now described correctly (twin) or falls back."""
    recs = load_records(os.path.join(os.path.dirname(SURVEY), "..", "2026-11-29-gate-2", "survey-mismatch.jsonl.gz"))
    assert len(recs) == 22
    for rec in recs:
        d = describe_record(profile, rec)
        if d is None:
            continue
        assert sample_mismatches(rec, d, "narrow") == 0 and sample_mismatches(rec, d, "wide") == 0, rec["case"]


def test_profile_agrees_with_the_kernels_cublas_launched(records, profile):
    """The family the profile names matches the kernel names the profiler saw."""
    for rec in records:
        d = describe_record(profile, rec)
        if d is None:
            continue
        names = " ".join(rec.get("kernels", []))
        assert ("splitK" in names or "splitKreduce" in names or "Memset" in names) or d.family == "plain" or \
            "Kernel2" in names, names
        if "s1688gemm" in names:
            assert d.instruction_k == 8
        if "nvjet" in names and "splitK" not in names:
            assert d.family == "plain" and d.instruction == "wgmma"
        if re.search(r"nvjet\S*splitK", names):
            assert d.family == "split_k"


def test_profile_covers_the_survey(records, profile):
    known = sum(describe_record(profile, r) is not None for r in records)
    assert known / len(records) > 0.9


def test_twin_reproduces_recorded_bits(records, profile):
    """For a sample of recorded calls the profile knows, the CPU twin gives the H200's bytes."""
    rng = random.Random(0)
    pool = [r for r in records if describe_record(profile, r) is not None and r["case"]["k"] <= 3000]
    for rec in rng.sample(pool, 40):
        d = describe_record(profile, rec)
        for kind in ("narrow", "wide"):
            assert sample_mismatches(rec, d, kind) == 0, (rec["case"], str(d), kind)


def test_twin_reproduces_recorded_walks(records, profile):
    pool = [r for r in records if describe_record(profile, r) is not None and "walk_small" in r
            and r["ran"][0]["split_k"] > 1 and r["case"]["k"] <= 5000]
    for rec in pool[:20]:
        d = describe_record(profile, rec)
        wm = walk_mismatches(rec, d)
        assert wm in (None, 0), (rec["case"], str(d), wm)


def test_a_wrong_descriptor_is_caught(records, profile):
    """The recorded evidence discriminates: moving a split boundary breaks the walks."""
    rec = next(r for r in records if r["ran"][0]["algo_id"] == 66 and r["ran"][0]["split_k"] > 1
               and "walk_small" in r and r["case"]["k"] <= 5000)
    d = describe_record(profile, rec)
    wrong = d.replace(k_cuts=(d.k_cuts[0] - 32,))
    assert walk_mismatches(rec, d) == 0 and walk_mismatches(rec, wrong) > 0


def test_profile_gate_script_passes():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "check_profile_on_survey.py")],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0 and "\n0 failures of" in p.stdout, p.stdout[-3000:]


def test_planted_fault_in_the_profile_fails(tmp_path):
    """A copied tree whose nvjet split spans round to 32 instead of 64 fails the twin gate."""
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant

    p, copy = run_on_mutant(tmp_path, "src/bitorder/cublas/profiles/sm90-cublas13.1.json",
                            '"granule": 64,', '"granule": 32,', ["tests/cublas/check_profile_on_survey.py"])
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout


def test_gate_mismatches_are_reproduced_or_fall_back():
    """The calls the gates found mismatched (2026-11-29 and 2026-11-30), surveyed on the H200:
    the profile reproduces their recorded bits and walks on the CPU twin, or falls back."""
    p = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "check_profile_on_mismatches.py")],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0 and "0 failures" in p.stdout, p.stdout[-3000:] + p.stderr[-2000:]


def test_planted_fault_in_the_k_major_rule_fails(tmp_path):
    """A copied tree that ignores the K-major span rule (granule 8 everywhere, the old profile)
    fails on the 2026-11-30 gate's mismatches."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant

    p, copy = run_on_mutant(tmp_path, "src/bitorder/cublas/profile.py", '                    g = k_major["granule"]',
                            '                    g = g', ["tests/cublas/check_profile_on_mismatches.py"])
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout


def test_the_fp8_entry_describes_by_default_since_its_gate(profile, monkeypatch):
    """The fp8 entry is verified (the 2026-12-04 gate); a copy of it marked verified: false describes nothing
    unless BITORDER_UNVERIFIED=1."""
    import dataclasses
    nvjet = {"algo_id": 66, "stages": "64xAUTO", "split_k": 1, "reduction_scheme": 0}
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    assert profile.describe(nvjet, 4096, "e4m3") is not None
    entry = next(e for e in profile.entries if e.name == "nvjet-fp8")
    assert entry.verified and "2026-12-04-gpu" in entry.evidence["gpu_gate"]
    trial = type(profile)({**profile.meta, "entries": []})
    trial.entries = [dataclasses.replace(e, verified=False) if e is entry else e for e in profile.entries]
    assert trial.describe(nvjet, 4096, "e4m3") is None
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert trial.describe(nvjet, 4096, "e4m3") is not None
    slow, fast = profile.describe(nvjet, 4096, "e4m3", True), profile.describe(nvjet, 4096, "e4m3", True, True)
    assert slow.promotion == 128 and fast.promotion is None and slow.instruction_k == 32
    assert slow.epilogue == ("scale", "bias_acc", "round")
    assert profile.describe(nvjet, 4096, "fp16").instruction_k == 16   # fp16 entries untouched


def test_a_run_time_split_within_one_k_tile_is_the_unsplit_chain():
    """split_k -1 (algorithms 41/42: the split left to run time) plans the unsplit entry only where K
    fits one K tile (nothing to split); the three such calls the 2026-12-01g survey recorded (K 2, 2,
    6: segment_k_off kernels) are reproduced on the twin, and a deeper one still falls back."""
    import gzip
    import json
    import os

    from bitorder.cublas.prober import describe_record, record_mismatches
    from bitorder.cublas.profile import ArchProfile, one_k_tile
    ans = {"algo_id": 41, "tile": "64x64", "stages": "64xAUTO", "split_k": -1, "reduction_scheme": 2, "custom_option": 0}
    assert one_k_tile(ans, 64)["split_k"] == 1 and one_k_tile(ans, 65) is ans
    assert one_k_tile({**ans, "algo_id": 66}, 8)["split_k"] == -1
    prof = ArchProfile.load()
    assert prof.describe({**ans, "algo_id": 42}, 13440, "bf16") is None
    path = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-01g-gpu",
                        "survey-35-41.jsonl.gz")
    recs = [r for r in map(json.loads, gzip.open(path, "rt")) if r["ran"][0]["algo_id"] == 41]
    assert len(recs) == 3
    for rec in recs:
        d = describe_record(prof, rec)
        assert d is not None and d.family == "plain"
        assert record_mismatches(rec, d)[0] == 0, rec["case"]


def test_a_region_an_entry_leaves_open_goes_to_a_later_candidate_only(monkeypatch):
    """describe: where the first matching entry leaves K open (a span rule's known unknown), the call
    falls back by default; under BITORDER_UNVERIFIED=1 a later candidate may describe it, never a later
    verified entry (which the default lookup would not have reached either)."""
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    desc = {"family": "split_k", "instruction": "mma_sync", "instruction_k": 16, "k_tail": "first", "k_step": 16,
            "partial_dtype": "fp32", "merge_dtype": "fp32", "merge_order": "sequential"}
    match = {"algo_id": [21], "split": True}
    open_at_64 = {"rule": "round_up", "granule": 8, "unknown_when": "k_multiple_of", "of": 64}
    entries = [dict(name="first", match=match, desc=desc, span=open_at_64),
               dict(name="verified-later", match=match, desc=desc, span={"rule": "round_up", "granule": 128}),
               dict(name="candidate", match=match, desc=desc, span={"rule": "round_up", "granule": 64}, verified=False)]
    p = ArchProfile({"arch": "sm_90", "cublas": "13.1.0", "entries": entries})
    ans = {"algo_id": 21, "stages": "64x6", "split_k": 3, "reduction_scheme": 1}
    assert p.describe(ans, 640, "fp16") is None and p.describe(ans, 648, "fp16").k_cuts == (216,)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert p.describe(ans, 640, "fp16").k_cuts == (256,)          # the candidate's granule 64, not 128
    assert p.describe(ans, 648, "fp16").k_cuts == (216,)          # the first entry where it knows


def test_algorithm_35_plans_the_strided_split(monkeypatch):
    """Algorithm 35's answer (split 9, scheme 2) describes the strided split (K tiles of 64 dealt to the
    9 parts in turn, the bias in fp32 after the merge; verified on the H200 2026-12-02b), with k_cuts
    (64,) whatever K; where a part would get no tile, nothing (unread)."""
    ans = {"algo_id": 35, "tile": "32x32", "stages": "64x6", "split_k": 9, "reduction_scheme": 2, "custom_option": 2}
    prof = ArchProfile.load()
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    for k in (236336, 452000, 64 * 9, 64 * 8 + 1, 100003):
        d = prof.describe(ans, k, "fp16", True)
        assert d == GEMMDesc("split_k", "fp16", k, "mma_sync", 16, k_cuts=(64,), k_parts=9, partial_dtype="fp32",
                             merge_dtype="fp32", merge_order="sequential", layout="strided",
                             epilogue=("bias_acc", "round")), k
    assert prof.describe(ans, 236336, "fp16").epilogue == ("round",)
    assert prof.describe({**ans, "split_k": 5}, 100003, "fp16").k_parts == 5
    assert prof.describe(ans, 64 * 8, "fp16", True) is None        # 8 tiles for 9 parts
    assert prof.describe(ans, 236336, "bf16", True) is None        # bf16 unrecorded


def test_algorithm_35_records_through_the_profile(monkeypatch):
    """The shallowest algorithm-35 record, described by the profile under BITORDER_UNVERIFIED=1,
    reproduces its narrow sampled bits on the twin."""
    import gzip
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    path = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-01g-gpu",
                        "survey-35-41.jsonl.gz")
    recs = [r for r in map(json.loads, gzip.open(path, "rt")) if r.get("ran") and r["ran"][0]["algo_id"] == 35]
    rec = min(recs, key=lambda r: r["case"]["k"])
    d = describe_record(ArchProfile.load(), rec)
    assert d is not None and d.layout == "strided" and d.k_parts == 9
    assert sample_mismatches(rec, d, "narrow") == 0


def test_algorithm_41_past_one_tile_falls_back_even_as_a_candidate(monkeypatch):
    """A run-time split (-1) of algorithm 41 past one K tile goes to cuBLAS, with or without
    BITORDER_UNVERIFIED=1: the unsplit reading fitted 4 records of 2026-12-02 but 35 of 36 fresh H200
    calls differed from it (2026-12-02c call 4). Within one K tile it is the unsplit chain."""
    from bitorder.cublas.profile import one_k_tile
    ans = {"algo_id": 41, "tile": "64x64", "stages": "64xAUTO", "split_k": -1, "reduction_scheme": 2, "custom_option": 0}
    prof = ArchProfile.load()
    for trial in ("", "1"):
        monkeypatch.setenv("BITORDER_UNVERIFIED", trial)
        assert one_k_tile(ans, 924) is ans and one_k_tile({**ans, "algo_id": 42}, 924)["split_k"] == -1
        assert prof.describe(ans, 924, "bf16", True) is None
        assert one_k_tile(ans, 64)["split_k"] == 1
    log = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-02c-gpu", "call4",
                       "ground41.log")
    assert sum(line.startswith("MISMATCH") for line in open(log)) >= 15   # the evidence the reading is false


def test_fp8_split_entry_falls_back_on_the_tail_drop_condition(monkeypatch):
    """The fp8 split entry (algorithm 66) describes split calls, but not where floor(K/s) is a multiple of
    its granule 128 and s does not divide K (cuBLAS's nvjet tail-drop condition): the 2026-12-02c fp8
    gate's one mismatch, 8x16x659056 at split 132, is such a call. At K = 660,016 (floor 5,000) it plans."""
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")     # the fp8 entries are candidates until their gate
    prof = ArchProfile.load()
    ans = {"algo_id": 66, "tile": "64x8", "stages": "128xAUTO", "split_k": 132, "reduction_scheme": 2}
    assert prof.describe(ans, 659056, "e4m3", False, False, out_dtype="fp32") is None
    assert "drops the last 112" in cublas_defect(ans, 659056, "e4m3")
    d = prof.describe(ans, 660016, "e4m3", False, False, out_dtype="fp32")
    assert d is not None and d.family == "split_k" and d.k_cuts == (5120,)
    assert cublas_defect(ans, 660016, "e4m3") is None
    # floor(K/s) a multiple of 64 but not of 128: the fp16 rule's defect, not fp8's
    k = 132 * 4928 + 16
    assert cublas_defect(ans, k, "fp16") and not cublas_defect(ans, k, "e4m3")
    assert prof.describe(ans, k, "e4m3", False, False, out_dtype="fp32") is not None
