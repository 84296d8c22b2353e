"""Canonical names for joins (max.f32 / .f16 / .bf16: symbolic._JOIN), the part of names.py's v2 signature that
names a join by the set it joins: a mixin of names._Group (value, polynomial, bind and env are the group's).

A join's value is the maximum over its members at every value of its bound variables, whatever tree joins them
(+0 above -0, a NaN operand ignored), so nested joins of one opcode flatten (Nodes and butterfly Reds alike) and a
widened 16-bit join is the f32 join of its widened members (cvt.f32.f16(max.f16(a, b)) = max.f32(cvt a, cvt b) on
the H200; for bf16 but where both are NaN: symbolic.Nodes._widen). A member is named, in order of preference:
- in shift form, where it reads the join's bound lane bits only through one load's address, linearly: the member
  with that load's constant and bound terms dropped, and the set of byte offsets the load takes;
- at every value of the bound variables, over the element bits alone (at most _ENUMERATED namings);
- else over the bound variables, named by depth (sound; finer across layouts).
So a set joined within threads, across lanes or across warps gets one name in the first two forms, as under v1."""
from __future__ import annotations

import hashlib

from ..poly import _norm, pkey
from ..symbolic import _JOINED, _WIDEN, _WIDENS, Unsupported
from . import floats as ff
from . import integers as fi
from . import predicates as fp
from . import subst as fsub

_ENUMERATED = 1024   # a join's members named at every value of its bound variables up to this many namings
_TABLED = 1 << 15    # offsets a join's shift forms put in their table over the element bits, at most
_BIT = "x:"          # an element-offset bit: _BIT + str(position) (names.py's too)


def _h(text: str) -> str:
    """The names' hash of a text (names.py's, and this module's)."""
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


