"""Canonical names for stored families (docs/check-families.md, "Canonical names"): the "v2" signature of a
block's stores, a function of what is stored at each output element alone, however threads and register slots
split the elements.

A store element's address is a symbolic part P (pointers, program indices), a constant K and a thread part
sum c_j t_j. Where every c_j is a distinct power of two 2^b_j, thread bit j *is* bit b_j of the element's offset
o = K + sum c_j t_j. The store elements of one P and type are the slots of a thread (a vector's elements, a pack's
parts, several store instructions); their constants K_s must differ in a set D of bits apart from the thread bits,
taking every pattern once (a cube). The stored elements are then exactly the offsets K0 + sum over b in E of 2^b x_b,
E = the thread bits' positions and D, each x_b free. Each family is named over those element bits x_b:
- *renamed*: thread bit j becomes x_{b_j} (a 0/1 function of thread bits, a multilinear polynomial in them);
- *re-rolled*: the slots' families, one expression up to the integers and predicates they hold, become one family
  over D too: at each integer position the unique multilinear interpolation over D of the slots' values there, at
  each predicate its truth table over E.
Everything else must match node by node (op, kind, arity), or the walk falls back (Unsupported). Joins (max) are
named by the set they join (families/joins.py, a mixin of the group).

So the v2 text names, for every stored element offset, its guard and its value's tree: equal texts are equal
stores at every element (the same argument as v1's roots, evaluated symbolically). It does not depend on which
thread or slot held an element, so num_warps and vector widths that store the same trees meet, as under v1."""
from __future__ import annotations

import hashlib

from ..poly import _norm, pkey
from ..symbolic import _COMMUTES, _SIGN0_WIDENS, Unsupported
from . import floats as ff
from . import integers as fi
from . import predicates as fp
from . import subst as fsub
from .forms import _add, _first_difference, _into, _mul, _reads, _same_shape
from .joins import _BIT, Joins, _h, _join_op, _var   # (_BIT: an element-offset bit, _BIT + str(position))


_CASE_BITS = 4      # by_thread_bits: the most thread bits a case split is re-rolled over (2^4 cases)


class _Unlike(Unsupported):
    """Slots' families that differ in form at one place: named slot by slot there (_Group.per_slot)."""


