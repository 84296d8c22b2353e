"""Loops over a runtime bound (and, with CONST, of a constant trip count), folded (dataflow.py mixes
this into its _Block; paper section 6.2, the scalar fold: a fold keeps its chunk). On unless
BITORDER_FOLD_LOOPS=0 (ON); gated on the H200 on 2026-12-04d (benchmarks/results/2026-12-04d-gpu: 0
wrong merges; the fold keyed without its update makes wrong merges there).

The loop Triton 3.6 emits for `for c0 in range(0, C, BC)` with a runtime C:

    @skip bra EXIT;  PRE;  H: BODY;  @back bra H;  POST;  EXIT:

BODY straight-line (no branch, no global store, no cp.async or wgmma). The walk runs turn 0 as
it runs any code; where the back edge's predicate is then symbolic, it folds the loop:

- Counters. A register BODY reads before it writes it ("carried") that holds integers is a
  counter: its value at the header of turn T must be exactly init + delta * T, checked by
  walking BODY once with T a symbol (loop:T) and finding init + delta * (T + 1).
- Accumulators. A carried register that holds trees is an accumulator. Read statically (every
  instruction's result depends on all it reads, its guard, and for a guarded write the old
  value; a shuffle or shared memory moves values between threads), its new value may depend on
  no other accumulator's old value, and on its own only within its thread. So the walk of BODY
  with every accumulator holding one leaf SELF gives each thread's update F(SELF, T) exactly,
  and the value after the loop is the node fold(init, F) keyed by the trip predicate: equal
  keys, equal inits, equal updates and equal trip counts give equal bits.
- The trip count. The back edge's predicate at the end of turn T, the same in every thread, is
  keyed as it is: turns run while it holds, so equal predicates give equal trip counts. Counters
  leave the loop as init + delta * TRIP, TRIP an atom named by that predicate.
- Memory. Shared words hold, at the header, values of an earlier turn: they are forgotten (read
  as a register never written: an output that depends on one is refused), so BODY may read only
  what it wrote in its own turn. Shared addresses may not depend on T; BODY is walked twice in a
  row so that the race checks see one turn after another, and the last walk's accesses are what
  the code after the loop is checked against. Global loads are leaves at addresses in T.
- Everything else BODY writes is undefined after the loop (a temporary read after it is refused).

Constant trip counts (CONST; BITORDER_FOLD_CONST=0 turns it off; gated 2026-12-05): the same loop whose back edge
every thread takes on concrete values after turn 0 (TorchInductor bakes r0_numel in: 32,000 / R0_BLOCK
turns) was followed turn by turn, tens of turns over every thread, and often past the walk's limits. With
CONST it is folded as above, with four differences (fold_constant):
- The trip count N is computed: BODY walked at T with T's comparisons decided over 0 <= T < the walk's
  instruction limit (bits.turn_decides) gives a back edge taken exactly while T < k, so N = k + 1. BODY is
  walked again with the comparisons decided over 0 <= T < N: a mask that holds on every turn is True, one
  that fails from turn k on is "T < k" however the code computed it. The fold is keyed by N ("turns:N"),
  counters leave the loop as init + delta * N.
- Accumulators may read each other within their thread (online softmax: s reads m). A group of them is
  one state: each member starts as SELF named by its place in the group (its init's rank; members that
  start equal ranked by their updates, then in the code's order), and each leaves as fold(the group's
  inits and updates, in that order; its place).
- A register BODY writes that reads no carried register is loop-invariant and keeps its value after the
  loop; one that holds an accumulator's update holds that accumulator's value after the loop.
- Where the turn is compared with data (a one-hot candidate: onehot.py sums the followed loop exactly, in
  any order) or fold refuses the loop, everything the attempt changed is put back and the loop is followed
  turn by turn, as before.

With storefold.STORES (on by default since 2026-12-05d), a constant-trip loop that stores, or whose accumulators
each add one one-hot term a turn, is handed to storefold.py, which folds it keyed by element instead of by turn.

The skip: a guarded forward branch over PRE, the loop and POST (straight-line around one loop)
runs that code unguarded, and at EXIT every register it changed holds "skip ? before : after",
as a hammock's registers do (regions.py). Where the code moves data between threads (barriers,
shuffles, shared memory), the skip must be the same in every thread and shared memory unused
before it; the words it wrote are forgotten at EXIT.
"""
from __future__ import annotations

