"""Step 1 of docs/check-families.md checked on the corpus: every integer instruction the concrete walk executes is
also computed once over the symbolic thread (check/families/integers.py), and the family put at each thread must be
the concrete walk's value there.

    python benchmarks/families_check.py [--ptx /tmp/ckd/all] [--per-kernel 3] [--json OUT]

The stored corpus (2026-12-04e's dump_all.py) is read; `--per-kernel` configurations of each kernel are walked (the
first, the last and evenly between). An instruction is mirrored where the walk runs it unguarded in every thread,
outside a skipped region or a loop fold's turn; its operands' families are the mirrored ones (a register the mirror
does not know makes the result unknown). Per executed integer result, over every thread:
- exact: the family put at thread t equals the walk's value (their canonical texts), at every t;
- mismatch: it does not at some t (a wrong rule: must be 0; the first ones are listed);
- opaque: the family is an opaque atom (nothing claimed);
- walk opaque: the family is exact where the walk's value is an opaque atom (what the bit rules add).
Predicates (setp of integers, and / or / xor / not, check/families/predicates.py) likewise: a mask of the thread
index, an exact form, or decided by the walk alone (its predicate bits or the grid decide more); a predicate mismatch
is a wrong rule. Float families (check/families/floats.py: 32-bit global loads, guarded or not, and the float
instructions whose key is a plain hash): each family's key put at each thread must be the key of the node the walk
holds there (float exact; float mismatch is a wrong rule). Exits 1 on any mismatch.
"""
from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import pickle
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bitorder import check  # noqa: E402
from bitorder.check import dataflow  # noqa: E402
from bitorder.check.families import integers as fi  # noqa: E402
from bitorder.check.families import floats as ff  # noqa: E402
from bitorder.check.families import predicates as fp  # noqa: E402
from bitorder.check.poly import pkey  # noqa: E402
from bitorder.check.rules import _address, _operand, _reg_list, _text_shape  # noqa: E402
from bitorder.check.symbolic import Unsupported, _is_float_op  # noqa: E402

_KNOWN_ATOMS = ("ctaid_", "nctaid_", "param:", "smem", fi.TID)
_INT = {"add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "cvt", "neg", "not", "min", "max", "bfe",
        "popc", "mov", "cvta"}


class _Compiled:
    def __init__(self, asm):
        self.asm = asm


def _opaque(v) -> bool:
    return v.__class__ is dict and any(a and not a[0].startswith(_KNOWN_ATOMS) for m in v for a in [m] if m)


