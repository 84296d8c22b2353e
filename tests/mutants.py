"""Planted faults built from a copied tree: a gate must fail on the copy, and the run must
prove it imported the copy (not the tree under test)."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# argv to run named tests on the copy (then argv's tests/ paths are the copy's), stopping at the first failure
PYTEST = ["-m", "pytest", "-q", "-s", "-x", "-p", "no:cacheprovider"]
# A planted fault needs one failing case, not all of them: the check scripts stop at their first FAIL
# under BITORDER_STOP_AT_FAIL=1, which run_on_mutant sets (CI time).
STOP = os.environ.get("BITORDER_STOP_AT_FAIL") == "1"


def fail(message: str) -> None:
    """A check script's FAIL line; the script exits 1 there when BITORDER_STOP_AT_FAIL=1."""
    print(message, flush=True)
    if STOP:
        sys.exit(1)


def run_on_mutant(tmp_path, rel_file: str, old, new, argv: list, env=None):
    """Copy src/ and tests/, replace `old` by `new` (each exactly once; lists for several edits)
    in rel_file, run argv with the copy first on PYTHONPATH.
    Returns (completed process, the copy's src/bitorder path)."""
    for d in ("src", "tests", "benchmarks"):
        shutil.copytree(os.path.join(ROOT, d), tmp_path / d, ignore=shutil.ignore_patterns("__pycache__", "*.so", "_native.json"))  # the copy runs its own .py files
    target = tmp_path / rel_file
    text = target.read_text()
    for o, n in zip(*((old, new) if isinstance(old, list) else ([old], [new]))):
        assert text.count(o) == 1, f"the mutation site must be unique in {rel_file}: {o!r}"
        text = text.replace(o, n)
    target.write_text(text)
    e = dict(os.environ, BITORDER_STOP_AT_FAIL="1", **(env or {}))
    e["PYTHONPATH"] = str(tmp_path / "src") + os.pathsep + e.get("PYTHONPATH", "")
    argv = [str(tmp_path / a) if a.startswith(("tests/", "benchmarks/")) else a for a in argv]
    p = subprocess.run([sys.executable, *argv], env=e, capture_output=True, text=True, timeout=1200, cwd=tmp_path)
    return p, str(tmp_path / "src" / "bitorder")


def pytest_fails_on_mutant(tmp_path, rel_file: str, old, new, nodeid: str):
    """Run one pytest node on a copied tree with `old` made `new` in rel_file: the node must fail
    with an AssertionError, and its output must show it imported the copy (the node prints
    "bitorder from <its bitorder folder>")."""
    p, copy = run_on_mutant(tmp_path, rel_file, old, new, PYTEST + [nodeid])
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "AssertionError" in p.stdout, p.stdout[-2000:]


def checker_test_fails_on_mutant(tmp_path, rel_file: str, old, new, nodeid: str):
    """Run one checker test on a copied tree with `old` made `new` in rel_file, after
    tests/check/test_bits.py's import proof (it prints the bitorder folder the run imported): the
    output must name the copy, and the test must fail with an AssertionError (or pytest.raises'
    "DID NOT RAISE")."""
    p, copy = run_on_mutant(tmp_path, rel_file, old, new,
                            [*PYTEST, "tests/check/test_bits.py::test_bitorder_is_imported_from", nodeid])
    assert copy in p.stdout and p.returncode != 0 and ("AssertionError" in p.stdout or "DID NOT RAISE" in p.stdout), \
        p.stdout[-2000:] + p.stderr[-1000:]
