"""Triton's cache as the checker's input: every kernel a machine compiled, grouped so that the variants of one
kernel (its autotune configurations, num_warps, num_stages) are classed together.

Triton keeps each compile in a folder of its own (`$TRITON_CACHE_DIR`, by default ~/.triton/cache), holding
NAME.ptx, NAME.ttgir and NAME.json (the metadata: name, num_warps, num_stages, target). A group is one kernel
as its launches specialise it: the same name, the same definition (file and line), the same target and the same
parameters (types and the ones assumed multiples of 16). The constexprs a configuration chose are not in the
metadata; they are in the code, which is what the checker reads."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

_FUNC = re.compile(r"tt\.func public @([\w.$]+)\((.*?)\) attributes", re.S)
_PARAM = re.compile(r"%([\w.$]+): (!tt\.ptr<[^>]*>|\w+)( \{[^}]*tt\.divisibility = 16[^}]*\})?")
_DEF = re.compile(r'^#loc\d* = loc\("([^"]+)":(\d+):\d+\)', re.M)
_RANGE = re.compile(r"tt\.make_range \{end = (\d+) : i32, start = 0 : i32\}")


@dataclass(frozen=True)
class Cached:
    """One compiled kernel of the cache: `asm` ({"ptx", "ttgir"}, or the PTX alone where no TTGIR was kept) is what
    `check.signature` reads, `member` names the variant (its folder's hash, launch options and the extents of its
    tl.arange ranges, which show its block sizes), `group` the kernel it is a variant of."""
    group: str
    member: str
    asm: dict | str
    folder: Path


def _signature_of(ttgir: str, name: str) -> str:
    """The kernel's parameters as its code was specialised: `x_ptr *f32/16` (a pointer assumed 16-byte aligned)."""
    m = _FUNC.search(ttgir)
    if m is None or m.group(1) != name:
        return "?"
    params = []
    for p, ty, div in _PARAM.findall(m.group(2)):
        ty = "*" + ty[len("!tt.ptr<"):-1] if ty.startswith("!tt.ptr<") else ty
        params.append(f"{p} {ty}{'/16' if div else ''}")
    return ", ".join(params)


def _definition(ttgir: str) -> str:
    """FILE:LINE of the kernel's definition (the module's first location), or '?'."""
    m = _DEF.search(ttgir)
    return f"{m.group(1)}:{m.group(2)}" if m else "?"


def read(root, kernel: str | None = None) -> tuple[dict[str, list[Cached]], list[tuple[str, str]]]:
    """Every compiled kernel under `root` (a Triton cache, searched recursively), grouped by kernel, in sorted
    folder order: ({group: [Cached, ...]}, [(folder, why skipped), ...]). `kernel` keeps only that kernel name.
    A folder with no PTX (an AMD compile) or unreadable metadata is skipped with the reason, never guessed at."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a folder")
    groups: dict[str, list[Cached]] = {}
    skipped: list[tuple[str, str]] = []
    for meta_path in sorted(root.rglob("*.json")):
        if meta_path.name.startswith("__grp__"):
            continue
        folder = meta_path.parent
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as e:
            skipped.append((str(folder), f"unreadable metadata {meta_path.name}: {e}"))
            continue
        if not isinstance(meta, dict) or "name" not in meta or "num_warps" not in meta:
            continue   # not a compile's metadata (some other JSON under the folder)
        name = meta["name"]
        if kernel is not None and name != kernel:
            continue
        ptx, ttgir = folder / f"{name}.ptx", folder / f"{name}.ttgir"
        if not ptx.is_file():
            backend = (meta.get("target") or {}).get("backend", "?")
            skipped.append((str(folder), f"{name}: no PTX ({backend} compile); the checker reads PTX"))
            continue
        gir = ttgir.read_text() if ttgir.is_file() else ""
        arch = (meta.get("target") or {}).get("arch", "?")
        group = f"{name}  {_definition(gir)}  sm{arch}  ({_signature_of(gir, name)})"
        options = f"warps={meta['num_warps']} stages={meta.get('num_stages', '?')}"
        for opt in ("num_ctas", "maxnreg"):
            if meta.get(opt) not in (None, 1):
                options += f" {opt.removeprefix('num_')}={meta[opt]}"
        ranges = sorted({int(n) for n in _RANGE.findall(gir)})
        if ranges:   # the block shapes (tl.arange extents): the constexprs the metadata does not keep
            options += f" ranges={','.join(map(str, ranges))}"
        asm = {"ptx": ptx.read_text(), "ttgir": gir} if gir else ptx.read_text()
        groups.setdefault(group, []).append(Cached(group, f"{folder.name[:10]} {options}", asm, folder))
    return groups, skipped
