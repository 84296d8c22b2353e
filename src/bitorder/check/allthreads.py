"""One instruction in every thread of the block at once (dataflow.py mixes this into its _Block):
the unguarded instructions outside a skipped region, which are the bulk of every walk.

Each handler computes exactly what the per-thread handler (dataflow._Block.execute and the
functions it dispatches to) computes in each thread, in one loop over the threads with the
operand texts decoded once and the per-thread dispatch hoisted out of the loop. Every thread
reads its operands before any thread writes (each reads only its own registers, so the order
does not matter either way). tests/check/test_allthreads.py walks the same programs both ways
and compares every register's value and every node key.
"""
from __future__ import annotations

import re

from .ptx import opcode_base
from .rules import _float_cmp, _operand, _reg_list
from .poly import _cap, padd, pkey, pmul, short, UNDEF_PRED
from .symbolic import _BITS, _COMMUTES, _JOINED, _KIND, _ONCE, _WIDEN, Unsupported, _kind
from .predicates import _FMIRROR, _FSYMMETRIC, _retype, select
from . import onehot, payloads, symbolic
from ._native import trait

_INT_REG = re.compile(r"[bus](16|32|64)")   # selp types of integer registers
_CONCRETE = {}   # (integer opcode, constant operands...) -> the constant result (_Block.integer)


