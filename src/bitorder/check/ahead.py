"""Refusals of the concrete walk (dataflow.py) read ahead from the program text, before the walk.

The walk refuses a float select ptxas may lower to a min or max once its tree reaches a store (payloads.py): the
NaN payload it stores is ptxas's choice, and the kernel is classed by its program text (v0). It finds that out at
the store, after walking everything before it: TorchInductor's online softmax (triton_helpers.maximum,
where(a > b | isnan(a), a, b), stored as the row's max after a loop of 32,000 / R0_BLOCK turns) took 1.3 CPU-s a
configuration to end in v0 (benchmarks/results/2026-12-07c-checker-cpu: 82 s of the corpus's 784). Likewise an
unrounded multiply that reaches an unrounded add (ptxas may contract the pair: dataflow.float_node), found where the
walk reaches the add (layernorm's backward: 39 s). And such a select's value read as integer bits (a 16-bit argmax's
maximum, widened by cvt.u32.u16 to be shuffled: 16 s), which the walk refuses where it reads them.

`payload_stored(entry)` reads the first fact from the registers: a selp whose predicate is a float comparison of its
own two arms (an arm may be a NaN test's select over the compared values: the NaN-keeping max), carried on through
moves, selects, shuffles, shared memory and every float instruction that does not make its NaN canonical (add, sub,
mul, fma, mad, div do: payloads.CANONICAL), to a st.global's data; `payload_refusal(entry)` the same marks to an
integer instruction or comparison that reads them too (integers.Integers.tree_bits). `mul_added(entry)` the second: an
unguarded mul with no .rn, carried on by moves, shuffles, negations, shared memory and selects on predicates of the
thread index alone (the walk decides those in each thread, so the multiply itself reaches the add), read by an
unguarded add or sub with no .rn. Registers are read flow-insensitively (a register is marked when any write to it
is): a loop's accumulators carry the mark around the back edge as the fold's tree does. Shared memory is read by
barrier (_spread).

Only the plainest forms are read (a predicate written once by one setp or an and / or of setps; an arm compared by the
same register, not rewritten between the comparison and the select); everything else is left to the walk. A mark is
never a reason to call two kernels equal: a refusal ends in v0, the program text, which is sound whatever the walk
would have found; reading more than the walk would refuse costs classes, not soundness. Over the stored corpus every
configuration either rule refuses ended v0 without it, and no signature changes
(benchmarks/results/2026-12-07d-checker-cpu; tests/check/test_ahead.py checks that the walk refuses each case the
rules fire on)."""
from __future__ import annotations

import os

from .payloads import canonical
from .ptx import Entry, Instr
from .rules import _REG, _text_shape   # (an instruction's registers written and read, memoised)
from .symbolic import _FLOAT_TYPE, _RING, _is_float_op

# BITORDER_AHEAD=0: the walk finds these refusals itself, where it meets them (tests of the walk's own rules)
ON: bool = os.environ.get("BITORDER_AHEAD", "1") != "0"
WHY = "a float select ptxas may lower to a min or max reaches an output (its NaN payload is ptxas's choice)"
BITS = "a float select ptxas may lower to a min or max is read as integer bits (its NaN payload is ptxas's choice)"
_MOVES = ("mov", "shfl", "cvt", "selp")
_BITS_OPS = ("shr", "and", "or", "xor", "min", "max", "cvt", "neg", "not", "bfe", "popc")   # (and _RING: integer())
_NAN_TESTS = ("nan", "num")


def _compares(body: list):
    """({predicate: (its setp's index, comparison, the operand texts it compares)}, {register: indices writing it}),
    for predicates written once by a float setp, or by an and / or of such (comparison "composite", every operand;
    each part written once too);
    None where no selp reads such a predicate (most kernels: one pass, no register map)."""
    preds: dict = {}
    selects = False
    for i, ins in enumerate(body):
        if ins.__class__ is not Instr or ins.guard is not None or len(ins.operands) < 3:
            continue
        base = ins.base
        if base == "selp":
            selects = selects or ins.operands[-1] in preds
        elif base == "setp":
            dst = ins.operands[0]
            if _FLOAT_TYPE.search(ins.opcode) and "|" not in dst:
                preds[dst] = (i, ins.opcode.split(".")[1], tuple(o.strip() for o in ins.operands[1:3]), ())
        elif ins.opcode == "and.pred" or ins.opcode == "or.pred":
            names = [o.strip() for o in ins.operands[1:3]]
            parts = [preds[o] for o in names if o in preds]
            if len(parts) == 2:     # (a NaN test's operands are compared values too, as in v1)
                preds[ins.operands[0]] = (min(p[0] for p in parts), "composite", tuple(x for p in parts for x in p[2]),
                                          (*names, *(x for p in parts for x in p[3])))
    if not selects:
        return None
    writes: dict = {}
    for i, ins in enumerate(body):
        if ins.__class__ is Instr:
            for r in _text_shape(ins)[0]:
                writes.setdefault(r, []).append(i)
    return {p: hit[:3] for p, hit in preds.items() if all(len(writes[q]) == 1 for q in (p, *hit[3]))}, writes


