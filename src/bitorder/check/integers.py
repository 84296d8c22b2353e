"""The walk's integers and comparisons (dataflow.py mixes this into its _Block): index arithmetic as poly.py's
polynomials (exact in the ring ops; or / xor of disjoint bits as adds), conversions and their widenings, a float
tree's bits read as an integer (an atom), integer predicates decided where the values, the bits or the launch grid
decide them, float comparisons named by their trees' keys."""
from __future__ import annotations

from .allthreads import _CONCRETE
from .bits import LOOP_T, grid_decides, int_form, nonneg_decides, range_decides, turn_decides
from .poly import atom, _cap, _is_int, op_atom, padd, pkey, pmul, ring, UNDEF, UNDEF_PRED
from .predicates import _concrete, _disjoint, float_form
from .ptx import opcode_base
from .rules import _cvt_types, _float_cmp
from .symbolic import EXTENDED, Unsupported, _RING, _extend, _itype, _wrap
from .tensorcore import smem_or, smem_shift
from ._native import trait
from . import magic


def _in_u_alone(a, b) -> bool:
    """Whether a and b read no symbol but the element u (LOOP_T), one of them u."""
    return any(p.__class__ is dict and LOOP_T in p for p in (a, b)) and \
        all(p.__class__ is int or all(not m or m == LOOP_T for m in p) for p in (a, b))