class _Group(Joins):
    """The store elements of one symbolic address part and type: their element bits and the slot patterns."""

    def __init__(self, tbits: dict, slots: list, n: int):
        self.tbits = tbits            # thread bit j -> element bit b_j
        # threads that differ only in the bits the address does not read store one element: what they store
        # must not read those bits either (boolean, table), so they store the same (the concrete walk's rule)
        self.dup = (n - 1) & ~sum(1 << j for j in tbits)
        consts = [k for k, _ in slots]
        d = 0
        for k in consts:
            d |= k ^ consts[0]
        self.k0 = consts[0] & ~d
        self.dbits = [b for b in range(d.bit_length()) if d >> b & 1]
        held = sum(1 << b for b in tbits.values())
        if any(k < 0 or k & held for k in consts) or d & held:
            raise Unsupported("store slots that overlap thread bits")
        patterns = sorted(k & d for k in consts)
        if len(set(patterns)) != len(patterns) or len(patterns) != 1 << len(self.dbits):
            raise Unsupported("store slots that are not a cube of element bits")
        self.patterns = [k & d for k in consts]   # slot s's D bits
        # slot s's place in the transform: its D bits, numbered in the order of dbits
        self.index = [sum(1 << i for i, b in enumerate(self.dbits) if p >> b & 1) for p in self.patterns]
        # the interpolation's axes: the slots' element bits, then the bound variables of the commuting nodes named as
        # reductions (value): their names, and each slot's index grows by one bit per axis
        self.axes = [f"{_BIT}{b}" for b in self.dbits]
        self.memo: dict = {}
        # the bound variables of the Reds being named, per slot: {"bv:N": its canonical name, by depth}
        self.env: tuple[dict, ...] = tuple({} for _ in slots)
        self.envkey: tuple = ()
        self.shifting = None
        self.reads_memo: dict = {}
        self.halves: dict = {}        # subst.family's memo for the halves of Reds named by them (value)
        self.booleans: dict = {}      # boolean's memo: (atom, the names its support bits take) -> polynomial
        self.terms: dict = {}         # renamed's memo: (monomial, id(env)) -> (env, its renaming or None)
        self.envs: dict = {}          # extended's memo: (id(envs), pairs added) -> (envs, the extended envs)

    # integers --------------------------------------------------------------------------------------------------
    def integer(self, vals: tuple) -> str:
        """The canonical text of the slots' integer families, renamed and interpolated over D."""
        out = self.polynomial(vals)
        return pkey(_norm(out)) if out else "0"

    def polynomial(self, vals: tuple) -> dict:
        """The slots' integer families renamed and interpolated over D: one multilinear polynomial (the Moebius
        transform over the slots' patterns: the coefficient of each product of D bits)."""
        coef: list = [{}] * len(vals)
        for s, v in enumerate(vals):
            coef[self.index[s]] = self.renamed(v, s)
        for k in range(len(self.axes)):
            for i in range(len(coef)):
                if i >> k & 1 and coef[i ^ (1 << k)]:
                    d = dict(coef[i])       # (a copy: coef's entries may be one shared empty dict)
                    for m, c in coef[i ^ (1 << k)].items():
                        d[m] = d.get(m, 0) - c
                    coef[i] = d
        out: dict = {}
        for i, c in enumerate(coef):
            c = {m: x for m, x in c.items() if x}
            if c:
                bits = tuple(sorted(a for k, a in enumerate(self.axes) if i >> k & 1))
                _into(out, _mul(c, {bits: 1}) if bits else c)
        return out

    def renamed(self, v, s: int) -> dict:
        """v (of slot s) with its thread bits (and 0/1 functions of them) as multilinear polynomials in element bits,
        and its bound variables by their canonical names (or their values, where a join enumerates them)."""
        if v.__class__ is int:
            return {(): v} if v else {}
        out: dict = {}
        env = self.env[s]
        terms = self.terms
        for m, c in v.items():
            # (each monomial's renaming once per env: an address's thread terms recur in every leaf; env dicts are
            # never changed in place, bind and as_reduction make new ones, and the memo holds the env it keys)
            hit = terms.get((m, id(env)))
            if hit is None or hit[0] is not env:
                hit = terms[(m, id(env))] = (env, self._monomial(m, env))
            unit = hit[1]
            if unit is not None:
                for u, x in unit.items():
                    out[u] = out.get(u, 0) + c * x
        return out

    def _monomial(self, m: tuple, env: dict):
        """Monomial m renamed (renamed's, with coefficient 1), or None where a bound variable in it is 0."""
        term = {(): 1}
        for a in m:
            if a.startswith("bv:"):
                if a not in env:
                    raise Unsupported("a bound variable outside its reduction")
                a = env[a]
                if a.__class__ is int:
                    if not a:
                        return None
                    continue
            term = _mul(term, self.boolean(a, env) if a.startswith(fi.TID) else {(a,): 1})
        return term

    def boolean(self, a: str, env: dict) -> dict:
        """A thread atom as the multilinear polynomial of its truth table over what its support bits are: a
        reduction's bound variable where a Red binds the bit (env), else the element bit the address makes it.
        (Shared through a memo keyed by what it reads: callers do not change it.)"""
        support, table = fi._table(a)
        given = tuple(env.get(f"{fi.TBIT}{j}") for j in support)
        key = (a, given)
        hit = self.booleans.get(key)
        if hit is None:
            hit = self.booleans[key] = self._boolean(support, table, given)
        return hit

    def _boolean(self, support: tuple, table: int, given: tuple) -> dict:
        names, free, fixed = [], [], 0
        for i, j in enumerate(support):
            name = given[i]
            if name.__class__ is int:                  # (a bit a join enumerates: its value)
                fixed |= name << i
                continue
            if name is None and j not in self.tbits:
                raise Unsupported("a value reads a thread bit the store's address does not")
            names.append(name or f"{_BIT}{self.tbits[j]}")
            free.append(i)
        values = [table >> (fixed | sum((a >> k & 1) << i for k, i in enumerate(free))) & 1
                  for a in range(1 << len(free))]
        poly = fi.multilinear(values, names)
        return {tuple(sorted(m)): c for m, c in poly.items()}

    # predicates ------------------------------------------------------------------------------------------------
    def predicate(self, ps: tuple, n: int) -> str:
        """The canonical text of the slots' predicate families: a truth table over the element bits where every
        slot's is a constant or a mask, else the comparison or combination with its operands re-rolled."""
        key = ("p", self.envkey, tuple(self.axes), tuple(self.index), *map(id, ps))
        hit = self.memo.get(key)
        if hit is None or any(a is not b for a, b in zip(hit[0], ps)):
            try:
                name = self._predicate(ps, n)
            except _Unlike:
                name = self.per_slot(ps, n, self.predicate)
            hit = self.memo[key] = (ps, name)
        return hit[1]

    def _predicate(self, ps: tuple, n: int) -> str:
        if all(p.__class__ in (bool, fp.Mask) for p in ps):
            return self.table(ps, n)
        first = ps[0]
        if any(p.__class__ is not fp.Each or p.how != first.how or p.op != first.op or len(p.args) != len(first.args)
               for p in ps):
            raise _Unlike("slots' predicates of different forms")
        if first.how == "cmp" and first.op.split(".")[1] in ("lt", "ge"):
            diff = _add(self.polynomial(tuple(p.args[0] for p in ps)),
                        {m: -c for m, c in self.polynomial(tuple(p.args[1] for p in ps)).items()})
            diff = _norm(diff)
            return f"cmp.{first.op}:{pkey(_norm(_below(diff))) if diff.__class__ is dict else diff}<0"
        if first.how in ("fcmp", "tcmp"):   # (named as written: a mirrored comparison is another name: a split)
            args = [self.value(tuple(p.args[i] for p in ps), n) for i in range(2)]
        elif first.how == "cmp":
            args = [self.integer(tuple(p.args[i] for p in ps)) for i in range(2)]
        else:
            args = [self.predicate(tuple(p.args[i] for p in ps), n) for i in range(len(first.args))]
        return f"{first.how}.{first.op}({','.join(args)})"

    def guard(self, ps: tuple, n: int) -> str:
        """The canonical text of the slots' guards, over the element: where threads store one element (self.dup),
        the guard of each such copy, of which at most one may differ from false (or all be one and the same)."""
        if not self.dup:
            return self.predicate(ps, n)
        copies = set()
        d = self.dup
        for v in range(n):
            if v & ~d:
                continue
            copies.add(self.predicate(tuple(_restrict(p, d, v, n) for p in ps), n))
        copies.discard("F")
        if len(copies) > 1:
            raise Unsupported("threads storing one element under different guards")
        return copies.pop() if copies else "F"

    def table(self, ps: tuple, n: int) -> str:
        """The truth table of constants and masks over the element bits, named by the bits it reads. A slot's D bits
        are those its axes fix; the D bits no axis names (dropped where nothing depends on them) take every value. A
        mask that differs across a reduction's operands falls back. An axis of a thread bit (by_thread_bits's cases)
        fixes that bit: a case's masks hold in the threads of its pattern."""
        dnames = {f"{_BIT}{b}": b for b in self.dbits}
        tnames = {f"{_BIT}{b}": j for j, b in self.tbits.items()}
        bound = sum({1 << int(a[len(fi.TBIT):]) for e in self.env for a in e if a.startswith(fi.TBIT)})
        if any(p.__class__ is fp.Mask and fsub.mask_reads(p.bits, n) & bound for p in ps):
            raise Unsupported("a mask of a lane bit a reduction binds")
        groups: dict = {}
        for s, p in enumerate(ps):
            fixed = tuple((dnames[a], self.index[s] >> k & 1) for k, a in enumerate(self.axes) if a in dnames)
            cased = tuple((tnames[a], self.index[s] >> k & 1) for k, a in enumerate(self.axes) if a in tnames)
            if groups.setdefault((fixed, cased), p) != p:
                raise Unsupported("a mask that differs across a reduction's operands")
        present = {b for fixed, _ in groups for b, _ in fixed}
        free = [b for b in self.dbits if b not in present]
        ebits = sorted([*self.tbits.values(), *self.dbits])
        at = {b: i for i, b in enumerate(ebits)}
        bits = 0
        for (fixed, cased), p in groups.items():
            for assign in range(1 << len(free)):
                base = sum(1 << at[b] for b, v in fixed if v) + \
                    sum(1 << at[b] for i, b in enumerate(free) if assign >> i & 1)
                for t in range(n):
                    if any((t >> j & 1) != v for j, v in cased):
                        continue
                    if t & self.dup:
                        if p.__class__ is fp.Mask and (p.bits >> t & 1) != (p.bits >> (t & ~self.dup) & 1):
                            raise Unsupported("threads storing one element under different guards")
                        continue
                    if p is True or p.__class__ is fp.Mask and p.bits >> t & 1:
                        bits |= 1 << (base + sum(1 << at[b] for j, b in self.tbits.items() if t >> j & 1))
        full = (1 << (1 << len(ebits))) - 1
        if bits in (0, full):
            return "T" if bits else "F"
        support = [b for k, b in enumerate(ebits) if _reads(bits, k, len(ebits))]
        keep = [at[b] for b in support]
        small = 0
        for i in range(1 << len(keep)):
            idx = sum(1 << keep[k] for k in range(len(keep)) if i >> k & 1)
            small |= (bits >> idx & 1) << i
        return f"M{'.'.join(map(str, support))}:{small:x}"

    def _compress(self, fs: tuple):
        """(env, axes, index, slots) without the axes along which every slot holds the same object (its
        interpolation does not read them), or None where fs varies along every axis."""
        m = len(self.axes)
        at: list = [None] * (1 << m)
        for s, g in enumerate(fs):
            at[self.index[s]] = s
        keep = [k for k in range(m) if any(fs[at[i]] is not fs[at[i | 1 << k]] for i in range(1 << m) if not i >> k & 1)]
        if len(keep) == m:
            return None
        dropped = sum(1 << k for k in range(m) if k not in keep)
        reps = [i for i in range(1 << m) if not i & dropped]
        return (tuple(self.env[at[i]] for i in reps), [self.axes[k] for k in keep],
                [sum(1 << j for j, k in enumerate(keep) if i >> k & 1) for i in reps], tuple(fs[at[i]] for i in reps))

    def as_reduction(self, op: str, fs: tuple, n: int) -> str:
        """A commuting node of two operands that are one family up to the integers and predicates they hold, named
        as a Red over a new bound variable (op{G[v:=0], G[v:=1]}, G their interpolation): so a level of a tree summed
        within a thread and the same level summed across lanes (a butterfly's Red) get one name. The operand whose
        first differing leaf address is lower is v = 0, in each slot (a butterfly's lane with bit j clear reads the lower
        one)."""
        pairs = [(g.kids[1], g.kids[0]) if _first_difference(g.kids[0], g.kids[1], {}) < 0 else g.kids for g in fs]
        a, b = tuple(x for x, _ in pairs), tuple(y for _, y in pairs)   # (each slot oriented by its own leaves)
        outer = (self.env, self.envkey, self.axes, self.index)
        name = f"rv{len(self.env[0])}"
        self.axes = self.axes + [name]
        self.index = self.index + [i | 1 << (len(self.axes) - 1) for i in self.index]
        self.env = tuple({**e, f"#{name}": name} for e in self.env + self.env)
        self.envkey = self.envkey + ((name,),)
        try:
            return _h(f"red.{op}({self.value(a + b, n)})")
        finally:
            self.env, self.envkey, self.axes, self.index = outer

    # floats ----------------------------------------------------------------------------------------------------
    def value(self, fs: tuple, n: int) -> str:
        """The key of the slots' value families, re-rolled: node by node, integers and predicates interpolated."""
        f = fs[0]
        same = all(g is f for g in fs)
        key = (self.envkey, id(f)) if same else (self.envkey, tuple(self.axes), tuple(self.index), *map(id, fs))
        # (the memo holds the objects its keys name by id: a temporary family or predicate freed and another
        # allocated at its address must not hit; names once varied from run to run on pinned_col_sum_f16 so)
        hit = self.memo.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], fs)):
            return hit[1]
        if len(fs) > 1:      # the axes nothing here depends on dropped: one slot for each value of the rest
            fewer = self._compress(fs)
            if fewer is not None:
                outer = (self.env, self.axes, self.index)
                self.env, self.axes, self.index, slots = fewer
                try:
                    out = self.value(slots, n)
                finally:
                    self.env, self.axes, self.index = outer
                self.memo[key] = (fs, out)
                return out
        try:
            out = self._value(fs, n)
        except _Unlike:
            out = self.per_slot(fs, n, self.value)
        self.memo[key] = (fs, out)
        return out

    def _value(self, fs: tuple, n: int) -> str:
        """value's naming of the slots' families node by node (_Unlike where they differ in form here)."""
        f = fs[0]
        cls = f.__class__
        if any(g.__class__ is not cls for g in fs):
            if all(g.__class__ in (int, dict) for g in fs):
                cls = int
            else:
                raise _Unlike("slots' values of different forms")
        if cls in (int, dict):
            out = "bits:" + self.integer(fs)
        elif cls is ff.Leaf:
            if any(g.width != f.width for g in fs):
                raise _Unlike("slots' loads of different widths")
            if self.shifting and frozenset(map(id, fs)) == self.shifting[0]:
                out = self.shifting[1]          # (shift_form: the load relative to its offsets)
            else:
                out = f"load{f.width}[{self.integer(tuple(g.address for g in fs))}]"
        elif cls is ff.Select and (split := self.by_thread_bits(fs, n)) is not None:
            out = split     # (before joins: a case split between rows' joins is one join over the row bits)
        elif self.is_join(fs):
            out = _h(f"join.{_join_op(f)}({','.join(sorted(self.join_members(fs, n)))})")
        elif cls is ff.Select:
            p = self.predicate(tuple(g.pred for g in fs), n)
            a, b = self.value(tuple(g.a for g in fs), n), self.value(tuple(g.b for g in fs), n)
            out = a if p == "T" or a == b else b if p == "F" else _h(f"select({p},{a},{b})")
        elif cls is ff.Node and len(f.kids) == 2 and ff.kind(f.op) == _COMMUTES and \
                all(g.__class__ is ff.Node and g.op == f.op and len(g.kids) == 2 for g in fs) and \
                _same_shape(f.kids[0], f.kids[1], {}):
            out = self.as_reduction(f.op, fs, n)
        elif cls is ff.Node:
            if any(g.op != f.op or len(g.kids) != len(f.kids) for g in fs):
                raise _Unlike("slots' nodes of different operations")
            if f.op in _SIGN0_WIDENS and all(g.kids[0].__class__ is ff.Node and g.kids[0].op == "sign0.b16" for g in fs):
                # (v1's rule, symbolic.Nodes._abs16: widened, a 16-bit tree's sign cleared is its abs.f16)
                kids = [_h(f"{_SIGN0_WIDENS[f.op]}({self.value(tuple(g.kids[0].kids[0] for g in fs), n)})")]
            else:
                kids = [self.value(tuple(g.kids[i] for g in fs), n) for i in range(len(f.kids))]
            out = _h(f"{f.op}({','.join(ff.ordered(f.op, kids))})")
        elif cls is ff.Pack:
            if any(g.pw != f.pw or len(g.parts) != len(f.parts) for g in fs):
                raise _Unlike("slots' packs of different shapes")
            kids = [self.value(tuple(g.parts[i] for g in fs), n) for i in range(len(f.parts))]
            out = _h(f"pack{f.pw}({','.join(kids)})")
        elif cls is ff.Red:
            if any(g.op != f.op for g in fs):
                raise _Unlike("slots' reductions of different operations")
            saved = self.bind(fs)
            halved = False
            try:
                out = _h(f"red.{f.op}({self.value(tuple(g.of for g in fs), n)})")
            except Unsupported as e:
                if "a reduction binds" not in str(e) or any(g.var.__class__ is not int for g in fs):
                    raise
                halved = True
            finally:
                self.env, self.envkey = saved
            if halved:          # a mask reads the lane bit it binds: named by its two halves, as a node of the op
                every = tuple(range(n.bit_length() - 1))
                pairs = [fsub.halves(g.of, g.var, every, n, self.halves) for g in fs]
                kids = [self.value(tuple(p[i] for p in pairs), n) for i in (0, 1)]
                out = _h(f"{f.op}({','.join(ff.ordered(f.op, kids))})")
        elif cls is ff.Bits:
            if any(g.op != f.op or len(g.args) != len(f.args) for g in fs):
                raise _Unlike("slots' integer instructions of different operations")
            kids = [self.predicate(tuple(g.args[i] for g in fs), n)
                    if f.args[i].__class__ in (bool, fp.Mask, fp.Each) else self.value(tuple(g.args[i] for g in fs), n)
                    for i in range(len(f.args))]
            out = _h(f"int.{f.op}({','.join(kids)})")
        elif cls is ff.Part:
            if any((g.i, g.n, g.width) != (f.i, f.n, f.width) for g in fs):
                raise _Unlike("slots' parts of different places")
            out = _h(f"part{f.i}/{f.n}.{f.width}({self.value(tuple(g.of for g in fs), n)})")
        else:
            raise Unsupported(f"a value the names do not take: {cls.__name__}")
        return out

    def by_thread_bits(self, fs: tuple, n: int) -> str | None:
        """A case split on thread bits the address makes element bits (a thread that holds several rows storing the
        one its lane picks), named as the family over those bits: its value with the bits put to each pattern,
        re-rolled as slots are over D bits. So a row picked by a lane bit and a row a warp bit holds get one name.
        None (named as a select) where a predicate is not such a mask or the cases are not one expression up to the
        integers and predicates they hold."""
        reads = 0
        for g in fs:
            if g.pred.__class__ is not fp.Mask:
                return None
            reads |= fsub.mask_reads(g.pred.bits, n)
        k = n.bit_length() - 1
        js = [j for j in range(k) if reads >> j & 1]
        if not js or len(js) > _CASE_BITS or any(j not in self.tbits for j in js) or \
                any(f"{fi.TBIT}{j}" in e for e in self.env for j in js):
            return None
        cases = [tuple(fsub.family(g, tuple((-2 if a >> js.index(q) & 1 else -1) if q in js else q for q in range(k)),
                                   n, self.halves) for g in fs) for a in range(1 << len(js))]
        memo: dict = {}
        if any(not _same_shape(x, y, memo) for case in cases[1:] for x, y in zip(cases[0], case)):
            return None
        outer = (self.env, self.axes, self.index)
        m = len(self.axes)
        self.axes = self.axes + [f"{_BIT}{self.tbits[j]}" for j in js]
        self.index = [i | a << m for a in range(len(cases)) for i in outer[2]]
        self.env = outer[0] * len(cases)
        try:
            return self.value(tuple(g for case in cases for g in case), n)
        finally:
            self.env, self.axes, self.index = outer

    def per_slot(self, fs: tuple, n: int, name) -> str:
        """The slots' families named case by case (name: value or predicate) where they differ in form (LLVM vectorised
        one slot's arithmetic and not another's): the cases are the patterns of the axes along which the form changes
        (F), each case's slots re-rolled over the other axes; where a case's slots still differ, one slot at a time.
        The list of the cases' names, in the order of F's patterns, names every element's tree (finer than one
        re-rolled name, never coarser); F sorted by name, so layouts that hold F's bits in threads or in slots meet."""
        outer = (self.env, self.axes, self.index)
        m = len(self.axes)
        at: list = [None] * (1 << m)
        for s, g in enumerate(fs):
            at[self.index[s]] = s
        memo: dict = {}
        varies = [k for k in range(m) if any(not _same_shape(fs[at[i]], fs[at[i | 1 << k]], memo)
                                             for i in range(1 << m) if not i >> k & 1)]
        # (none found: the forms differ below what _same_shape compares; one slot at a time)
        split = sorted(varies or range(m), key=lambda k: _axis_order(self.axes[k]))
        rest = [k for k in range(m) if k not in varies]
        names = []
        cut = sum(1 << k for k in split)
        try:
            for c in range(1 << len(split)):
                fixed = sum(1 << k for j, k in enumerate(split) if c >> j & 1)
                idx = [i for i in range(1 << m) if i & cut == fixed]
                self.env = tuple(outer[0][at[i]] for i in idx)
                self.axes = [outer[1][k] for k in rest]
                self.index = [sum(1 << j for j, k in enumerate(rest) if i >> k & 1) for i in idx]
                names.append(name(tuple(fs[at[i]] for i in idx), n))
        finally:
            self.env, self.axes, self.index = outer
        return _h(f"slots[{','.join(self.axes[k] for k in split)}]({','.join(names)})")

    def extended(self, envs: tuple, adds: tuple) -> tuple:
        """Each slot's env with its (key, value) pairs added, as new dicts, the same dicts for the same envs and pairs
        (renamed's memo is keyed by an env's identity: the members of one join, named one after another under one
        path, then share their renamings)."""
        key = (id(envs), adds)
        hit = self.envs.get(key)
        if hit is None or hit[0] is not envs:
            hit = self.envs[key] = (envs, tuple({**e, **dict(a)} for e, a in zip(envs, adds)))
        return hit[1]

    def bind(self, fs: tuple) -> tuple:
        """Bind the slots' Reds' variables (each slot's own) to one name, by depth (the same in every configuration
        that nests alike); returns what to restore."""
        saved = self.env, self.envkey
        name = f"rv{len(self.env[0])}"
        self.env = self.extended(self.env, tuple(((_var(g.var), name),) for g in fs))
        self.envkey = self.envkey + (tuple(g.var for g in fs),)
        return saved