import os
from collections import Counter

from . import onehot
from .ptx import Instr
from .poly import UNDEF, UNDEF_PRED, atom, padd, pkey, pmul, short
from .predicates import select
from .bits import LOOP_T as _TURN, turn_bound
from .rules import _text_shape
from .symbolic import Unsupported
from ._native import trait

ON: bool = os.environ.get("BITORDER_FOLD_LOOPS", "1") != "0"   # BITORDER_FOLD_LOOPS=0: refused as before (v0)
# loops of a constant trip count folded too, unless BITORDER_FOLD_CONST=0 (then followed turn by turn, as before);
# gated on the H200 on 2026-12-05 (benchmarks/results/2026-12-05-gpu)
CONST: bool = ON and os.environ.get("BITORDER_FOLD_CONST", "1") != "0"
LOOP_T = _TURN[0]     # the turn's atom (bits.LOOP_T, the monomial turn_decides reads)
_T = {_TURN: 1}
_T1 = {_TURN: 1, (): 1}
_JUMPS = ("bra", "ret", "exit", "call", "brx")
_MOVES = ("shfl", "ldmatrix", "stmatrix")   # register values between threads


class OneHot(Unsupported):
    """A constant-trip loop's turn compared with data: a one-hot candidate (fold_constant gives way)."""


def _elements_on() -> bool:
    from . import storefold   # (storefold imports this module)
    return storefold.STORES


def loop_shapes(body, labels):
    """(back edges, skips): {back edge index: header index} for every guarded backward branch whose
    body (from its label to it) is straight-line (no label a branch targets, no other jump, no global
    store, no cp.async or wgmma), and {branch index: skip_over_loop's shape} for the guarded branches
    that skip one of those loops. The branch targets are counted once for both."""
    jumps, branches = back_branches(body, labels)
    backs = {b: h for b, h in branches if all(_straight(i, jumps) for i in body[h + 1:b])}
    skips = {}
    for k, ins in enumerate(body):
        if backs and ins.__class__ is Instr and ins.base == "bra" and ins.guard is not None:
            shape = skip_over_loop(body, k, labels, backs, jumps)
            if shape is not None:
                skips[k] = shape
    return backs, skips


def back_branches(body, labels):
    """(how often each label is a branch target, [(index, target index)] of the guarded backward branches)."""
    jumps = Counter(i.operands[0] for i in body if i.__class__ is Instr and i.base == "bra" and i.operands)
    out = []
    for b, ins in enumerate(body):
        if ins.__class__ is Instr and ins.base == "bra" and ins.guard is not None:
            h = labels.get(ins.operands[0])
            if h is not None and h < b:
                out.append((b, h))
    return jumps, out


def _straight(item, jumps) -> bool:
    """Whether a loop body may hold item: no label a branch targets (jumps: branch targets counted;
    the other labels mark debug locations), no jump, no global store."""
    if item.__class__ is not Instr:
        return item.name not in jumps
    if item.base in _JUMPS or item.base in ("cp", "wgmma", "atom", "red"):
        return False
    return not (item.base == "st" and ".shared" not in item.opcode)