@trait     # mixed into dataflow._Block (a mypyc trait when compiled: _native.trait)
class Integers:
    """The integer handlers of a _Block (its nodes, bits, grid_x, tc and bits_of_tree)."""

    def compare(self, op, a, b):
        cmp = op.split(".")[1]
        if _float_cmp(op):      # a predicate on trees: named by the comparison and their keys
            fa, fb = self.fnode(a), self.fnode(b)   # (a select's node is made once: fnode again gives it)
            undefined = self.nodes.undefined
            if fa in undefined or fb in undefined:
                return UNDEF_PRED
            key_of = self.nodes.key_of
            return float_form(op, key_of[fa] if fa.__class__ is int else fa, key_of[fb] if fb.__class__ is int else fb)
        return self.compare_int(op, cmp, a, b)

    def compare_int(self, op, cmp, a, b):
        """compare() of an integer setp (cmp: op's comparison, read once per instruction by _setp_all)."""
        a = a if _is_int(a) else self.tree_bits(a)
        b = b if _is_int(b) else self.tree_bits(b)
        if UNDEF in pkey(a) or UNDEF in pkey(b):
            return UNDEF_PRED
        if isinstance(a, int) and isinstance(b, int):
            signed, bits = _itype(op)
            a, b = _wrap(a, signed, bits), _wrap(b, signed, bits)
            return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[cmp]
        if self.turns:                # a comparison of a folded loop's turn over its constant trip count
            rng = self.turn_range     # (storefold.py's walk 2: an element u over the elements one lane stores)
            known = turn_decides(op, cmp, a, b, self.turns) if rng is None else range_decides(op, cmp, a, b, *rng)
            if known is None and rng is not None and not self.turn_split and _in_u_alone(a, b):
                self.turn_split = True    # undecided over the range: storefold.py walks the lane's segments apart
            if known is not None:
                if self.turn_prefixes is not None and known.__class__ is tuple:
                    self.turn_prefixes.add(known)   # (storefold.py's walk 1: the masks of its lanes' guards)
                return known
            if cmp in ("eq", "ne") and LOOP_T[0] in pkey(a) + pkey(b):
                self.turn_eq = True   # the turn against data: a one-hot candidate (loops.fold_constant)
        if self.grid_x is not None:   # a comparison of %ctaid.x the launch grid decides
            known = grid_decides(op, cmp, a, b, self.grid_x)
            if known is not None:
                return known
        if self.nonneg:               # symbols known to be at least 0 (signature.stores_past_end's walk)
            known = nonneg_decides(op, cmp, a, b, self.nonneg)
            if known is not None:
                return known
        if cmp in ("eq", "ne") and self.bits.table:   # registers known bit by bit: "a bit differs"
            known = self.bits.equal(cmp, _itype(op)[1], a, b)
            if known is not None:
                return known
        return int_form(op, cmp, a, b)

    def integer(self, op, args):
        if all(a.__class__ is int for a in args):
            # constants only (thread-index arithmetic): the result is a function of the opcode and
            # the values alone (Bits knows no constant; no atom is made), so it is computed once
            key = (op, *args)
            hit = _CONCRETE.get(key)
            if hit is None:
                hit = self._integer(op, args)
                if hit.__class__ is int:
                    if len(_CONCRETE) > 200_000:
                        _CONCRETE.clear()
                    _CONCRETE[key] = hit
            return hit
        return self._integer(op, args)

    def _integer(self, op, args):
        base = opcode_base(op)
        args = [a if _is_int(a) else self.tree_bits(a) for a in args]
        if base in _RING and op.endswith("16"):
            # a 16-bit constant held as its bit pattern (mov.b16) counts as the signed value in index
            # arithmetic: 0xFFFF + x is x - 1 in 16 bits, as the walk's unwrapped sums assume
            args = [_wrap(a, True, 16) if a.__class__ is int else a for a in args]
        if op == "and.b16" and args[1].__class__ is int and args[1] & 0xFFFF == 0x7FFF and args[0].__class__ is dict:
            tree = self.bits_of_tree.get(pkey(args[0]))
            if tree is not None:   # a 16-bit tree's sign cleared: a node (symbolic.Nodes._abs16 widens it as abs)
                nodes = self.nodes
                nid = nodes.make("sign0.b16", (tree,))
                nodes.sign0[nodes.key_of[nid]] = nodes.key_of[tree] if tree.__class__ is int else tree
                return ("node", nid)
        if self.bits.table:
            known = self.bits.integer(op, base, args)
            if known is not None:
                return known
        if base == "cvt":
            dst, src = _cvt_types(op)
            signed, sbits = dst[0] == "s", int(dst[1:])
            x = args[0]
            if int(src[1:]) < sbits:                      # widening: extend from the source width
                x = _extend(x, src[0] == "s", int(src[1:]))
            if isinstance(x, int):
                return _wrap(x, signed, sbits)
            if sbits < 32 and int(src[1:]) > sbits:     # a real truncation of a symbolic value
                narrow = EXTENDED.get(pkey(x))           # ... unless it undoes a widening from sbits bits
                return narrow[0] if narrow is not None and narrow[1] == sbits else atom(f"{op}({pkey(x)})")
            return x   # 64 -> 32 bits: the same integer, as indices do not wrap (module docstring)
        if ".wide" in op:                                 # 32 x 32 -> 64: both operands extended
            signed, bits = _itype(op)
            args = [_extend(args[0], signed, bits), _extend(args[1], signed, bits)] + args[2:]
        if base in _RING and (base != "shl" or isinstance(args[1], int)) and (base not in ("mul", "mad") or ".hi" not in op):
            return _cap(ring(base, args))
        if base == "neg":
            return pmul(args[0], -1)
        if base in ("or", "xor") and (_disjoint(args[0], args[1], op) or
                                      self.turn_lane is not None and _disjoint(*self.on_lane(args), op)):
            return padd(args[0], args[1])      # no carries: or and xor of disjoint bits are an add
        if all(isinstance(a, int) for a in args):
            return _concrete(op, args)
        if self.tc is not None:   # wgmma descriptors (only a program that issues wgmma or cp.async)
            if (op == "bfe.u32" and args[1:] == [4, 14]) or (op == "shr.u32" and args[1] == 4):
                r = smem_shift(args[0])                     # a descriptor's start field (8 warps: shr, and)
                if r is not None:
                    return r
            if op == "and.b32" and args[1] == 0x3FFF and smem_or(args[0], 0) is not None:
                return args[0]                              # smem/16 + c below 2^14: the mask keeps it whole
            if base == "or" and len(args) == 2:             # the start field joined to the other fields
                r = smem_or(args[0], args[1])
                if r is not None:
                    return r
        if magic.ON and len(args) == 2:   # division by a constant as LLVM lowers it (magic.py)
            r = magic.product(op, args[0], args[1]) if base == "mul" else magic.shifted(op, args[0], args[1])
            if r is not None:
                return r
        return op_atom(op, args)

    def tree_bits(self, v):
        """A float tree's bits used as an integer (the bit tricks of log and exp): an atom."""
        f = self.fnode(v)
        if f in self.nodes.undefined:
            return atom(UNDEF)
        if f in self.nodes.nanish:
            raise Unsupported("a float select ptxas may lower to a min or max is read as integer bits (its NaN "
                              "payload is ptxas's choice)")
        bits = atom(f"tree:{self.nodes.key_of[f] if f.__class__ is int else f}")
        self.bits_of_tree[pkey(bits)] = f    # read as a float again (a 16-bit value sent through shfl): the tree
        return bits
