"""scripts/gpu-calls/verify-candidates.py, the step that turns a ground into verified profile entries on the
device and here: it flips nothing when the ground saw a mismatch, an error or an unreached case, or when the
planted fault differed nowhere (on that kind of call: batched dots, algorithm 42's run-time split), and flips only the
candidates whose region held enough identical ground calls."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "gpu-calls", "verify-candidates.py")
PROFILE = "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json"
SEGMENT_K = "src/bitorder/cublas/segment_k.py"
ENTRY = ('    {"option": 93, "dtype": "fp16", "k_low": 2589, "k_high": 6114, "batch_low": 4, "batch_high": 62, '
         '"lanes": 32, "chunk": 1, "cap": null, "fold": "down", "verified": %s},')


def _tree(tmp_path):
    """A copy of the profile with one candidate (the option-93 fp16 entry set back to verified false)."""
    text = open(os.path.join(ROOT, PROFILE)).read()
    assert text.count(ENTRY % "true") == 1
    dst = tmp_path / PROFILE
    dst.parent.mkdir(parents=True)
    dst.write_text(text.replace(ENTRY % "true", ENTRY % "false"))
    seg = open(os.path.join(ROOT, SEGMENT_K)).read()        # algorithm 42 as before its first ground: nt only
    now = re.search(r'"layouts": \([^)]*\), "candidate_layouts": \([^)]*\)', seg).group(0)
    (tmp_path / SEGMENT_K).write_text(seg.replace(now, '"layouts": ("nt",), "candidate_layouts": ("nn", "tn", "tt")', 1))
    return dst


DOT = {"algo_id": 13, "custom_option": 93, "split_k": 1}
SEGK = {"algo_id": 42, "tile": "64x64", "stages": "64xAUTO", "split_k": -1}


def _run(tmp_path, ground, mutant, cases, answer=DOT):
    census = {"not_triton": [{"case": c, "answer": answer, "path": "cublas"} for c in cases]}
    for name, body in (("census", census), ("ground", ground), ("mutant", mutant)):
        (tmp_path / f"{name}.json").write_text(json.dumps(body))
    return subprocess.run([sys.executable, SCRIPT, "census.json", "ground.json", "mutant.json"], cwd=tmp_path,
                          capture_output=True, text=True)


def _fault(*cases):
    """A planted fault's JSON that differed on these cases."""
    return {"n_mismatches": len(cases), "mismatches": [{"case": c} for c in cases]}


def _case(k, batch=10):
    return {"op": "bmm", "dtype": "fp16", "m": 1, "n": 1, "k": k, "batch": batch, "layout": "nn", "group": "fuzz"}


CLEAN = {"n_mismatches": 0, "n_errors": 0, "n_not_reached": 0, "fallback_cases": []}


def test_a_clean_ground_with_a_caught_fault_flips_the_covered_candidate(tmp_path):
    profile = _tree(tmp_path)
    cases = [_case(3000 + i) for i in range(3)]
    out = _run(tmp_path, CLEAN, _fault(cases[0]), cases)
    assert out.returncode == 0 and "verified: option 93 fp16 K 2589-6114" in out.stdout
    assert (ENTRY % "true") in profile.read_text()


def test_nothing_flips_on_a_mismatch_an_uncaught_fault_too_few_calls_or_calls_outside(tmp_path):
    profile = _tree(tmp_path)
    cases = [_case(3000 + i) for i in range(3)]
    far = [_case(3000 + i, batch=70) for i in range(3)]
    for ground, mutant, cs in ((dict(CLEAN, n_mismatches=1), _fault(cases[0]), cases),
                               (dict(CLEAN, n_not_reached=1), _fault(cases[0]), cases),
                               (CLEAN, {"n_mismatches": 0}, cases),
                               (CLEAN, _fault(_case(9)) | {"n_mismatches": 1}, cases),   # the fault missed them
                               (CLEAN, _fault(cases[0]), cases[:2]),
                               (CLEAN, _fault(far[0]), far),
                               (dict(CLEAN, fallback_cases=[{"case": cases[0]}]), _fault(cases[0]), cases)):
        out = _run(tmp_path, ground, mutant, cs)
        assert out.returncode == 1, out.stdout
        assert (ENTRY % "false") in profile.read_text()


def _mm(m, layout="nn"):
    return {"op": "mm", "dtype": "bf16", "m": m, "n": 7, "k": 17414, "batch": 1, "layout": layout, "group": "fuzz"}


def test_algorithm_42_layouts_join_once_grounded_and_caught(tmp_path):
    """Three identical ground calls in layout nn with the fault caught on one of them move "nn" from the candidate
    layouts to "layouts" in segment_k.py; tn and tt stay candidates; the dot entry stays a candidate."""
    profile = _tree(tmp_path)
    cases = [_mm(8500 + i) for i in range(3)] + [_mm(8600, "tn")]
    out = _run(tmp_path, CLEAN, _fault(cases[0]), cases, answer=SEGK)
    assert out.returncode == 0 and "verified: algorithm 42 layout nn: 3 ground calls" in out.stdout, out.stdout
    text = (tmp_path / SEGMENT_K).read_text()
    assert '"layouts": ("nt", "nn"), "candidate_layouts": ("tn", "tt")' in text
    assert (ENTRY % "false") in profile.read_text()


def test_algorithm_42_layouts_stay_candidates_when_the_fault_missed_them(tmp_path):
    _tree(tmp_path)
    cases = [_mm(8500 + i) for i in range(3)]
    out = _run(tmp_path, CLEAN, _fault(_case(9)), cases, answer=SEGK)     # the fault differed on a dot only
    assert out.returncode == 1 and "no layout verified" in out.stdout, out.stdout
    assert '"layouts": ("nt",), "candidate_layouts": ("nn", "tn", "tt")' in (tmp_path / SEGMENT_K).read_text()


def test_design_regions_draws_inside_each_candidate_region(tmp_path):
    """benchmarks/design_regions.py: the dot cases of an entry lie in its K and batch ranges, and the algorithm-42
    cases where its reading splits (one tile column, one wave of 132 tiles plus 1-20), in the candidate layouts."""
    import random
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    import design_regions
    from bitorder.cublas.segment_k import KERNELS
    entry = {"option": 93, "dtype": "bf16", "k_low": 498, "k_high": 1319, "batch_low": 22, "batch_high": 45}
    cases = design_regions.dot_cases(entry, 200, random.Random(1))
    assert all(498 <= c["k"] <= 1319 and 22 <= c["batch"] <= 45 and c["m"] == c["n"] == 1 for c in cases)
    assert {c["layout"] for c in cases} == {"nn", "nt", "tn", "tt"}
    for c in design_regions.segk_cases(("nn", "tt"), 100, random.Random(2)):
        tiles = -(-c["m"] // KERNELS[42]["tile"])
        assert c["n"] <= 64 and 1 <= tiles - 132 <= 20 and c["layout"] in ("nn", "tt"), c
    out = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "design_regions.py"),
                          str(tmp_path / "d.json"), "--per", "3", "--segk", "4"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.load(open(tmp_path / "d.json"))["not_reached_cases"]
