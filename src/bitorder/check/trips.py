"""Loops with a constant trip count: the walk's instruction limit decided before the walk.

The walk follows a loop whose back edge every thread takes the same way on concrete values turn by
turn (TorchInductor bakes r0_numel into its looped reductions: 32,000 / R0_BLOCK turns). Where
those turns would execute more instructions than the walk may (its "steps"), it used to find out
only after walking them all, seconds later, and then fell back to the program text (v0).

Which instructions the walk executes depends on its branches alone, so the program is first run
for thread 0 on the instructions its branch predicates depend on (their backward slice: a loop
counter's add and its comparison), on concrete integers, every instruction counted as the walk
counts it. A walk that completes has every thread take each branch alike, so thread 0's count is
the walk's (code that a branch on data may skip, which the walk runs guarded, is counted as
skipped: the count is a lower bound); where the count passes the walk's limit, the walk cannot
complete, and is refused at once with the limit's own message. Anything the slice holds that this reading does
not compute exactly (a symbolic value, a guarded instruction, an opcode outside _OPS) means no
prediction: the walk goes on turn by turn as before. The answer is v0 either way (its signature is
the program text's, whatever the reason), so a prediction changes no class, only the time.
"""
from __future__ import annotations

import os
import re

from .ptx import Instr, Label
from .predicates import _pred
from .rules import _BITS16, _float_cmp, _operand
from .symbolic import Unsupported

ON = os.environ.get("BITORDER_TRIP_COUNT", "1") != "0"   # BITORDER_TRIP_COUNT=0: every loop walked to the limit
_REG = re.compile(r"%[A-Za-z_$][\w$]*")
_OPS = frozenset({"add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "not", "mov", "setp", "selp"})


def _slice(body, preds):
    """The instructions of the program the branch predicates depend on (a flow-insensitive backward
    closure over register definitions), as a set of indices into body, or None where one of them
    writes two registers (setp's p|q), is guarded, or is outside _OPS (a load, a conversion)."""
    defs: dict = {}
    for k, ins in enumerate(body):
        if ins.__class__ is Instr and ins.operands and ins.base not in ("st", "bar", "barrier", "stmatrix", "red",
                                                                          "atom", "bra", "cp", "wgmma"):
            for d in _REG.findall(ins.operands[0]):
                defs.setdefault(d, []).append(k)
    need, todo, out = set(preds), list(preds), set()
    while todo:
        for k in defs.get(todo.pop(), ()):
            ins = body[k]
            if ins.guard is not None or "|" in ins.operands[0] or "{" in ins.operands[0] or ins.base not in _OPS:
                return None
            out.add(k)
            for r in _REG.findall(" ".join(ins.operands[1:])):
                if r not in need:
                    need.add(r)
                    todo.append(r)
    return out


def _execute(ins: Instr, read, block):
    """The value ins writes as the walk computes it (block: the walk, whose integer and compare_int
    it calls: sums left unwrapped, types read at comparisons), on concrete operands (read: operand
    text -> int or bool), or None where the walk's value would not be a concrete int or bool."""
    base, op = ins.base, ins.opcode
    args = [read(o) for o in ins.operands[1:]]
    if any(a is None for a in args):
        return None
    if op.endswith(".pred"):      # execute's predicate cases: mov.pred, and/or/xor/not of predicates
        if not all(a.__class__ is bool for a in args):
            return None
        return args[0] if base == "mov" else _pred(base, args)
    if base == "selp":            # _selp_handlers' value() on a decided predicate
        return (args[0] if args[2] else args[1]) if len(args) == 3 and args[2].__class__ is bool else None
    if not all(a.__class__ is int for a in args):
        return None
    try:
        if base == "setp":
            return None if len(args) != 2 or _float_cmp(op) else block.compare_int(op, op.split(".")[1], *args)
        if base == "mov":         # execute's mov: a 16-bit constant as its bit pattern
            return args[0] & 0xFFFF if op in _BITS16 and _operand(ins.operands[1])[0] == "value" else args[0]
        r = block.integer(op, args)
    except Exception:             # (Unsupported, or a comparison it does not know): the walk meets it itself
        return None
    return r if r.__class__ is int else None


def exceeds(block, body, labels, straight, folds=None) -> bool:
    """Whether the walk of body (block: the walk, before its first instruction; labels: label ->
    index) would execute more than block.max_steps instructions: the program run for thread 0 on
    its branch predicates' slice alone, every instruction counted as the walk counts it. straight:
    the branches on data over straight-line code (a hammock, an if-else: libdevice's log and tanh),
    branch index -> where every thread runs on (rules._branches_on_constants' answer); the walk runs
    that code guarded, and it is counted here as if every thread skipped it, a lower bound. False
    where a branch it meets is not decided by concrete values (a loop over a runtime bound: the walk
    folds it) or a value in the slice is not computed exactly. folds: the back edges the walk may fold
    (loops.py, constant trip counts when loops.CONST), counted as not taken after turn 0: a lower bound
    whether the fold then takes the loop or not."""
    branches = [k for k, i in enumerate(body) if i.__class__ is Instr and i.base == "bra" and i.guard is not None]
    if not ON or not branches:
        return False
    sl = _slice(body, {body[k].guard[1] for k in branches if k not in straight})
    if sl is None:
        return False
    state: dict = {}
    consts: dict = {}

    def read(o):
        o = o.strip()
        hit = state.get(o)
        if hit is not None:
            return hit
        if o.startswith("%"):
            return None               # a register no slice instruction wrote, or %tid (thread 0's is 0: not read)
        hit = consts.get(o)
        if hit is None:
            try:
                hit = consts[o] = block.val(0, o)
            except Unsupported:       # an operand the walk reads otherwise ({%r1, %r2}): no prediction
                hit = consts[o] = ()
        return hit if hit.__class__ is int else None

    pc, steps, limit, n = 0, 0, block.max_steps, len(body)
    while pc < n:
        ins = body[pc]
        pc += 1
        if ins.__class__ is Label:
            continue
        steps += 1
        if steps > limit:
            return True
        if ins.base == "bra":
            if pc - 1 in straight:
                pc = straight[pc - 1]
                continue
            if folds and pc - 1 in folds:
                continue
            if ins.guard is not None:
                p = state.get(ins.guard[1])
                if p.__class__ is not bool:
                    return False
                if p == ins.guard[0]:     # not taken ("@%p bra" is taken where %p holds, "@!%p" where not)
                    continue
            target = labels.get(ins.operands[0]) if ins.operands else None
            if target is None:
                return False
            pc = target
        elif ins.opcode == "ret" or ins.base in ("exit", "call", "brx"):
            return False
        elif pc - 1 in sl:
            v = _execute(ins, read, block)
            if v is None:
                return False
            state[ins.operands[0].strip()] = v
    return False