def _axis_order(a: str) -> tuple:
    """An axis's place in a canonical order: element bits by position, then bound variables by depth."""
    if a.startswith(_BIT):
        return (0, int(a[len(_BIT):]), "")
    return (1, int(a[2:]), "") if a.startswith("rv") and a[2:].isdigit() else (2, 0, a)


def _below(diff: dict) -> dict:
    """a - b for `a < b` (or `a >= b`) without the terms too small to decide it: where the symbol terms' coefficients
    share the factor g = 2^q, the element-bit terms and constant that are not multiples of g range over [0, g), so
    S + r < 0 exactly where S < 0 (S a multiple of g; the constant's remainder mod g is among the low terms, its
    multiple of g in S). (Triton masks a vector by its first element's index, and a size assumed a multiple of 16
    makes that every element's own test: num_warps and vector widths meet, in guards and in a join's members.)"""
    sym = [c for m, c in diff.items() if m and any(not a.startswith(_BIT) for a in m)]
    if not sym:
        return diff
    g = min(c & -c for c in map(abs, sym))
    const = diff.get((), 0)
    low = {m: c for m, c in diff.items() if m and all(a.startswith(_BIT) for a in m) and c % g}
    low[()] = const % g      # (the constant's part below g: its multiple of g stays in S)
    lo = sum(min(c, 0) for m, c in low.items() if m) + low[()]
    hi = sum(max(c, 0) for m, c in low.items() if m) + low[()]
    if not any(low.values()) or lo < 0 or hi >= g:
        return diff
    out = {m: c for m, c in diff.items() if m not in low}
    if const - low[()]:
        out[()] = const - low[()]
    return out


