"""The walk's asynchronous copies and tensor-core steps (dataflow.py mixes this in): cp.async
from global into shared memory with its zero fill, and wgmma.mma_async reading its A and B
tiles from shared memory through matrix descriptors, with the hazards both kinds of
asynchrony leave.

What is modelled, and how (PTX ISA 8.7; CUTLASS's GMMA descriptor layouts):
  cp.async.{ca,cg}.shared.global [dst], [src], cp-size[, src-size]: the first src-size bytes
     are copied, the rest of cp-size is zero. Elements (the width the kernel's wgmma reads, or
     2 bytes) are leaves under the predicate "src-size != 0" when src-size is a register known
     bit by bit to be cp-size or 0 (Triton's selp chains); any other src-size is refused. The
     copy is pending until a cp.async.wait_group retires its group: then it is stored, in the
     issuing thread, at the current barrier epoch (another thread needs a bar.sync after that
     to read it, as for st.shared). Any access to a byte with a copy pending is refused.
  wgmma.mma_async.sync.aligned.m64nNkK.f32.<a>.<b> {d}, descA, descB, scale-d, 1, 1[, ta, tb]:
     each descriptor must be (global_smem + c) >> 4 (the 14-bit start field) plus constant
     fields: leading and stride byte offsets, no base offset, swizzle 128B, 64B or 32B. Element
     (row, k) of a K-major operand lies at start + (row % 8) * pitch + (row // 8) * SBO + k * e,
     of an MN-major one (16-bit types) at start + (row % 8T... see _offset) ; the swizzle then
     XORs address bits [4, 4+b) with bits [7, 7+b) (b = 3, 2, 1). D fragment (m64, f32): lane l
     of warp w of the warpgroup holds in register i row 16w + 8((i // 2) % 2) + l // 4 and
     column 8(i // 4) + 2(l % 4) + i % 2. Each output element becomes the node
     (opcode)(d, A row, B column): the instruction and the exact operands it reads, nothing
     reordered; the opcode without its N (m64nNkK): per element a step is the same function of
     its row, column and accumulator whatever N (h200-facts' step model, verified on the H200,
     has no N; the corpus GEMMs at 4 and 8 warps, m64n64 and m64n32 steps, gave one byte pattern). The tiles read must have been written by completed cp.async copies with a
     barrier between (a pseudo reader no thread is ordered with), and no byte read may be
     written, nor any d register touched by another instruction, until a wgmma.wait_group
     retires the step.
Assumed: global_smem starts 1024-byte aligned and shared addresses stay inside the 2^18-byte
window (Triton's swizzled layouts rely on both: its writers swizzle offsets from global_smem,
the tensor core the absolute address); completed cp.async copies are visible to the async
proxy after a bar.sync (Triton emits no proxy fence there); a plain st.shared write (the fp8 B
transpose) reaches a wgmma only if its writing thread then ran fence.proxy.async.shared::cta and
a bar.sync followed that fence (refused otherwise); wgmma.fence is placed as the ISA requires
(not checked).
"""
from __future__ import annotations

import re

from .ptx import Instr
from .rules import _operand, _reg_list
from .poly import padd, pkey
from .symbolic import Unsupported
from .predicates import select
from ._native import trait

SMEM16 = "smem/16"   # the atom (global_smem >> 4): a descriptor's start field
_PROXY_FENCE = "fence.proxy.async.shared::cta"
_WGMMA = re.compile(r"wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k(\d+)\.f32\.(f16|bf16|e4m3|e5m2)\.(f16|bf16|e4m3|e5m2)")
_STEP_NAME = re.compile(r"\.m64n\d+k")
_ELEM = {"f16": 2, "bf16": 2, "e4m3": 1, "e5m2": 1}
_SWIZZLE = {1: (128, 3), 2: (64, 2), 3: (32, 1)}   # descriptor mode -> (pitch in bytes, XOR bits)


def element_width(entry) -> int:
    """The width cp.async copies are held at: the element width every wgmma of the entry reads
    (2 bytes when there is none); mixed widths are refused."""
    widths = {_ELEM[m.group(3)] for i in entry.instructions() if i.base == "wgmma"
              for m in [_WGMMA.fullmatch(i.opcode)] if m}
    if len(widths) > 1:
        raise Unsupported("wgmma operands of different widths in one kernel")
    return widths.pop() if widths else 2