def skip_over_loop(body, at, labels, backedges, jumps):
    """(where the skip ends, None) when the guarded forward branch at `at` jumps over straight-line
    code around one loop of `backedges` (its header the only label a branch targets, its back edge
    the only jump); ((where arm A ends, arm B's label, the join), arm B's first index) for the
    if-else LLVM also lays out, the loop in arm A and register code in arm B:
        @enter bra A;  bra.uni B;  A: PRE  H: BODY  @back bra H;  POST  bra.uni J;  B: <B>  J:
    else None."""
    ins = body[at]
    if ins.guard is None or ins.operands[0] not in labels:
        return None
    end = labels[ins.operands[0]]
    jump = body[at + 1] if at + 1 < len(body) else None
    if jump.__class__ is Instr and jump.base == "bra" and jump.guard is None and end == at + 2 \
            and jump.operands[0] in labels:
        y = labels[jump.operands[0]]               # the if-else: arm A from end, arm B from y
        join = body[y - 1] if y > end else None
        if join.__class__ is not Instr or join.base != "bra" or join.guard is not None or join.operands[0] not in labels:
            return None
        z = labels[join.operands[0]]
        if z <= y or not _around_one_loop(body, end, y - 1, backedges, jumps):
            return None
        for item in body[y + 1:z]:
            if item.__class__ is Instr and (item.base in _JUMPS or item.base in _MOVES or item.base in ("bar", "barrier")
                                            or item.base in ("st", "cp", "wgmma", "atom", "red")
                                            or (item.base == "ld" and ".param" not in item.opcode)) \
                    or item.__class__ is not Instr and item.name in jumps:
                return None
        if jumps[body[end].name] != 1 or jumps[body[y].name] != 1:
            return None
        return (y - 1, y, z), y
    if end <= at or not _around_one_loop(body, at, end, backedges, jumps):
        return None
    return end, None


def _around_one_loop(body, at, end, backedges, jumps) -> bool:
    """Whether body[at + 1:end] is straight-line code around exactly one loop of backedges."""
    inner = [(b, h) for b, h in backedges.items() if at < h < b < end]
    if len(inner) != 1:
        return False
    b, h = inner[0]
    return all(k == h or k == b or _straight(body[k], jumps) for k in range(at + 1, end))


def _carried(inss):
    """(registers BODY reads before it writes them, {register: {carried register: crossed}}, the registers
    BODY writes): for each
    register BODY writes, the carried registers whose values at the header its value after BODY may
    depend on, and whether through a move between threads. Statically, over the instruction texts:
    a result depends on every register an instruction reads, its guard, and (guarded) its old value."""
    carried, written = [], set()
    anywhere = {r for ins in inss for r in _text_shape(ins)[0]}
    smem = {}            # what any shared word may hold (stores anywhere in BODY: two passes)
    for second in (False, True):
        # each pass from the header: a carried register holds its own value there (the second pass only
        # adds the shared words stored after a load that reads them; starting it from the first pass's
        # results would read a register's value after one turn as its value at the header)
        deps = {c: {c: False} for c in carried}     # register -> {carried register: crossed}
        written.clear()
        for ins in inss:
            dsts, srcs, _ = _text_shape(ins)
            reads = set(srcs)
            if ins.guard is not None:
                reads.add(ins.guard[1])
                reads.update(dsts)          # a guarded write keeps the old value where it does not run
            for r in reads:
                if r in anywhere and r not in written and r not in carried:
                    carried.append(r)
                    deps.setdefault(r, {r: False})
            d = {}
            for r in reads:
                for c, x in deps.get(r, {}).items():
                    d[c] = d.get(c, False) or x
            shared_load = (ins.base == "ld" and ".shared" in ins.opcode) or ins.base == "ldmatrix"
            crossing = ins.base in _MOVES or shared_load
            if shared_load:
                for c, x in smem.items():
                    d[c] = True
            if crossing:
                d = {c: True for c in d}
            if ins.base in ("st", "stmatrix") and ".shared" in ins.opcode or ins.base == "stmatrix":
                for c in d:
                    smem[c] = True
            for r in dsts:
                deps[r] = dict(d)
                written.add(r)
    return carried, deps, anywhere