def _kept(writes: dict, regs, lo: int, hi: int) -> bool:
    """Whether no register of regs is written strictly between body indices lo and hi."""
    return not any(lo < j < hi for r in regs for j in writes.get(r, ()))


def payload_stored(entry: Entry) -> bool:
    """Whether a float select ptxas may lower to a min or max reaches a global store's data, read from the text
    (the module's docstring). True means the concrete walk refuses the kernel too (it reaches the store, or refuses
    earlier for another reason: v0 either way, on the stored corpus); False says nothing."""
    return payload_refusal(entry) == WHY


def payload_refusal(entry: Entry) -> str | None:
    """WHY where such a select's value reaches a global store's data (payload_stored); else BITS where it is read as
    integer bits by an integer instruction or comparison (a 16-bit argmax's maximum widened by cvt.u32.u16 to be
    shuffled: the walk's "read as integer bits" refusal, integers.Integers.tree_bits); else None. Either means the
    walk refuses the kernel too; None says nothing. The marks are carried once for both."""
    body = entry.body
    found = _compares(body)
    if found is None:
        return None
    marked = _payload_free(body, *found)
    if not marked:
        return None
    if _spread(body, marked, _carries_payload, _stores_marked):
        return WHY
    # (_spread ran to its fixed point: marked holds every register the marks reach, and a sink that holds for a
    # marked register at any pass holds for it there)
    return BITS if any(ins.__class__ is Instr and _reads_bits(ins, marked) for ins in body) else None


def _payload_free(body: list, preds: dict, writes: dict) -> set:
    """The registers selp writes on a float comparison of its own two arms (an arm may be a NaN test's select over
    the compared values): what the walk marks payload-free (payloads.payload_free), in the plain forms _compares
    reads."""
    marked: set = set()
    nan_tests: dict = {}     # a NaN test's select: its register -> its arms
    for i, ins in enumerate(body):
        if ins.__class__ is not Instr or ins.base != "selp" or ins.guard is not None or len(ins.operands) != 4:
            continue
        dst, a, b, p = (o.strip() for o in ins.operands)
        hit = preds.get(p)
        if hit is None or len(writes.get(dst, ())) != 1:
            continue
        at, cmp, ops = hit
        if not _kept(writes, [x for x in ops if x.startswith("%")], at, i):     # (the arms are matched to them)
            continue
        if cmp in _NAN_TESTS:
            nan_tests[dst] = (a, b)
            continue
        if all(x in ops or (x in nan_tests and all(y in ops for y in nan_tests[x])) for x in (a, b)):
            marked.add(dst)
    return marked


def _reads_bits(ins: Instr, marked: set) -> bool:
    """Whether ins reads a marked register as integer bits: an integer instruction (not a predicate's and / or) or an
    integer setp, as the walk's integer() and compare_int() read a tree (tree_bits)."""
    base, op = ins.base, ins.opcode
    if not (base in _RING or base in _BITS_OPS or base == "setp") or ".pred" in op or \
            _is_float_op(op) or (base == "setp" and _FLOAT_TYPE.search(op)):
        return False
    return not marked.isdisjoint(_text_shape(ins)[1])


def _carries_payload(ins: Instr, marked: set) -> bool:
    """Whether ins passes a payload-free value on: moves, selects, shuffles, conversions, and float instructions that
    do not make a NaN canonical (payloads.canonical)."""
    base = ins.base
    return (base in _MOVES or (_FLOAT_TYPE.search(ins.opcode) is not None and base != "setp"
                               and not canonical(ins.opcode))) and not marked.isdisjoint(_text_shape(ins)[1])


def _stores_marked(ins: Instr, marked: set) -> bool:
    """Whether ins stores a marked register's value to global memory."""
    return ins.base == "st" and ".global" in ins.opcode and len(ins.operands) > 1 and \
        any(r in marked for r in _REG.findall(ins.operands[1]))