class Mirror:
    """The families of a walk's registers, kept beside it (installed as a wrapper of _Block.step)."""

    def __init__(self):
        self.counts = collections.Counter()
        self.mismatches = []
        self.opaque_ops = collections.Counter()   # opcode -> results the family left opaque
        self.fam = {}
        self.block = None
        self.kernel = ""

    def family(self, blk, ins):
        """The family ins writes (None: unknown; [(register, family)] for a load), from its operands' families."""
        if blk.region is not None or blk.skip is not None or blk.turns or blk.tc is not None:
            return None
        if ins.base == "ld" and ".global" in ins.opcode:
            return self.load(blk, ins)
        if ins.guard is not None:
            return None
        if _is_float_op(ins.opcode):
            return self.floating(blk, ins)
        base, ops = ins.base, ins.operands
        if base == "setp" or ".pred" in ins.opcode:
            return self.predicate(blk, ins)
        if base == "ld" and ".param" in ins.opcode:
            return blk.addr(0, ops[1])
        if base not in _INT or len(ops) < 2 or any("{" in o for o in ops):
            return None
        args = self.operands(blk, ops)
        if args is None:
            return None
        if base in ("mov", "cvta"):
            return args[0] if len(args) == 1 and (args[0].__class__ is int or args[0].__class__ is dict) else None
        if any(a.__class__ not in (int, dict) for a in args):
            return None
        return fi.integer(ins.opcode, args)

    def operands(self, blk, ops) -> list | None:
        """The families of an instruction's source operands (None where a register's is not known)."""
        args = []
        for o in ops[1:]:
            kind, x = _operand(o)
            if kind == "reg":
                x = self.fam.get(x)
                if x is None:
                    return None
            elif kind == "tid":
                x = fi.thread_index(blk.n)
            elif kind == "ntid":
                x = blk.n
            args.append(x)
        return args

    def load(self, blk, ins):
        """[(register, family)] of a 32-bit global load (vector or not, guarded or not): each element a Leaf at the
        address plus 4 i, where a guard holds, else what the register held (a Select)."""
        ops = ins.operands
        if not ins.opcode.endswith((".b32", ".f32", ".u32")):
            return None
        dsts = _reg_list(ops[0]) if "{" in ops[0] else [ops[0]]
        base, offset = _address(ops[1])
        a = self.fam.get(base)
        if a is None or a.__class__ not in (int, dict) or _opaque(a):
            return None
        pred = True
        if ins.guard is not None:
            pred = self.fam.get(ins.guard[1])
            if pred is None or pred.__class__ not in (bool, fp.Mask, fp.Each):
                return None
            if ins.guard[0]:
                pred = fp.combine("not", [pred], blk.n)
        out = []
        for i, d in enumerate(dsts):
            leaf = ff.Leaf(fi.integer("add.s64", [a, offset + 4 * i]), 4)
            old = self.fam.get(d)
            out.append((d, leaf if pred is True else old if pred is False else
                        None if old is None else ff.Select(pred, leaf, old)))
        return out

    def floating(self, blk, ins):
        """The family of a float instruction whose key is the plain hash of its operands' (floats.node)."""
        ops = ins.operands
        if "x2" in ins.opcode or len(ops) < 2 or any("{" in o for o in ops):
            return None
        args = self.operands(blk, ops)
        if args is None or any(a.__class__ is dict for a in args):
            return None
        return ff.node(ins.opcode, tuple(args))

    def mismatch(self, kind: str, ins, t: int, family: str, mine: str, walk: str) -> None:
        """Count a wrong rule of `kind` and keep the first 20 (texts cut at 300 characters)."""
        self.counts[kind] += 1
        if len(self.mismatches) < 20:
            self.mismatches.append({"kernel": self.kernel, "instruction": ins.text(), "thread": t,
                                    "family": family[:300], "at_thread": mine[:300], "walk": walk[:300]})

    def check_float(self, ins, f, col, nodes):
        """Count a float family against the walk's node key at every thread."""
        memo: dict = {}
        for t, v in enumerate(col):
            if v.__class__ is not tuple or v[0] != "node":
                self.counts["float: the walk holds no node"] += 1
                return
            mine = ff.key_at(f, t, memo)
            if mine is None:
                self.counts["float: not named here"] += 1
                return
            if mine != nodes.key_of[v[1]]:
                return self.mismatch("float mismatch", ins, t, repr(f), mine, nodes.key_of[v[1]])
        self.counts["float exact"] += 1

    def predicate(self, blk, ins):
        """The family a setp of integers, or an and / or / xor / not of predicates, writes (None: unknown)."""
        ops = ins.operands
        if "|" in ops[0] or any("{" in o for o in ops):
            return None
        args = self.operands(blk, ops)
        if args is None:
            return None
        if ins.base == "setp" and len(args) == 2 and all(a.__class__ in (int, dict) for a in args):
            if any(_opaque(a) for a in args):   # an opaque family names every thread's value at once: not comparable
                self.counts["predicate of an opaque integer"] += 1
                return None
            return fp.compare(ins.opcode, args[0], args[1], blk.n)
        if ins.base in ("and", "or", "xor", "not") and all(a.__class__ in (bool, fp.Mask, fp.Each) for a in args):
            return fp.combine(ins.base, args, blk.n)
        return None

    def check_predicate(self, ins, f, col):
        """Count a predicate family against the walk's value at every thread."""
        decided = False
        for t, v in enumerate(col):
            mine = fp.at_thread(f, t)
            if mine == v:
                continue
            if v.__class__ is bool and mine.__class__ is not bool:
                decided = True       # the walk knew more (predicate bits, the grid): not a wrong rule
                continue
            return self.mismatch("predicate mismatch", ins, t, repr(f), repr(mine), repr(v))
        self.counts["predicate decided by the walk alone" if decided else
                    "predicate mask" if f.__class__ in (bool, fp.Mask) else "predicate exact"] += 1

    def step(self, original):
        mirror = self

        def step(blk, ins):
            if blk is not mirror.block:
                mirror.block, mirror.fam = blk, {}
            try:
                f = mirror.family(blk, ins)
            except Unsupported:
                f = None
            original(blk, ins)
            dsts = _text_shape(ins)[0]
            for d in dsts:
                mirror.fam.pop(d, None)
            if f.__class__ is list:              # a load's elements: [(register, family)]
                mirror.fam.update({d: v for d, v in f if v is not None})
                return
            if f is None or len(dsts) != 1:
                return
            mirror.fam[dsts[0]] = f
            col = blk.cols.get(dsts[0])
            if col is None:
                return
            if f.__class__ is ff.Node:
                return mirror.check_float(ins, f, col, blk.nodes)
            if f.__class__ in (bool, fp.Mask, fp.Each):
                return mirror.check_predicate(ins, f, col)
            if ins.base not in _INT:
                return
            if _opaque(f):
                mirror.counts["opaque"] += 1
                mirror.opaque_ops[ins.opcode] += 1
                return
            walk_opaque = False
            for t, v in enumerate(col):
                if v.__class__ not in (int, dict):
                    mirror.counts["walk value not an integer"] += 1
                    return
                walk_opaque = walk_opaque or _opaque(v)
                if not _opaque(v) and pkey(fi.at_thread(f, t)) != pkey(v):
                    return mirror.mismatch("mismatch", ins, t, pkey(f), pkey(fi.at_thread(f, t)), pkey(v))
            mirror.counts["walk opaque" if walk_opaque else "exact"] += 1
        return step


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptx", default="/tmp/ckd/all")
    ap.add_argument("--per-kernel", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    mirror = Mirror()
    dataflow._Block.step = mirror.step(dataflow._Block.step)
    kernels = sorted(glob.glob(os.path.join(a.ptx, "*.pkl")))
    per_kernel = {}
    for path in kernels:
        name = os.path.basename(path)[:-4]
        recs = [r for r in pickle.load(open(path, "rb")) if r[4] is not None]
        k = max(1, min(a.per_kernel, len(recs)))
        picks = sorted({round(i * (len(recs) - 1) / max(1, k - 1)) for i in range(k)})
        before = collections.Counter(mirror.counts)
        for i in picks:
            mirror.kernel = f"{name}|{recs[i][2]}"
            check.signature(_Compiled(recs[i][4]), store=False)
        per_kernel[name] = dict(mirror.counts - before)
    out = {"kernels": len(kernels), "configurations_per_kernel": a.per_kernel, "counts": dict(mirror.counts),
           "opaque_by_opcode": dict(mirror.opaque_ops.most_common()), "mismatches": mirror.mismatches,
           "per_kernel": per_kernel}
    print(json.dumps({k: v for k, v in out.items() if k != "per_kernel"}, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 1 if mirror.counts["mismatch"] or mirror.counts["predicate mismatch"] or mirror.counts["float mismatch"] \
        else 0


if __name__ == "__main__":
    sys.exit(main())