def smem_shift(v):
    """bfe.u32 x, 4, 14 of a shared address x = global_smem + c: (x >> 4) & 0x3FFF, which is
    smem/16 + floor(c / 16) exactly (global_smem is 16-byte aligned, x < 2^18); None if x is
    not of that form. shr.u32 x, 4 is the same value (the 8-warp GEMMs mask it with 0x3FFF after:
    the and then keeps smem/16 + c below 2^14 whole)."""
    if v.__class__ is dict and len(v) <= 2 and v.get(("smem",)) == 1 and all(m in (("smem",), ()) for m in v):
        return padd({(SMEM16,): 1}, v.get((), 0) >> 4)
    return None


def smem_or(a, b):
    """or of a start field smem/16 + c (below 2^14) and a constant with no bit below 14: their
    sum (no carries). None where that does not apply."""
    if b.__class__ is dict:
        a, b = b, a
    if b.__class__ is not int or a.__class__ is not dict or (b & 0x3FFF):
        return None
    if a.get((SMEM16,)) == 1 and all(m in ((SMEM16,), ()) for m in a) and 0 <= a.get((), 0) < (1 << 14):
        return padd(a, b & ((1 << 64) - 1))
    return None


class _Async:
    """The asynchronous state of one walk of a program that issues cp.async or wgmma."""
    __slots__ = ("elem", "cp_open", "cp_groups", "cp_pending", "cp_written", "wg_open", "wg_groups",
                 "wg_reading", "wg_regs", "mma", "unfenced", "fenced")

    def __init__(self, elem):
        self.elem = elem                          # the width copies are held at (element_width)
        self.cp_open, self.cp_groups = [], []     # copies issued: (thread, address, width, value)
        self.cp_pending = {}                      # (symbolic part, byte) -> copies pending there
        self.cp_written = set()                   # shared keys whose value a completed copy wrote
        self.wg_open, self.wg_groups = [], []     # steps issued: (bytes read, d registers)
        self.wg_reading = {}                      # (symbolic part, byte) -> in-flight steps reading it
        self.wg_regs = {}                         # d register -> in-flight steps writing it
        self.mma = {}                             # node id -> (opcode, d node, A key, B key): a step
        # plain st.shared writes (the fp8 B transpose) reach the async proxy through a
        # fence.proxy.async of the writing thread and then a bar.sync before the wgmma:
        self.unfenced = {}                        # thread -> shared keys it wrote since its last fence
        self.fenced = {}                          # shared key -> bar.sync count when its writer fenced it


