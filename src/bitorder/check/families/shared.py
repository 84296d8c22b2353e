"""Shared memory over one symbolic thread (docs/check-families.md, step 4): a store records, per element, which
thread wrote each word; a load after a barrier reads, in thread t, the family the writer w(t) stored, V[w(t)], where
each bit of w(t) over the reading threads is a constant or one bit of t (else it falls back: Unsupported).

The concrete walk's rules, decided here on whole instructions: a word is read at the width it was written, or a
4-byte read of two 2-byte words as their pack; a read of a word another thread wrote, or a write of a word another
thread read, with no barrier both threads take between them is a race (refused; bar.sync orders the block,
bar.warp.sync a warp); a read of a word never written is refused too, and two threads storing one word in one store
must store one value (their family reads no bit they differ in). A read of words several stores wrote is a case
split on the reading threads. ldmatrix / stmatrix move one 32-bit word a lane (matrix). Guards of shared accesses
must be masks of the thread index (a guard that reads a symbol falls back)."""
from __future__ import annotations

import re

from ..rules import _address, _reg_list
from ..symbolic import _BITS, Unsupported
from . import floats as ff
from . import integers as fi
from . import predicates as fp
from . import subst as fsub


class _Word:
    """One element of a shared store: its value family, width, barrier intervals (block's, warp's) and {offset:
    writer thread}."""

    def __init__(self, value, width: int, epoch: tuple, writers: dict) -> None:
        self.value, self.width, self.epoch, self.writers = value, width, epoch, writers