class Joins:
    """names._Group's naming of joins (the group's state and naming, declared here for the type checker)."""
    env: tuple
    envkey: tuple
    tbits: dict
    axes: list
    index: list
    shifting: tuple | None        # (shift_form) the load named relative to its offsets: (its slots' ids, name)
    reads_memo: dict

    def value(self, fs: tuple, n: int) -> str:
        raise NotImplementedError

    def polynomial(self, vals: tuple) -> dict:
        raise NotImplementedError

    def bind(self, fs: tuple) -> tuple:
        raise NotImplementedError

    def extended(self, envs: tuple, adds: tuple) -> tuple:
        raise NotImplementedError

    def table(self, ps: tuple, n: int) -> str:
        raise NotImplementedError

    def join_members(self, fs: tuple, n: int) -> set:
        """The names of what the slots' joins (is_join) join: members in shift form by N and their offsets at each
        element; the others at every value of the join's bound variables, named over the element bits alone, where
        that is at most _ENUMERATED namings; so a set joined within threads, across lanes or across warps gets one
        name, as under v1. Else (a mask of a bound lane, too many values) each member named over the bound
        variables (members: sound, finer); a case split then falls back."""
        items: list = []
        widen = fs[0].op if fs[0].__class__ is ff.Node and ff.kind(fs[0].op) == _WIDEN else None
        if widen is not None:
            self.collect(_WIDENS[widen][0], tuple(g.kids[0] for g in fs), (), widen, items)
        else:
            self.collect(_join_op(fs[0]), fs, (), None, items)
        shifted: dict = {}
        rest = []
        for member, path, wrap, cond in items:
            form = self.shift_form(member, path, n)
            if form is None:
                rest.append((member, path, wrap, cond))
            else:
                # (a widened member named as the widening node over it: what value names where the widening
                # comes before the join)
                shifted.setdefault(_h(f"{wrap}({form[0]})") if wrap else form[0], []).append((*form[1:], cond))
        tagged = {f"shift:{k}@{self.offsets(v, n)}" for k, v in shifted.items()}
        if sum(1 << len(path) for _, path, _, _ in rest) <= _ENUMERATED:
            saved = self.env, self.envkey
            try:
                out = set(tagged)
                for member, path, wrap, cond in rest:
                    where = f"if {[(self.table(ps, n), yes) for ps, yes in cond]}:" if cond else ""
                    for b in range(1 << len(path)):
                        self.env = self.extended(saved[0], tuple(tuple((_var(v[s]), b >> k & 1)
                                                                       for k, v in enumerate(path))
                                                                 for s in range(len(saved[0]))))
                        self.envkey = saved[1] + (("=", path, b),)
                        name = self.value(member, n)
                        name = _h(f"{wrap}({name})") if wrap else name
                        out.add(_h(where + name) if where else name)
                return out
            except Unsupported:
                if fs[0].__class__ is ff.Select:
                    raise
            finally:
                self.env, self.envkey = saved
        if fs[0].__class__ is ff.Select:
            raise Unsupported("a join's case split with members to name at too many values")
        out = set()
        if widen is not None:
            return self.widened(fs, n)
        self.members(fs[0].op, fs, n, out)
        return out

    @staticmethod
    def is_join(fs: tuple) -> bool:
        """Whether the slots' values are alike joins of one opcode: joins (max), widened 16-bit joins, or case splits
        on thread masks between such (a shared read of words several warps' joins wrote, named as one join whose
        members hold where their case does)."""
        f = fs[0]
        op = _join_op(f)
        return op is not None and all(g.__class__ is f.__class__ and _join_op(g) == op and
                                      (g.__class__ is ff.Select or g.op == f.op) for g in fs)

    def offsets(self, forms: list, n: int) -> str:
        """The text of the byte offsets that members of one N take at each element: the union over `forms` ((low,
        const, spans, cond) from shift_form and collect) of low(x) + const + spans where cond holds at x, tabled
        over the element bits it depends on (the others dropped); where that table is too large, the forms
        themselves (exact too; finer)."""
        conds = {id(p): p for *_, cond in forms for ps, _ in cond for p in ps}
        reads = 0
        for p in conds.values():
            reads |= fsub.mask_reads(p.bits, n)
        if reads & ~sum(1 << j for j in self.tbits):
            raise Unsupported("a join's case split reads a thread bit the store's address does not")
        slots = any(len(ps) > 1 for *_, cond in forms for ps, _ in cond)   # (each slot its own masks)
        if slots and not all(a.startswith(_BIT) for a in self.axes):
            raise Unsupported("a join's case split inside a reduction's interpolation")
        atoms = sorted({a for low, _, _, _ in forms for m in low for a in m} | (set(self.axes) if slots else set()) |
                       {f"{_BIT}{self.tbits[j]}" for j in range(n.bit_length()) if reads >> j & 1})
        if (1 << len(atoms)) * sum(len(sp) for _, _, sp, _ in forms) > _TABLED:
            if conds:
                raise Unsupported("a join's case split over too many offsets")
            return repr(sorted((pkey(_norm(dict(low))) if low else "0", c, sorted(sp)) for low, c, sp, _ in forms))
        at = {a: i for i, a in enumerate(atoms)}
        table = []
        for assign in range(1 << len(atoms)):
            on = {a for a in atoms if assign >> at[a] & 1}
            t = sum(1 << j for j, b in self.tbits.items() if f"{_BIT}{b}" in on)
            slot = self.index.index(sum(1 << k for k, a in enumerate(self.axes) if a in on)) if slots else 0
            offs: set = set()
            for low, c, sp, cond in forms:
                if all((ps[slot if len(ps) > 1 else 0].bits >> t & 1) == yes for ps, yes in cond):
                    base = c + sum(k for m, k in low.items() if all(a in on for a in m))
                    offs.update(base + x for x in sp)
            table.append(frozenset(offs))
        keep = [i for i in range(len(atoms))
                if any(table[a] != table[a | 1 << i] for a in range(len(table)) if not a >> i & 1)]
        small = [sorted(table[sum(1 << keep[k] for k in range(len(keep)) if a >> k & 1)])
                 for a in range(1 << len(keep))]
        return f"{[atoms[i] for i in keep]}:{small}"

    def shift_form(self, member: tuple, path: tuple, n: int):
        """(N, low, const, spans) where the slots' member reads the join's bound lane bits (path) only through one
        load's address, linearly: at element x and bound values b it is N with that load moved by
        low(x) + const + sum s_k b_k bytes (low: the address's terms in element bits alone; spans: the sums
        sum s_k b_k). N names the member with those terms dropped. So a set joined in any order, within threads,
        across lanes or across warps, is named by N and its offsets at each element (offsets) without naming each
        member; None where the member is not of that form."""
        leaves: list = []
        for s, g in enumerate(member):
            found: list = []
            bound = (sum(1 << level[s] for level in path if isinstance(level[s], int)),
                     frozenset(level[s] for level in path if isinstance(level[s], str)))
            if not self._one_leaf(g, bound, n, found, {}) or len(found) != 1:
                return None
            leaves.append(found[0])
        saved = self.env, self.envkey
        try:
            self.env = self.extended(saved[0], tuple(tuple((_var(level[s]), f"jv{k}") for k, level in enumerate(path))
                                                     for s in range(len(saved[0]))))
            self.envkey = saved[1] + (("jv", path),)
            poly = self.polynomial(tuple(leaf.address for leaf in leaves))
            const, steps, rel, low = 0, [0] * len(path), {}, {}
            for m, c in poly.items():
                bound_atoms = [a for a in m if a.startswith("jv")]
                if not bound_atoms:
                    if m and all(a.startswith(_BIT) for a in m):
                        low[m] = c          # (element bits alone: into the offsets, element by element)
                    elif m:
                        rel[m] = c
                    else:
                        const = c
                elif len(m) == 1:
                    steps[int(m[0][2:])] += c
                else:
                    return None
            ids = frozenset(map(id, leaves))
            self.env = self.extended(saved[0], tuple(tuple((_var(level[s]), 0) for level in path)
                                                     for s in range(len(saved[0]))))
            self.envkey = saved[1] + (("shift", path, ids),)
            self.shifting = (ids, f"load{leaves[0].width}@[{pkey(_norm(rel)) if rel else '0'}]")
            name = self.value(member, n)
        finally:
            self.env, self.envkey, self.shifting = saved[0], saved[1], None
        sums = {0}          # (the sums of every subset of the steps, one step at a time)
        for st in steps:
            sums |= {x + st for x in sums}
        spans = frozenset(sums)
        return name, low, const, spans

    def _one_leaf(self, f, bound: tuple, n: int, found: list, seen: dict) -> bool:
        """Whether family f reads the bound variables `bound` (thread bits as a mask, bound atoms "bv:N") only
        through the addresses of its loads (collected into found, each once), its other parts being nodes, selects,
        packs, parts and integer work on bits (no reduction, no shuffle)."""
        if id(f) in seen:
            return True
        seen[id(f)] = True
        cls = f.__class__
        if cls is ff.Leaf:
            if all(x is not f for x in found):
                found.append(f)
            return True
        if cls is ff.Node:
            return all(self._one_leaf(k, bound, n, found, seen) for k in f.kids)
        if cls is ff.Select:
            return not _reads_bound(f.pred, bound, n, self.reads_memo) and \
                self._one_leaf(f.a, bound, n, found, seen) and self._one_leaf(f.b, bound, n, found, seen)
        if cls is ff.Pack:
            return all(self._one_leaf(k, bound, n, found, seen) for k in f.parts)
        if cls is ff.Part:
            return self._one_leaf(f.of, bound, n, found, seen)
        if cls is ff.Bits:       # (integer work on a float's bits: an absolute value's and with 0x7FFFFFFF)
            return all(not _reads_bound(a, bound, n, self.reads_memo) if a.__class__ in (bool, fp.Mask, fp.Each) else
                       self._one_leaf(a, bound, n, found, seen) for a in f.args)
        if cls is int:
            return True
        if cls is dict:
            return not _reads_bound(f, bound, n, self.reads_memo)
        return False

    def collect(self, op: str, fs: tuple, path: tuple, wrap, items: list, cond: tuple = ()) -> None:
        """The members of the slots' joins of opcode op, as (slots' member, the variables of the Reds above it
        in the join (per level, each slot's), the widening to name it under or None, the case it holds in: (mask,
        polarity) pairs), into items."""
        f = fs[0]
        if not path and all(g.__class__ is ff.Select and _join_op(g) == op for g in fs):
            ps = tuple(g.pred for g in fs)
            self.collect(op, tuple(g.a for g in fs), path, wrap, items, cond + ((ps, True),))
            self.collect(op, tuple(g.b for g in fs), path, wrap, items, cond + ((ps, False),))
        elif op.startswith("max.f32") and f.__class__ is ff.Node and self.widens_join(fs) and \
                op[len("max.f32"):] in ("", _WIDENS[f.op][1]):
            # (in a max.f32 join a widened join's members flatten, NaN mark and all: max.f32 ignores the mark's NaN;
            # a case split between widened joins keeps the mark in its opcode: _join_op)
            self.collect(_WIDENS[f.op][0], tuple(g.kids[0] for g in fs), path, f.op, items, cond)
        elif not all(g.__class__ is f.__class__ and ff.joins(g, op) for g in fs):
            items.append((fs, path, wrap, cond))
        elif f.__class__ is ff.Red:
            self.collect(op, tuple(g.of for g in fs), path + (tuple(g.var for g in fs),), wrap, items, cond)
        else:
            if any(len(g.kids) != len(f.kids) for g in fs):
                raise Unsupported("slots' joins of different arities")
            for i in range(len(f.kids)):
                self.collect(op, tuple(g.kids[i] for g in fs), path, wrap, items, cond)

    def members(self, op: str, fs: tuple, n: int, out: set) -> None:
        """The names of what the slots' joins of opcode op join, into out: nested joins of op (nodes, and Reds with
        their variables bound) flattened, each member named over the element bits and the bound variables. A join
        is the maximum over its members at every value of its bound variables, whatever tree joins them (+0 above
        -0, a NaN ignored: symbolic._JOIN), so equal sets of names are equal joins."""
        f = fs[0]
        if op == "max.f32" and f.__class__ is ff.Node and self.widens_join(fs):
            out |= self.widened(fs, n)      # (exact for bf16 too: max.f32 ignores the widened NaN of two NaNs)
        elif not all(g.__class__ is f.__class__ and ff.joins(g, op) for g in fs):
            out.add(self.value(fs, n))
        elif f.__class__ is ff.Red:
            saved = self.bind(fs)
            try:
                self.members(op, tuple(g.of for g in fs), n, out)
            finally:
                self.env, self.envkey = saved
        else:
            if any(len(g.kids) != len(f.kids) for g in fs):
                raise Unsupported("slots' joins of different arities")
            for i in range(len(f.kids)):
                self.members(op, tuple(g.kids[i] for g in fs), n, out)

    @staticmethod
    def widens_join(fs: tuple) -> bool:
        """Whether the slots' values are one widening (cvt.f32.f16 / .bf16) of a 16-bit join each."""
        op = fs[0].op
        return op in _WIDENS and all(g.__class__ is ff.Node and g.op == op and ff.joins(g.kids[0], _WIDENS[op][0])
                                     for g in fs)

    def widened(self, fs: tuple, n: int) -> set:
        """The names of the slots' widened joins' members, each widened: cvt.f32.f16(max.f16(a, b)) is
        max.f32(cvt(a), cvt(b)) bit for bit on the H200 (symbolic.Nodes._widen; for bf16 but where both are NaN,
        which the join's name marks)."""
        op = fs[0].op
        inner: set = set()
        self.members(_WIDENS[op][0], tuple(g.kids[0] for g in fs), n, inner)
        return {_h(f"{op}({m})") for m in inner}     # (value's name of the node cvt(m))


