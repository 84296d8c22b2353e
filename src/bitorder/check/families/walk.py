"""The walk over one symbolic thread (docs/check-families.md, steps 2-4): a kernel's stores as families, one per
store element, where the concrete walk (dataflow.py) makes one tree per thread.

It takes straight-line code and refuses the rest (`Unsupported`, and the caller falls back to the concrete walk):
integer and predicate instructions as families/integers.py and predicates.py compute them; global loads of 16, 32
or 64 bits (guarded ones as selects on their guard); the float instructions whose key is a plain hash (floats.node)
and joins (max: a Node or Red of the join's opcode, keyed as a set), f16x2 / bf16x2 conversions into packs, and the
parts of packs and of loads; float comparisons (an Each "fcmp") and integer comparisons and instructions on a float's
bits (an Each "tcmp", floats.Bits: the log's bit tricks, a loaded index, a predicate's bits); selp of floats on a
predicate family (a Select), of integers (a Bits); mov.pred; full-warp butterfly shuffles that feed a commuting
instruction or a join (floats.Red; 16-bit ones through cvt.u32.u16, floats.Wide, and a prmt.b32 pack of two such
halves: permute), 32-bit ones read as data (moved: a select over the lane bit), and idx shuffles from lanes that are
thread bits (broadcast); shared-memory stores and loads, ldmatrix / stmatrix too, ordered by bar.sync and
bar.warp.sync (shared.py); forward branches over straight-line code (hammock: the region's registers end as
selects); global stores of floats, packs and constants, unguarded or under a predicate family of integers. No loop,
tensor-core or async instruction. Where the concrete walk refuses a construct for a reason it reads from the trees
(a multiply that ptxas may contract into an add that reads it, a register never written reaching a store, a select
ptxas may lower to a min or max reaching a store: payloads.py), this walk refuses it too, by a rule at least as
strict; one-hot sums, which the concrete walk keys by their terms (onehot.py), it refuses.

`walk(entry, divisible)` returns the `Store`s: each a family of its address, guard and value, and its type's text.
`roots_at(stores, n)` (families/roots.py) puts them at every thread: the concrete walk's roots exactly (tests and
benchmarks/families_walk.py compare the two), so the families are faithful where they agree."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any    # (dataclass fields: mypyc resolves their annotations in the module, where object is not)

from .. import onehot
from ..poly import atom
from ..ptx import Entry, Instr, Label
from ..rules import _address, _float_cmp, _hammock, _operand, _reg_list
from ..symbolic import _BITS, _COMMUTES, _FLOAT_TYPE, _JOINED, _is_float_op, _pair_cvt, Unsupported
from . import floats as ff
from . import integers as fi
from . import predicates as fp
from . import subst as fsub
from .roots import roots_at
from .shared import Shared

__all__ = ["MAX_MEMO", "Store", "roots_at", "walk"]   # (roots_at: the walk's check, read here by tests and benchmarks)

_INT = {"add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "cvt", "neg", "not", "min", "max", "bfe",
        "popc"}
_REFUSED = {"barrier", "cp", "wgmma", "mma", "atom", "red"}


_POISON = object()     # a register a branch's region wrote that this walk does not model after it (run, leave)

# the substitutions (and their memo's other entries) a walk may make before it gives way to the concrete walk: a
# compare-and-select reduction's moved halves (moved) grow threefold a butterfly step, and past this the concrete walk
# is the cheaper of the two. The largest a walked corpus configuration reaches is 62,513 (2026-12-07b, again 2026-12-07f:
# docs/check-families.md); the refused ones reach 854,000, and stop sooner under a lower bound
MAX_MEMO = 80_000


@dataclass(frozen=True, eq=False)
class Store:
    """One stored element: `value` (a float family, or an integer one for constant bits) at the integer family
    `address` where the predicate family `guard` holds, `width` the type's text ("b32", "b16")."""
    address: Any
    guard: Any
    value: Any
    width: str