@trait     # mixed into dataflow._Block (a mypyc trait when compiled: _native.trait)
class TensorCore:
    """cp.async and wgmma for a _Block (dataflow.py), which this is mixed into; called only
    where self.tc is not None."""

    def _tc_init(self, entry):
        # decided once per program: without cp.async and wgmma none of this model's rules apply
        # and self.tc is None (the walk then runs as it did before the model existed; the state
        # lives in one attribute so that _Block keeps few enough attributes for CPython's fast
        # instance-attribute path)
        self.tc = _Async(element_width(entry)) if uses_tensor_cores(entry) else None

    # hazards ---------------------------------------------------------------------------------
    def async_hazard(self, at, width, write):
        """Refuse an access of `width` bytes at `at` that overlaps a pending copy, or a write that
        overlaps an in-flight wgmma's operands (called only while either exists)."""
        sym, c = _split(at)
        if sym != _SMEM_PART:   # every asynchronous access is at global_smem + a constant (_cp_async)
            raise Unsupported("a shared-memory access that cannot be told apart from an asynchronous one")
        for b in range(c, c + width):
            if (sym, b) in self.tc.cp_pending:
                raise Unsupported("a shared-memory access overlaps a cp.async copy still in flight")
            if write and (sym, b) in self.tc.wg_reading:
                raise Unsupported("a shared-memory write overlaps a wgmma operand still in flight")

    def tensor(self, ins):
        """Run one cp.async or wgmma instruction (all threads)."""
        op = ins.opcode
        if op == "cp.async.commit_group":
            self.tc.cp_groups.append(self.tc.cp_open)
            self.tc.cp_open = []
            return
        if op == "cp.async.wait_group":
            return self._cp_wait(int(ins.operands[0], 0))
        if op.startswith("cp.async.") and ".shared.global" in op and op.split(".")[2] in ("ca", "cg"):
            for t in range(self.n):
                g = self.guard(t, ins)
                if g is not False:
                    self._cp_async(t, ins, g)
            return
        if op == "wgmma.fence.sync.aligned":
            return
        if op == _PROXY_FENCE:
            for t in range(self.n):
                g = self.guard(t, ins)
                if g is True:
                    for k in self.tc.unfenced.pop(t, ()):
                        self.tc.fenced[k] = self.epoch[0]
                elif g is not False:
                    raise Unsupported("a fence.proxy.async under a symbolic guard")
            return
        if op == "wgmma.commit_group.sync.aligned":
            self.tc.wg_groups.append(self.tc.wg_open)
            self.tc.wg_open = []
            return
        if op == "wgmma.wait_group.sync.aligned":
            keep = int(ins.operands[0], 0)
            while len(self.tc.wg_groups) > keep:
                for read, regs in self.tc.wg_groups.pop(0):
                    _release(self.tc.wg_reading, read)
                    _release(self.tc.wg_regs, regs)
            return
        if _WGMMA.fullmatch(op):
            return self._wgmma(ins)
        raise Unsupported(f"instruction {op}")

    def touches_inflight(self, ins) -> bool:
        """Whether ins reads or writes a d register of a wgmma still in flight (other than a
        wgmma.mma_async continuing the chain, which the hardware orders)."""
        if ins.base == "wgmma" and _WGMMA.fullmatch(ins.opcode):
            return False
        text = " ".join(ins.operands) + (ins.guard[1] if ins.guard else "")
        return any(r in self.tc.wg_regs for r in re.findall(r"%[\w$.]+", text))

    # cp.async --------------------------------------------------------------------------------
    def _cp_async(self, t, ins, g):
        if g is not True:
            raise Unsupported("a guarded cp.async")
        ops = ins.operands
        if len(ops) not in (3, 4):
            raise Unsupported(f"cp.async form {ins.text()}")
        dst, src = self.addr(t, ops[0]), self.addr(t, ops[1])
        size = self.val(t, ops[2])
        fill = self.val(t, ops[3]) if len(ops) == 4 else size
        if size not in (4, 8, 16) or size % self.tc.elem:
            raise Unsupported(f"cp.async size {ins.text()}")
        if self.stored:
            raise Unsupported("a global load after a global store (they may alias)")
        if fill.__class__ is int:
            if fill % self.tc.elem or not 0 <= fill <= size:
                raise Unsupported("a cp.async src-size that splits an element")
            conds = [True if i * self.tc.elem < fill else False for i in range(size // self.tc.elem)]
        else:   # a register known bit by bit to be `size` (on predicate p) or 0
            known = self.bits.known(fill)
            if known is None:
                raise Unsupported("a cp.async src-size that is not size-or-zero on a predicate")
            bits = known[1]
            hi = size.bit_length() - 1
            if any(b is not False for i, b in enumerate(bits) if i != hi) or bits[hi] is True:
                raise Unsupported("a cp.async src-size that is not size-or-zero on a predicate")
            conds = [bits[hi]] * (size // self.tc.elem)
        if self.tc.wg_reading:
            self.async_hazard(dst, size, True)
        sym, c = _split(dst)
        if sym != _SMEM_PART:
            raise Unsupported("a cp.async to a shared address other than global_smem + a constant")
        for i, p in enumerate(conds):
            at = padd(dst, i * self.tc.elem)
            if p is False:
                v = 0
            else:
                v = self.load(padd(src, i * self.tc.elem), self.tc.elem)
                if p is not True:
                    v = select(p, v, 0)
            self.tc.cp_open.append((t, at, self.tc.elem, v))
        for b in range(c, c + size):
            self.tc.cp_pending[(sym, b)] = self.tc.cp_pending.get((sym, b), 0) + 1

    def _cp_wait(self, keep):
        while len(self.tc.cp_groups) > keep:
            group = self.tc.cp_groups.pop(0)
            for t, at, w, v in group:     # the pending marks go first: the store itself is allowed
                sym, c = _split(at)
                _release(self.tc.cp_pending, [(sym, b) for b in range(c, c + w)])
            for t, at, w, v in group:
                k = pkey(at)
                self.shared_store(t, k, v, True, w, at)
                self.tc.cp_written.add(k)

    # wgmma -----------------------------------------------------------------------------------
    def _wgmma(self, ins):
        m = _WGMMA.fullmatch(ins.opcode)
        n_dim, k_dim, ta_type, tb_type = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        ops = ins.operands
        d = _reg_list(ops[0])
        ea, eb = _ELEM[ta_type], _ELEM[tb_type]
        if ins.guard is not None or self.n % 128 or len(d) != n_dim // 2 or k_dim * ea != 32 or ea != eb:
            raise Unsupported(f"wgmma form {ins.text()}")
        # A from registers (the "RS" form: {a0..a3}, and imm-trans-b only) or from shared memory
        a_regs = _reg_list(ops[1]) if ops[1].startswith("{") else None
        imm = [_operand(o) for o in ops[4:]]
        if any(k != "value" or v.__class__ is not int for k, v in imm) or \
                len(imm) not in ((3,) if a_regs is not None else (2, 4)):
            raise Unsupported(f"wgmma form {ins.text()}")
        flags = [v for _, v in imm]
        if flags[:2] != [1, 1] or any(f not in (0, 1) for f in flags[2:]):
            raise Unsupported("a wgmma with negated operands")
        trans_a, trans_b = (0, flags[2]) if a_regs is not None else (flags[2:] + [0, 0])[:2]
        if (trans_a or trans_b) and ea != 2:
            raise Unsupported("a transposed 8-bit wgmma operand")
        if a_regs is not None and (ea != 2 or len(a_regs) != 4):
            raise Unsupported(f"wgmma form {ins.text()}")
        for g0 in range(0, self.n, 128):
            scale = {self.val(t, ops[3]) for t in range(g0, g0 + 128)}
            descs = [{pkey(self.val(t, ops[j])) for t in range(g0, g0 + 128)} for j in ((2,) if a_regs else (1, 2))]
            if len(scale) != 1 or any(len(s) != 1 for s in descs):
                raise Unsupported("wgmma operands that differ within a warpgroup")
            scale = scale.pop()
            if scale not in (True, False):
                raise Unsupported("a wgmma whose scale-d is not a constant")
            reader = -1 - g0 // 128   # a pseudo thread: no thread's write is ordered with it by program order
            b_addr = _descriptor(self.val(g0, ops[2]))
            read = []
            if a_regs is not None:
                rows = [self._register_row(g0, a_regs, r, k_dim) for r in range(64)]
            else:
                a_addr = _descriptor(self.val(g0, ops[1]))
                rows = [self._operand_row(reader, a_addr, r, k_dim, ea, trans_a, "wgA", read) for r in range(64)]
            cols = [self._operand_row(reader, b_addr, c, k_dim, eb, trans_b, "wgB", read) for c in range(n_dim)]
            # the step named without its N: an output element's step reads its A row, its B
            # column and its accumulator only (the H200-verified step model has no N)
            key = f"{_STEP_NAME.sub('.m64nNk', ins.opcode)}:{'acc' if scale else 'zero'}"
            for t in range(g0, g0 + 128):
                lt = t - g0
                w, lane = lt // 32, lt % 32
                for i, r in enumerate(d):
                    row = 16 * w + 8 * ((i // 2) % 2) + lane // 4
                    col = 8 * (i // 4) + 2 * (lane % 4) + i % 2
                    column = self.column(r)
                    kids = [self.fnode(column[t])] if scale else []
                    nid = self.nodes.make(key, kids + [rows[row], cols[col]])
                    self.tc.mma[nid] = (key, kids[0] if kids else None, rows[row], cols[col])
                    column[t] = ("node", nid)
            self.uniform.difference_update(d)
            for b in read:
                self.tc.wg_reading[b] = self.tc.wg_reading.get(b, 0) + 1
            # d registers, and A's registers (the step reads them while it runs), are in flight
            held = list(d) + list(a_regs or ())
            for r in held:
                self.tc.wg_regs[r] = self.tc.wg_regs.get(r, 0) + 1
            self.tc.wg_open.append((read, held))

    def _register_row(self, g0, a_regs, row, k_dim):
        """The node of A row `row` of a step whose A comes from registers (16-bit elements): warp
        row // 16 of the warpgroup holds rows 16w..16w+15 as mma.m16n8k16 holds A: register i of
        lane 4g + c packs the elements (g + 8 (i % 2), 2c + 8 (i // 2) + {0, 1}), low half first."""
        w, rr = divmod(row, 16)
        kids = []
        for k in range(k_dim):
            t = g0 + 32 * w + 4 * (rr % 8) + (k % 8) // 2
            v = self.val(t, a_regs[rr // 8 + 2 * (k // 8)])
            kids.append(self.fnode(self.subword(v, k % 2, 2, 4)))
        return self.nodes.make("wgA", kids)

    def _operand_row(self, reader, desc, row, k_dim, e, mn_major, tag, read):
        """The node of one A row or B column of a step: its k_dim elements, read from shared
        memory where the descriptor's layout puts them."""
        start, lbo, sbo, pitch, xor_bits = desc
        kids = []
        for k in range(k_dim):
            if mn_major:   # ((T, W, m), (8, k)) : ((e, 16, LBO), (pitch, SBO)) bytes, T = 16 / e, W = pitch / 16
                per = pitch // e
                off = (row % per) * e + (row // per) * lbo + (k % 8) * pitch + (k // 8) * sbo
            else:          # ((8, m), (T, 2)) : ((pitch, SBO), (e, 16)) bytes
                off = (row % 8) * pitch + (row // 8) * sbo + k * e
            off += start
            off ^= ((off >> 7) & ((1 << xor_bits) - 1)) << 4
            at = padd({("smem",): 1}, off)
            k_at = pkey(at)
            if self.tc.cp_pending:
                self.async_hazard(at, e, False)
            # a plain store keys its word by where it starts: an element inside a wider stored word
            # (fp16 halves of a v4.b32 store of Q in attention) is fenced when that word is
            word = self.smem_bytes.get((_SMEM_PART, off))
            k_word = self.word_key(_SMEM_PART, word[0]) if word is not None else k_at
            fenced = self.tc.fenced.get(k_word)
            if k_at not in self.tc.cp_written and (fenced is None or fenced >= self.epoch[0]):
                raise Unsupported("a wgmma operand not written by a completed cp.async (nor fenced to the async proxy "
                                  "by its writer before a bar.sync)")
            self.shared_load(reader, k_at, "%wgmma-operand", True, e, at)
            # read back and forgotten (a later read of it sees a value equal to nothing)
            column = self.cols["%wgmma-operand"]
            value, column[reader] = column[reader], self.undef
            kids.append(self.fnode(value))
            read.extend((_SMEM_PART, b) for b in range(off, off + e))
        return self.nodes.make(tag, kids)


def _descriptor(v):
    """(start byte offset from global_smem, LBO, SBO, pitch, XOR bits) of a wgmma matrix
    descriptor smem/16 + D (D constant): the fields of PTX's 64-bit descriptor, refused unless
    the start field is global_smem's, there is no base offset and the layout is swizzled."""
    if v.__class__ is not dict or v.get((SMEM16,)) != 1 or any(m not in ((SMEM16,), ()) for m in v):
        raise Unsupported("a wgmma descriptor not computed from a shared address")
    d = v.get((), 0) & ((1 << 64) - 1)
    start, lbo, sbo, base, mode = d & 0x3FFF, (d >> 16) & 0x3FFF, (d >> 32) & 0x3FFF, (d >> 49) & 7, d >> 62
    rest = d & ~(0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (7 << 49) | (3 << 62))
    if base or rest or mode not in _SWIZZLE:
        raise Unsupported("a wgmma descriptor with a base offset, reserved bits or no swizzle")
    pitch, xor_bits = _SWIZZLE[mode]
    return 16 * start, 16 * lbo, 16 * sbo, pitch, xor_bits


_SMEM_PART = "1*smem"   # _split's symbolic part of global_smem + c


def _split(at):
    """(symbolic part, constant) of an address; the symbolic part as text."""
    if at.__class__ is int:
        return "0", at
    return pkey({m: c for m, c in at.items() if m}) or "0", at.get((), 0)


def _release(table, items):
    for x in items:
        left = table[x] - 1
        if left:
            table[x] = left
        else:
            del table[x]


def uses_tensor_cores(entry) -> bool:
    """Whether the entry issues cp.async or wgmma (the walk then applies this module's rules)."""
    return any(i.base in ("cp", "wgmma") for i in entry.body if i.__class__ is Instr)


__all__ = ["TensorCore", "element_width", "smem_or", "smem_shift", "uses_tensor_cores"]