def _join_op(f):
    """The opcode of the join f is ("max.f32" and its NaN mark for a widened 16-bit join), or of the joins a case
    split on thread masks (Selects) chooses between (all of one opcode); None where f is neither."""
    if f.__class__ is ff.Select:
        if f.pred.__class__ is not fp.Mask:
            return None
        a, b = _join_op(f.a), _join_op(f.b)
        return a if a is not None and a == b else None
    if f.__class__ is ff.Node and f.op in _WIDENS and ff.joins(f.kids[0], _WIDENS[f.op][0]):
        return "max.f32" + _WIDENS[f.op][1]
    return f.op if f.__class__ in (ff.Node, ff.Red) and ff.kind(f.op) == _JOINED else None


def _var(v) -> str:
    """The env entry of a Red's variable: a lane bit's atom, or the bound atom itself."""
    return f"{fi.TBIT}{v}" if isinstance(v, int) else v


def _reads_bound(p, bound: tuple, n: int, memo: dict) -> bool:
    """Whether an integer or predicate family reads a thread bit of bound[0] (a mask) or a bound atom of bound[1]."""
    if p.__class__ in (bool, int):
        return False
    if fsub.reads(p, n, memo) & bound[0]:
        return True
    if not bound[1]:
        return False
    if p.__class__ is dict:
        return any(a in bound[1] for m in p for a in m)
    if p.__class__ is fp.Each:
        return any(_reads_bound(x, bound, n, memo) for x in p.args)
    return p.__class__ is not fp.Mask
