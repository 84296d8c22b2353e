"""Loops of a constant trip count that store, or sum one-hot terms, folded keyed by the element each lane
writes or sums (dataflow.py mixes this into its _Block; loops.fold hands them here). On unless
BITORDER_FOLD_STORES=0 (STORES; GPU-gated 2026-12-05d, benchmarks/results/2026-12-05d-gpu).

TorchInductor's looped reductions end with a loop over the row that stores one element per index (the
backward of a softmax or a cross-entropy: y[i] = f(x[i], the row's sums)), and nll_loss sums a one-hot
`where(i == target, -s, 0)` over the row:

    H:  BODY (loads at i, arithmetic, st.global at i, or acc += term(i));  @back bra H

i = R0_BLOCK * T + c at turn T for element c of the block. Followed turn by turn, every element's tree
is built in every thread (32,000 a row). Folded by turn, as loops.fold folds other loops, the roots would
be keyed by T and so by R0_BLOCK: configurations the hardware merges would split. Here each element is
named by its own index u instead:

- Walk 1: BODY at a symbolic turn T (counters init + delta * T), stores not made. It gives the trip
  count N (the back edge "T < k", as fold_constant finds it); for each store lane (a store, one of its
  vector elements, one part of a packed register) in each thread its address sym + w (D T + e), and for
  each one-hot accumulator its one term, nonzero only where its data equals u = D T + e (onehot.note_eq's
  equality read back): the lane's element at turn T. And the "T < k" its comparisons gave (the code
  masking a partial last turn), which cut the turns into segments.
- Walk 2, per lane, thread by thread: the backward slice of the lane's store or accumulator alone, every
  counter at init + (delta / D) (u - e) for a symbol u, which are exactly turn (u - e) / D's values.
  Comparisons of u alone are decided over the elements the lane writes (bits.range_decides); where one is
  not, the lane is walked again over each segment apart, so a mask that holds on all turns but a partial
  last one is True on one segment and False on the other, whatever R0_BLOCK cut last. An or of bits
  disjoint on the lane's elements is an add. Each thread has its own lane, but the threads are walked at
  once (AT_ONCE, since 2026-12-06): what reads the lane (integer comparisons, or, xor) thread by thread
  with that thread's lane set, the rest through the all-thread handlers; the values are the per-thread
  walk's.
- A store lane's address must be sym + w u; it stores its template (sym, w, guard, value over u) at its
  elements. Each template is one root, keyed by sym + w u and the runs of elements it covers: two
  configurations storing the same function of u on the same elements have the same roots, whatever
  R0_BLOCK, num_warps or layout.
- A one-hot lane's term at each element u is an entry of its equality in the form the followed walk
  gives that element's (note_eq's at that u: the elements exclude each other as followed terms do) and of
  the term's template over u; the accumulator leaves the loop as the one-hot sum of its start and those terms
  (onehot.folded), which the reduction after the loop merges as it merges followed ones.

Refused, the loop then followed turn by turn as before: an accumulator that is not one-hot (or a loop that
both stores and accumulates), shared memory or a move between threads in BODY, a load in BODY of a pointer
BODY stores, a store to a pointer stored before the loop, a store inside code a branch skips, an address or
equality not of that form, two templates on one element, a counter whose step D does not divide.
"""
from __future__ import annotations

import math
import os

from . import loops, onehot
from .bits import LOOP_T as _U
from .bits import turn_bound
from .memory import _pointer_bases
from .poly import UNDEF, padd, pkey, pmul, short
from .ptx import Instr
from .rules import _REG, _float_cmp, _last_part, _reg_list, _text_shape
from .symbolic import _BITS, Unsupported
from ._native import trait

# folded when loops.CONST is on too; BITORDER_FOLD_STORES=0: followed turn by turn as before 2026-12-05d
STORES: bool = loops.CONST and os.environ.get("BITORDER_FOLD_STORES", "1") != "0"
# walk 2 in every thread at once (_run_lanes; 2026-12-06): the same values as thread by thread, which False restores
AT_ONCE: bool = True
_UPOLY = {_U: 1}
_LANE_T = ("lane:t",)   # walk 2: the turn of one lane, t >= 0 (on_lane)
_CROSSING = ("shfl", "ldmatrix", "stmatrix", "bar", "barrier")


def global_store(ins) -> bool:
    return ins.__class__ is Instr and ins.base == "st" and ".shared" not in ins.opcode