@trait     # mixed into dataflow._Block (a mypyc trait when compiled: _native.trait)
class AllThreads:
    """The all-thread handlers of a _Block (its register columns, nodes, fnode, integer)."""

    def _operand_columns(self, decoded):
        """Per decoded operand: its register's column of values by thread (every thread
        undefined for a register no thread wrote), or None for a thread index or a constant."""
        cols, undef = self.cols, self.undef
        out = []
        for k, x in decoded:
            if k == "reg":
                col = cols.get(x)
                out.append([undef] * self.n if col is None else col)
            else:
                out.append(None)
        return out

    def _float_all(self, op, base, dst, decoded):
        """_float in every thread, unguarded and outside a skipped region (one call, not n)."""
        nodes, fnode, n = self.nodes, self.fnode, self.n
        muls = nodes.muls
        contracts = base in ("add", "sub") and ".rn" not in op
        unrounded = base == "mul" and ".rn" not in op
        kind = _KIND.get(op)
        if kind is None:
            kind = _kind(op)
        if any(k == "tid" for k, _ in decoded) or nodes.record or kind == _JOINED or kind == _ONCE \
                or kind == _WIDEN:
            return self._float_all_each(op, base, dst, decoded, contracts, unrounded)
        # operands as node ids or tokens, thread by thread and operand by operand (the order in
        # which fnode makes a select's node, as the per-thread walk makes them); a constant's
        # token is a function of the constant alone: made once, not per thread
        consts = [None if k == "reg" else fnode(n if k == "ntid" else x) for k, x in decoded]
        # checked thread by thread as the operands are read, as _float_all_each checks (so the
        # first thread's failure is the one reported); fnode adds no multiply to muls meanwhile
        check = contracts and bool(muls)
        columns = self._operand_columns(decoded)
        # every operand a constant, a register holding one integer in every thread (a float constant moved into
        # it: its token, a function of the integer alone), or a register holding a tree ("node", id) in every
        # thread (no select's node to make, so reading them has no effect): their ids or tokens column by
        # column, checked as one
        ids = []
        for col, c in zip(columns, consts):
            if col is None:
                ids.append([c] * n)
            elif col[0].__class__ is int and col.count(col[0]) == n:
                ids.append([fnode(col[0])] * n)
            else:
                ids.append([v[1] if v.__class__ is tuple and v[0] == "node" else None for v in col])
                if None in ids[-1]:    # a select or another value: the loop below, thread by thread
                    break
        else:
            if check and not all(muls.isdisjoint(c) for c in ids):
                raise Unsupported("an unrounded multiply feeds an add: ptxas may contract it")
            argss = list(zip(*ids))
            return self._float_results(_make_column(nodes, op, argss, kind), argss, base, dst, unrounded)
        if len(decoded) == 2 and consts[0] is None and consts[1] is None:    # the common case
            argss = []
            selects = self._selects.get
            for va, vb in zip(*columns):
                # fnode, its node and made-select cases inlined: ("node", id) gives id, a select
                # whose node fnode made already (the same object) gives that node
                if va.__class__ is tuple and va[0] == "node":
                    a = va[1]
                else:
                    hit = selects(id(va))
                    a = hit[1] if hit is not None and hit[0] is va else fnode(va)
                if vb.__class__ is tuple and vb[0] == "node":
                    b = vb[1]
                else:
                    hit = selects(id(vb))
                    b = hit[1] if hit is not None and hit[0] is vb else fnode(vb)
                if check and (a in muls or b in muls):
                    raise Unsupported("an unrounded multiply feeds an add: ptxas may contract it")
                argss.append((a, b))
        else:
            argss = []
            selects = self._selects.get
            for t in range(n):
                args = []
                for col, c in zip(columns, consts):
                    if c is None:
                        v = col[t]
                        if v.__class__ is tuple and v[0] == "node":
                            args.append(v[1])
                        else:   # fnode's made-select case inlined, as above
                            hit = selects(id(v))
                            args.append(hit[1] if hit is not None and hit[0] is v else fnode(v))
                    else:
                        args.append(c)
                if check and any(a in muls for a in args):
                    raise Unsupported("an unrounded multiply feeds an add: ptxas may contract it")
                argss.append(args)
        self._float_results(_make_column(nodes, op, argss, kind), argss, base, dst, unrounded)

    def _each_all(self, dst, decoded, value):
        """run_all for an instruction whose result in a thread is value(its operands' values there): thread by
        thread in order (the nodes made in execute's order), every thread's operands read before dst is written."""
        spec = self._spec(decoded)
        self.cols[dst] = [value([x[t] if k == 0 else x if k == 2 else t for k, x in spec]) for t in range(self.n)]

    def _packing_all(self, op, ops):
        """run_all for execute's unpack (mov.b32 {lo, hi}, r) and pack (mov.b32 r, {lo, hi}) of registers, or None
        (a constant or thread index among the operands: execute, thread by thread). Thread by thread in order,
        each thread's parts in order, as execute makes their nodes (subword's loads, pack's nodes)."""
        bits = _BITS[op.split(".")[-1]]
        srcs = (ops[1],) if "{" in ops[0] else _reg_list(ops[1])
        try:
            if any(_operand(x)[0] != "reg" for x in srcs):
                return None
        except Unsupported:    # (execute raises it, thread by thread, where it runs)
            return None
        if "{" in ops[0]:
            dsts, (src,) = _reg_list(ops[0]), srcs
            parts = len(dsts)

            def unpack():
                cols, subword = self.cols, self.subword
                col = cols.get(src) or [self.undef] * self.n
                outs = [[subword(v, i, parts, bits) for i in range(parts)] for v in col]
                for i, d in enumerate(dsts):
                    cols[d] = [o[i] for o in outs]
            return unpack
        pw = bits // len(srcs)
        return lambda: self._each_all(ops[0], tuple(("reg", x) for x in srcs), lambda vals: self.pack(vals, pw))

    def _float_all_each(self, op, base, dst, decoded, contracts, unrounded):
        """_float_all for the forms its fast loop leaves out (a thread-index operand, shapes
        recorded, joined nodes and the widenings that fold them): Nodes.make_all over the operands of every thread."""
        nodes, fnode, n = self.nodes, self.fnode, self.n
        muls = nodes.muls
        spec = [(0, col) if col is not None else (1, None) if k == "tid" else (2, fnode(n if k == "ntid" else x))
                for (k, x), col in zip(decoded, self._operand_columns(decoded))]
        argss = []
        for t in range(n):
            args = []
            for k, x in spec:
                if k == 0:
                    v = x[t]
                    args.append(v[1] if v.__class__ is tuple and v[0] == "node" else fnode(v))
                else:
                    args.append(x if k == 2 else fnode(t))
            if contracts and muls and any(a in muls for a in args):
                raise Unsupported("an unrounded multiply feeds an add: ptxas may contract it")
            argss.append(args)
        self._float_results(nodes.make_all(op, argss), argss, base, dst, unrounded)

    def _float_results(self, nids, argss, base, dst, unrounded):
        """Every thread's new float node into dst; an unrounded multiply's nodes (and a negation of
        one) recorded, so that an add reading them refuses (ptxas may contract the pair)."""
        muls = self.nodes.muls
        if unrounded:
            muls.update(nids)
        elif base == "neg" and muls:
            muls.update(nid for nid, args in zip(nids, argss) if args[0] in muls)
        self.cols[dst] = [("node", nid) for nid in nids]

    def _mov_all(self, dst, decoded):
        """mov d, s in every thread, unguarded and outside a skipped region: d gets a copy of s's
        column (a new list: the columns of two registers are never one list), the thread index,
        or the constant in every thread."""
        k, x = decoded
        if k == "reg":
            col = self.cols.get(x)
            self.cols[dst] = [self.undef] * self.n if col is None else list(col)
        else:
            n = self.n
            self.cols[dst] = list(range(n)) if k == "tid" else [n if k == "ntid" else x] * n

    def _spec(self, decoded):
        """Per decoded operand (0, its register's column), (1, None) for the thread index or
        (2, a constant): what every thread reads, decoded once per instruction."""
        n = self.n
        return [(0, col) if col is not None else (1, None) if k == "tid" else (2, n if k == "ntid" else x)
                for (k, x), col in zip(decoded, self._operand_columns(decoded))]

    def _pairs(self, spec):
        """[(a, b) in thread t, ...] for a two-operand spec (_spec's)."""
        (ka, xa), (kb, xb) = spec
        if ka == 0 and kb == 0:
            return list(zip(xa, xb))
        n = self.n
        return list(zip(xa if ka == 0 else [xa] * n if ka == 2 else range(n),
                        xb if kb == 0 else [xb] * n if kb == 2 else range(n)))

    def _setp_all(self, op, dst, decoded):
        """compare() in every thread, unguarded and outside a skipped region. A float comparison's
        form (float_form: mirrored, or its operands sorted) is decided once for the opcode; the
        rest (integer comparisons) call compare itself."""
        if len(decoded) != 2:
            # (compare raises its own TypeError, as the per-thread walk does)
            return self._each_all(dst, decoded, lambda vals: self.compare(op, *vals))
        spec = self._spec(decoded)
        if not _float_cmp(op):
            pairs = self._pairs(spec)
            cmp = op.split(".")[1]     # (as compare reads it, once per instruction)
            compare = self.compare_int
            self.cols[dst] = [compare(op, cmp, a, b) for a, b in pairs]
            return
        # float_form's three shapes, decided once: mirrored (operands swapped, the opcode
        # retyped), symmetric (operands sorted), or as written
        cmp = op.split(".")[1]
        mirrored = cmp in _FMIRROR
        form_op = _retype(op, _FMIRROR[cmp]) if mirrored else op
        symmetric = cmp in _FSYMMETRIC
        fnode, key_of, undefined = self.fnode, self.nodes.key_of, self.nodes.undefined
        out = []
        for a, b in self._pairs(spec):
            # fnode, its ("node", id) case inlined
            fa = a[1] if a.__class__ is tuple and a[0] == "node" else fnode(a)
            fb = b[1] if b.__class__ is tuple and b[0] == "node" else fnode(b)
            if fa in undefined or fb in undefined:
                out.append(UNDEF_PRED)
                continue
            a = key_of[fa] if fa.__class__ is int else fa
            b = key_of[fb] if fb.__class__ is int else fb
            if mirrored:
                out.append(("fcmp", form_op, b, a))
            elif symmetric and b < a:
                out.append(("fcmp", op, b, a))
            else:
                out.append(("fcmp", op, a, b))
        self.cols[dst] = out

    def _selp_handlers(self, op, ops, decoded):
        """(run(t, ins, g), run_all()) for selp d, a, b, c in a program without cp.async or
        wgmma: execute's selp case with its operands decoded once (vals) and its opcode's
        type read once."""
        int_reg = _INT_REG.fullmatch(op.split(".")[-1]) is not None
        dst, undef, bits = ops[0], self.undef, self.bits

        def value(a, b, c):
            if c == UNDEF_PRED:
                return undef
            if isinstance(c, bool):
                return a if c else b
            if a.__class__ is int and a == b and b.__class__ is int:
                return a                          # either arm (a masked one-hot term's zero: storefold.py)
            if int_reg and a.__class__ is int and b.__class__ is int:
                return bits.selp(op, c, a, b)     # predicate bits
            if isinstance(a, (int, dict)) and isinstance(b, (int, dict)):
                return selp_atom(c, a, b)
            return select(c, a, b)

        return (lambda t, ins, g: self.write(t, dst, value(*self.vals(t, decoded, ops)), g)), \
            lambda: self._each_all(dst, decoded, lambda vals: value(*vals))

    def _integer_all(self, op, dst, decoded):
        """integer() in every thread, unguarded and outside a skipped region; integer()'s ring
        case (the bulk of index arithmetic: add, sub, mad, mul.lo, shl by a constant) and its
        memo of constant operands without the dispatch. The ring case is taken only where
        integer() takes it: no operand held bit by bit (Bits.integer models shl of such a
        register; it returns None for add, sub, mad and mul, whatever their operands)."""
        integer, n = self.integer, self.n
        base = opcode_base(op)
        if base in ("add", "sub", "mul", "mad", "shl") and op.endswith("16"):   # (_integer's 16-bit constants)
            return self._each_all(dst, decoded, lambda args: integer(op, args))
        plain = ".wide" not in op and ".hi" not in op
        ring = base in ("add", "sub", "mad") and plain and len(decoded) >= 2
        sign, mad = -1 if base == "sub" else 1, base == "mad"
        spec = self._spec(decoded)
        if len(spec) == 2 and base in ("add", "sub", "mul", "shl", "shr", "and", "or", "xor") and spec[0][0] != 1 \
                and spec[1][0] != 1:
            return self._integer_pairs(op, base, dst, spec, plain, sign)
        out = []
        for t in range(n):
            args = [x[t] if k == 0 else x if k == 2 else t for k, x in spec]
            if ring and isinstance(args[0], (int, dict)) and isinstance(args[1], (int, dict)) \
                    and (len(args) == 2 or all(isinstance(a, (int, dict)) for a in args[2:])):
                out.append(_cap(padd(pmul(args[0], args[1]), args[2]) if mad else padd(args[0], args[1], sign)))
            else:
                out.append(integer(op, args))
        self.cols[dst] = out

    def _integer_pairs(self, op, base, dst, spec, plain, sign):
        """_integer_all for a two-operand opcode of registers and constants: two constants from
        integer()'s memo of constant operands (the same dictionary, read first as integer()
        reads it), the ring cases computed as integer()'s ring case computes them, the rest
        through integer() itself."""
        integer = self.integer
        concrete = _CONCRETE.get
        addsub = base in ("add", "sub") and plain
        mul = base == "mul" and plain
        shl = base == "shl"
        known = self.bits.known if self.bits.table else None
        bits_integer = self.bits.integer
        bitwise = base in ("shl", "shr", "and", "or", "xor")
        out = []
        append = out.append
        for a, b in self._pairs(spec):
            ca, cb = a.__class__, b.__class__
            if ca is int and cb is int:
                hit = concrete((op, a, b))
                append(hit if hit is not None else integer(op, [a, b]))
            elif addsub and (ca is dict or ca is int) and (cb is dict or cb is int):
                append(_cap(padd(a, b, sign)))
            elif mul and (ca is dict or ca is int) and (cb is dict or cb is int):
                append(_cap(pmul(a, b)))
            elif shl and ca is dict and cb is int and (known is None or known(a) is None):
                append(_cap(pmul(a, 1 << b)))
            elif bitwise and known is not None and (ca is dict or ca is int) and (cb is dict or cb is int) \
                    and (known(a) is not None or known(b) is not None):
                # a register held bit by bit: integer() would ask Bits.integer first (its operands
                # as they are: integers, no tree's bits), and take its answer unless it is None
                hit = bits_integer(op, base, [a, b])
                append(hit if hit is not None else integer(op, [a, b]))
            else:
                append(integer(op, [a, b]))
        self.cols[dst] = out


