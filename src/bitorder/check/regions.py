"""Forward branches on data that the walk (dataflow.py) guards instead of following, for a
_Block, which this is mixed into:
  a hammock (rules._hammock): a guarded branch over straight-line code; the code runs in the
     threads that do not branch, each instruction guarded by "not taken";
  a diamond (rules._diamond): an if-else of straight-line register code; arm A runs in the
     threads that branch, arm B in the others, B starting from the values before A.
self.region, while the walk is inside one: (end index, per-thread guard, the region's own
values, the values before it, each thread's own instruction guard[, the else arm: a function
giving (its first index, its region), called where arm A ends]). Inside, a thread reads the
region's own values; a register it writes holds, after the region, the region's value in the
threads that ran it and its earlier value in the others: "guard ? region's : before".
"""
from __future__ import annotations

from .poly import UNDEF_PRED
from .predicates import _pred, select
from ._native import trait


@trait     # mixed into dataflow._Block (a mypyc trait when compiled: _native.trait)
class Regions:
    def enter_hammock(self, ins, end):
        """The code up to `end` runs in the threads where the branch `ins` is not taken."""
        n = self.n
        self.region = (end, [_pred("not", [self.guard(t, ins)]) for t in range(n)],
                       [{} for _ in range(n)], [{} for _ in range(n)], [True] * n)

    def enter_diamond(self, ins, a, a_end, b, join) -> int:
        """Enter the if-else that the branch `ins` opens (rules._diamond's indices) at arm A, and
        give A's first index. A is a region guarded by the branch's condition; where it ends, B
        is one guarded by its negation, up to the join. B's own values start as A's values
        before (so B reads what its threads hold: they never ran A), and B's values before as
        A's own (so a register both arms write ends as "taken ? A's : B's", one only A writes
        as "taken ? A's : before", one only B writes as "taken ? before : B's")."""
        # (n and guard are dataflow._Block's, the class this trait is mixed into)
        n = self.n  # type: ignore[attr-defined]
        taken = [self.guard(t, ins) for t in range(n)]  # type: ignore[attr-defined]
        inner, before = [{} for _ in range(n)], [{} for _ in range(n)]

        def else_arm():   # (called where A ends: its values are final)
            return b, (join, [_pred("not", [g]) for g in taken], [dict(x) for x in before],
                       [dict(x) for x in inner], [True] * n)
        self.region = (a_end, taken, inner, before, [True] * n, else_arm)
        return a

    def leave_region(self, pc) -> int:
        """At the region's end: the next region (a diamond's else arm) and its first index, or
        none and pc."""
        pc, self.region = self.region[5]() if len(self.region) > 5 else (pc, None)
        return pc

    def _region_write(self, t, reg, value):
        """A write inside a region: the thread's own value (read back by val), and after the
        region the region's value where the region's guard holds, the earlier value elsewhere."""
        _, outer, inner, before, own = self.region[:5]
        g = own[t]                               # the instruction's own guard
        shadow = inner[t]
        col = self.column(reg)
        if g == UNDEF_PRED:
            value = self.undef
        elif g is not True:
            value = select(g, value, shadow.get(reg, col[t]))
        shadow[reg] = value
        old = before[t].setdefault(reg, col[t])
        rg = outer[t]
        if rg == UNDEF_PRED:
            col[t] = self.undef
        else:
            col[t] = value if rg is True else select(rg, value, old)
