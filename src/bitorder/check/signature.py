"""Signatures, equivalence and partitions of compiled kernels (v0: canonical text).

v0 is the sound floor of the checker the paper describes (section 6): two entries whose
PTX is the same program up to register, label and parameter names compile to the same
machine code, so they return the same bits on every input. It merges nothing that differs
in any instruction: it over-splits (costing only tuning time), it never merges wrongly.
The dependence-tree walk that merges reorderings of the same arithmetic is not built yet.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .ptx import Entry, Instr, Label, PTXError, parse

_TOKEN = re.compile(r"%[A-Za-z_$][\w$]*|\$?L__\w+|\b\w+_param_\d+\b")


@dataclass(frozen=True)
class Canonical:
    name: str
    lines: tuple      # canonical instruction texts
    source: tuple     # the original texts, for explanations

    @property
    def signature(self) -> str:
        return hashlib.sha256("\n".join(self.lines).encode()).hexdigest()[:32]


_SPECIAL = re.compile(r"^%(tid|ntid|ctaid|nctaid|laneid|warpid|clock|globaltimer|smid|nsmid)")


def canonicalize(entry: Entry) -> Canonical:
    names = {}

    def rename(tok):
        t = tok.group(0)
        if _SPECIAL.match(t):
            return t
        if t not in names:
            kind = "L" if "L__" in t else ("P" if "_param_" in t else "v")
            names[t] = f"{kind}{sum(1 for v in names.values() if v[0] == kind)}"
        return names[t]

    lines, source = [f".reqntid {entry.reqntid}", f".params {len(entry.params)}"], ["", ""]
    for item in entry.body:
        text = f"{item.name}:" if isinstance(item, Label) else item.text()
        lines.append(_TOKEN.sub(rename, text))
        source.append(text)
    return Canonical(entry.name, tuple(lines), tuple(source))


def _entry(ptx) -> Entry:
    if isinstance(ptx, Entry):
        return ptx
    text = getattr(ptx, "asm", ptx)  # a bitorder.Compiled works too
    entries = parse(text)
    if len(entries) != 1:
        raise PTXError(f"expected one .entry, found {len(entries)}")
    return entries[0]


def signature(ptx) -> str:
    """The bitwise class of a compiled kernel (PTX text, a bitorder.Compiled, or an Entry):
    equal signatures mean identical bytes on every input."""
    return canonicalize(_entry(ptx)).signature


@dataclass(frozen=True)
class Verdict:
    equivalent: bool
    explanation: str

    def __bool__(self):
        return self.equivalent


def equivalent(ptx_a, ptx_b) -> Verdict:
    """Whether two compiled kernels return the same bits on every input, with the first
    difference when they may not (v0 calls programs that differ in any instruction
    different: 'not equivalent' means 'not proven equivalent')."""
    a, b = canonicalize(_entry(ptx_a)), canonicalize(_entry(ptx_b))
    if a.signature == b.signature:  # the one decision: signatures, as partition() uses
        return Verdict(True, "the same program up to register, label and parameter names")
    for i, (x, y) in enumerate(zip(a.lines, b.lines)):
        if x != y:
            return Verdict(False, f"first difference at statement {i}: {a.source[i] or x!r} vs {b.source[i] or y!r}")
    return Verdict(False, f"one program is longer: {len(a.lines)} vs {len(b.lines)} statements")


def partition(kernels) -> list:
    """Indices of `kernels` grouped into bitwise classes, in first-seen order."""
    classes = {}
    for i, k in enumerate(kernels):
        classes.setdefault(signature(k), []).append(i)
    return list(classes.values())
