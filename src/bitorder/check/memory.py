"""The walk's memory (dataflow.py): global loads as leaves, global stores as roots, and shared
memory as a map from address to the value and thread that stored it, checked for races
against the block's barriers; packed registers and their parts; the lane exchanges (shfl, ldmatrix)."""
from __future__ import annotations

import os
import re

from .rules import _address, _last_part, _operand, _reg_list
from .poly import padd, pkey, _poly, short, _TERM, _term, UNDEF, UNDEF_PRED
from .symbolic import _BITS, EXTENDED, Unsupported, leaf_key
from .predicates import select
from ._native import trait

# gated on the H200 2026-12-04d (call 5); BITORDER_BYTE_PARTS=0: such parts stay opaque nodes
BYTE_PARTS = os.environ.get("BITORDER_BYTE_PARTS", "1") != "0"


def _symbolic_part(at) -> str:
    """pkey(padd(at, c, -1)) for the constant c of at, without the arithmetic: the text of at's
    terms other than its constant (and than any zero one, as padd's normal form drops them)."""
    if isinstance(at, int):
        return "0"
    items = tuple(at.items())   # memoised as pkey is: equal tuples are equal polynomials
    text = _SYMBOLIC.get(items)
    if text is None:
        text = "+".join([_TERM[i] if i in _TERM else _term(i) for i in sorted(items) if i[0] and i[1]]) or "0"
        if len(_SYMBOLIC) > 100_000:
            _SYMBOLIC.clear()
        _SYMBOLIC[items] = text
    return text


_SYMBOLIC = {}   # tuple(polynomial.items()) -> _symbolic_part's text


def _elements(a, offset, offs, width):
    """Per element offset o in offs: (at, pkey(at), load()'s leaf payload or None where the address
    reads a register never written, (at, width) as self.loads holds it, the leaf's key or None)
    for the element at a + offset + o, with at computed as the per-element code computes it:
    padd(padd(a, offset), o), each step only for a nonzero constant. Memoised for a polynomial by
    (its items in order, offset, offs, width): equal tuples are equal polynomials, and the answer
    is a function of them (values are never changed in place, so one `at` may be shared; the leaf's
    key is symbolic.leaf_key's, a pure function of the payload). One lookup per thread, not one
    per element of a vector access."""
    if a.__class__ is dict:
        key = (tuple(a.items()), offset, offs, width)
        hit = _ELEMENT.get(key)
        if hit is not None:
            return hit
    else:
        key = None
    out = []
    for o in offs:
        at = padd(a, offset) if offset else a
        at = padd(at, o) if o else at
        k = pkey(at)
        payload = None if UNDEF in k else f"[{k}]b{8 * width}"
        out.append((at, k, payload, (at, width), None if payload is None else leaf_key(payload)))
    hit = tuple(out)
    if key is not None:
        if len(_ELEMENT) > 200_000:
            _ELEMENT.clear()
        _ELEMENT[key] = hit
    return hit


_ELEMENT = {}   # (address items, offset, element offsets, width) -> _elements' answer


def _store_site(a, items, off):
    """(pkey(at), _symbolic_part(at), at's constant, its first pointer argument or "?") for the global store at
    at = padd(a, off): what store and claim_bytes read of its address. Memoised for a polynomial by (its items in
    order, off), as _elements is (a function of them): one lookup per thread and element, not four. items:
    tuple(a.items()) for a polynomial (made once per thread by the caller), None for an int."""
    key = (items, off) if items is not None else None
    if key is not None:
        hit = _SITE.get(key)
        if hit is not None:
            return hit
    at = padd(a, off) if off else a
    hit = (pkey(at), _symbolic_part(at), at if isinstance(at, int) else at.get((), 0),
           (_pointer_bases(at) or ["?"])[0])
    if key is not None:
        if len(_SITE) > 200_000:
            _SITE.clear()
        _SITE[key] = hit
    return hit


_SITE = {}   # (address items, offset) -> _store_site's answer


