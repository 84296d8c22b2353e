"""Answers kept on disk between processes: an autotuner started again in a new process (every training job's
first call) reads back the classes an earlier process computed, instead of walking the same programs again.

An answer is keyed by the program (its PTX text's hash, the parameters assumed multiples of 16, the bound
arguments, the walk's rule switches) and filed under the checker's own source: the digest of every module of
bitorder.check and its subpackages. So a changed checker (an edit, another release, a planted fault in a copied tree) reads none of
another checker's answers. A torn or unreadable entry is walked again and written over. In-process patches of the
checker are not in the digest, which is why the store is opt-in (`store=True`): prune and `bitorder check` use it,
the gates and benchmarks do not."""
from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent
READ = [0]   # answers this process read back from the store (a caption can say its time is not a walk's)


def digest(folder: Path | None = None) -> str:
    """sha256 over the checker's modules (every .py under `folder`, its subpackages' too (families/: the walk
    check.signature tries first), by path; this checker's when None, read once a process): the checker the answers
    come from."""
    if folder is None:
        return _own_digest()
    h = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*.py")):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _own_digest() -> str:
    return digest(_HERE)


def root() -> Path:
    """$BITORDER_CACHE_DIR/signatures (else ~/.cache/bitorder/signatures), one folder per checker digest below."""
    from ..compiler.harness import cache_root   # (the compile cache's root: one place says where bitorder keeps)
    return cache_root() / "signatures"


def _path(key: tuple) -> Path:
    name = hashlib.sha256(repr(key).encode()).hexdigest()
    return root() / digest()[:16] / name[:2] / f"{name}.json"


def get(key: tuple):
    """The (signature, why v1 declined or None) stored under `key`, or None."""
    try:
        sig, why = json.loads(_path(key).read_text())
    except (OSError, ValueError, TypeError):
        return None
    if not isinstance(sig, str) or not (why is None or isinstance(why, str)):
        return None
    READ[0] += 1
    return sig, why


def put(key: tuple, answer: tuple) -> None:
    """Store `answer` under `key` (written whole, then renamed: a reader never sees half of it). A store that
    cannot be written (read-only home, full disk) costs only the next process's walk."""
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(list(answer)))
        os.replace(tmp, path)
    except OSError:
        pass