def _spread(body: list, marked: set, carries, sink) -> bool:
    """Carry the marks on registers forward to a fixed point (the back edges carry them to earlier instructions): an
    instruction for which carries(ins, marked) holds marks what it writes. True as soon as sink(ins, marked) holds.

    Shared memory by barrier: a shared load reads the stores of the last stretch between barriers that had any, and
    is marked where every one of them stores marked data (an argmax's indices stored beside its values: not)."""
    changed = True
    while changed:
        changed = False
        pending: list = []    # the shared stores since the last barrier
        seen: list = []       # those of the last stretch that had any, as of the last barrier
        for ins in body:
            if ins.__class__ is not Instr:
                continue
            if sink(ins, marked):
                return True
            base = ins.base
            if base == "st" or base == "stmatrix":
                if ".shared" in ins.opcode:
                    pending.append(ins)
                continue
            if base == "bar":
                if pending:
                    seen, pending = pending, []
                continue
            if base == "ld" or base == "ldmatrix":
                carried = ".shared" in ins.opcode and bool(seen) and \
                    all(r in marked for st in seen for r in _REG.findall(st.operands[1]))
            else:
                carried = carries(ins, marked)
            if carried:
                for r in _text_shape(ins)[0]:
                    if r not in marked and not r.startswith("%p"):
                        marked.add(r)
                        changed = True
    return False


CONTRACTS = "an unrounded multiply feeds an add: ptxas may contract it"
_SCALAR = ("f32", "f16", "bf16", "f64", "f16x2", "bf16x2")    # (an x2 instruction: one on each half, as the walk)
_THREAD_OPS = ("mov", "and", "or", "xor", "not", "shl", "shr", "add", "sub", "mul", "mad", "setp", "cvt", "bfe", "selp")


def _unrounded(ins: Instr, bases) -> bool:
    """An unguarded scalar float instruction of one of bases with no .rn (what dataflow.float_node reads so)."""
    op = ins.opcode
    return ins.base in bases and ins.guard is None and ".rn" not in op and op.rsplit(".", 1)[-1] in _SCALAR


def mul_added(entry: Entry) -> bool:
    """Whether an unrounded float multiply (f32, f16, bf16, f64 or an x2 pair of halves) reaches an unrounded add or
    sub that reads it, read from the text: carried on
    by moves, shuffles, negations, shared memory and selects on predicates of the thread index alone (the concrete
    walk decides those thread by thread: the multiply itself reaches the add). True means the walk refuses the kernel
    too (dataflow.float_node: ptxas may contract the pair into an fma); False says nothing."""
    body = entry.body
    marked, adds = set(), False
    for ins in body:
        if ins.__class__ is Instr and (ins.base == "mul" or ins.base == "add" or ins.base == "sub"):
            if _unrounded(ins, ("mul",)):
                marked.add(ins.operands[0])
            else:
                adds = adds or _unrounded(ins, ("add", "sub"))
    if not marked or not adds:
        return False
    thread: list = []     # _thread_only's, found on first use

    def carries(ins: Instr, marked: set) -> bool:
        base = ins.base
        if base == "selp":
            if ins.operands[1] not in marked and ins.operands[2] not in marked:
                return False
            if not thread:
                thread.append(_thread_only(body))
            return ins.operands[3] in thread[0]
        return (base == "mov" or base == "shfl" or (base == "neg" and ins.opcode.rsplit(".", 1)[-1] in _SCALAR)) \
            and not marked.isdisjoint(_text_shape(ins)[1])

    def sink(ins: Instr, marked: set) -> bool:
        return _unrounded(ins, ("add", "sub")) and (ins.operands[1] in marked or ins.operands[2] in marked)
    return _spread(body, marked, carries, sink)


def _thread_only(body: list) -> set:
    """The registers (predicates too) whose every write computes from the thread index and constants alone, by
    integer and predicate instructions: the least fixed point (a loop's counter, which reads itself, is not one)."""
    writes: dict = {}
    for ins in body:
        if ins.__class__ is Instr:
            for r in _text_shape(ins)[0]:
                writes.setdefault(r, []).append(ins)
    known: set = set()
    changed = True
    while changed:
        changed = False
        for r, inss in writes.items():
            if r in known:
                continue
            if all(ins.guard is None and ins.base in _THREAD_OPS and not _FLOAT_TYPE.search(ins.opcode)
                   and all(_thread_operand(o, known) for o in ins.operands[1:]) for ins in inss):
                known.add(r)
                changed = True
    return known


def _thread_operand(text: str, known: set) -> bool:
    """An operand of the thread index alone: %tid.x, %ntid.x, a constant, or a register in known."""
    text = text.strip()
    if text.startswith("%"):
        return text in known or text in ("%tid.x", "%ntid.x", "%tid.y", "%tid.z")
    return text[:1].isdigit() or text[:1] == "-"


def refused(entry: Entry) -> str | None:
    """Why the concrete walk would refuse the kernel, where the text says so before the walk (payload_stored,
    mul_added: the walk's own reason); None where only the walk can tell, or with ON off."""
    if not ON:
        return None
    if mul_added(entry):
        return CONTRACTS
    return payload_refusal(entry)