@trait     # mixed into dataflow._Block (a mypyc trait when compiled: _native.trait)
class Memory:
    """Memory accesses of a _Block (dataflow.py), which this is mixed into: it holds the
    registers, the shared words, the roots and the node table these methods read and write."""

    def memory(self, t, ins, g):
        op, ops = ins.opcode, ins.operands
        load = ins.base == "ld"
        width = _BITS.get(_last_part(op))
        if width is None:
            raise Unsupported(f"memory access {op}")
        a = self.addr(t, ops[1] if load else ops[0])
        regs = _reg_list(ops[0] if load else ops[1])
        shared = ".shared" in op
        gname = None   # the guard's name in the roots: one for every element this thread stores
        items = None   # the address's items (_store_site's key), made with gname at the first element stored
        for i, r in enumerate(regs):
            if load or shared:
                self._element(t, padd(a, i * width) if i else a, r, g, width, load, shared)
            else:
                self.stored = True
                if gname is None:
                    gname = "always" if g is True else short(str(g))
                    items = tuple(a.items()) if a.__class__ is dict else None
                for j, (pv, pw) in enumerate(self.stored_parts(t, r, width)):   # a packed register: its parts
                    k, sym, const, base = _store_site(a, items, i * width + j * pw)
                    self.claim_bytes(sym, const, base, pw)
                    self.store(k, g, pv, f"b{8 * pw}", gname)

    def _memory_handler(self, ins):
        """(run(t, ins, g), None): memory(t, ins, g) for one load (global or shared) or shared store,
        its operand texts decoded once; memory itself where a text does not decode (it raises when
        it runs)."""
        op, ops = ins.opcode, ins.operands
        load, shared = ins.base == "ld", ".shared" in op
        width = _BITS.get(_last_part(op))
        if width is None or len(ops) < 2 or not (load or shared):
            return self.memory, None
        try:
            base, offset = _address(ops[1] if load else ops[0])
            kind, x = (None, None) if base in self.params else _operand(base)
        except Unsupported:
            return self.memory, None
        regs = _reg_list(ops[0] if load else ops[1])
        offs = tuple(i * width for i in range(len(regs)))

        def run(t, ins, g):
            if kind is None:                 # addr(t, text), its texts decoded
                a = self.param_value[base]
            else:
                if kind == "reg":
                    region = self.region
                    if region is not None and x in region[2][t]:
                        a = region[2][t][x]
                    else:
                        col = self.cols.get(x)
                        a = self.undef if col is None else col[t]
                else:
                    a = t if kind == "tid" else self.n if kind == "ntid" else x
                if not isinstance(a, (int, dict)):
                    raise Unsupported("an address that is not an integer")
            for r, (at, k, payload, loaded, leaf) in zip(regs, _elements(a, offset, offs, width)):
                if global_load:   # _element's global case and load(), inlined (the bulk of loads)
                    if self.stored and not self._unwritten_input(at):
                        raise Unsupported("a global load after a global store (they may alias)")
                    if payload is None:
                        self.write(t, r, self.undef, g)
                        continue
                    nid = self.nodes.make_load(payload, leaf)   # (the leaf's key known already)
                    self.loads[nid] = loaded
                    self.write(t, r, ("node", nid), g)
                elif load:
                    self.shared_load(t, k, r, g, width, at)
                else:
                    self.shared_store(t, k, self.val(t, r), g, width, at)
        global_load = load and not shared

        return run, None

    def _element(self, t, at, r, g, width, load, shared):
        """One register's element of a load (global or shared) or of a shared store, at `at`."""
        if load and shared:
            self.shared_load(t, pkey(at), r, g, width, at)
        elif load:
            if self.stored and not self._unwritten_input(at):
                raise Unsupported("a global load after a global store (they may alias)")
            self.write(t, r, self.load(at, width), g)
        else:
            self.shared_store(t, pkey(at), self.val(t, r), g, width, at)

    def load(self, at, width):
        """A leaf: the element at `at`, `width` bytes wide, however the load was vectorised."""
        k = pkey(at)
        if UNDEF in k:
            return self.undef
        v = ("node", self.nodes.make_load(f"[{k}]b{8 * width}"))
        self.loads[v[1]] = (at, width)
        return v

    def subword(self, v, i, n, width):
        """Part i of n (lowest first) of a `width`-byte value: a narrower load of a load, a part
        of a constant, the part a pack was made from, or a node naming the part. With BYTE_PARTS:
        a part of a zero-extended narrower value (its own part, or 0 above it), and a part made of
        consecutive finer parts of one value (prmt's byte packs of widened halves) that value's part."""
        pw = width // n
        if isinstance(v, int):
            return (v >> (8 * pw * i)) & ((1 << (8 * pw)) - 1)
        if isinstance(v, tuple) and v[0] == "select":
            return ("select", v[1], self.subword(v[2], i, n, width), self.subword(v[3], i, n, width))
        if isinstance(v, tuple) and v[0] == "node":
            if v[1] in self.loads and self.loads[v[1]][1] == width:
                return self.load(padd(self.loads[v[1]][0], i * pw), pw)
            parts = self.packs.get(v[1])
            if parts and len(parts) == n:
                return parts[i][0]
            if BYTE_PARTS and parts and len(parts) > n and len(parts) % n == 0:
                hit = self._finer(parts, i, n, width)
                if hit is not None:
                    return hit
        if BYTE_PARTS and isinstance(v, dict):
            ext = EXTENDED.get(pkey(v))
            if ext is not None and not ext[2] and ext[1] % (8 * pw) == 0:   # zero-extended from ext[1] bits
                if 8 * pw * i >= ext[1]:
                    return 0
                m = ext[1] // (8 * pw)
                return ext[0] if m == 1 else self.subword(ext[0], i, m, ext[1] // 8)
        nid = self.nodes.make(f"part{i}/{n}.b{8 * width}", (self.fnode(v),))
        if BYTE_PARTS:
            self.part_of[nid] = (v, i, n, width)
        return ("node", nid)

    def _finer(self, parts, i, n, width):
        """Part i of n of a pack of len(parts) finer parts: constants joined, or, where the k parts it spans are
        parts a .. a + k - 1 of m of one value (a a multiple of k, the same bytes), that value's part a / k of
        m / k; else None."""
        k = len(parts) // n
        chunk = [p for p, _ in parts[i * k:(i + 1) * k]]
        fw = width // len(parts)
        if all(p.__class__ is int for p in chunk):
            return sum((p & ((1 << (8 * fw)) - 1)) << (8 * fw * j) for j, p in enumerate(chunk))
        made = [self.part_of.get(p[1]) if p.__class__ is tuple and p[0] == "node" else None for p in chunk]
        if any(x is None for x in made):
            return None
        src, a, m, w = made[0]
        if a % k or m % k or w // m != fw or any(x[1] != a + j or x[2] != m or x[3] != w or self.key(x[0]) != self.key(src)
                                                 for j, x in enumerate(made)):
            return None
        return src if m // k == 1 else self.subword(src, a // k, m // k, w)

    def packed_float(self, t, op, base, ops, g):
        """An f16x2 / bf16x2 instruction as what PTX defines it to be: the scalar instruction on each half
        alone. So a half LLVM packed with a never-written part (a vectorized sum's spare lane) stays apart
        from the half that is stored, and a half of a 32-bit load is the 16-bit load at its address."""
        self.write(t, ops[0], self.packed_value(op, base, [self.val(t, o) for o in ops[1:]]), g)

    def packed_value(self, op, base, vals):
        """packed_float's result in one thread, from its operands' values."""
        one = op.replace("x2", "")
        halves = [("node", self.float_node(one, base, [self.subword(v, i, 2, 4) for v in vals])) for i in range(2)]
        return self.pack(halves, 2)

    def permute(self, a, b, sel):
        """prmt.b32 d, a, b, sel: byte i of d is byte sel[i] of {b, a} (a's bytes 0-3; the fp8 B
        transposes pick single bytes); refused for a symbolic selector or sign replication."""
        nibs = [(sel >> (4 * i)) & 0xF for i in range(4)] if isinstance(sel, int) else [8]
        if any(x & 8 for x in nibs):
            raise Unsupported("a prmt with a symbolic selector or sign replication")
        return self.pack([self.subword(a if x < 4 else b, x & 3, 4, 4) for x in nibs], 1)

    def pack(self, values, pw):
        """A register made of parts (lowest first), each pw bytes."""
        if all(isinstance(x, int) for x in values):
            return sum((x & ((1 << (8 * pw)) - 1)) << (8 * pw * i) for i, x in enumerate(values))
        nid = self.nodes.make(f"pack.b{8 * pw * len(values)}", tuple(self.fnode(x) for x in values))
        self.packs[nid] = [(x, pw) for x in values]
        return ("node", nid)

    def shuffle(self, ins):
        """shfl.sync over a full warp (mask -1), lanes as CUDA documents __shfl_*_sync for width
        32: bfly reads lane ^ b, up lane - b (its own below b), down lane + b (its own past 31),
        idx lane b."""
        ops = ins.operands
        mode = ins.opcode.split(".")[2]
        if "|" in ops[0] or len(ops) != 5 or mode not in ("bfly", "up", "down", "idx"):
            raise Unsupported(f"shuffle {ins.text()}")
        clamp, mask = self.val(0, ops[3]), self.val(0, ops[4])
        if mask not in (-1, 0xFFFFFFFF) or clamp != (0 if mode == "up" else 31):
            raise Unsupported(f"shuffle {ins.text()}")
        if ins.guard is not None and any(self.guard(t, ins) is not True for t in range(self.n)):
            raise Unsupported("a guarded shuffle")   # (guard is True for every thread when unguarded)
        src = [self.val(t, ops[1]) for t in range(self.n)]
        out = []
        for t in range(self.n):
            b, lane = self.val(t, ops[2]), t % 32
            if not isinstance(b, int) or not 0 <= b < 32:
                raise Unsupported(f"a shuffle lane operand that is not a constant lane: {ins.text()}")
            j = (lane ^ b if mode == "bfly" else b if mode == "idx" else (lane - b if lane >= b else lane)
                 if mode == "up" else (lane + b if lane + b < 32 else lane))
            out.append(src[t - lane + j])
        self.cols[ops[0]] = out   # (a new list: every lane read its source before any is written)

    def matrix(self, ins):
        """ldmatrix / stmatrix .m8n8 .b16 without .trans, warp by warp: matrix m's eight row
        addresses come from lanes 8m..8m+7, and lane l holds the 32-bit word at byte
        4*(l % 4) of row l // 4 (PTX ISA, 'warp-level matrix load'): for the 32-bit data
        Triton moves this way, one word per lane."""
        m = re.fullmatch(r"(ld|st)matrix\.sync\.aligned\.m8n8\.x([124])\.shared\.b16", ins.opcode)
        if not m or ins.guard is not None or self.n % 32:
            raise Unsupported(f"instruction {ins.opcode}")
        load, count = m.group(1) == "ld", int(m.group(2))
        regs = [r.strip() for r in ins.operands[0 if load else 1].strip("{} ").split(",")]
        at = ins.operands[1 if load else 0]
        if len(regs) != count:
            raise Unsupported(f"instruction {ins.text()}")
        for w in range(0, self.n, 32):
            rows = [self.addr(w + lane, at) for lane in range(8 * count)]
            for mat, reg in enumerate(regs):
                for lane in range(32):
                    word = padd(rows[8 * mat + lane // 4], 4 * (lane % 4))
                    if load:
                        self.shared_load(w + lane, pkey(word), reg, True, 4, word)
                    else:
                        self.shared_store(w + lane, pkey(word), self.val(w + lane, reg), True, 4, word)

    def shared_load(self, t, k, reg, g, width=4, at=None):
        if self.tc is not None and self.tc.cp_pending:   # (a wgmma's operands may be read while it runs)
            if at is None:
                raise Unsupported("a shared-memory load while cp.async copies are in flight")
            self.async_hazard(at, width, False)
        if UNDEF in k:
            return self.write(t, reg, self.undef, g)
        value, used = self.undef, []
        hit = self.smem.get(k)
        if hit is not None and hit[3] == width:     # the common case below, with no part to make first
            if self.unordered(hit[1], hit[2], t):
                raise Unsupported("a shared-memory load races a store of another thread (no barrier between)")
            reads = self.smem_reads.get(k)
            if reads is None:
                self.smem_reads[k] = {(t, self.epoch)}
            else:
                reads.add((t, self.epoch))
            return self.write(t, reg, hit[0], g)
        if hit is not None and hit[3] >= width:     # a store at this address as wide or wider
            value, used = (hit[0] if hit[3] == width else self.subword(hit[0], 0, hit[3] // width, hit[3])), [k]
        elif hit is not None and at is not None:    # narrower stores: their parts, side by side
            parts, keys = [], []
            for o in range(0, width, hit[3]):
                kk = pkey(padd(at, o))
                part = self.smem.get(kk)
                if part is None or part[3] != hit[3]:
                    parts = None
                    break
                parts.append(part[0])
                keys.append(kk)
            if parts:
                value, used = self.pack(parts, hit[3]), keys
        elif at is not None:                        # inside a wider store that began below
            for o in range(width, 8, width):
                kk = pkey(padd(at, -o))
                below = self.smem.get(kk)
                if below is not None and below[3] > o and below[3] % width == 0:
                    value, used = self.subword(below[0], o // width, below[3] // width, below[3]), [kk]
                    break
        for kk in used:
            _, writer, epoch, _ = self.smem[kk]
            if self.unordered(writer, epoch, t):
                raise Unsupported("a shared-memory load races a store of another thread (no barrier between)")
        for kk in used or [k]:
            self.smem_reads.setdefault(kk, set()).add((t, self.epoch))
        self.write(t, reg, value, g)

    def unordered(self, other, when, t) -> bool:
        """Whether an access of thread `other` at epochs `when` may run after, or together
        with, thread t's access now."""
        if other == t:
            return False
        same_warp = other // 32 == t // 32
        return when[1] == self.epoch[1] if same_warp else when[0] == self.epoch[0]  # type: ignore[attr-defined]

    def shared_store(self, t, k, v, g, width=4, at=None):
        if UNDEF in k:
            raise Unsupported("a shared-memory store to an address computed from a register never written")
        tc = self.tc
        if tc is not None:   # (a program with cp.async or wgmma)
            if tc.cp_pending or tc.wg_reading:
                if at is None:
                    raise Unsupported("a shared-memory store while asynchronous copies or wgmma steps are in flight")
                self.async_hazard(at, width, True)
            tc.cp_written.discard(k)   # a wgmma reads only what a completed cp.async wrote,
            tc.fenced.pop(k, None)     # or what a plain store wrote and its thread fenced after it
            tc.unfenced.setdefault(t, set()).add(k)
        # shared words are keyed by where they start: a store overlapping a stored word of another
        # start or width would leave part of it stale under the key, so the old word is forgotten (a
        # later read of it is a value equal to nothing) once no other thread's access of it is unordered:
        # tile rings the epilogue reuses at another width, the fp8 B transpose's byte stores under the
        # output's v4 stores, a 16-bit reduction's scratch reused by a packed v4.b32 layout conversion
        same = self.smem.get(k)
        if same is not None and same[3] != width:
            if at is None:
                raise Unsupported("shared-memory stores of different widths overlap")
            self._forget_word(t, _symbolic_part(at), at if isinstance(at, int) else at.get((), 0), same[3])
        if at is not None and not (tc is None and (k, width) in self.words):
            # (without cp.async or wgmma a byte never changes word once claimed, so a word whose
            # bytes all passed needs no second look: self.words holds those)
            c = at if isinstance(at, int) else at.get((), 0)
            sym = _symbolic_part(at)
            for b in range(c, c + width):
                if self.smem_bytes.setdefault((sym, b), (c, width)) != (c, width):
                    self._forget_word(t, sym, *self.smem_bytes[(sym, b)])
                    self.smem_bytes[(sym, b)] = (c, width)
            if tc is None:
                self.words.add((k, width))
        if g == UNDEF_PRED:
            v, g = self.undef, True
        reads = self.smem_reads.get(k)
        if reads:
            # epochs only grow: a read from before the last barrier of both kinds can never race
            # again, so it is dropped (the log stays short where one address exchanges often)
            ep0, ep1 = self.epoch
            live = {x for x in reads if x[1][0] == ep0 or x[1][1] == ep1}
            if len(live) != len(reads):
                self.smem_reads[k] = live
            if any(self.unordered(r, e, t) for r, e in live):
                raise Unsupported("a shared-memory store races a load of another thread (no barrier between)")
        old = self.smem.get(k)
        if old is not None and self.unordered(old[1], old[2], t) and self.key(old[0]) != self.key(v):
            raise Unsupported("two threads store different values to one shared address without a barrier")
        if g is not True:
            v = select(g, v, old[0] if old else self.undef)
        self.smem[k] = (v, t, self.epoch, width)

    def _forget_word(self, t, sym, start, width):
        """A store of another width over a stored word (a ring of cp.async tiles reused by the
        epilogue): the old word is forgotten (a later read of it sees a value equal to nothing),
        after the checks a store to it would make: no unordered read or write of another thread."""
        k = self.word_key(sym, start)
        for r, e in self.smem_reads.pop(k, ()):
            if self.unordered(r, e, t):
                raise Unsupported("a shared-memory store races a load of another thread (no barrier between)")
        old = self.smem.pop(k, None)
        if old is not None and self.unordered(old[1], old[2], t):
            raise Unsupported("a shared-memory store races a store of another thread (no barrier between)")
        if self.tc is not None:
            self.tc.cp_written.discard(k)
            self.tc.fenced.pop(k, None)
        self.words.discard((k, width))   # its bytes are another word's now: a store of it is looked at again
        for b in range(start, start + width):
            if self.smem_bytes.get((sym, b)) == (start, width):
                del self.smem_bytes[(sym, b)]

    def word_key(self, sym, start):
        """The key of the shared word that starts at byte `start` of symbolic part `sym`
        (smem_bytes' coordinates), as stores and loads key it."""
        return pkey(padd(_poly(start), self._sym_poly(sym)) if sym != "0" else start)

    def _sym_poly(self, sym):
        """The symbolic part's polynomial back from its text: only global_smem's ("1*smem")."""
        if sym != "1*smem":
            raise Unsupported("shared-memory stores of different widths overlap")
        return {("smem",): 1}

    def _unwritten_input(self, at) -> bool:
        """Whether global address `at` lies on one pointer argument that no store of this block has
        written: distinct pointer arguments do not overlap (claim_bytes assumes it; the checker's
        contract is outputs not overlapping inputs), so a load there reads the input as launched
        even after stores to other pointers (a softmax's second pass over its input)."""
        bases = _pointer_bases(at)
        return len(bases) == 1 and bases[0] not in self.bases  # type: ignore[attr-defined]

    def claim_bytes(self, sym, const, base, width):
        """Stores of one block may not overlap unless they are the same store: their order is
        not in the roots. Addresses on one pointer must differ by constants to be told apart
        (distinct pointer arguments are assumed not to overlap). The address as _store_site gives it: its
        symbolic part, its constant and its first pointer argument ("?": none)."""
        if self.bases.setdefault(base, sym) != sym:
            raise Unsupported("two stores on one pointer whose addresses may alias (a symbolic difference)")
        key = (sym, const, width)
        for b in range(const, const + width):
            if self.bytes.setdefault((sym, b), key) != key:
                raise Unsupported("two stores of one block overlap in part")

    def stored_parts(self, t, r, width):
        """What a store of register r (`width` bytes) in thread t writes: [(value, bytes)], a packed
        register's parts where it holds them, else the register."""
        v = self.val(t, r)
        parts = self.packs.get(v[1]) if isinstance(v, tuple) and v[0] == "node" else None
        return parts if parts and sum(w for _, w in parts) == width else [(v, width)]

    def storable(self, g, v):
        """Refuse a store of value v under guard g that the roots cannot hold: a guard, or a value, that
        reads a register never written; a value whose NaN payload ptxas may choose."""
        if g == UNDEF_PRED:
            raise Unsupported("a store whose guard or address reads a register never written")
        if self.fnode(v) in self.nodes.undefined:
            raise Unsupported("an output may depend on a register or shared word never written")
        if self.nodes.nanish and self.fnode(v) in self.nodes.nanish:
            raise Unsupported("a float select ptxas may lower to a min or max reaches an output (its NaN payload "
                              "is ptxas's choice)")

    def store(self, k, g, v, width, gname=None):
        """The root at address text k: value v under guard g (gname: g's name in the roots, the
        caller's if it has it), `width` its type's text; refused where two stores conflict."""
        if UNDEF in k:
            raise Unsupported("a store whose guard or address reads a register never written")
        self.storable(g, v)
        if gname is None:
            gname = "always" if g is True else short(str(g))
        entry = (gname, self.key(v), width)
        prev = self.roots.get(k)
        if prev is not None and prev[1:] != entry[1:]:
            raise Unsupported("two stores of different values to one address")
        if prev is not None and prev[0] != entry[0]:
            # the same value stored under either guard: the address holds it under their union,
            # which does not depend on the stores' order (and "always" absorbs the rest)
            guards = self.root_guards.setdefault(k, {prev[0]}) | {entry[0]}
            self.root_guards[k] = guards
            entry = ("always" if "always" in guards else "|".join(f"({x})" for x in sorted(guards)),) + entry[1:]
        self.roots[k] = entry


def _pointer_bases(at) -> list:
    """The pointer arguments a global address is on (sorted): its parameters of degree one.
    Memoised by the address's monomials in order (the answer reads nothing else); a new list
    each time, as the callers may keep it."""
    monomials = tuple(_poly(at))
    hit = _BASES.get(monomials)
    if hit is None:
        hit = tuple(sorted(m[0] for m in monomials if len(m) == 1 and m[0].startswith("param:")))
        if len(_BASES) > 100_000:
            _BASES.clear()
        _BASES[monomials] = hit
    return list(hit)


_BASES = {}   # an address's monomials, in order -> its pointer arguments (_pointer_bases)
