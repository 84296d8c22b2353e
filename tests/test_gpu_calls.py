"""scripts/gpu-calls/verify-candidates.py, the step that turns a ground into verified profile entries on the
device and here: it flips nothing when the ground saw a mismatch, an error or an unreached case, or when the
planted fault differed nowhere, and flips only the candidates whose region held enough identical ground calls."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "gpu-calls", "verify-candidates.py")
PROFILE = "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json"
ENTRY = ('    {"option": 93, "dtype": "fp16", "k_low": 2589, "k_high": 6114, "batch_low": 4, "batch_high": 67, '
         '"lanes": 32, "chunk": 1, "cap": null, "fold": "down", "verified": %s},')


def _tree(tmp_path):
    """A copy of the profile with one candidate (the option-93 fp16 entry set back to verified false)."""
    text = open(os.path.join(ROOT, PROFILE)).read()
    assert text.count(ENTRY % "true") == 1
    dst = tmp_path / PROFILE
    dst.parent.mkdir(parents=True)
    dst.write_text(text.replace(ENTRY % "true", ENTRY % "false"))
    return dst


def _run(tmp_path, ground, mutant, cases):
    answer = {"algo_id": 13, "custom_option": 93, "split_k": 1}
    census = {"not_triton": [{"case": c, "answer": answer, "path": "cublas"} for c in cases]}
    for name, body in (("census", census), ("ground", ground), ("mutant", mutant)):
        (tmp_path / f"{name}.json").write_text(json.dumps(body))
    return subprocess.run([sys.executable, SCRIPT, "census.json", "ground.json", "mutant.json"], cwd=tmp_path,
                          capture_output=True, text=True)


def _case(k, batch=10):
    return {"op": "bmm", "dtype": "fp16", "m": 1, "n": 1, "k": k, "batch": batch, "layout": "nn", "group": "fuzz"}


CLEAN = {"n_mismatches": 0, "n_errors": 0, "n_not_reached": 0, "fallback_cases": []}


def test_a_clean_ground_with_a_caught_fault_flips_the_covered_candidate(tmp_path):
    profile = _tree(tmp_path)
    out = _run(tmp_path, CLEAN, {"n_mismatches": 2}, [_case(3000 + i) for i in range(3)])
    assert out.returncode == 0 and "verified: option 93 fp16 K 2589-6114" in out.stdout
    assert (ENTRY % "true") in profile.read_text()


def test_nothing_flips_on_a_mismatch_an_uncaught_fault_too_few_calls_or_calls_outside(tmp_path):
    profile = _tree(tmp_path)
    cases = [_case(3000 + i) for i in range(3)]
    for ground, mutant, cs in ((dict(CLEAN, n_mismatches=1), {"n_mismatches": 2}, cases),
                               (dict(CLEAN, n_not_reached=1), {"n_mismatches": 2}, cases),
                               (CLEAN, {"n_mismatches": 0}, cases),
                               (CLEAN, {"n_mismatches": 2}, cases[:2]),
                               (CLEAN, {"n_mismatches": 2}, [_case(3000 + i, batch=70) for i in range(3)]),
                               (dict(CLEAN, fallback_cases=[{"case": cases[0]}]), {"n_mismatches": 2}, cases)):
        out = _run(tmp_path, ground, mutant, cs)
        assert out.returncode == 1, out.stdout
        assert (ENTRY % "false") in profile.read_text()
