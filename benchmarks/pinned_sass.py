"""SASS instruction counts of a pinned-suite kernel, pinned against free, over num_warps and the
kept block (CPU: Triton compiles for sm90, Triton's ptxas assembles, cuobjdump lists; the layout
pass on, num_stages 1, pointers aligned). Counts cannot show speed; they show where a pinned tree
pays: shuffles (SHFL) for lane levels, barriers (BAR) and shared-memory traffic (STS/LDS) for
warp levels.

    PYTHONPATH=src python benchmarks/pinned_sass.py layernorm 1,2,4
"""
from __future__ import annotations

import collections
import os
import re
import sys

os.environ.setdefault("PINNED_DEVICE", "cpu")
import pinned_kernels as pk  # noqa: E402

from bitorder.compiler import harness, layouts, ptxas  # noqa: E402

OPS = ("SHFL", "BAR", "STS", "LDS", "LDG", "STG", "MUFU", "FADD", "FFMA", "FSEL", "LDL", "STL")


def counts(text: str) -> collections.Counter:
    """Opcode counts (predicated instructions included, modifiers dropped)."""
    ops = collections.Counter()
    for line in text.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)", line)
        if m:
            ops[m.group(1)] += 1
    return ops


def main(name: str, blocks):
    kernel, sig, consts, block_name = pk.signature(name)
    layouts.enable(True)
    print(f"| warps | {block_name} | mode | total | " + " | ".join(OPS) + " | shared bytes |")
    print("|---" * (5 + len(OPS)) + "|")
    for w in (1, 2, 4, 8):
        for b in blocks:
            for pinned in (True, False):
                c = harness.compile(kernel, "sm90", signature=sig, constexprs={**consts, block_name: b, "PINNED": pinned},
                                    aligned=[a for a in sig if a.endswith("_ptr")], num_warps=w, num_stages=1)
                o = counts(ptxas.sass(c.asm))
                print(f"| {w} | {b} | {'pinned' if pinned else 'free'} | {sum(o.values())} | "
                      + " | ".join(str(o[k]) for k in OPS) + f" | {c.metadata.get('shared')} |")


if __name__ == "__main__":
    main(sys.argv[1], [int(b) for b in sys.argv[2].split(",")])