class Shared:
    def __init__(self) -> None:
        # (bar.sync count, bar.sync + bar.warp.sync count): accesses of two threads are ordered where a barrier both
        # take lies between them, a warp barrier ordering one warp (dataflow's epochs)
        self.epoch = (0, 0)
        self.words: dict = {}   # offset -> the latest _Word that wrote a word starting there
        # byte -> (start, width) of the word that holds it: a store over bytes of a word of another start or width
        # forgets that word (a later read of it falls back), as memory.shared_store forgets it
        self.claims: dict = {}
        # a word's start -> {when (the epoch of a read since the last full barrier): the threads that read it then,
        # as a bit mask}: a write's race check asks "a thread other than t, not ordered before t", by mask
        self.readers: dict = {}

    def barrier(self) -> None:
        self.epoch = (self.epoch[0] + 1, self.epoch[1] + 1)
        self.readers = {}

    def warp_barrier(self) -> None:
        self.epoch = (self.epoch[0], self.epoch[1] + 1)

    def ordered(self, when: tuple, a: int, b: int) -> bool:
        """Whether an access of thread a at `when` and one of thread b now have a barrier both take between them."""
        return when[1] != self.epoch[1] if a >> 5 == b >> 5 else when[0] != self.epoch[0]

    def _unordered_readers(self, start: int, t: int) -> int:
        """The threads other than t that read the word at `start` with no barrier both take between that read and
        now (ordered's rule over masks: a warp barrier since orders t's own warp, a full barrier everyone)."""
        e0, e1 = self.epoch
        out = 0
        for when, mask in self.readers[start].items():
            if when[0] != e0:         # (a full barrier since; readers are cleared at one, so this is defensive)
                continue
            out |= mask & ~(0xFFFFFFFF << (t & ~31)) if when[1] != e1 else mask & ~(1 << t)
        return out

    def _offsets(self, w, ins, at: int):
        """([(thread, offset)] of the threads the guard admits, its width, the guard) of a shared access."""
        width = _BITS.get(ins.opcode.split(".")[-1])
        if width not in (2, 4):
            raise Unsupported(f"a shared access {ins.opcode}")
        g = w.guard(ins)
        if g.__class__ not in (bool, fp.Mask):
            raise Unsupported("a shared access under a guard that reads a symbol")
        where = self._addresses(w, ins.operands[at])
        return [(t, where[t]) for t in range(w.n) if g is True or g.__class__ is fp.Mask and g.bits >> t & 1], width, g

    @staticmethod
    def _addresses(w, text: str) -> list:
        """The byte offset in shared memory of address operand `text` at every thread."""
        base, offset = _address(text)
        a = w.operand(base)
        if a.__class__ is dict:
            a = {m: c for m, c in a.items() if m != ("smem",) or c != 1} if a.get(("smem",)) == 1 else None
        if a is None or a.__class__ not in (int, dict) or not fi._free_of_symbols(a if a else 0):
            raise Unsupported("a shared address that is not smem plus a function of the thread index")
        out = [x + offset for x in fi.values(a, w.n)] if a else [offset] * w.n
        if any(o.__class__ is not int for o in out):
            raise Unsupported("a shared address the bit rules leave opaque")
        return out

    def matrix(self, w, ins) -> None:
        """ldmatrix / stmatrix .m8n8 .b16 without .trans (memory.matrix's reading of the PTX ISA): matrix m's eight
        row addresses come from lanes 8m..8m+7 of the warp, and lane l moves the 32-bit word at byte 4 (l % 4) of
        row l // 4."""
        m = re.fullmatch(r"(ld|st)matrix\.sync\.aligned\.m8n8\.x([124])\.shared\.b16", ins.opcode)
        if not m or ins.guard is not None or w.n % 32:
            raise Unsupported(f"a shared access {ins.opcode}")
        load, count = m.group(1) == "ld", int(m.group(2))
        regs = _reg_list(ins.operands[0 if load else 1])
        if len(regs) != count:
            raise Unsupported(f"a shared access {ins.text()}")
        rows = self._addresses(w, ins.operands[1 if load else 0])
        for mat, reg in enumerate(regs):
            at = [(t, rows[(t & ~31) + 8 * mat + (t & 31) // 4] + 4 * (t & 3)) for t in range(w.n)]
            if load:
                w.write(reg, self.read(w, at, 4))
            else:
                self.write(w, at, 4, w.operand(reg))

    def store(self, w, ins) -> None:
        at, width, _ = self._offsets(w, ins, 0)
        for i, r in enumerate(_reg_list(ins.operands[1])):
            self.write(w, [(t, o + i * width) for t, o in at], width, w.operand(r))

    def write(self, w, at: list, width: int, v) -> None:
        """Threads t store v (their own value of the family) at offsets o, [(t, o)]."""
        if v.__class__ in (dict, bool, fp.Mask, fp.Each, ff.Shfl, ff.Wide, ff.Bits):
            raise Unsupported("a shared store of an index, a predicate or a shuffle")
        writers: dict = {}
        varies = None
        claims = self.claims
        for t, o in at:
            if o in writers:
                # two threads store one word: the same value where it reads no bit they differ in
                varies = fsub.reads(v, w.n, w.memo) if varies is None else varies
                if varies & (t ^ writers[o]):
                    raise Unsupported("two threads store one shared word in one instruction, maybe unalike")
                continue
            # (a word held whole at this start and width: every byte of it is claimed so, and no other word's)
            starts = (o,) if claims.get(o) == (o, width) else \
                {o, *(claims[b][0] for b in range(o, o + width) if b in claims)}
            for start in starts:
                if start in self.readers and self._unordered_readers(start, t):
                    raise Unsupported("a shared word written where another thread read it, with no barrier between")
                prev = self.words.get(start)
                if prev is not None and prev.writers.get(start, t) != t and \
                        not self.ordered(prev.epoch, prev.writers[start], t):
                    raise Unsupported("two threads store one shared word with no barrier between")
            writers[o] = t
        word = _Word(v, width, self.epoch, writers)
        for o in writers:
            if claims.get(o) == (o, width):      # (held whole already: its bytes' claims stay as they are)
                self.words[o] = word
                continue
            for b in range(o, o + width):
                old = self.claims.get(b)
                if old is not None and old != (o, width):
                    self.words.pop(old[0], None)
                    for c in range(old[0], old[0] + old[1]):
                        if self.claims.get(c) == old:
                            del self.claims[c]
                self.claims[b] = (o, width)
            self.words[o] = word

    def load(self, w, ins) -> None:
        at, width, g = self._offsets(w, ins, 1)
        for i, d in enumerate(_reg_list(ins.operands[0])):
            if not at:        # (no thread reads: the guard is false everywhere)
                continue
            v = self.read(w, [(t, o + i * width) for t, o in at], width)
            if g is not True:
                v = ff.Select(g, v, w.operand(d))
            w.write(d, v)

    def read(self, w, at: list, width: int):
        """The family threads t read at offsets o ([(t, o)], width bytes): each store's readers read its value under
        their own substitution; several stores: a case split on the readers (a mask of the thread index), the last
        store's value where no other's readers are. A 4-byte read of 2-byte words is the pack of its two halves,
        each read so (memory.shared_load's narrower stores side by side), and a 2-byte read inside a 4-byte word its
        half (memory.subword)."""
        groups: dict = {}    # (the store each reader reads, the part of it) -> [(reader, its writer)]
        read: dict = {}      # a word's start -> the threads reading it here, as a bit mask
        claims, words = self.claims, self.words
        seen: dict = {}      # an offset read -> (its word's start, the word, its writer, the group): the same for
        for t, o in at:      # every thread reading it (its checks made at its first reader, as the loop meets it)
            hit = seen.get(o)
            if hit is None:
                c = claims.get(o)
                if c is None:
                    raise Unsupported("a shared read of a word never written")
                start, held = c
                if held != width or start != o:
                    if width == 4 and c == (o, 2) and claims.get(o + 2) == (o + 2, 2):
                        return ff.pack([self.read(w, [(t, o + h) for t, o in at], 2) for h in (0, 2)], 2)
                    if not (width == 2 and held == 4):
                        raise Unsupported("a shared read across words, or of part of one")
                x = words[start]
                group = groups.setdefault((x, (o - start) // width), [])
                hit = seen[o] = (start, x, x.writers[start], group)
            start, x, writer, group = hit
            if writer != t and not self.ordered(x.epoch, writer, t):
                raise Unsupported("a shared word read where another thread wrote it, with no barrier between")
            read[start] = read.get(start, 0) | 1 << t
            group.append((t, writer))
        for start, mask in read.items():
            now = self.readers.setdefault(start, {})
            now[self.epoch] = now.get(self.epoch, 0) | mask
        v = None
        placed: list = list(groups.items())
        for word_part, pairs in placed[::-1]:      # (mypyc 1.x fails on reversed() of an untyped list here)
            word, i = word_part
            fam = fsub.family(word.value, _sigma(pairs, w.k), w.n, w.memo)
            if word.width != width:       # (a 2-byte half of a 4-byte word: memory.subword)
                fam = ff.part(fam, i, word.width // width, word.width)
                if fam is None:
                    raise Unsupported("a half of a shared word no family names")
            v = fam if v is None else ff.Select(fp._mask(sum(1 << t for t, _ in pairs), w.n), fam, v)
        return v


def _sigma(pairs: list, k: int) -> tuple:
    """The substitution that gives each reader t its writer w(t) ([(t, w(t))]): each writer bit a constant or one of
    t's bits over the readers, else Unsupported."""
    by_writer: dict = {}     # a writer -> its readers, as a bit mask (most words have one writer, or a few)
    for t, w in pairs:
        by_writer[w] = by_writer.get(w, 0) | 1 << t
    readers = 0
    ones = [0] * k       # per writer bit j: the readers whose writer has bit j set
    for w, b in by_writer.items():
        readers |= b
        while w:            # (the writer's set bits alone)
            low = w & -w
            ones[low.bit_length() - 1] |= b
            w ^= low
    out = []
    for j in range(k):
        if ones[j] in (0, readers):
            out.append(-2 if ones[j] else -1)
            continue
        for q in range(k):
            if fi.half(1 << k, q, True) & readers == ones[j]:
                out.append(q)
                break
        else:
            raise Unsupported("a shared read whose writer is not a bit map of the reader")
    return tuple(out)