def store_loops(body, labels) -> dict:
    """{back edge index: header index} for every guarded backward branch whose body is straight-line but
    for one or more global stores (loops.loop_shapes' loops, which store nothing, are not among them)."""
    jumps, branches = loops.back_branches(body, labels)
    return {b: h for b, h in branches if any(global_store(i) for i in body[h + 1:b])
            and all(global_store(i) or loops._straight(i, jumps) for i in body[h + 1:b])}


class _NoLane:
    """walk 2's lane while an instruction runs in every thread at once: reading it refuses."""
    def __iter__(self):
        raise Unsupported("walk 2 read a lane in every thread at once")


_NO_LANE = _NoLane()


def _reads_lane(ins) -> bool:
    """Whether ins may read walk 2's lane (integers.py: compare_int's range, _integer's or and xor)."""
    return ins.base == "setp" and not _float_cmp(ins.opcode) or ins.base in ("or", "xor") and ".pred" not in ins.opcode


def _slice(inss, pos, need) -> list:
    """The instructions of inss[:pos] that registers `need` depend on at pos, in order (a guarded write
    keeps the old value where its guard fails: it depends on that too)."""
    need, keep = set(need), []
    for k in range(pos - 1, -1, -1):
        ins = inss[k]
        dsts, srcs, _ = _text_shape(ins)
        if need.isdisjoint(dsts):
            continue
        keep.append(ins)
        if ins.guard is None:
            need.difference_update(dsts)
        else:
            need.add(ins.guard[1])
        need.update(srcs)
    keep.reverse()
    return keep


_START_ZEROS = onehot.start()[3]


def _element(modulus, parts, c):
    """(D, e) where the equality sum(parts) + c == 0 (walk 1: onehot.note_eq's form, T among its monomials;
    modulo `modulus` where not 0, c then read as its signed residue) holds exactly where its data side equals
    u = D T + e (the element), scaled by the top monomial's coefficient (as note_eq signs it); refused unless
    D > 0 and both are integers."""
    if modulus and c >= modulus // 2:
        c -= modulus
    d = dict(parts)
    beta = d.pop(_U, 0)
    if not d or any(_U[0] in m for m in d):
        raise Unsupported("a one-hot term whose equality is not linear in the turn")
    alpha = d[max(d)]
    if beta % alpha or c % alpha or -beta // alpha <= 0:
        raise Unsupported("a one-hot term whose element is not D T + e")
    return -beta // alpha, -c // alpha