def _restrict(p, dup: int, v: int, n: int):
    """Predicate family p with the thread bits `dup` set to v's (a copy of every element), simplified."""
    if p.__class__ is bool:
        return p
    if p.__class__ is fp.Mask:
        k = n.bit_length() - 1
        return fp._mask(fsub._mask_bits(p.bits, tuple((-2 if v >> j & 1 else -1) if dup >> j & 1 else j
                                                      for j in range(k)), n), n)
    if p.how in ("fcmp", "tcmp"):
        raise Unsupported("a guard that reads a float family")
    if p.how == "cmp":
        if any(x.__class__ is dict and any(a.startswith(fi.TID) and any(dup >> j & 1 for j in fi._table(a)[0])
                                           for m in x for a in m) for x in p.args):
            raise Unsupported("a copy's guard compares bits of the thread index the address does not read")
        return p
    args = [_restrict(x, dup, v, n) for x in p.args]
    if p.op == "not":
        return (not args[0]) if args[0].__class__ is bool else fp.Each("pred", "not", tuple(args))
    if p.op in ("and", "or"):
        absorb = p.op == "or"               # or: a true arm decides; and: a false one
        if any(a is absorb for a in args):
            return absorb
        rest = [a for a in args if a.__class__ is not bool]
        if len(rest) < len(args):
            return rest[0] if rest else not absorb
    return fp.combine(p.op, args, n) if all(a.__class__ in (bool, fp.Mask) for a in args) else \
        fp.Each("pred", p.op, tuple(args))