def _make_column(nodes, op, argss, kind):
    """nodes.make_all(op, argss) for a kind that is neither joined nor made once, shapes not
    recorded: the same keys, marks and count of ids, the per-element work inlined. A node's key
    is a function of (op, its children's keys in _key's order, payload ""), as in make; the
    children of a commuting op are sorted, of an fma its first two, as _key orders them (make
    sorts only the commuting ones before its memo; the fma's order is a key of its own there, so
    the fma's memo tuple keeps the children as given)."""
    # while one-hot sums are tracked, an add, mul or fma takes make's rules for them, element by element (the general
    # loop below): onehot.key's key where it gives one (the children as given), and a mul of a term noted (sorted)
    hot = op in onehot.HOT and (onehot.TERM or onehot.SUM)
    key_of, undefined = nodes.key_of, nodes.undefined
    nanish = nodes.nanish if nodes.nanish and not payloads.canonical(op) else None   # (payloads.py)
    get, miss = symbolic._SEEN.get, nodes._seen_miss
    nid = len(key_of) - 1   # the last id made (key_of[0] is no node's)
    if nid + len(argss) > nodes.max_nodes:
        raise Unsupported(f"more than {nodes.max_nodes} tree nodes")
    out = []
    commutes = kind == _COMMUTES
    arity = len(argss[0]) if argss else 0
    if not hot and arity == 2 and all(len(a) == 2 for a in argss):
        for a, b in argss:
            ka = key_of[a] if a.__class__ is int else a
            kb = key_of[b] if b.__class__ is int else b
            nid += 1
            if undefined and (a in undefined or b in undefined):
                undefined.add(nid)
            if nanish and (a in nanish or b in nanish):
                nanish.add(nid)
            seen = (op, kb, ka, "") if commutes and kb < ka else (op, ka, kb, "")
            key = get(seen)   # (a generation flipped meanwhile: the old one still maps correctly)
            if key is None:
                key = miss(seen, op, list(seen[1:3]), "", kind)
            key_of.append(key)   # (the key of id nid: ids are made in order, nothing else makes one here)
            out.append(nid)
        return out
    if not hot and arity == 3 and not commutes and all(len(a) == 3 for a in argss):   # fma: as the loop below
        for a, b, c in argss:
            ka = key_of[a] if a.__class__ is int else a
            kb = key_of[b] if b.__class__ is int else b
            kc = key_of[c] if c.__class__ is int else c
            nid += 1
            if undefined and (a in undefined or b in undefined or c in undefined):
                undefined.add(nid)
            if nanish and (a in nanish or b in nanish or c in nanish):
                nanish.add(nid)
            seen = (op, ka, kb, kc, "")
            key = get(seen)
            if key is None:
                key = miss(seen, op, [ka, kb, kc], "", kind)
            key_of.append(key)
            out.append(nid)
        return out
    muls = hot and op in onehot.MULS
    for args in argss:
        kids = [key_of[c] if c.__class__ is int else c for c in args]
        nid += 1
        if undefined and not undefined.isdisjoint(args):
            undefined.add(nid)
        if nanish and not nanish.isdisjoint(args):
            nanish.add(nid)
        key = onehot.key(op, kids) if hot else None
        if key is None:
            if commutes:
                kids.sort()
            seen = (op, *kids, "")
            key = get(seen)
            if key is None:
                key = miss(seen, op, kids, "", kind)
            if muls and onehot.TERM:
                onehot.note_mul(key, kids[0], kids[1])
        key_of.append(key)
        out.append(nid)
    return out


def selp_atom(c, a, b):
    """atom(f"selp({c},{pkey(a)},{pkey(b)})"): a selp of two integers on predicate c (its name
    memoised), noted as a one-hot term's factor where it is selp(eq, x, 0) (onehot.note_selp)."""
    name = _selp_name(c, a, b)
    if (a == 0 or b == 0) and onehot.EQ:
        onehot.note_selp("1*" + name, c, a, b)
    return {(name,): 1}


def _selp_name(c, a, b) -> str:
    """short(f"selp({c},{pkey(a)},{pkey(b)})"), the name of a selp of two integers on predicate c,
    memoised by the three texts that name it (the same in every configuration's walk)."""
    key = (str(c), pkey(a), pkey(b))
    name = _SELP.get(key)
    if name is None:
        name = short(f"selp({key[0]},{key[1]},{key[2]})")
        if len(_SELP) > 100_000:
            _SELP.clear()
        _SELP[key] = name
    return name


_SELP = {}   # (predicate text, two integers' texts) -> _selp_name's answer
