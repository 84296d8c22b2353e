"""Pieces of the K-loop fold (docs/check.md, "K loops"), not yet used by the walk.

The fold would replace a software-pipelined K loop over a runtime bound by one node per
output element, keyed by (instruction, the step operands as functions of the global step
index s, the accumulator's init). What it needs and this module provides, each checked by
tests/check/test_fold.py:

  find_k_loop(entry)      the loop's shape as Triton 3.6 emits it for sm_90 (a guarded skip
                          over a preheader, one straight-line body ending in its back edge),
                          the wgmma steps per turn, the ring counters and the registers the
                          body carries from turn to turn; None for any other shape.
  mask_form(conjuncts)    a conjunction of linear conditions D < 0 in a normal form, with the
                          conjuncts another one implies dropped (the prologue's copies test
                          "K > 0" next to "c + k < K"; the body's test "32 (t + 1) < K"
                          next to "32 (t + 1) + c < K"): equal forms, equal conditions.
  counter_forms(entry, loop)  the loop's integer counters as functions of the turn index t:
                          linear ones v0 + d t, ring ones periodic from turn 1, with the
                          induction checked: one turn maps the forms at t to those at t + 1.
  in_step_index(p, ...)   a polynomial in the turn index t rewritten in s = B t + j exactly,
                          refused where a coefficient of t is not a multiple of B.

What is missing for the fold itself (the inductive argument over the turn index, with the ring
and the async groups as state) is listed in docs/check.md.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .ptx import Entry, Instr, Label
from .poly import atom, padd, pkey, pmul
from .symbolic import Nodes, Unsupported

_REG = re.compile(r"%[A-Za-z_$][\w$]*")
_MMA = re.compile(r"wgmma\.mma_async\.")
# instructions whose first operand is read, not written
_READS_FIRST = ("st", "cp", "bar", "barrier", "bra", "stmatrix")


@dataclass(frozen=True)
class KLoop:
    """Indices into entry.body and what the body does per turn."""
    skip: int            # the guarded forward branch over the loop (K < 1: no turn)
    header: int          # the loop header's label
    back: int            # the guarded back edge (the last instruction of the body)
    exit: int            # the label the skip and the loop's fall-through reach
    steps: int           # wgmma steps per turn (BLOCK_K / the instruction's k)
    opcode: str          # their one opcode
    rings: dict          # ring counter register -> its modulus (the slots of the ring)
    carried: frozenset   # registers the body reads before writing them and writes (loop-carried)


def _rw(ins: Instr):
    """(registers ins reads, registers it writes)."""
    ops = ins.operands
    if not ops:
        return set(), set()
    first = set(_REG.findall(ops[0]))
    rest = set(_REG.findall(" ".join(ops[1:])))
    if ins.guard:
        rest.add(ins.guard[1])
    if ins.base in _READS_FIRST:
        return first | rest, set()
    if ins.base == "wgmma" and _MMA.match(ins.opcode):   # the accumulators are read and written
        return first | rest, first
    return rest, first


def find_k_loop(entry: Entry):
    """The K loop of a GEMM, or None where the entry is not exactly: straight-line code, a
    guarded forward branch to label E, straight-line code, header label L, a straight-line body
    with one guarded `bra L` as its last instruction, then E, then straight-line code to ret."""
    body = entry.body
    branches = [k for k, i in enumerate(body) if i.__class__ is Instr and i.base == "bra"]
    targets = {body[k].operands[0] for k in branches if body[k].operands}
    # labels no branch names (debug-line markers) change no control flow
    labels = [k for k, i in enumerate(body) if i.__class__ is Label and i.name in targets]
    if len(branches) != 2 or len(labels) != 2:
        return None
    skip, back = branches
    header, exit_ = labels
    names = {body[k].name: k for k in labels}
    if not (skip < header < back < exit_ and back + 1 == exit_):
        return None
    if body[skip].guard is None or names.get(body[skip].operands[0]) != exit_:
        return None
    if body[back].guard is None or names.get(body[back].operands[0]) != header:
        return None
    turn = [i for i in body[header + 1:back] if i.__class__ is Instr]
    mmas = [i for i in turn if i.base == "wgmma" and _MMA.match(i.opcode)]
    if not mmas or len({i.opcode for i in mmas}) != 1 or len({i.operands[0] for i in mmas}) != 1:
        return None   # one chain of one instruction per turn, or nothing this fold knows
    read, written = set(), set()
    for ins in turn + [body[back]]:
        r, w = _rw(ins)
        read |= r - written
        written |= w
    return KLoop(skip, header, back, exit_, len(mmas), mmas[0].opcode, _rings(turn), frozenset(read & written))


def _rings(turn):
    """Ring counters: x = (x + 1 > m - 1) ? 0 : x + 1 (add, setp.gt, selp), as register -> m."""
    defs = {}
    for ins in turn:
        if ins.operands and ins.base not in _READS_FIRST:
            defs[ins.operands[0]] = ins
    out = {}
    for ins in turn:
        if ins.base != "selp" or len(ins.operands) != 4 or ins.operands[1] != "0":
            continue
        x, _, y, p = ins.operands
        inc, cmp = defs.get(y), defs.get(p)
        if inc is None or cmp is None or inc.base != "add" or inc.operands[1:] != (x, "1"):
            continue
        if cmp.opcode != "setp.gt.s32" or cmp.operands[1] != y or not cmp.operands[2].lstrip("-").isdigit():
            continue
        out[x] = int(cmp.operands[2]) + 1
    return out


# -- masks: conjunctions of linear conditions ----------------------------------------------------

def mask_form(conjuncts) -> str:
    """The normal form of a conjunction. conjuncts: polynomials D (meaning D < 0 over the
    integers), True/False, or opaque predicate texts (kept as they are). Exact: a conjunct is
    dropped only where another one implies it (D' = D + c with c >= 0 implies D < 0 from
    D' < 0), and each D is divided by the gcd of its symbolic coefficients with its constant
    floored (gE + k < 0 <=> E + floor(k / g) < 0), so equal forms are equal conditions."""
    tightest, opaque = {}, set()
    for c in conjuncts:
        if c is True:
            continue
        if c is False:
            return "false"
        if isinstance(c, str):
            opaque.add(c)
            continue
        if isinstance(c, dict) and all(not m for m in c):
            c = c.get((), 0)              # a constant not in padd's normal form
        if isinstance(c, int):            # a constant: D < 0 or not
            if c >= 0:
                return "false"
            continue
        k = c.get((), 0)
        g = math.gcd(*(v for m, v in c.items() if m))
        e = {m: v // g for m, v in c.items() if m}
        part = pkey(e)
        k //= g
        # of E + k1 < 0 and E + k2 < 0 the one with the larger constant implies the other
        tightest[part] = max(k, tightest.get(part, k))
    terms = sorted(f"{part}+{k}<0" for part, k in tightest.items()) + sorted(f"[{x}]" for x in opaque)
    return " & ".join(terms) or "true"


# -- the turn index rewritten in the global step index ----------------------------------------------

def in_step_index(p, turn: str, per_turn: int, j: int, step: str = "s"):
    """p (a polynomial in the atom `turn`, degree 1 in it) with t = (s - j) / per_turn: the
    step j of turn t is global step s = per_turn t + j. Raises ValueError where a coefficient of
    t is not a multiple of per_turn (the rewrite would not be an integer polynomial) or t occurs
    squared."""
    if isinstance(p, int):
        return p
    out: int | dict = 0     # (a polynomial: compiled, a plain `= 0` would type it int)
    for mono, c in p.items():
        n = mono.count(turn)
        if n == 0:
            out = padd(out, {mono: c})
            continue
        if n > 1 or c % per_turn:
            raise ValueError(f"no integer form of {pkey(p)} in the step index")
        rest = tuple(m for m in mono if m != turn)
        q = c // per_turn
        out = padd(out, {tuple(sorted(rest + (step,))): q})          # (c / B) * s * rest
        out = padd(out, {rest: -q * j} if rest else -q * j)           # - (c / B) * j * rest
    return out


# -- the counters' induction ---------------------------------------------------------------------

TURN = "fold:turn"   # the atom naming the turn index t


def counter_forms(entry: Entry, loop: KLoop) -> dict:
    """{carried integer register: ("linear", v0, d) | ("ring", orbit)}: the value at the header
    of turn t is v0 + d t, or orbit[0] at t = 0 and orbit[1 + (t - 1) % R] after. Checked: the
    preheader (walked as the walk would, the skip not taken) gives the turn-0 values, and the
    body's slice that computes the counters maps, for t symbolic and each ring phase, the forms
    at t to the forms at t + 1. Raises Unsupported where it does not (a counter that is not one
    of these, a guarded or non-integer instruction in the slice, a thread-dependent counter)."""
    from .dataflow import _Block          # (here, not at the top: the walk may come to import this module)

    body = entry.body
    acc = set(_REG.findall(next(i for i in body[loop.header:loop.back] if i.__class__ is Instr
                                and i.base == "wgmma" and _MMA.match(i.opcode)).operands[0]))
    counters = sorted(loop.carried - acc)
    block = _Block(entry, Nodes(), frozenset())
    for ins in body[:loop.header]:
        if ins.__class__ is Instr and ins is not body[loop.skip]:
            block.step(ins)
    # thread t's registers as the per-thread register file held them: a register no instruction
    # wrote in thread t is absent (the walk keeps columns: block.undef where a thread did not write)
    def thread(t):
        return {r: col[t] for r, col in block.cols.items() if col[t] is not block.undef}

    threads = [thread(t) for t in range(block.n)]
    start = {}
    for r in counters:
        keys = {pkey(regs.get(r, 0)) if not isinstance(regs.get(r), tuple) else "float" for regs in threads}
        if len(keys) != 1 or "float" in keys or r not in threads[0]:
            raise Unsupported(f"a loop counter {r} that is not one integer for every thread")
        start[r] = threads[0][r]
    turn = _slice(body[loop.header + 1:loop.back], set(counters))
    missing = [r for r in _live_in(turn) if r not in start and r not in threads[0]]
    if missing:
        raise Unsupported(f"a loop counter computed from {missing[0]}, not written before the loop")
    invariant = {r: threads[0][r] for r in _live_in(turn) if r not in start}

    def one_turn(values):
        regs = dict(invariant)
        regs.update(values)
        block.cols = {r: [v] * block.n for r, v in regs.items()}   # thread 0's column entries are read
        for ins in turn:
            block.execute(0, ins, True)
        return {r: block.cols[r][0] for r in counters}

    rings = {r: R for r, R in loop.rings.items() if r in start}
    period = math.lcm(*rings.values()) if rings else 1
    seq = [start]
    for _ in range(period + 1):      # turns 0 .. R + 1 at the concrete start of the rings
        seq.append(one_turn({r: (seq[-1][r] if r in rings else start[r]) for r in counters}))
    forms: dict = {}     # r -> ('ring', orbit) or ('linear', start, step)
    t = atom(TURN)
    for r in counters:
        if r in rings:
            orbit = [seq[k][r] for k in range(period + 1)]
            if seq[period + 1][r] != seq[1][r] or any(not isinstance(v, int) for v in orbit):
                raise Unsupported(f"a ring counter {r} that is not periodic from turn 1")
            forms[r] = ("ring", tuple(orbit))
        else:
            forms[r] = ("linear", start[r], padd(seq[1][r], start[r], -1))
            if TURN in pkey(forms[r][2]) or "selp" in pkey(forms[r][2]):
                raise Unsupported(f"a loop counter {r} whose step is not a constant of the launch")
    for phase in range(period):     # the induction: turn t (>= 1, t = 1 + phase mod R) -> t + 1
        at = {r: (f[1][1 + phase] if f[0] == "ring" else padd(f[1], pmul(f[2], t))) for r, f in forms.items()}
        nxt = one_turn(at)
        for r, f in forms.items():
            want = (f[1][1 + (phase + 1) % period] if f[0] == "ring"
                    else padd(f[1], pmul(f[2], padd(t, 1))))
            if pkey(nxt[r]) != pkey(want):
                raise Unsupported(f"loop counter {r}: one turn does not map its form at t to t + 1")
    return forms


def _slice(turn, needed):
    """The instructions of a straight-line turn that compute the registers `needed` at its end,
    in order; refused if one is guarded or not integer arithmetic, a move or a comparison."""
    out, needed = [], set(needed)
    for ins in reversed(turn):
        r, w = _rw(ins)
        if not (w & needed):
            continue
        if ins.guard is not None or ins.base not in ("add", "sub", "mul", "mad", "shl", "mov", "selp", "setp"):
            raise Unsupported(f"a loop counter computed by {ins.text()}")
        needed = (needed - w) | r
        out.append(ins)
    return out[::-1]


def _live_in(turn):
    read, written = set(), set()
    for ins in turn:
        r, w = _rw(ins)
        read |= r - written
        written |= w
    return read


__all__ = ["KLoop", "TURN", "counter_forms", "find_k_loop", "in_step_index", "mask_form"]
