"""scripts/build-native-checker's guard (bitorder.check._native): a compiled module is used only with the source it
was built from, since Python would import a stale extension module before the changed .py file."""
import hashlib
import importlib.machinery
import json

import pytest

from bitorder.check import _native


def _tree(tmp_path, source="x = 1\n", built_from="x = 1\n"):
    (tmp_path / "walk.py").write_text(source)
    (tmp_path / f"walk{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (tmp_path / "_native.json").write_text(json.dumps({"walk": hashlib.sha256(built_from.encode()).hexdigest()}))


def test_a_fresh_build_imports(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    assert _native._compiled() == ["walk"]
    _native.ensure_fresh()


def test_a_changed_source_in_the_family_walk_s_subpackage_is_refused(tmp_path, monkeypatch):
    """A compiled module below check/ (families/) is found and checked against its own source too."""
    _tree(tmp_path)
    (tmp_path / "families").mkdir()
    (tmp_path / "families" / "walk.py").write_text("y = 2\n")
    (tmp_path / "families" / f"walk{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    stamp = json.loads((tmp_path / "_native.json").read_text())
    (tmp_path / "_native.json").write_text(json.dumps({**stamp, "families/walk": hashlib.sha256(b"y = 1\n").hexdigest()}))
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    assert _native._compiled() == ["families/walk", "walk"]
    with pytest.raises(ImportError, match="families/walk"):
        _native.ensure_fresh()


def test_a_source_changed_since_the_build_is_refused(tmp_path, monkeypatch):
    _tree(tmp_path, source="x = 2\n")
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    with pytest.raises(ImportError, match="build-native-checker"):
        _native.ensure_fresh()


def test_a_compiled_module_without_a_stamp_is_refused(tmp_path, monkeypatch):
    _tree(tmp_path)
    (tmp_path / "_native.json").unlink()
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    with pytest.raises(ImportError):
        _native.ensure_fresh()


def test_no_compiled_module_is_the_interpreted_checker(tmp_path, monkeypatch):
    (tmp_path / "walk.py").write_text("x = 1\n")
    monkeypatch.setattr(_native, "_HERE", str(tmp_path))
    assert _native._compiled() == []
    _native.ensure_fresh()