def _concrete_equality(modulus, parts, c):
    """(e, c(u)): walk 2's equality (u among its monomials) at a concrete element u in onehot.note_eq's
    form, the form the walk that follows every turn gives that element's term."""
    d = dict(parts)
    gamma = d.pop(_U, 0)
    if not d or any(_U[0] in m for m in d):
        raise Unsupported("a one-hot term whose equality is not linear in the element")
    sign = 1 if d[max(d)] > 0 else -1
    g = 1 if modulus else math.gcd(*d.values())
    if not modulus and (c % g or gamma % g):
        raise Unsupported("a one-hot term whose element's equality does not divide")
    e = (modulus, tuple(sorted((m, sign * k // g) for m, k in d.items())))
    if modulus:
        return e, lambda u: sign * (c + gamma * u) % modulus
    return e, lambda u: sign * (c + gamma * u) // g


def _runs(us) -> str:
    """'a-b,c-d' for the sorted distinct integers us (each run a to b inclusive)."""
    out: list = []
    for u in us:
        if out and out[-1][1] == u - 1:
            out[-1][1] = u
        else:
            out.append([u, u])
    return ",".join(f"{a}-{b}" for a, b in out)


def _segments(prefixes, trips) -> list:
    """The turns 0 .. trips - 1 cut where a comparison walk 1 decided as "T < k" changes: [(t0, t1), ...]. Walk 2
    decides each segment's comparisons apart (a mask that holds on every turn but a partial last one is True
    on the others, and False there), so a lane's segments are keyed alike whatever turn R0_BLOCK cut last."""
    bounds = sorted({k for _, k in prefixes if k is not None and 0 < k < trips})
    return list(zip([0, *bounds], [*bounds, trips]))


@trait     # mixed into dataflow._Block
class StoreFold:
    def fold_stores(self, b, entry, inss, counters, unknown, written, deps):
        """Fold the storing loop whose body is inss (back edge at b, header state `entry`), as the module's
        docstring says; the index after the back edge, where the walk goes on."""
        if self.skip is not None:
            raise Unsupported("a loop that stores to global memory inside code a branch skips")
        if any(i.base in _CROSSING or ".shared" in i.opcode for i in inss):
            raise Unsupported("a storing loop that moves data between threads")
        back = self.e.body[b]
        # walk 1: the trip count, each lane's address in T, and what the loop leaves in loop-invariant registers
        self.turns, self.turn_prefixes = self.max_steps, set()
        loads0 = len(self.loads)
        self._restart(entry, written, unknown)
        for r, before, delta in counters:
            self.cols[r] = [padd(o, pmul(d, {_U: 1})) for o, d in zip(before, delta)]
        self.count_steps(len(inss))
        lanes = {}       # (store's place in inss, vector element, packed part) -> {thread: (address, bytes, guard)}
        for pos, ins in enumerate(inss):
            if global_store(ins):
                self._lanes(pos, ins, lanes)
            else:
                self.step(ins)
        trips, kept, prefixes = self._after_walk_1(back, counters, written, deps)
        stored = {base for by_t in lanes.values() for at, _, _ in by_t.values() for base in _pointer_bases(at)}
        for nid, (at, _) in list(self.loads.items())[loads0:]:
            if not stored.isdisjoint(_pointer_bases(at)):
                raise Unsupported("a storing loop that loads a pointer it stores")
        n_roots, n_bytes, n_bases = entry[7]     # (turn 0, followed before the fold, stored after these)
        if not stored.isdisjoint(list(self.bases)[:n_bases]):
            raise Unsupported("a loop that stores to a pointer stored before it")
        # walk 2: each lane's slice, thread by thread, at its own elements u
        templates = {}   # (symbolic address part, bytes, guard's name, value's key) -> elements
        syms = {}        # the symbolic parts by their texts
        segments = _segments(prefixes, trips)
        self.turns, self.turn_prefixes, self.fold_split = 1, None, False
        for (pos, i, p), by_t in sorted(lanes.items()):
            ins = inss[pos]
            regs = _reg_list(ins.operands[1])
            need = {regs[i], *_REG.findall(ins.operands[0])} | ({ins.guard[1]} if ins.guard else set())
            sl = _slice(inss, pos, need)
            self._restart(entry, written, unknown)
            width = _BITS[_last_part(ins.opcode)]
            self.lane_split = False
            elements = {t: self._element_of(at, pw) for t, (at, pw, _) in sorted(by_t.items())}
            for t, t0, t1 in self._lane_spans([(t, first, step) for t, (_, step, first) in elements.items()],
                                              sl, counters, trips, segments):
                pw, (sym, step, first) = by_t[t][1], elements[t]
                g_u = self.guard(t, ins)
                if g_u is False:
                    continue
                at_u = padd(self.addr(t, ins.operands[0]), i * width + p * pw)
                if pkey(at_u) != pkey(padd(sym, pmul(pw, _UPOLY))):
                    raise Unsupported("a storing loop's lane whose address at element u is not its own")
                v = self._part(t, regs[i], width, p, pw)
                self.storable(g_u, v)
                syms[pkey(sym)] = sym
                key = (pkey(sym), pw, "always" if g_u is True else short(str(g_u)), self.key(v))
                templates.setdefault(key, set()).update(range(first + step * t0, first + step * t1, step))
            self.count_steps(len(sl) * (1 + len(segments) * self.lane_split))   # (the walk's limit: its runs in lockstep)
            self.turn_range = self.turn_lane = None
        by_sym, sym_of = {}, {}   # one pointer's templates: one symbolic part, one width, no element in two
        for (symk, pw, _, _), us in templates.items():
            by_sym.setdefault(symk, []).append((pw, us))
            for base in _pointer_bases(syms[symk]):
                if sym_of.setdefault(base, symk) != symk:
                    raise Unsupported("two stores on one pointer whose addresses may alias (a symbolic difference)")
        for group in by_sym.values():
            if len({pw for pw, _ in group}) > 1 or \
                    len(group) > 1 and sum(len(us) for _, us in group) != len(set().union(*(us for _, us in group))):
                raise Unsupported("a storing loop whose lanes store different values to one element")
        # the loop's effects, turn 0's stores undone: its roots, its pointers claimed, the registers it leaves
        for k in list(self.roots)[n_roots:]:
            del self.roots[k]
            self.root_guards.pop(k, None)
        for k in list(self.bytes)[n_bytes:]:
            del self.bytes[k]
        for k in list(self.bases)[n_bases:]:
            del self.bases[k]
        for (symk, pw, gname, vkey), us in sorted(templates.items()):
            self.roots[f"{symk} + {pw}*u, u in {_runs(sorted(us))}"] = (gname, vkey, f"b{8 * pw}")
        for base in stored:
            self.bases[base] = "stored by a folded loop"   # (a symbolic part no other store has: claim_bytes refuses)
        self._restart(entry, written, unknown)
        for r in written:
            self.cols[r] = kept[r] if r in kept else self._never_written(r)
        for r, before, delta in counters:
            self.cols[r] = [padd(o, pmul(d, trips)) for o, d in zip(before, delta)]
        self.stored = True
        return b + 1

    def on_lane(self, values) -> list:
        """Walk 2: integers in u as the lane's turn t reads them (u = e + D t, t >= 0 an atom): an or of bits
        disjoint on every element the lane stores is an add there (LLVM's or of a turn's offset and a thread's
        index below it, integers._integer)."""
        e, step = self.turn_lane
        out = []
        for v in values:
            c = v.get(_U) if v.__class__ is dict else None
            if c is None:
                out.append(v)
            else:
                rest = {m: k for m, k in v.items() if m != _U}
                out.append(padd(padd(rest, c * e), {_LANE_T: c * step}))
        return out

    def _after_walk_1(self, back, counters, written, deps):
        """(the trip count, the loop-invariant registers' columns, [(a "T < k" walk 1 decided, k)]) after walk 1;
        refused where the back edge is not "T < k" in every thread or a counter does not grow by its step."""
        k = turn_bound(self.guard(0, back))
        if k is None or any(self.guard(t, back) != self.guard(0, back) for t in range(1, self.n)):
            raise Unsupported("a loop of constant trip count whose back edge is not T < k in every thread")
        self.check_counters(counters)
        kept = {r: list(self.cols[r]) for r in written if r in self.cols and not deps.get(r)}
        return k + 1, kept, [(p, turn_bound(p)) for p in self.turn_prefixes or ()]

    def _at_element(self, t, counters, first, step, t0, t1):
        """Walk 2: thread t's counters at turn (u - first) / step, its comparisons decided over its elements of
        turns t0 .. t1 - 1 (first + step t)."""
        for r, before, delta in counters:
            d = delta[t]
            if d.__class__ is not int or d % step:
                raise Unsupported("a folded loop's counter whose step the elements' does not divide")
            self.cols[r][t] = padd(before[t], pmul(d // step, padd(_UPOLY, -first)))
        self.turn_range, self.turn_lane = (first + step * t0, step * (t1 - t0 - 1) + 1), (first, step)

    def _lane_spans(self, runs, sl, counters, trips, segments, starts=()):
        """Walk 2 of one lane in each thread of runs ([(t, first, step)], threads in order): yields (t, t0, t1)
        for each span thread t's run covers, its registers as that run left them (_spans, thread by thread).
        Where runs holds every thread, the lane is walked in all threads at once (_run_lanes: the same values),
        each thread's spans still in order: the threads whose comparisons did not split first, then each
        segment, walked in all threads at once, for the threads that split. After a lane of the fold has split
        (fold_split), each segment in all threads at once, every thread's spans from those runs alone."""
        if not AT_ONCE or self.region is not None or [t for t, _, _ in runs] != list(range(self.n)):
            for t, first, step in runs:
                for t0, t1 in self._spans(t, sl, counters, first, step, trips, segments, starts):
                    yield t, t0, t1
            return
        if self.fold_split and len(segments) > 1:
            # an earlier lane of this fold split: this one likely splits too, so every thread takes the segments below
            # without the run over every turn (two runs where three were made). A thread that would not have split
            # makes on each segment what its whole run makes, so its spans give the same templates
            split = {t for t, _, _ in runs}
        else:
            split = self._run_lanes(runs, sl, counters, 0, trips, starts)
            if len(segments) == 1:
                split = set()
            for t, _, _ in runs:
                if t not in split:
                    yield t, 0, trips
            if not split:
                return
        self.lane_split = self.fold_split = True
        # each segment in every thread at once, the threads that split yielded: a thread that did not split
        # decided its comparisons over all its elements, so over a segment's too, and its run there makes what its
        # whole run made (its registers, already yielded, are not read again)
        for t0, t1 in segments:
            self._run_lanes(runs, sl, counters, t0, t1, starts)
            for t, _, _ in runs:
                if t in split:
                    yield t, t0, t1

    def _run_lanes(self, runs, sl, counters, t0, t1, starts):
        """_lane_run(t, sl, counters, first, step, t0, t1, starts) in every thread, an instruction at a time:
        what reads the lane (an integer comparison decided over its elements, an or or xor that is an add there:
        integers.py) thread by thread with that thread's lane set, the rest through the all-thread handlers,
        which give each thread what the per-thread ones give it (allthreads.py). The threads whose comparisons
        split (_spans walks those again segment by segment)."""
        lanes, cols = [], self.cols
        for t, first, step in runs:
            self._at_element(t, counters, first, step, t0, t1)
            lanes.append((self.turn_range, self.turn_lane))
            for r, v in starts:
                cols[r][t] = v
        split = set()
        for s in sl:
            shape = self._shape_of.get(id(s)) or self._shape(s)
            if shape[4] is not None and s.guard is None and not _reads_lane(s):
                # no thread's lane is set: an instruction that read one after all (_reads_lane out of step with
                # integers.py) refuses the fold, where it would read another thread's
                self.turn_range = self.turn_lane = _NO_LANE
                shape[4]()
                continue
            run = shape[3]
            for t, lane in enumerate(lanes):
                self.turn_range, self.turn_lane = lane
                self.turn_split = t in split
                g = self.guard(t, s)
                if g is not False:
                    run(t, s, g)
                if self.turn_split:
                    split.add(t)
        self.turn_split = False
        return split

    def _spans(self, t, sl, counters, first, step, trips, segments, starts=()):
        """Walk 2 for thread t's lane (elements first + step T): the slice sl run over every turn, where each
        comparison of u alone is decided there (one span, 0 .. trips); else run again over each segment apart.
        Yields each span (t0, t1) with the registers as its run left them (starts: registers set before each run)."""
        self._lane_run(t, sl, counters, first, step, 0, trips, starts)
        if not self.turn_split or len(segments) == 1:
            yield 0, trips
            return
        self.lane_split = True
        for t0, t1 in segments:
            self._lane_run(t, sl, counters, first, step, t0, t1, starts)
            yield t0, t1

    def _lane_run(self, t, sl, counters, first, step, t0, t1, starts):
        self._at_element(t, counters, first, step, t0, t1)
        for r, v in starts:
            self.cols[r][t] = v
        self.turn_split = False
        self._run_thread(t, sl)

    def _run_thread(self, t, sl):
        """Walk 2: the slice sl in thread t alone (no move between threads: the loop has none)."""
        for s in sl:
            g = self.guard(t, s)
            if g is not False:
                (self._shape_of.get(id(s)) or self._shape(s))[3](t, s, g)

    def fold_onehot(self, b, entry, inss, counters, accs, unknown, written, deps, selfnode):
        """Fold the constant-trip loop whose accumulators each add one one-hot term a turn (nll_loss backward's
        sum of where(r == target, -s, 0)), keyed by element: loops.fold walked it once at T with every
        accumulator SELF (onehot.start: a sum of no term). An accumulator's term there is nonzero only where
        its data equals u = D T + e, the element it sums at turn T. Walk 2 walks each accumulator's slice at
        u, thread by thread, as fold_stores does; its one term there, over u, gives each element's entry (the
        equality in onehot.note_eq's form at that u, the term's template over u): the folded value
        is the one-hot sum of its start and those terms (onehot.folded), whatever R0_BLOCK or layout."""
        if any(i.base in _CROSSING or ".shared" in i.opcode or global_store(i) for i in inss):
            raise Unsupported("a one-hot loop that stores or moves data between threads")
        back, n = self.e.body[b], self.n
        trips, kept, prefixes = self._after_walk_1(back, counters, written, deps)
        lanes = {}
        for r in accs:
            for t in range(n):
                (modulus, parts), (c, _, _) = self._one_term(self.cols[r][t])
                lanes[(r, t)] = _element(modulus, parts, c)
        segments = _segments(prefixes, trips)
        self.turns, self.turn_prefixes, self.fold_split = 1, None, False
        cols0, out = entry[0][0], {}
        for r in accs:
            sl = _slice(inss, len(inss), {r})
            self._restart(entry, written, unknown)
            terms = [([], {}, None) for _ in range(n)]    # each thread's (entries, zeros, equality part)
            self.lane_split = False
            runs = [(t, lanes[(r, t)][1], lanes[(r, t)][0]) for t in range(n)]
            for t, t0, t1 in self._lane_spans(runs, sl, counters, trips, segments, [(a, selfnode) for a in accs]):
                step, first = lanes[(r, t)]
                us = range(first + step * t0, first + step * t1, step)
                entries, zeros, e = terms[t]
                hot = self._one_term(self.cols[r][t], zero=True)
                if hot[0] is None:     # a zero every element of the segment (its loads masked off), or nothing
                    if hot[1] is not None:
                        zeros[hot[1]] = zeros.get(hot[1], 0) + len(us)
                    continue
                (modulus, parts), (c, guards, term) = hot
                e_u, at = _concrete_equality(modulus, parts, c)
                if e is not None and e != e_u:
                    raise Unsupported("a folded one-hot loop whose terms' equalities differ")
                entries.extend((at(u), guards, term) for u in us)
                terms[t] = entries, zeros, e_u
            self.count_steps(len(sl) * (1 + len(segments) * self.lane_split))
            self.turn_range = self.turn_lane = None
            for t, (entries, zeros, e) in enumerate(terms):
                key = onehot.folded(str(self.key(cols0[r][t])), e, entries, zeros)
                if key is None:
                    raise Unsupported("a folded one-hot loop whose terms are not one-hot")
                out.setdefault(r, []).append(("node", self.nodes.make_keyed(key)))
        self._restart(entry, written, unknown)
        for r in written:
            self.cols[r] = kept[r] if r in kept else self._never_written(r)
        for r, before, delta in counters:
            self.cols[r] = [padd(o, pmul(d, trips)) for o, d in zip(before, delta)]
        self.cols.update(out)
        return b + 1

    def _one_term(self, v, zero=False):
        """(equality part, the entry) of the one term a folded one-hot accumulator's value v adds to its start;
        with `zero`, (None, (guards, token)) where it adds one zero instead, (None, None) where it adds nothing."""
        k = str(self.key(v))
        s = onehot.SUM.get(k)
        if zero and s is not None and s[0] is None and not s[2] and s[3] == _START_ZEROS:
            return None, None                # nothing added (a turn its mask leaves out)
        if zero and s is not None and s[0] is None and not s[2] and len(s[3]) == 2 and _START_ZEROS <= s[3]:
            (g, count), = s[3] - _START_ZEROS
            if count == 1:
                return None, g
        if s is None or s[0] is None or s[3] != _START_ZEROS or len(s[2]) != 1:
            raise Unsupported("a one-hot loop whose accumulator adds other than one term a turn to itself")
        return s[0], next(iter(s[2]))

    def _restart(self, entry, written, unknown):
        """The registers at the loop's header (entry), BODY's writes not uniform, the unknowns never written."""
        self._loop_restore(entry)
        self.uniform.difference_update(written)
        for r in unknown:
            self.cols[r] = self._never_written(r)

    def _lanes(self, pos, ins, lanes):
        """Walk 1 at a global store: its lanes' addresses, bytes and guards in every thread that may store."""
        width = _BITS.get(_last_part(ins.opcode))
        if width is None:
            raise Unsupported(f"memory access {ins.opcode}")
        regs = _reg_list(ins.operands[1])
        for t in range(self.n):
            g = self.guard(t, ins)
            if g is False:
                continue
            a = self.addr(t, ins.operands[0])
            for i, r in enumerate(regs):
                at = padd(a, i * width) if i else a
                for p, (_, pw) in enumerate(self.stored_parts(t, r, width)):
                    lanes.setdefault((pos, i, p), {})[t] = (padd(at, p * pw) if p else at, pw, g)

    def _part(self, t, r, width, p, pw):
        parts = self.stored_parts(t, r, width)
        if p >= len(parts) or parts[p][1] != pw:
            raise Unsupported("a storing loop's register packed otherwise at element u")
        return parts[p][0]

    def _element_of(self, at, pw):
        """(sym, D, e) where address `at` (walk 1, in T) is sym + pw (D T + e), sym its symbols but T."""
        if at.__class__ is not dict:
            raise Unsupported("a storing loop's address without a pointer")
        a1, k = at.get(_U, 0), at.get((), 0)
        if a1.__class__ is not int or a1 <= 0 or a1 % pw or k % pw or \
                any(_U[0] in m for m in at if m != _U):
            raise Unsupported("a storing loop whose addresses are not sym + w (D T + e), D > 0")
        sym = {m: c for m, c in at.items() if m != _U and m != ()}
        if not sym or UNDEF in pkey(sym):
            raise Unsupported("a storing loop's address without a pointer")
        return sym, a1 // pw, k // pw
