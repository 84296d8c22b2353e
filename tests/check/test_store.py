"""check.store: answers kept on disk between processes, filed under the checker's source digest."""
import json
import shutil
import subprocess
import sys

import importlib

import bitorder
from bitorder.check import store
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

from mutants import checker_test_fails_on_mutant

sigmod = importlib.import_module("bitorder.check.signature")   # (the package's `signature` is the function)


def _fresh_process_signature(ptx_path, cache, store_on=True):
    code = ("import sys; from bitorder import check; from bitorder.check.store import READ; "
            f"print(check.signature(open(sys.argv[1]).read(), store={store_on}), READ[0])")
    p = subprocess.run([sys.executable, "-c", code, str(ptx_path)], capture_output=True, text=True,
                       env={**__import__("os").environ, "BITORDER_CACHE_DIR": str(cache)})
    assert p.returncode == 0, p.stderr
    sig, read = p.stdout.split()
    return sig, int(read)


def test_another_process_reads_the_answer_back(tmp_path):
    """A second process reads the first's answer (a planted answer in the file is what it returns, so the read is
    real); store=False walks; a torn entry is walked again and written whole."""
    c = bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 256}, num_warps=4)
    ptx = tmp_path / "k.ptx"
    ptx.write_text(c.ptx)
    sig, read = _fresh_process_signature(ptx, tmp_path / "cache")
    assert read == 0 and sig.startswith("v1:")
    [entry] = (tmp_path / "cache" / "signatures").rglob("*.json")
    assert json.loads(entry.read_text())[0] == sig
    assert _fresh_process_signature(ptx, tmp_path / "cache") == (sig, 1)
    entry.write_text(json.dumps(["v1:planted", None]))
    assert _fresh_process_signature(ptx, tmp_path / "cache") == ("v1:planted", 1)
    assert _fresh_process_signature(ptx, tmp_path / "cache", store_on=False) == (sig, 0)
    entry.write_text('["v1:torn", nu')
    assert _fresh_process_signature(ptx, tmp_path / "cache") == (sig, 0)
    assert json.loads(entry.read_text())[0] == sig


def test_another_checker_source_files_elsewhere(tmp_path):
    """One byte changed in any module of the checker, its subpackages' included, gives another digest: a changed
    checker (or a planted fault in a copied tree) reads none of this one's answers."""
    src = tmp_path / "check"
    shutil.copytree(store._HERE, src, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    assert store.digest(src) == store.digest()
    (src / "fold.py").write_text((src / "fold.py").read_text() + "\n")
    assert store.digest(src) != store.digest()
    # a subpackage's module too: families/ is the walk check.signature tries first
    shutil.copy(store._HERE / "fold.py", src / "fold.py")
    assert store.digest(src) == store.digest()
    walk = src / "families" / "walk.py"
    walk.write_text(walk.read_text() + "\n")
    assert store.digest(src) != store.digest()


def test_planted_fault_a_digest_blind_to_subpackages_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/store.py",
                                 '    for path in sorted(Path(folder).rglob("*.py")):',
                                 '    for path in sorted(Path(folder).glob("*.py")):',
                                 "tests/check/test_store.py::test_another_checker_source_files_elsewhere")


def test_the_key_holds_what_the_answer_depends_on(tmp_path, monkeypatch):
    """The aligned compile of the same kernel, and bound arguments, are other entries; a rule switch is too."""
    monkeypatch.setenv("BITORDER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(sigmod, "_BY_TEXT", {})
    monkeypatch.setattr(sigmod, "_MEMO", {})
    c = bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 256}, num_warps=4)
    a = bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 256}, num_warps=4,
                         aligned=list(ROW_SUM_SIGNATURE))
    sigs = {sigmod.signature(c, store=True), sigmod.signature(a, store=True), sigmod.signature(c, {2: 256}, store=True)}
    monkeypatch.setattr(sigmod.loops, "ON", not sigmod.loops.ON)
    sigmod.signature(c, store=True)
    assert len(list((tmp_path / "signatures").rglob("*.json"))) == 4 and len(sigs) == 3
