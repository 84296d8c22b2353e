"""Whether the checker's walk runs compiled (scripts/build-native-checker: mypyc) and, if it does, that every
compiled module was built from the source beside it. A stale extension module would run old code silently, since
Python imports it before the .py file; so a changed source is an error here, not a slower or different checker."""
from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os

try:    # the mixins of dataflow._Block are traits, as mypyc needs them; a plain class where mypy is absent
    from mypy_extensions import trait
except ImportError:        # pragma: no cover
    def trait(cls):  # type: ignore
        return cls

_HERE = os.path.dirname(os.path.abspath(__file__))


def _compiled() -> list[str]:
    """The check modules that have an extension module beside their source, by path below check/ ("walk",
    "families/walk": the family walk's subpackage is compiled too)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out = []
    for folder, _, files in os.walk(_HERE):
        rel = os.path.relpath(folder, _HERE)
        out += [f.split(".")[0] if rel == "." else f"{rel}/{f.split('.')[0]}" for f in files if f.endswith(suffixes)]
    return sorted(out)


NATIVE = bool(_compiled())   # the walk runs mypyc-compiled modules


def ensure_fresh() -> None:
    """Raise ImportError if a compiled module's source differs from the one it was built from (or no stamp says)."""
    mods = _compiled()
    if not mods:
        return
    try:
        with open(os.path.join(_HERE, "_native.json")) as f:
            stamp = json.load(f)
    except OSError:
        stamp = {}
    for m in mods:
        with open(os.path.join(_HERE, f"{m}.py"), "rb") as f:
            now = hashlib.sha256(f.read()).hexdigest()
        if stamp.get(m) != now:
            raise ImportError(f"bitorder.check.{m.replace('/', '.')} is compiled from another source than {m}.py: run "
                              "scripts/build-native-checker again, or with --clean for the pure-Python checker")
