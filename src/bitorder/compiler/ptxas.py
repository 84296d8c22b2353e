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


def report(ptx: str, arch: str = "sm_90a") -> Report:
    """Assemble `ptx` with Triton's ptxas (-v) and read its resource report."""
    from triton import knobs

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "kernel.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        r = subprocess.run([knobs.nvidia.ptxas.path, f"-arch={arch}", "-v", src, "-o", os.path.join(tmp, "k.cubin")],
                           capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"ptxas failed: {r.stderr[-500:]}")
    num = lambda pat: int((re.findall(pat, r.stderr) or ["0"])[-1])  # noqa: E731
    return Report(registers=num(r"Used (\d+) registers"), spill_stores=num(r"(\d+) bytes spill stores"),
                  spill_loads=num(r"(\d+) bytes spill loads"),
                  codes=tuple(sorted(set(re.findall(r"\((C\d+)\)", r.stderr)))), text=r.stderr)