def _groups(accs, links):
    """The accumulators in groups whose updates read each other (connected through links), each in
    the order of accs."""
    group = {r: {r} for r in accs}
    for r, others in links.items():
        for c in others:
            if group[c] is not group[r]:
                merged = group[r] | group[c]
                for x in merged:
                    group[x] = merged
    out, seen = [], set()
    for r in accs:
        if r not in seen:
            seen |= group[r]
            out.append([x for x in accs if x in group[r]])
    return out


def _places(keys, ties=False):
    """Each member's place in its group, in one thread: the rank of its key (its init's, then its update's:
    the group's order whatever registers the compiler gave it). With ties, members with equal keys share a
    place (a first naming, to tell them apart by their updates); without, equal keys keep the members'
    order (any order is exact: the fold names each member by its place in that order; only a merge with
    another kernel that orders them otherwise is lost)."""
    if ties:
        ranks = {k: i for i, k in enumerate(sorted(set(keys)))}
        return [ranks[k] for k in keys]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    place = [0] * len(keys)
    for p, i in enumerate(order):
        place[i] = p
    return place


@trait     # mixed into dataflow._Block (a mypyc trait when compiled: _native.trait)
class Loops:
    def _registers(self):
        """A copy of every register's column and of the uniform set."""
        return {r: list(c) for r, c in self.cols.items()}, set(self.uniform)

    def _set_registers(self, registers):
        """The registers as _registers copied them (copied again: a copy may be set more than once)."""
        cols, uniform = registers
        self.cols.clear()
        self.cols.update({r: list(c) for r, c in cols.items()})
        self.uniform.clear()
        self.uniform.update(uniform)

    def _nothing(self, r):
        """What register r holds in a thread that never wrote it: the undefined predicate or value."""
        return UNDEF_PRED if r.startswith("%p") else self.undef

    def _never_written(self, r):
        """The column of register r where no thread wrote it."""
        return [self._nothing(r)] * self.n

    def loop_snapshot(self):
        """What a loop's walks restore: registers and shared memory at its header (and how many roots,
        stored bytes and stored pointers there were)."""
        return (self._registers(), dict(self.smem), {k: set(v) for k, v in self.smem_reads.items()},
                dict(self.smem_bytes), set(self.words), self.epoch, self.stored,
                (len(self.roots), len(self.bytes), len(self.bases)))   # (what storefold.py undoes of turn 0)

    def _loop_restore(self, s):
        registers, smem, reads, sbytes, words, epoch, stored, _ = s
        self._set_registers(registers)
        self.smem.clear()
        self.smem.update(smem)
        self.smem_reads.clear()
        self.smem_reads.update({k: set(v) for k, v in reads.items()})
        self.smem_bytes.clear()
        self.smem_bytes.update(sbytes)
        self.words.clear()
        self.words.update(words)
        self.epoch, self.stored = epoch, stored

    def _forget_shared(self):
        """Every shared word's value unknown (read as a register never written); who wrote it and
        when stay, for the race checks."""
        undef = self.undef
        for k, (_, writer, epoch, width) in list(self.smem.items()):
            self.smem[k] = (undef, writer, epoch, width)

    def count_steps(self, n):
        """n more instructions the loop folds walk (in lockstep), refused past the walk's limit."""
        steps = self.loop_steps + n
        if steps > self.max_steps:
            raise Unsupported(f"more than {self.max_steps} instructions executed (a long loop)")
        self.loop_steps = steps

    def check_counters(self, counters):
        """After BODY's walk at turn T: every counter holds init + delta (T + 1), else refused."""
        for r, before, delta in counters:
            if any(not (v.__class__ is int or v.__class__ is dict) or pkey(v) != pkey(padd(o, pmul(d, _T1)))
                   for v, o, d in zip(self.cols[r], before, delta)):
                raise Unsupported("a loop counter that does not grow by a constant step")

    def _walk_body(self, inss):
        self.count_steps(len(inss))
        for ins in inss:
            self.step(ins)
        if any(LOOP_T in k for k in self.smem) or any(LOOP_T in k for k in self.smem_reads):
            raise Unsupported("a loop whose shared-memory addresses depend on the turn")

    def fold(self, h, b, entry, constant=False):
        """Fold the loop from label h to back edge b, walked once (turn 0) from `entry` (its header's
        loop_snapshot) to here; give the index after the back edge, where the walk goes on."""
        if self.region is not None or self.tc is not None:
            raise Unsupported("a loop over a runtime bound inside a guarded region, or with cp.async or wgmma")
        inss = [i for i in self.e.body[h + 1:b] if i.__class__ is Instr]
        back = self.e.body[b]
        n, undef = self.n, self.undef
        carried, deps, written = _carried(inss)
        cols0 = entry[0][0]
        counters, accs, unknown = [], [], []
        for r in carried:
            now, before = self.cols.get(r), cols0.get(r)
            if before is None or all(v == undef for v in before):
                # never written before the loop (a guarded load's register LLVM leaves unset where the
                # guard is false): at a header it holds an earlier turn's value or nothing, so a value
                # equal to nothing there; whatever depends on it is refused where it is stored
                unknown.append(r)
                continue
            if r.startswith("%p"):
                raise Unsupported("a loop that carries a predicate")
            if now is None:
                raise Unsupported("a loop that carries a register never written before it")
            if all(v.__class__ is int or v.__class__ is dict for v in now):
                if not all(v.__class__ is int or v.__class__ is dict for v in before):
                    raise Unsupported("a loop counter that starts as a tree")
                delta = [padd(a, o, -1) for a, o in zip(now, before)]
                if any(d.__class__ is dict and UNDEF in pkey(d) for d in delta):
                    raise Unsupported("a loop counter computed from a register never written")
                counters.append((r, before, delta))
            elif all(v.__class__ is tuple and v[0] in ("node", "select") for v in now):
                accs.append(r)
            else:
                raise Unsupported("a loop that carries a value neither a counter nor a tree")
        if constant and any(i.base == "st" and ".shared" not in i.opcode for i in inss):
            if accs:
                raise Unsupported("a loop that stores and carries an accumulator")
            return self.fold_stores(b, entry, inss, counters, unknown, written, deps)   # storefold.py
        acc_set = set(accs)
        links = {}
        for r in accs:   # an accumulator's update reads other accumulators (constant trip counts only), its own
            d = {c: x for c, x in deps.get(r, {}).items() if c in acc_set}   # only within its thread
            if any(x for x in d.values()) or any(c != r for c in d) and not constant:
                raise Unsupported("a loop whose accumulators depend on each other or move between threads")
            links[r] = [c for c in d if c != r]
        groups = _groups(accs, links)
        selfnode = ("node", self.nodes.make_load("fold:self"))
        elements = constant and _elements_on()   # storefold.py may fold a one-hot loop: SELF reads as a sum's start
        places = {}      # an accumulator of a group -> its place in the group in each thread
        selves = {}      # an accumulator of a group -> its SELF in each thread (named by that place)
        init_keys = {r: [str(self.key(v)) for v in cols0[r]] for g in groups if len(g) > 1 for r in g}

        def name(keys_of, ties):
            """places and selves from each member's key in each thread (keys_of: member -> keys by thread)."""
            for g in groups:
                if len(g) > 1:
                    named = [("node", self.nodes.make_load(f"fold:self:{j}")) for j in range(len(g))]
                    by_thread = [_places([keys_of[r][t] for r in g], ties) for t in range(n)]
                    for i, r in enumerate(g):
                        places[r] = [p[i] for p in by_thread]
                        selves[r] = [named[p] for p in places[r]]

        tied = any(len({init_keys[r][t] for r in g}) < len(g) for g in groups if len(g) > 1 for t in range(n))
        name(init_keys, tied)

        def turn():
            """BODY walked at a symbolic turn T: counters init + delta * T, accumulators SELF, shared words
            forgotten."""
            self._loop_restore(entry)
            self._forget_shared()
            self.uniform.difference_update(written)
            for r, before, delta in counters:
                self.cols[r] = [padd(o, pmul(d, _T)) for o, d in zip(before, delta)]
            for r in unknown:
                self.cols[r] = self._never_written(r)
            for r in accs:
                self.cols[r] = selves.get(r) or [selfnode] * n
            self._walk_body(inss)
            if constant and self.turn_eq:
                raise OneHot("the turn compared with data in a loop of constant trip count (one-hot: followed "
                             "turn by turn, where onehot.py sums it exactly)")

        if constant:
            # the trip count first: T's comparisons decided over every turn the walk could follow, where
            # the back edge is then taken exactly while T < k (k + 1 turns), then BODY again over those
            self.turns = self.max_steps
            if elements:
                self.turn_prefixes = set()
                onehot.open_start(self.key(selfnode))
            try:
                turn()
            except OneHot:     # a one-hot sum: storefold.py folds it keyed by element, where it is on
                if not elements:
                    raise
                return self.fold_onehot(b, entry, inss, counters, accs, unknown, written, deps, selfnode)
            finally:
                # however this ends (folded, not one-hot, refused): SELF is the leaf it was again, for the walks
                # below and for every later fold of the walk (each keys its update by that one SELF)
                if elements:
                    onehot.close_start(self.key(selfnode))
            k = turn_bound(self.guard(0, back))
            if k is None or any(self.guard(t, back) != self.guard(0, back) for t in range(1, n)):
                raise Unsupported("a loop of constant trip count whose back edge is not T < k in every thread")
            self.turns = k + 1
        if tied:
            # members that start equal, told apart by their updates with the tied ones sharing a SELF (both
            # keys are the code's, not its registers'); still equal: in the members' order
            turn()
            name({r: [f"{init_keys[r][t]}|{self.key(self.cols[r][t])}" for t in range(n)] for r in init_keys}, False)
        turn()
        self.check_counters(counters)
        preds = [self.guard(t, back) for t in range(n)]
        text = str(preds[0])
        if not constant and preds[0].__class__ is bool or preds[0] == UNDEF_PRED or UNDEF in text or \
                any(str(p) != text for p in preds):
            raise Unsupported("a loop whose trip count differs between threads or is not symbolic")
        trip = f"turns:{self.turns}" if constant else short("trip:" + text)
        updates = {r: [self.fnode(v) for v in self.cols[r]] for r in accs}
        # (constant trips) a temporary BODY leaves holding an accumulator's update holds, after the last
        # turn, that accumulator's value after the loop (LLVM reads m_new, not m, after an online max)
        finals = {}
        if constant:
            by_update = {}
            for r, u in updates.items():   # (an update two accumulators share names neither: SELF is theirs alike)
                by_update[tuple(u)] = None if tuple(u) in by_update else r
            for r in written:
                col = self.cols.get(r)
                if r not in acc_set and col is not None and all(v.__class__ is tuple and v[0] == "node" for v in col):
                    acc = by_update.get(tuple(v[1] for v in col))
                    if acc is not None:
                        finals[r] = acc
        muls = self.nodes.muls
        if muls and any(f in muls for fs in updates.values() for f in fs):
            raise Unsupported("an unrounded multiply carried around a loop: ptxas may contract it")
        self._walk_body(inss)    # the next turn: races across the back edge
        self._forget_shared()
        # after the loop: what BODY wrote is undefined, but for the counters and accumulators and (constant
        # trips) the registers that read no carried register: loop-invariant, as the last turn left them
        kept = {r for r in written if constant and r in self.cols and not deps.get(r)}
        for r in written:
            if r not in kept:
                self.cols[r] = self._never_written(r)
        self.uniform.difference_update(written - kept)
        trips = self.turns if constant else atom(trip)
        for r, before, delta in counters:
            self.cols[r] = [padd(o, pmul(d, trips)) for o, d in zip(before, delta)]
        inits = {r: [self.fnode(v) for v in cols0[r]] for r in accs}
        if muls and any(i in muls for r in accs for i in inits[r]):
            raise Unsupported("an unrounded multiply carried into a loop: ptxas may contract it")
        for g in groups:
            if len(g) == 1:
                r = g[0]
                self.cols[r] = [("node", self.nodes.make("fold", (i, f), trip)) for i, f in zip(inits[r], updates[r])]
                continue
            # a group: every member's value after the loop is one component of the state its members carry
            # together, so equal inits and updates (in the group's order) and equal trips give equal bits
            out = {r: [] for r in g}
            for t in range(n):
                order = sorted(g, key=lambda r: places[r][t])
                kids = tuple(inits[r][t] for r in order) + tuple(updates[r][t] for r in order)
                for j, r in enumerate(order):
                    out[r].append(("node", self.nodes.make("folds", kids, f"{trip}|{j}/{len(g)}")))
            self.cols.update(out)
        for r, acc in finals.items():
            self.cols[r] = list(self.cols[acc])
        return b + 1

    def fold_constant(self, h, b, entry):
        """Fold the loop from label h to back edge b whose back edge every thread takes on concrete values
        after turn 0 (a constant trip count: TorchInductor's r0_numel baked in), as fold() folds a loop over
        a runtime bound, keyed by its trip count (the module's docstring says how it differs). Where fold
        refuses the loop, everything the attempt changed is put back and None is returned: the walk
        follows the loop turn by turn, as it did before this rule."""
        state = (self.loop_snapshot(), self.loop_steps)
        try:
            return self.fold(h, b, entry, constant=True)
        except Unsupported:
            self._loop_restore(state[0])
            self.loop_steps = state[1]
            return None
        finally:
            self.turns, self.turn_eq, self.turn_range, self.turn_prefixes, self.turn_lane = 0, False, None, None, None
            self.turn_split = False

    def enter_skip(self, ins, at, shape):
        """Walk the code a guarded branch jumps over (straight-line around one loop; skip_over_loop's
        shape) unguarded, in the threads that do not branch; or an if-else's arm A (the loop) in
        the threads that do and then its arm B in the others. leave_skip switches arms and merges."""
        end, first_b = shape
        body = self.e.body
        taken = [self.guard(t, ins) for t in range(self.n)]
        stop = end[2] if first_b is not None else end
        moves = any(i.__class__ is Instr and (i.base in _MOVES or i.base in ("bar", "barrier") or ".shared" in i.opcode)
                    for i in body[at + 1:stop])
        if moves and (len({str(g) for g in taken}) != 1 or self.smem or self.smem_reads):
            raise Unsupported("a skipped loop that moves data between threads after shared memory was used, "
                              "or that some threads skip and others not")
        before = self._registers()
        if first_b is None:
            self.skip = (end, taken, before, None)
            return at + 1
        self.skip = (end[0], taken, before, (end[1], end[2]))
        return at + 2

    def leave_skip(self, pc):
        """Where a skip's code ends: after an if-else's arm A, arm B starts from the registers before
        the branch; at the join, every register either side changed is "branch taken ? one : other"
        (the skipped code's "skip ? before : after"), and the shared words written are forgotten."""
        _, taken, other, arms = self.skip
        if arms is not None:            # arm A done: B runs from the values before the branch
            done = self._registers()
            self._set_registers(other)
            self.skip = (arms[1], taken, done, None)   # at the join: taken ? A's : B's
            return arms[0]
        self.skip = None
        for r, col in list(self.cols.items()):
            old = other[0].get(r)
            if old is not None and all(a is b for a, b in zip(old, col)):
                continue
            pred, nothing = r.startswith("%p"), self._nothing(r)
            if old is None:
                old = [nothing] * self.n
            # (a predicate undefined on either side is undefined: a store it guards is refused)
            self.cols[r] = [o if g is True else v if g is False else nothing if g == UNDEF_PRED else
                            UNDEF_PRED if pred and (o == UNDEF_PRED or v == UNDEF_PRED) else select(g, o, v)
                            for g, o, v in zip(taken, old, col)]
            self.uniform.discard(r)
        self._forget_shared()
        return pc
