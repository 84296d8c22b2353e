"""Mutations of PTX that compute another value, and which instructions may reach a store: the vocabulary of
tests/check/test_mutations.py (a mutant must get another signature) and benchmarks/checker_mutants.py (the
mutants the checker merges must give the same bytes on the GPU)."""
from __future__ import annotations

import re

_REGS = re.compile(r"%[a-z]+\d+")
_G = r"^(\s*(?:@!?%p\d+\s+)?)"   # an instruction's indent and guard, kept

# name -> (the pattern of an instruction it applies to, its replacement): each computes another value
MUTATIONS = {
    "add->sub": (_G + r"add(\.r[nzmp])?(\.ftz)?\.f32(\s)", r"\1sub\2\3.f32\4"),
    "mul->add": (_G + r"mul(\.r[nzmp])?(\.ftz)?\.f32(\s)", r"\1add\2\3.f32\4"),
    "fma addend swapped": (_G + r"(fma\.r[nzmp](?:\.ftz)?\.f32\s+%\w+,\s*)(%\w+)(,\s*%\w+,\s*)(%\w+);", r"\1\2\5\4\3;"),
    "sub operands swapped": (_G + r"(sub(?:\.r[nzmp])?(?:\.ftz)?\.f32\s+%\w+,\s*)(%\w+),\s*(%\w+);", r"\1\2\4, \3;"),
    "selp arms swapped": (_G + r"(selp\.f32\s+%\w+,\s*)(%\w+),\s*(%\w+),", r"\1\2\4, \3,"),
    "rounding .rn made .rz": (_G + r"(add|sub|mul|fma)\.rn(\.ftz)?\.f32", r"\1\2.rz\3.f32"),
    ".ftz added": (_G + r"(add|sub|mul|max|min)(\.rn)?\.f32(\s)", r"\1\2\3.ftz.f32\4"),
    "float constant's last bit flipped": (r"0f([0-9A-F]{8})", lambda m: f"0f{int(m[1], 16) ^ 1:08X}"),
    "compare moved": (_G + r"setp\.(lt)\.(s32|u32|u64|s64)(\s)", r"\1setp.le.\3\4"),
    "address moved": (r"(\[\s*%rd\d+\s*\+\s*)(\d+)(\s*\])", lambda m: f"{m[1]}{int(m[2]) + 4}{m[3]}"),
    "index constant moved": (_G + r"((?:add\.s32|add\.s64)\s+%\w+,\s*%\w+,\s*)(\d+);",
                             lambda m: f"{m[1]}{m[2]}{int(m[3]) + 1};"),
}


def _apply(name, line):
    """The line with mutation `name` applied once, or None where it does not apply or changes nothing."""
    pattern, repl = MUTATIONS[name]
    new = re.sub(pattern, repl, line, count=1)
    if new == line:
        return None
    regs = _REGS.findall(new)
    if name in ("fma addend swapped", "sub operands swapped", "selp arms swapped"):
        a, b = (regs[1], regs[3]) if name == "fma addend swapped" else (regs[1], regs[2])
        if a == b:   # the same register twice: the swap computes the same value
            return None
    return new


def live_lines(lines) -> set:
    """Indices of the instructions a global or shared store, a shuffle or an MMA may read, through the registers each
    writes and reads (predicates and order ignored: more lines than truly live, never fewer)."""
    defs, uses, roots = {}, {}, []
    for i, line in enumerate(lines):
        s = line.strip().split(";")[0]
        if not s or s.startswith((".", "//", "$", "{", "}")):
            continue
        if s.startswith("@"):
            s = s.split(None, 1)[1] if " " in s else ""
        parts = s.split(None, 1)
        if len(parts) < 2:
            continue
        op, rest = parts
        if op.startswith(("st.", "shfl", "wgmma", "mma", "cp.", "red.", "atom.")):
            roots.append(i)
            uses[i] = _REGS.findall(rest)
            continue
        if rest.lstrip().startswith("{"):   # a vector destination
            d, u = _REGS.findall(rest[:rest.index("}")]), _REGS.findall(rest[rest.index("}"):])
        else:
            regs = _REGS.findall(rest)
            d, u = regs[:1], regs[1:]
        for r in d:
            defs.setdefault(r, []).append(i)
        uses[i] = u
    live, work = set(), list(roots)
    while work:
        i = work.pop()
        if i not in live:
            live.add(i)
            work.extend(j for r in uses.get(i, ()) for j in defs.get(r, ()))
    return live


def mutants(ptx, name, most):
    """Up to `most` texts, each ptx with mutation `name` applied to one live instruction (first, last, between)."""
    lines = ptx.split("\n")
    live = live_lines(lines)
    found = [(i, new) for i in sorted(live) if (new := _apply(name, lines[i])) is not None]
    if len(found) > most:
        found = [found[round(k * (len(found) - 1) / (most - 1))] for k in range(most)] if most > 1 else found[:1]
    return ["\n".join(lines[:i] + [new] + lines[i + 1:]) for i, new in found]
