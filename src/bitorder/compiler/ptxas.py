"""What ptxas says about a compiled kernel, with no GPU: registers, spills, and whether it had
to serialize the wgmma pipeline.

Speed knobs (tiles, stages, TMA) cannot be timed here, but ptxas's own report tells two
things that cost speed on the H200 for certain: spilled registers, and wgmma instructions it
serialized (codes C7514 / C7515: a non-wgmma instruction reads or writes an accumulator
between a wgmma and its wait; C7517: it injected the wait). Those run the tensor cores one
tile step at a time. The 2026-11-30c H200 runs agree: the fp16 TMA chain at 128x256 (C7515)
ran at 0.87x the pointer chain's speed, and the fp8 promoting chains (C7514) at 0.18-0.45x
torch without TMA. Uses the ptxas Triton ships with (the one that built the cubin).
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass

SERIALIZED = {"C7514": "reads", "C7515": "writes", "C7517": "wait injected"}


@dataclass(frozen=True)
class Report:
    """ptxas -v's account of one kernel (sm_90a)."""
    registers: int
    spill_stores: int
    spill_loads: int
    codes: tuple          # ptxas info codes, e.g. ("C7514", "C7517")
    text: str

    @property
    def wgmma_serialized(self) -> bool:
        return any(c in SERIALIZED for c in self.codes)


def _assemble(ptx: str, folder: str, arch: str, *flags: str):
    """Assemble `ptx` in `folder` with the ptxas Triton ships: (the cubin's path, ptxas's result)."""
    from triton import knobs

    src, cubin = os.path.join(folder, "kernel.ptx"), os.path.join(folder, "k.cubin")
    with open(src, "w") as f:
        f.write(ptx)
    r = subprocess.run([knobs.nvidia.ptxas.path, f"-arch={arch}", *flags, src, "-o", cubin],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"ptxas failed: {r.stderr[-500:]}")
    return cubin, r


def report(ptx: str, arch: str = "sm_90a") -> Report:
    """Assemble `ptx` with Triton's ptxas (-v) and read its resource report."""
    with tempfile.TemporaryDirectory() as tmp:
        _, r = _assemble(ptx, tmp, arch, "-v")
    num = lambda pat: int((re.findall(pat, r.stderr) or ["0"])[-1])  # noqa: E731
    return Report(registers=num(r"Used (\d+) registers"), spill_stores=num(r"(\d+) bytes spill stores"),
                  spill_loads=num(r"(\d+) bytes spill loads"),
                  codes=tuple(sorted(set(re.findall(r"\((C\d+)\)", r.stderr)))), text=r.stderr)


def cuobjdump() -> str | None:
    """The cuobjdump beside Triton's ptxas, or None where the wheel has none."""
    from triton import knobs

    path = os.path.join(os.path.dirname(knobs.nvidia.ptxas.path), "cuobjdump")
    return path if os.path.exists(path) else None


def sass(ptx: str, arch: str = "sm_90a", fmad: bool = True) -> str:
    """The SASS listing (cuobjdump -sass) of `ptx` assembled by Triton's ptxas; fmad=False
    forbids ptxas to contract multiplies and adds into fmas."""
    tool = cuobjdump()
    if tool is None:
        raise FileNotFoundError("no cuobjdump beside Triton's ptxas")
    with tempfile.TemporaryDirectory() as tmp:
        cubin, _ = _assemble(ptx, tmp, arch, *([] if fmad else ["--fmad=false"]))
        return subprocess.run([tool, "-sass", cubin], check=True, capture_output=True, text=True).stdout
