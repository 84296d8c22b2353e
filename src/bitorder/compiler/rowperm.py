"""Row permutation for a pinned column sum of an mma.sync accumulator (on by default since 2026-12-02d;
BITORDER_PINNED_ROWPERM=0 turns it off; read at import by layouts.py and part of its cache key).

A pinned tree over an accumulator's rows pairs rows 2i and 2i+1 first. In Triton 3.6's mma.sync layouts
(1-2 warps on sm_90, any warps before) rows 0-7 sit in lanes / 4, so every tree level but one moves
accumulator values across lanes before its add, where a free sum adds a thread's registers first. This
rewrite, on TTIR before the layout passes, loads nothing differently: it permutes the rows of the dot's A
operand (reshape / trans / reshape: hardware row r gets logical row L(r)) and undoes the permutation on the
accumulator before anything reads it. Every output element is the same MMA chain (its row of A, its column
of B), so no bit can move; what moves is where the tree's low logical row bits live: in registers, as a free
sum's are (benchmarks/results/2026-12-02c-rowperm-cpu: the hand-written form's SASS is the free kernel's
size at 1-2 warps). Applied only to a dot whose accumulator input is a zero constant and whose result a
pinned chain reduces over rows (its first reshape halves the row axis); anything else is left alone.
On the H200 (benchmarks/results/2026-12-02d-gpu) gemm_colsum's 72 configurations stayed one byte pattern equal
to the CPU reference, and its best pinned time over the best free one went 1.107 -> 1.025.
"""
from __future__ import annotations

import re

_DOT = re.compile(r"^(?P<ind>\s*)(?P<d>%[\w$.]+) = tt\.dot (?P<a>%[\w$.]+), (?P<b>%[\w$.]+), (?P<c>%[\w$.]+)"
                  r"(?P<rest>[^:]*): tensor<(?P<m>\d+)x(?P<k>\d+)x(?P<at>\w+)> \* tensor<\d+x(?P<n>\d+)x\w+> -> "
                  r"tensor<\d+x\d+x(?P<ct>\w+)>")


def sigma(m_bits: int, warps: int) -> list:
    """Logical row bit j -> hardware row bit sigma[j] for an mma.sync m16n8 accumulator of 2^m_bits rows:
    the register-held row bits first (bit 3, then the 16-row repetitions above the warps' bit), then the
    lane bits 0-2, then the warps' bit (2 warps: bit 4, when Triton puts the warps on rows; if it puts them
    on columns bit 4 is a register and the order is merely not the best)."""
    warp_bits = [4] if warps == 2 and m_bits > 4 else []
    regs = [3] + [b for b in range(4, m_bits) if b not in warp_bits]
    return regs + [0, 1, 2] + warp_bits


def orders(s: list) -> tuple:
    """(accumulator order, A order): the trans orders over a (2,) * bits view (most significant row bit
    first) that relabel hardware rows as logical ones under sigma `s`, and its inverse for A's rows."""
    bits = len(s)
    perm = [bits - 1 - s[bits - 1 - e] for e in range(bits)]
    return perm, [perm.index(x) for x in range(bits)]


def _shape(dims) -> str:
    return "x".join(str(d) for d in dims)


def rewrite(ttir: str, warps: int) -> tuple[str, list]:
    """(text, changes): `ttir` with each qualifying dot's A rows permuted and its result un-permuted."""
    lines, changes, i = ttir.split("\n"), [], 0
    while i < len(lines):
        md = _DOT.match(lines[i])
        i += 1
        if not md or md["ct"] != "f32":
            continue
        m, k, n = int(md["m"]), int(md["k"]), int(md["n"])
        if m < 16 or m & (m - 1) or not re.search(rf"^\s*{re.escape(md['c'])} = arith\.constant dense<0\.0+e\+00> "
                                                   rf": tensor<{m}x{n}xf32>", ttir, re.M):
            continue
        d = re.escape(md["d"]) + r"(?![\w$.])"
        if not re.search(rf"= tt\.reshape {d} : tensor<{m}x{n}xf32> -> tensor<{m // 2}x2x{n}xf32>", ttir):
            continue          # not the first step of a pinned chain over the rows
        bits = m.bit_length() - 1
        s = sigma(bits, warps)
        perm, inv = orders(s)       # the accumulator's (hardware -> logical) and A's (logical -> hardware)
        tag, ind, two = f"%bitorder_rowperm{len(changes)}", md["ind"], [2] * bits

        def permuted(src, order, cols, ty, name):
            split = f"tensor<{_shape(two + [cols])}x{ty}>"
            flat = f"tensor<{m}x{cols}x{ty}>"
            order = ", ".join(map(str, order + [bits]))
            return [f"{ind}{name}_0 = tt.reshape {src} : {flat} -> {split}",
                    f"{ind}{name}_1 = tt.trans {name}_0 {{order = array<i32: {order}>}} : {split} -> {split}",
                    f"{ind}{name} = tt.reshape {name}_1 : {split} -> {flat}"]
        a_new, d_new = f"{tag}_a", f"{tag}_d"
        head = permuted(md["a"], inv, k, md["at"], a_new)
        dot = lines[i - 1].replace(f"tt.dot {md['a']}, ", f"tt.dot {a_new}, ", 1)
        tail = permuted(md["d"], perm, n, "f32", d_new)
        lines = lines[:i - 1] + head + [dot] + tail + [re.sub(d, d_new, x) for x in lines[i:]]
        i += len(head) + len(tail)
        changes.append(f"{md['d']}: rows permuted by {s}")
    return "\n".join(lines), changes