class _Walk:
    def __init__(self, entry: Entry, divisible=frozenset()):
        if not entry.reqntid:
            raise Unsupported("no .reqntid launch bound")
        self.n = entry.reqntid[0]
        self.tid = fi.thread_index(self.n)
        self.k = self.n.bit_length() - 1     # thread bits
        self.memo: dict = {}                 # substitutions made (subst.family's memo)
        self.undef_memo: dict = {}           # _may_read_undefined's
        self.nan_memo: dict = {}             # floats.nanish's
        self.term_memo: dict = {}            # _may_be_term's
        self.shared = Shared()
        self.regs: dict = {}
        self.stores: list = []
        self.params = {p: ({(f"param:arg{i}/16",): 16} if i in divisible else atom(f"param:arg{i}"))
                       for i, p in enumerate(entry.params)}

    def operand(self, text: str):
        kind, x = _operand(text)
        if kind == "reg":
            v = self.regs.get(x, ff.UNDEF)
            if v is _POISON:
                raise Unsupported("a register a branch's region wrote with no float family")
            return v
        return self.tid if kind == "tid" else self.n if kind == "ntid" else x

    def run(self, body) -> list:
        labels = {item.name: i for i, item in enumerate(body) if isinstance(item, Label)}
        region = None
        for i, item in enumerate(body):
            if region is not None and i == region[0]:
                self.leave(*region)
                region = None
            if isinstance(item, Label):
                continue
            if item.opcode == "ret":
                if item.guard is not None or region is not None:
                    raise Unsupported("a guarded return")
                break
            if item.base == "bra":
                region = self.hammock(body, i, labels, region)
                continue
            if region is not None and (item.base in ("ld", "st", "shfl", "bar") and ".param" not in item.opcode):
                raise Unsupported(f"{item.opcode} inside a branch's region")
            self.step(item)
        return self.stores

    def hammock(self, body, at: int, labels: dict, region):
        """A guarded forward branch over straight-line code (rules._hammock, as the concrete walk takes it: the code
        runs in the threads that do not branch): (its end, that condition, the registers before it)."""
        ins = body[at]
        end = _hammock(body, at, labels) if region is None else None
        if end is None:
            raise Unsupported("not a family instruction: bra")
        p = self.regs.get(ins.guard[1], ff.UNDEF)
        if p.__class__ not in (bool, fp.Mask, fp.Each):
            raise Unsupported("a branch on a register that holds no predicate")
        ran = p if ins.guard[0] else fp.combine("not", [p], self.n)     # (the threads that do not branch)
        return end, ran, dict(self.regs)

    def leave(self, end: int, ran, before: dict) -> None:
        """The end of a branch's region: a register it wrote holds ran ? its value : its value before (Regions'
        rule); one that is not a float family is poisoned (read again, the walk falls back)."""
        for r, v in list(self.regs.items()):
            old = before.get(r, ff.UNDEF)
            if v is old:
                continue
            if ran is True or ran is False:
                self.regs[r] = v if ran else old
            elif _is_float_family(v) and (old is ff.UNDEF or _is_float_family(old)):
                self.regs[r] = ff.Select(ran, v, old)
            else:
                self.regs[r] = _POISON

    def step(self, ins: Instr) -> None:
        if len(self.memo) > MAX_MEMO:
            raise Unsupported(f"more than {MAX_MEMO} substitutions: the concrete walk is the cheaper there")
        op, base, ops = ins.opcode, ins.base, ins.operands
        if _refused(base, op):
            raise Unsupported(f"not a family instruction: {op}")
        if base in ("ldmatrix", "stmatrix"):
            return self.shared.matrix(self, ins)
        if ".shared" in op:
            return self.shared.load(self, ins) if base == "ld" else self.shared.store(self, ins)
        if base == "st":
            return self.store(ins)
        if base == "ld" and ".global" in op:
            return self.load(ins)
        if base == "bar":
            if op == "bar.warp.sync" and ins.guard is None and self.operand(ops[0]) in (-1, 0xFFFFFFFF):
                return self.shared.warp_barrier()
            if op not in ("bar.sync", "bar.sync.aligned") or ins.guard is not None or ops != ("0",):
                raise Unsupported(f"a partial barrier {ins.text()}")
            return self.shared.barrier()
        if base == "shfl":
            return self.shuffle(ins)
        if ins.guard is not None:
            raise Unsupported(f"a guarded {op}")
        if base == "ld":
            return self.write(ops[0], self.params[_address(ops[1])[0]])
        if base == "mov" and "{" in ops[0]:                # unpack: mov.b32 {lo, hi}, r
            dsts = _reg_list(ops[0])
            v = self.operand(ops[1])
            for i, d in enumerate(dsts):
                self.write(d, ff.part(v, i, len(dsts), _BITS[op.split(".")[-1]]))
            return
        if base == "mov" and "{" in ops[1]:                # pack: mov.b32 r, {lo, hi}
            srcs = [self.operand(x) for x in _reg_list(ops[1])]
            return self.write(ops[0], ff.pack(srcs, _BITS[op.split(".")[-1]] // len(srcs)))
        if base == "mov" or base == "cvta" and ".to.global" in op:
            v = self.operand(ops[1])
            if op.endswith(".pred"):        # a constant (dataflow: v != 0) or a predicate family, copied
                if v.__class__ is int:
                    return self.write(ops[0], v != 0)
                if v.__class__ not in (bool, fp.Mask, fp.Each):
                    raise Unsupported("mov.pred of a register that holds no predicate")
                return self.write(ops[0], v)
            if op.endswith("16") and v.__class__ is int and _operand(ops[1])[0] == "value":
                v &= 0xFFFF
            return self.write(ops[0], v)
        args = [self.operand(o) for o in ops[1:]]
        if any(a is ff.UNDEF for a in args) and not _is_float_op(op):
            raise Unsupported("an integer or predicate instruction reads a register never written")
        if op == "cvt.u32.u16" and _is_float_family(args[0]):
            if ff.nanish(args[0], self.nan_memo):           # (the walk reads its bits: integers.tree_bits refuses)
                raise Unsupported("a float select ptxas may lower to a min or max read as integer bits")
            return self.write(ops[0], ff.Wide(args[0]))      # (a 16-bit float's bits, to be shuffled)
        if op == "cvt.u16.u32" and args[0].__class__ in (ff.Wide, ff.Shfl):
            a = args[0]
            if isinstance(a, ff.Wide):
                return self.write(ops[0], a.of)
            if isinstance(a.of, ff.Wide):
                return self.write(ops[0], ff.Shfl(a.of.of, a.bit))
        if any(a.__class__ is ff.Wide for a in args):
            raise Unsupported("a widened 16-bit float read but by a shuffle or its narrowing")
        if op == "prmt.b32":
            return self.write(ops[0], self.permute(args))
        if base == "cvt" and _pair_cvt(op):
            one = op.replace("x2", "")
            return self.write(ops[0], ff.pack([self.float(one, [args[1]]), self.float(one, [args[0]])], 2))
        if base == "setp" and _float_cmp(op) and len(ops) == 3 and "|" not in ops[0]:
            return self.write(ops[0], self.float_compare(op, args))
        if base == "setp":
            if len(ops) != 3 or "|" in ops[0]:
                raise Unsupported(f"setp form {op}")
            if any(a.__class__ not in (int, dict) for a in args):
                return self.write(ops[0], self.bits_compare(op, args))
            return self.write(ops[0], fp.compare(op, args[0], args[1], self.n))
        if base == "selp":
            return self.write(ops[0], self.selp(op, args))
        if ".pred" in op and base in ("and", "or", "xor", "not"):
            if not all(a.__class__ in (bool, fp.Mask, fp.Each) for a in args):
                raise Unsupported("a predicate of something else")
            return self.write(ops[0], fp.combine(base, args, self.n))
        if _is_float_op(op):
            if "x2" in op:
                if any(a.__class__ in (dict, ff.Shfl) for a in args):
                    raise Unsupported(f"{op} of an integer family that reads a symbol, or of a shuffle")
                if any(a.__class__ is ff.Pack and any(p.__class__ is ff.Shfl for p in a.parts) for a in args):
                    # a half that is a shuffle's value (permute's pack): the scalar instruction on each half, as the
                    # concrete walk runs it (memory.packed_value), so a half and its partner are a reduction step
                    one = op.replace("x2", "")
                    return self.write(ops[0], ff.pack([self.float(one, [ff.part(a, i, 2, 4) for a in args])
                                                       for i in range(2)], 2))
                v = ff.packed(op, tuple(args))
                if v.__class__ is ff.Pack:
                    self.contraction(op, [k for h in v.parts for k in h.kids])
                return self.write(ops[0], v)
            return self.write(ops[0], self.float(op, args))
        if base in _INT and all(a.__class__ in (int, dict) for a in args):
            v = fi.integer(op, args)
            if v.__class__ is dict and fi._reads_bits(args) and _new_atoms(v, args):
                # (an opaque atom over thread bits names every thread's value at once: no thread's own)
                raise Unsupported(f"{op} over the thread index left opaque by the bit rules")
            return self.write(ops[0], v)
        if base in _INT:
            return self.write(ops[0], self.bits(op, args))
        raise Unsupported(f"not a family instruction: {op}")

    def float_compare(self, op: str, args: list):
        """setp of two float families (or a float and a constant's bits): an Each "fcmp", which the walk names, in
        each thread, by the comparison and its operands' keys (predicates.float_form). An operand that may read a
        register never written (the walk's comparison is then undefined) falls back."""
        args = [self.moved(a) for a in args]
        if not all(a.__class__ in (int, ff.Bits) or _is_float_family(a) for a in args) or \
                any(_may_read_undefined(a, self.undef_memo) for a in args):
            raise Unsupported(f"{op} of an integer family, or of a register never written")
        return fp.Each("fcmp", op, tuple(args))

    def bits_compare(self, op: str, args: list):
        """An integer setp that reads a float family's bits (a loaded class index compared with a column's): an Each
        "tcmp", which the walk names, in each thread, as its integer comparison of the tree's bits (an atom of its
        key: integers.Ops.tree_bits). Refused where those bits may be undefined or a NaN payload ptxas chooses."""
        args = [self.moved(a) for a in args]
        for a in args:
            if a.__class__ not in (int, dict, ff.Bits) and (
                    not _is_float_family(a) or _may_read_undefined(a, self.undef_memo) or ff.nanish(a, self.nan_memo)):
                raise Unsupported(f"{op} of a register never written, a predicate, or a payload-free select")
        return fp.Each("tcmp", op, tuple(args))

    def bits(self, op: str, args: list):
        """An integer instruction that reads a float family's bits (the log's bit tricks): a Bits, refused where
        those bits may be undefined or a NaN payload ptxas chooses (integers.Integers.tree_bits refuses them), and
        for the one rule that makes a node of them (and.b16 of 0x7FFF: a 16-bit tree's sign cleared)."""
        args = [self.moved(a) for a in args]
        for a in args:
            if a.__class__ in (int, dict, ff.Bits):
                continue
            if not _is_float_family(a) or _may_read_undefined(a, self.undef_memo) or ff.nanish(a, self.nan_memo):
                raise Unsupported(f"{op} of a register never written, a predicate, or a payload-free select")
        if op == "and.b16":
            # the walk makes and.b16 x, 0x7FFF of a 16-bit tree's bits a node, sign0.b16 (integers.Integers._integer;
            # a widening reads it as abs.f16: floats.key_at); any other and.b16 is its integer rules
            a, m = args
            clears = m.__class__ is int and m & 0xFFFF == 0x7FFF
            if clears and _is_float_family(a):
                return ff.Node("sign0.b16", (a,))
            if (_is_float_family(a) or a.__class__ is ff.Bits) and (clears or m.__class__ is not int):
                raise Unsupported("and.b16 that may clear the sign of a tree's bits (the walk's node sign0)")
        return ff.Bits(op, tuple(args))

    def selp(self, op: str, args: list):
        """selp d, a, b, c (d = c ? a : b) of float families on a predicate family: a Select (dataflow's select,
        its key the walk's: floats.key_at). A shuffle's value taken here is moved data (moved). Two integer arms
        are left to the concrete walk's bit rules."""
        a, b, p = args
        if p.__class__ not in (bool, fp.Mask, fp.Each):
            raise Unsupported(f"{op} on a register that holds no predicate")
        a, b = self.moved(a), self.moved(b)
        if all(x.__class__ in (int, dict, ff.Bits) for x in (a, b)) and not _FLOAT_TYPE.search(op) and \
                any(x.__class__ is not dict for x in (a, b)):
            # integers (a predicate's bits, LLVM's i1 -> i32): the walk's integer selp, in each thread (floats.Bits)
            return a if p is True else b if p is False else ff.Bits(op, (a, b, p))
        # (two constants under a float type are a select node of their bits, as dataflow.execute makes it)
        if not (_is_float_family(a) or _is_float_family(b) or _FLOAT_TYPE.search(op)) or \
                not all(x.__class__ in (int, ff.Bits) or _is_float_family(x) for x in (a, b)):
            raise Unsupported(f"{op} of integers, or of a register never written")
        if p is True or p is False:
            return a if p else b
        return ff.Select(p, a, b)     # (a constant arm keyed by its bits, as dataflow.fnode names it)

    def permute(self, args: list):
        """prmt.b32 d, a, b, sel whose selector picks the low two bytes of a or b into each half of d, of 16-bit float
        families widened (cvt.u32.u16), shuffled or not: LLVM's pack of two halves a 16-bit butterfly moved. The pack
        of those halves (a shuffle's as a Shfl of the 16-bit family, as cvt.u16.u32 gives it back): the concrete
        walk's byte pack of the halves' parts, which it reads back as the halves (memory.permute, subword, _finer).
        Any other prmt falls back."""
        a, b, sel = args
        halves = []
        if sel.__class__ is int:
            for i in (0, 8):        # (each half: the nibbles of its two bytes)
                lo, hi = sel >> i & 0xF, sel >> (i + 4) & 0xF
                halves.append(_low_half(a if (lo, hi) == (0, 1) else b if (lo, hi) == (4, 5) else None))
        if len(halves) != 2 or None in halves:
            raise Unsupported("not a family instruction: prmt.b32 (but of the low halves of widened 16-bit floats)")
        return ff.Pack(tuple(halves), 2)

    def moved(self, v):
        """A shuffle's value read as data (not a reduction step's partner): F at the thread whose lane bit j differs,
        the select over t_j of F[t_j := 1] and F[t_j := 0]."""
        if v.__class__ is not ff.Shfl:
            return v
        if v.of.__class__ is ff.Wide:
            raise Unsupported("a 16-bit shuffle's value read as data")
        zero, one = fsub.halves(v.of, v.bit, tuple(range(self.k)), self.n, self.memo)
        return ff.Select(fp._mask(fi.half(self.n, v.bit, False), self.n), one, zero)

    def shuffle(self, ins: Instr) -> None:
        """shfl.sync.bfly over a full warp by one lane bit: a Shfl of its operand (taken only by float)."""
        ops = ins.operands
        if ins.guard is None and len(ops) == 5 and "|" not in ops[0] and ins.opcode.startswith("shfl.sync.idx"):
            return self.write(ops[0], self.broadcast(ins))
        if ins.guard is not None or len(ops) != 5 or "|" in ops[0] or not ins.opcode.startswith("shfl.sync.bfly"):
            raise Unsupported(f"shuffle {ins.text()}")
        b, clamp, mask = (self.operand(o) for o in ops[2:])
        if mask not in (-1, 0xFFFFFFFF) or clamp != 31 or b.__class__ is not int or b <= 0 or b & (b - 1) or b > 16:
            raise Unsupported(f"shuffle {ins.text()}")
        src = self.operand(ops[1])
        if src.__class__ in (int, dict, bool, fp.Mask, fp.Each, ff.Shfl) or src is ff.UNDEF or \
                src.__class__ is ff.Wide and not _is_float_family(src.of):
            raise Unsupported("a shuffle of an integer, a predicate or an undefined register")
        self.write(ops[0], ff.Shfl(src, b.bit_length() - 1))

    def broadcast(self, ins: Instr):
        """shfl.sync.idx over a full warp from lane L(t) (memory.shuffle: lane L of the thread's own warp, L a constant
        in [0, 32) in every thread): the source family with the thread's lane bits put to L's, where each bit of L
        is a constant or one thread bit (a substitution, subst.family); anything else falls back."""
        ops = ins.operands
        lane, clamp, mask = (self.operand(o) for o in ops[2:])
        src = self.operand(ops[1])
        if mask not in (-1, 0xFFFFFFFF) or clamp != 31 or lane.__class__ not in (int, dict) or \
                not fi._free_of_symbols(lane) or self.n % 32 or src.__class__ in (ff.Shfl, bool, fp.Mask, fp.Each):
            raise Unsupported(f"shuffle {ins.text()}")
        values = fi.values(lane, self.n)
        if any(v.__class__ is not int or not 0 <= v < 32 for v in values):
            raise Unsupported(f"a shuffle lane operand that is not a constant lane: {ins.text()}")
        sigma: list = []
        flips = []                      # (lane bit j, thread bit q) where bit j of L is not t_q
        for j in range(self.k):
            if j >= 5:
                sigma.append(j)         # (the thread's own warp)
                continue
            col = [v >> j & 1 for v in values]
            if all(c == col[0] for c in col):
                sigma.append(-2 if col[0] else -1)
                continue
            same = [q for q in range(self.k) if all(c == (t >> q & 1) for t, c in enumerate(col))]
            if same:
                sigma.append(same[0])
                continue
            flip = [q for q in range(self.k) if all(c != (t >> q & 1) for t, c in enumerate(col))]
            if not flip or len(flips) == 2:
                raise Unsupported(f"a shuffle lane that is no thread bit: {ins.text()}")
            flips.append((j, flip[0]))
            sigma.append(-1)

        def read(sigma, flips):
            # a complemented bit is a case split on t_q: where t_q = 0 the lane's bit j is 1, else 0
            if not flips:
                return fsub.family(src, tuple(sigma), self.n, self.memo)
            (j, q), rest = flips[0], flips[1:]
            one, zero = ([*sigma[:j], c, *sigma[j + 1:]] for c in (-2, -1))
            return ff.Select(fp._mask(fi.half(self.n, q, False), self.n), read(one, rest), read(zero, rest))
        return read(sigma, flips)

    def float(self, op: str, args: list):
        """The family of a float instruction; refused where its key is not a plain hash, and where an unrounded
        multiply feeds an add (the concrete walk's refusal, decided here on the operands' families). A commuting
        instruction of a value and its butterfly partner over bit j is op{F[t_j := 0], F[t_j := 1]}, a Red binding t_j:
        its key at every thread is the concrete walk's (the children sorted), and it reads t_j no more. A shuffle's
        value combined in any other way is moved data (moved)."""
        if any(a.__class__ is dict for a in args):
            raise Unsupported(f"{op} of an integer family that reads a symbol")
        shuffled = [a for a in args if a.__class__ is ff.Shfl]
        if shuffled:
            other, sh = (args[1], args[0]) if args[0] is shuffled[0] else (args[0], args[1])
            if len(args) == 2 and len(shuffled) == 1 and ff.kind(op) in (_COMMUTES, _JOINED) and sh.of is other:
                self.contraction(op, [other])
                self.no_terms(op, [other])
                # the lane bit bound in place: nothing copied (building the two halves, F[t_j:=0] and F[t_j:=1],
                # made the reduced tree itself and cost 6-15x the concrete walk: docs/check-families.md)
                return ff.Red(op, other, sh.bit)
            args = [self.moved(a) for a in args]     # (a shuffled value combined otherwise: moved data)
        self.contraction(op, args)
        self.no_terms(op, args)
        f = ff.node(op, tuple(args))
        if f is None:
            raise Unsupported(f"{op}: not a plain float node")
        return f

    def contraction(self, op: str, operands: list) -> None:
        """Refuse an add or sub without .rn that reads an unrounded multiply (dataflow.float_node's refusal: ptxas
        may contract the two into an fma)."""
        if op.split(".")[0] in ("add", "sub") and ".rn" not in op and any(self.may_be_mul(a) for a in operands):
            raise Unsupported("an unrounded multiply feeds an add: ptxas may contract it")

    def no_terms(self, op: str, operands: list) -> None:
        """Refuse an add, mul or fma over what may be a one-hot term (onehot.py keys such sums by their terms, the
        concrete walk's rule: _may_be_term)."""
        if op in onehot.HOT and any(_may_be_term(a, self.term_memo) for a in operands):
            raise Unsupported("a one-hot sum's term (onehot.py keys its sums by their terms: the concrete walk's)")

    def may_be_mul(self, f) -> bool:
        """Whether f may be, in some thread, a node the concrete walk notes as an unrounded multiply (made by a mul
        without .rn, or a neg of one: dataflow.float_node), by its structure (a substituted copy is one too)."""
        if f.__class__ is ff.Select:   # (on a float comparison: a select node in every thread, never a multiply)
            return not (f.pred.__class__ is fp.Each and f.pred.how == "fcmp") and \
                (self.may_be_mul(f.a) or self.may_be_mul(f.b))
        if f.__class__ is ff.Red:
            return f.op.split(".")[0] == "mul" and ".rn" not in f.op
        if f.__class__ is not ff.Node:
            return False
        base = f.op.split(".")[0]
        return base == "mul" and ".rn" not in f.op or base == "neg" and self.may_be_mul(f.kids[0])

    def write(self, reg: str, v) -> None:
        if v is None:
            raise Unsupported("no family for a value")
        self.regs[reg] = v

    def load(self, ins: Instr) -> None:
        """A global load of 16-, 32- or 64-bit elements (a vector or not), guarded or not: a Leaf per element, and a
        Select of it and the register's old value where a guard reads something."""
        ops = ins.operands
        width = _BITS.get(ins.opcode.split(".")[-1])
        if width not in (2, 4, 8):
            raise Unsupported(f"a global load of {ins.opcode}")
        if self.stores:
            raise Unsupported("a global load after a global store (they may alias)")
        a, offset = self.address(ops[1])
        pred = self.guard(ins)
        for i, d in enumerate(_reg_list(ops[0])):
            leaf = ff.Leaf(fi.integer("add.s64", [a, offset + width * i]), width)
            if pred is True:
                self.write(d, leaf)
            elif pred is not False:
                old = self.operand(d)
                if old is ff.UNDEF:
                    raise Unsupported("a guarded load into a register never written")
                self.write(d, ff.Select(pred, leaf, old))

    def address(self, text: str) -> tuple:
        """(the integer family of a global access's base, its constant offset) of an address operand text."""
        base, offset = _address(text)
        a = self.params[base] if base in self.params else self.operand(base)
        if a.__class__ not in (int, dict):
            raise Unsupported("an address that is not an integer family")
        return a, offset

    def guard(self, ins: Instr):
        if ins.guard is None:
            return True
        p = self.regs.get(ins.guard[1], ff.UNDEF)
        if p.__class__ not in (bool, fp.Mask, fp.Each) or ff.has_float(p):
            raise Unsupported("a guard that is not a predicate family of integers")
        return fp.combine("not", [p], self.n) if ins.guard[0] else p

    def store(self, ins: Instr) -> None:
        """A global store: one Store per element (a vector's elements, a pack's parts)."""
        ops = ins.operands
        width = _BITS.get(ins.opcode.split(".")[-1])
        if ".global" not in ins.opcode or width is None:
            raise Unsupported(f"a store {ins.opcode}")
        a, offset = self.address(ops[0])
        g = self.guard(ins)
        if g is False:
            return
        for i, r in enumerate(_reg_list(ops[1])):
            v = self.operand(r)
            if v is ff.UNDEF or v.__class__ in (ff.Shfl, ff.Wide, bool, fp.Mask, fp.Each):
                raise Unsupported("a store of a register never written, a shuffle or a predicate")
            if ff.nanish(v, self.nan_memo):
                raise Unsupported("a float select ptxas may lower to a min or max may reach an output (payloads.py)")
            parts = v.parts if v.__class__ is ff.Pack and v.pw * len(v.parts) == width else [v]
            if any(p.__class__ in (ff.Shfl, ff.Wide) for p in parts):
                raise Unsupported("a store of a shuffle's half (permute's pack)")
            pw = width // len(parts)
            for j, p in enumerate(parts):
                self.stores.append(Store(fi.integer("add.s64", [a, offset + i * width + j * pw]), g, p,
                                         f"b{8 * pw}"))


def _low_half(x):
    """The 16-bit float family whose widened bits x is (cvt.u32.u16), a shuffle's as a Shfl of it; None for anything
    else (permute)."""
    if x.__class__ is ff.Wide and _is_float_family(x.of):
        return x.of
    if x.__class__ is ff.Shfl and x.of.__class__ is ff.Wide and _is_float_family(x.of.of):
        return ff.Shfl(x.of.of, x.bit)
    return None


def _is_float_family(f) -> bool:
    """Whether f is a float value's family (not an integer, predicate, shuffle or widening)."""
    return f.__class__ in (ff.Leaf, ff.Node, ff.Select, ff.Red, ff.Pack, ff.Part)


def _may_read_undefined(f, memo: dict) -> bool:
    """Whether family f's tree may, in some thread, read a register never written (by its structure)."""
    if f is ff.UNDEF:
        return True
    hit = memo.get(id(f))
    if hit is None or hit[0] is not f:
        hit = memo[id(f)] = (f, any(_may_read_undefined(a, memo) for a in ff.children(f)))
    return hit[1]


def _may_be_term(f, memo: dict) -> bool:
    """Whether f may be, in some thread, what onehot.py takes for a one-hot term or a sum of them (a select on an
    equality with a zero arm, a select of two constants, a product or a sum over one), so that the concrete walk
    keys a sum over it by its terms: a superset, by structure (a select on a thread mask is its arms)."""
    hit = memo.get(id(f))
    if hit is None or hit[0] is not f:
        cls, out = f.__class__, False
        if cls is ff.Select and f.pred.__class__ is fp.Mask:
            out = _may_be_term(f.a, memo) or _may_be_term(f.b, memo)
        elif cls is ff.Select:
            constants = f.a.__class__ is int and f.b.__class__ is int
            out = _equality(f.pred) and (f.a in _ZEROS or f.b in _ZEROS or constants) or \
                _may_be_term(f.a, memo) or _may_be_term(f.b, memo)
        elif cls is ff.Node and f.op in onehot.HOT:      # (a product of a term, a sum of terms)
            out = any(_may_be_term(k, memo) for k in f.kids)
        elif cls is ff.Red and f.op in onehot.HOT:
            out = _may_be_term(f.of, memo)
        elif cls is ff.Bits and f.op.startswith("selp"):    # (an integer selp on an equality: onehot.note_selp)
            out = _equality(f.args[2])
        hit = memo[id(f)] = (f, out)
    return hit[1]


_ZEROS = (0, 0x80000000)


def _equality(p) -> bool:
    """Whether predicate family p reads an eq or ne comparison (onehot.equality's forms)."""
    return any(c.op.split(".")[1] in ("eq", "ne") for c in ff.comparisons(p))


def _new_atoms(v: dict, args: list) -> bool:
    """Whether v reads an atom none of args reads (an opaque atom the instruction made)."""
    known = {a for x in args if x.__class__ is dict for m in x for a in m}
    return any(a not in known for m in v for a in m if not a.startswith(fi.TID))


def walk(entry: Entry, divisible=frozenset()) -> tuple:
    """(the Stores of one block, its thread count) for a straight-line kernel step 2 covers; raises Unsupported for
    anything else (the caller falls back to the concrete walk). Onehot's tables are emptied first, as the concrete
    walk empties them (floats.node reads them)."""
    why = _refused_ahead(entry.body)
    if why is not None:
        raise Unsupported(why)
    onehot.reset()
    w = _Walk(entry, frozenset(divisible))
    return w.run(entry.body), w.n


def _refused_ahead(body) -> str | None:
    """Why run would refuse the kernel whatever it met first, read from the text before the walk: a loop (a backward
    branch is never a hammock) or an instruction step refuses wherever it stands (_refused), before the first ret
    (run stops there). None where only the walk can tell. (An attempt that would end so costs the walk up to that
    point: the GEMMs' and loops' whole prologues.)"""
    labels = None
    for i, item in enumerate(body):
        if isinstance(item, Label):
            continue
        base, op = item.base, item.opcode
        if op == "ret":
            return None
        if base == "bra":
            if labels is None:
                labels = {x.name: j for j, x in enumerate(body) if isinstance(x, Label)}
            if labels.get(item.operands[0], i + 1) <= i:
                return "not a family instruction: bra (a loop)"
        elif _refused(base, op):
            return f"not a family instruction: {op}"
    return None


def _refused(base: str, op: str) -> bool:
    """Whether step refuses an instruction wherever it stands: _REFUSED, or a load or store of another space than
    global, shared and parameter memory."""
    return base in _REFUSED or base in ("ld", "st") and not (".global" in op or ".shared" in op or ".param" in op)