def _split(address) -> tuple:
    """(symbolic part's text, constant, {thread bit j: element bit b_j}) of a store address, or Unsupported where
    its thread part is not a sum of distinct powers of two times single thread bits."""
    if address.__class__ is int:
        return "0", address, {}
    sym, const, tbits, held = {}, 0, {}, 0
    for m, c in address.items():
        if not m:
            const = c
        elif any(a.startswith(fi.TID) for a in m):
            if len(m) != 1 or not m[0].startswith(fi.TBIT) or c <= 0 or c & (c - 1) or held & c:
                raise Unsupported("a store address whose thread part is not a bit layout")
            tbits[int(m[0][len(fi.TBIT):])] = c.bit_length() - 1
            held |= c
        else:
            sym[m] = c
    return pkey(sym) if sym else "0", const, tbits


def signature(stores: list, n: int, divisible=frozenset()) -> str:
    """The v2 signature of a block's stores (families/walk.py): 'v2:' + a hash of, per symbolic address part and
    type, the element bits stored and the guard and value families named over them. Equal for blocks that store the
    same trees under the same guards at the same element offsets; raises Unsupported where the stores are not a
    cube of element bits, the slots' families do not re-roll, or threads that store one element may store it
    differently."""
    groups: dict = {}
    for s in stores:
        sym, const, tbits = _split(s.address)
        groups.setdefault((sym, s.width), []).append((const, tbits, s))
    lines = []
    for (sym, width), items in sorted(groups.items()):
        tbits = items[0][1]
        if any(x[1] != tbits for x in items):
            raise Unsupported("store slots of different thread layouts")
        g = _Group(tbits, [(k, s) for k, _, s in items], n)
        guard = g.guard(tuple(s.guard for _, _, s in items), n)
        if guard == "F":
            continue
        value = g.value(tuple(s.value for _, _, s in items), n)
        ebits = sorted([*tbits.values(), *g.dbits])
        lines.append(f"{sym}+{g.k0}+{ebits} {width} <- {guard} ? {value}")
    text = "\n".join(lines)
    if divisible:
        text += f"\nassumed multiples of 16: parameters {sorted(divisible)}"
    return "v2:" + hashlib.sha256(text.encode()).hexdigest()[:32]
