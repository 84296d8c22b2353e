"""Float values over one symbolic thread (docs/check-families.md, steps 2-3): one expression for a float register's
value in every thread, and that value's key in a given thread as the concrete walk names it.

A family is a global load's leaf (its address an integer family, its width), a select of two families on a predicate
family (a masked load's value), a node (an opcode over family operands), a pack or a part of one, a Red (a
butterfly reduction step with its lane bit bound), or a Bits (an integer instruction over a float's bits). A float
constant is its integer family, the bits. `key_at(f, t)` rebuilds, from the family alone, the canonical key the
concrete walk gives the value in thread t: the leaf's key of the address put at t, the select's of the predicate put
at t (`pred_at`: a float comparison's form of its operands' keys there), a node's `symbolic._hash` of its children's
keys in the order its kind sorts them, a Red's of its two halves; a join's (max) the set of its members' keys, nested
joins of its opcode flattened, and a widened 16-bit join's the f32 join of its widened members (symbolic.Nodes._key,
_widen); a Bits' the walk's own integer rules on the trees' bits (`bits_at`). `nanish` decides, by structure, what
the walk may mark payload-free (payloads.py). One-hot sums are left to the concrete walk (families/walk.py refuses
them; benchmarks/families_check.py and families_walk.py compare keys at every thread)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any    # (dataclass fields: mypyc resolves their annotations in the module, where object is not)

from .. import onehot, payloads
from ..allthreads import _INT_REG, selp_atom
from ..poly import _norm, atom, pkey
from ..predicates import _pred, float_form, select
from ..symbolic import (_COMMUTES, _FMA, _JOINED, _KIND, _PLAIN, _SIGN0_WIDENS, _WIDEN, _WIDENS, _hash, _itype, _kind,
                        _once_key, joined, leaf_key)
from . import integers as fi
from . import predicates as fp

_M64 = (1 << 64) - 1


@dataclass(frozen=True, eq=False)
class Leaf:
    """A global load of `width` bytes at the integer family `address`."""
    address: Any
    width: int


@dataclass(frozen=True, eq=False)
class Select:
    """pred ? a : b, pred a predicate family (a guarded write: the value a load gives where its guard holds)."""
    pred: Any
    a: Any
    b: Any


@dataclass(frozen=True, eq=False)
class Node:
    """The float instruction `op` over operand families `kids`."""
    op: str
    kids: tuple


class _Undefined:
    """A register never written (the concrete walk's "undefined" node)."""

    def __repr__(self):
        return "UNDEF"


UNDEF = _Undefined()
_UNDEF_KEY = _hash("undefined", [], "")


@dataclass(frozen=True, eq=False)
class Wide:
    """A 16-bit float family's bits zero-extended to 32 (cvt.u32.u16), which a 16-bit shuffle moves and cvt.u16.u32
    takes back (families/walk.py takes it nowhere else)."""
    of: Any


@dataclass(frozen=True, eq=False)
class Shfl:
    """A butterfly shuffle's value: `of` in the thread whose index differs in bit `bit` (families/walk.py takes it
    only as the partner of `of` in a commuting instruction, a reduction step)."""
    of: Any
    bit: int


@dataclass(frozen=True, eq=False)
class Red:
    """op{F[v := 0], F[v := 1]}: a commuting instruction of a value and its butterfly partner over lane bit j, with
    that bit bound: `var` is j itself (an int: F reads t_j, bound here), or a bound variable (an atom "bv:N" in the
    integer families of `of`) where a substitution had to rename it. It stands for the reduced tree without building
    it: its size is the size of `of`, not of the elements reduced."""
    op: str
    of: Any
    var: int | str


@dataclass(frozen=True, eq=False)
class Pack:
    """A register made of `parts` (lowest first), each `pw` bytes (memory.pack)."""
    parts: tuple
    pw: int


@dataclass(frozen=True, eq=False)
class Part:
    """Part i of n (lowest first) of the `width`-byte family `of`, where no rule names it otherwise (a node)."""
    of: Any
    i: int
    n: int
    width: int


@dataclass(frozen=True, eq=False)
class Bits:
    """The integer instruction `op` over `args`, at least one of which reads a float family's bits (a tree's bits, as
    integers.Integers.tree_bits reads them: the log's bit tricks, an index loaded as data). In thread t: the walk's
    integer of the operands put at t (bits_at); read as a float, dataflow.fnode's token of that integer."""
    op: str
    args: tuple


def children(f) -> tuple:
    """The families tree family f is made of: a node's operands, a pack's parts, a select's arms (not its
    predicate), what a part, Red, widening or shuffle is of, a Bits' operands; none for a leaf or a constant."""
    cls = f.__class__
    return f.kids if cls is Node else f.parts if cls is Pack else (f.a, f.b) if cls is Select else \
        f.args if cls is Bits else (f.of,) if cls in (Part, Red, Wide, Shfl) else ()


def kind(op: str) -> int:
    """symbolic's kind of an opcode: how a node's key orders its children (memoised in symbolic._KIND)."""
    k = _KIND.get(op)
    return _kind(op) if k is None else k


def ordered(op: str, keys: list) -> list:
    """A node's children's keys in the order its key hashes them (symbolic.Nodes.make): sorted for a commuting
    op, an fma's two factors sorted, as given else."""
    k = kind(op)
    return sorted(keys) if k == _COMMUTES else sorted(keys[:2]) + keys[2:] if k == _FMA else keys


def node(op: str, kids: tuple) -> Node | None:
    """The family of float instruction op over kids, or None where the walk keys it by a rule key_at does not
    rebuild (a one-hot sum's term or sum while the walk tracks them)."""
    kind_ = kind(op)
    if kind_ == _WIDEN:   # (a widened join is a join of the widened members: key_at, as Nodes._widen)
        kind_ = _PLAIN
    if kind_ not in (_PLAIN, _COMMUTES, _FMA, _JOINED) or (op in onehot.HOT and (onehot.TERM or onehot.SUM)):
        return None
    return Node(op, kids)


def joins(f, op: str) -> bool:
    """Whether family f is a join of opcode op (a max node, or a butterfly's Red of one): a join over it flattens it,
    and a widening of it is renamed (symbolic.Nodes._key, _widen)."""
    return f.__class__ in (Node, Red) and f.op == op


def packed(op: str, args: tuple):
    """An instruction whose opcode holds "x2", as the concrete walk takes it (dataflow.execute, memory.packed_value):
    the instruction without "x2" on each 16-bit half of the operands, packed. (ex2.approx.f32 is so named too: an
    injective naming of a function of its operand, so sound, if odd; docs/check-families.md.)"""
    one = op.replace("x2", "")
    halves = [node(one, tuple(part(a, i, 2, 4) for a in args)) for i in range(2)]
    return None if None in halves else pack(halves, 2)


def part(v, i: int, n: int, width: int):
    """Part i of n of a `width`-byte family, as memory.subword names it: a constant's bits, the narrower load of a
    load, a pack's own part, a select's arms' parts, else a Part node (an integer family that reads a symbol:
    None)."""
    pw = width // n
    if v.__class__ is int:
        return (v >> (8 * pw * i)) & ((1 << (8 * pw)) - 1)
    if v.__class__ is Leaf and v.width == width:
        return Leaf(fi.integer("add.s64", [v.address, i * pw]), pw)
    if v.__class__ is Pack and len(v.parts) == n:
        return v.parts[i]
    if v.__class__ is Select:
        return Select(v.pred, part(v.a, i, n, width), part(v.b, i, n, width))
    if v.__class__ in (Node, Leaf, Red):
        return Part(v, i, n, width)
    return None


def pack(values: list, pw: int):
    """A register made of `values` (lowest first), each pw bytes: the constant where all are, else a Pack."""
    if all(x.__class__ is int for x in values):
        return sum((x & ((1 << (8 * pw)) - 1)) << (8 * pw * i) for i, x in enumerate(values))
    if any(x.__class__ is dict or x is None for x in values):
        return None
    return Pack(tuple(values), pw)


def bind(v, env: tuple):
    """An integer family with its bound variables (atoms "bv:N") put to their values in env ((name, 0/1), ...)."""
    if not env or v.__class__ is int:
        return v
    values = dict(env)
    out: dict = {}
    for m, c in v.items():
        keep = []
        for a in m:
            if a in values:
                if not values[a]:
                    break
            else:
                keep.append(a)
        else:
            out[tuple(keep)] = out.get(tuple(keep), 0) + c
    return _norm(out)


def _bind_pred(p, env: tuple):
    """A predicate family with its bound variables put to their values in env."""
    if not env or p.__class__ in (bool, fp.Mask):
        return p
    if p.how == "cmp":
        return fp.Each("cmp", p.op, tuple(bind(x, env) for x in p.args))
    return fp.Each("pred", p.op, tuple(_bind_pred(x, env) for x in p.args))


def key_at(f, t: int, memo: dict, env: tuple = (), reads=None) -> str | None:
    """The concrete walk's key of family f in thread t (memo: {(id(f), t, env): key}; env: the values of the bound
    variables of the Reds above; reads: subst.reads for the family, bound to a memo, where the caller has it), None
    where it cannot be named here (an undefined predicate, a select the one-hot rules would rename)."""
    if reads is not None:     # (a family's key depends only on the thread bits it reads: one per their values)
        t &= reads(f)
    hit = memo.get((id(f), t, env), memo)
    if hit is not memo:
        return hit
    out: str | None
    if f.__class__ is Leaf:
        at = bind(fi.at_thread(f.address, t), env)
        out = leaf_key(f"[{pkey(at)}]b{8 * f.width}")
    elif f.__class__ is Red:
        if f.var.__class__ is int:           # (a lane bit bound in place)
            j = f.var
            kids = sorted(key_at(f.of, t & ~(1 << j) | b << j, memo, env, reads) or "" for b in (0, 1))
        else:
            kids = sorted(key_at(f.of, t, memo, env + ((f.var, b),), reads) or "" for b in (0, 1))
        out = None if "" in kids else _join_key(f.op, kids, memo) if kind(f.op) == _JOINED else _hash(f.op, kids, "")
    elif f.__class__ is Select:
        g = pred_at(f.pred, t, memo, env, reads)
        if g is None:
            out = None
        elif g is True or g is False:
            out = key_at(f.a if g else f.b, t, memo, env, reads)
        elif f.a.__class__ in (int, Bits) and f.b.__class__ in (int, Bits):
            # (dataflow.execute: a selp of two integers, whatever its type, is an integer atom read as a float)
            a, b = bits_at(f.a, t, memo, env, reads), bits_at(f.b, t, memo, env, reads)
            out = None if a is None or b is None else f"bits:{a & _M64}" if a.__class__ is int and a == b else \
                f"int:{pkey(selp_atom(g, a, b))}"
        else:
            form = select(g, "a", "b")           # (the walk's own naming of the predicate, and which arm is first)
            ka, kb = key_at(f.a, t, memo, env, reads), key_at(f.b, t, memo, env, reads)
            if form[2] == "b":
                ka, kb = kb, ka
            # symbolic._select_key's key where no one-hot sum is tracked (a one-hot sum may rename it), without
            # its note of a one-hot term (which would change the walk's tables)
            out = None if ka is None or kb is None or onehot.SUM else _once_key("select", (ka, kb), form[1])
    elif f.__class__ is Node:
        named = [key_at(k, t, memo, env, reads) for k in f.kids]
        kids = [k for k in named if k is not None]
        k_ = kind(f.op)
        if len(kids) < len(named):
            out = None
        elif k_ == _JOINED:
            out = _join_key(f.op, kids, memo)
        elif k_ == _WIDEN and _lattice(memo).get(kids[0], ("",))[0] == _WIDENS[f.op][0]:
            # Nodes._widen: the max.f32 join of the members widened one by one (a bf16 one marked by its NaN; a
            # member whose sign was cleared read as its abs.f16)
            widened = sorted({_hash(f.op, [_abs16(m, f.op, memo)], "") for m in _lattice(memo)[kids[0]][1]})
            out = _hash("max.f32", widened, _WIDENS[f.op][1])
            _lattice(memo)[out] = ("max.f32", frozenset(widened))
        elif k_ == _WIDEN:
            out = _hash(f.op, [_abs16(kids[0], f.op, memo)], "")
        else:
            out = _hash(f.op, ordered(f.op, kids), "")
            if f.op == "sign0.b16":       # (symbolic.Nodes.sign0: by key, as the walk notes it)
                _sign0(memo)[out] = kids[0]
    elif f is UNDEF:
        out = _UNDEF_KEY
    elif f.__class__ is Pack:
        named = [key_at(k, t, memo, env, reads) for k in f.parts]
        out = None if None in named else _hash(f"pack.b{8 * f.pw * len(f.parts)}", named, "")
    elif f.__class__ is Part:
        k = key_at(f.of, t, memo, env, reads)
        out = None if k is None else _hash(f"part{f.i}/{f.n}.b{8 * f.width}", [k], "")
    elif f.__class__ is Bits:                      # (dataflow.fnode of an integer: its bits, or the tree it is)
        v = bits_at(f, t, memo, env, reads)
        out = None if v is None else f"bits:{v & _M64}" if v.__class__ is int else \
            _TREE.match(pkey(v)) and pkey(v)[len("1*tree:"):] or f"int:{pkey(v)}"
    else:                                 # an integer family read as a float or stored: dataflow.fnode's token
        v = bind(fi.at_thread(f, t), env)
        out = f"bits:{v & _M64}" if v.__class__ is int else f"int:{pkey(v)}"
    memo[(id(f), t, env)] = out
    return out


_TREE = re.compile(r"1\*tree:[^*+]+$")      # a tree's bits alone (tree_bits' atom): fnode gives the tree back


def bits_at(f, t: int, memo: dict, env: tuple = (), reads=None):
    """The walk's integer value in thread t of an integer operand: a family's, a float family's bits (the atom
    tree:<key>), a Bits' (the walk's own integer rules on its operands there: integers.Integers.integer); None where
    a key cannot be named."""
    if f.__class__ is int or f.__class__ is dict:
        return bind(fi.at_thread(f, t), env)
    if f.__class__ is not Bits:
        k = key_at(f, t, memo, env, reads)
        return None if k is None else atom(f"tree:{k}")
    hit = memo.get(("bits", id(f), t, env), memo)
    if hit is memo:
        if f.op.startswith("selp"):
            hit = _selp_at(f, t, memo, env, reads)
        else:
            args = [bits_at(a, t, memo, env, reads) for a in f.args]
            hit = None if any(a is None for a in args) else _integers().integer(f.op, args)
        memo[("bits", id(f), t, env)] = hit
    return hit


def _selp_at(f, t: int, memo: dict, env: tuple, reads):
    """A selp of integers (arms a, b; predicate family p) in thread t, as dataflow.execute's selp takes two integers:
    an arm where p is a constant there, a constant both arms are, the predicate's bits (bits.Bits.selp) for two
    constants in an integer register, else the selp atom."""
    a, b, p = f.args
    c = pred_at(p, t, memo, env, reads)
    if c is None:
        return None
    if c is True or c is False:
        return bits_at(a if c else b, t, memo, env, reads)
    a, b = bits_at(a, t, memo, env, reads), bits_at(b, t, memo, env, reads)
    if a is None or b is None:
        return None
    if a.__class__ is int and b.__class__ is int and a == b:
        return a
    if a.__class__ is int and b.__class__ is int and _INT_REG.fullmatch(f.op.split(".")[-1]):
        return _integers().bits.selp(f.op, c, a, b)
    return selp_atom(c, a, b)


def _integers():
    """A walk block with no state but empty tables, whose integer() is the walk's rules (for bits_at: the faithfulness
    checks only; the v2 names do not read it)."""
    global _EVAL
    if _EVAL is None:
        from ..bits import Bits as _Table
        from ..dataflow import _Block
        _EVAL = object.__new__(_Block)
        _EVAL.bits, _EVAL.bits_of_tree, _EVAL.tc, _EVAL.turn_lane = _Table(), {}, None, None
    return _EVAL


_EVAL = None


def pred_at(p, t: int, memo: dict, env: tuple = (), reads=None):
    """The concrete walk's value of predicate family p in thread t, a float comparison's included (its form,
    predicates.float_form, of its operands' keys there: integers.Ops.compare); None where an operand cannot be
    named."""
    if not has_float(p):
        return fp.at_thread(_bind_pred(p, env), t)
    if p.how == "fcmp":
        ka, kb = (key_at(x, t, memo, env, reads) for x in p.args)
        return None if ka is None or kb is None else float_form(p.op, ka, kb)
    if p.how == "tcmp":          # (integers.Integers.compare_int of the trees' bits, atoms of their keys)
        args = [bits_at(x, t, memo, env, reads) for x in p.args]
        if None in args:
            return None
        cmp = p.op.split(".")[1]
        if cmp in ("eq", "ne") and not all(x.__class__ is int for x in args) and _integers().bits.table:
            known = _integers().bits.equal(cmp, _itype(p.op)[1], *args)     # (registers known bit by bit)
            if known is not None:
                return known
        return fp.at_thread(fp.Each("cmp", p.op, tuple(args)), t)
    args = [pred_at(x, t, memo, env, reads) for x in p.args]
    return None if None in args else _pred(p.op, args)


def has_float(p) -> bool:
    """Whether predicate family p reads a float family (an Each "fcmp" or "tcmp", alone or combined)."""
    return p.__class__ is fp.Each and p.how != "cmp" and (p.how != "pred" or any(has_float(x) for x in p.args))


def comparisons(p) -> list:
    """The comparisons (Each "cmp", "tcmp", "fcmp") predicate family p reads, through its combinations (masks and
    constants are none)."""
    if p.__class__ is not fp.Each:
        return []
    return [x for a in p.args for x in comparisons(a)] if p.how == "pred" else [p]


def compared(p) -> list:
    """The float families the float comparisons in predicate family p compare (payloads.note_composite's set;
    integer comparisons, payloads.integer_pred's, compare none)."""
    return [x for c in comparisons(p) if c.how == "fcmp" for x in c.args]


def nanish(f, memo: dict) -> bool:
    """Whether family f may be, in some thread, a tree the concrete walk marks payload-free (payloads.py: a select
    ptxas may lower to a min or max, and what data movement or a non-canonical instruction makes of one): a select on
    a float comparison both of whose arms may be among the values it compares (by the heads their keys can have; an
    arm that may be a NaN test's select counts as among them, as payloads.payload_free counts it), and anything that
    carries one but arithmetic that returns the canonical NaN. At least as strict as the walk's marks in every
    thread, so a store of a family this clears is one the walk does not refuse for its payload."""
    hit = memo.get(("nanish", id(f)))
    if hit is not None and hit[0] is f:
        return hit[1]
    cls = f.__class__
    if cls is Select:
        out = nanish(f.a, memo) or nanish(f.b, memo)
        ops = compared(f.pred)
        if not out and ops:
            among = set().union(*(_heads(x, memo) for x in ops))
            out = all(h & among or "*" in h or "*" in among or _may_be_nan_test(x, memo)
                      for x, h in ((f.a, _heads(f.a, memo)), (f.b, _heads(f.b, memo))))
    elif cls is Node or cls is Red:
        out = not payloads.canonical(f.op) and any(nanish(k, memo) for k in (f.kids if cls is Node else (f.of,)))
    elif cls is Pack:
        out = any(nanish(k, memo) for k in f.parts)
    elif cls in (Part, Wide, Shfl):
        out = nanish(f.of, memo)
    else:                      # a leaf, an integer (Bits: the walk refuses payload-free bits), an undefined register
        out = False
    memo[("nanish", id(f))] = (f, out)
    return out


def _may_be_nan_test(f, memo: dict) -> bool:
    """Whether f may be, in some thread, a select on a NaN test (setp.nan / .num: payloads.NAN_TESTS, which the walk
    counts among the compared values): such a select, or a select whose predicate may become one or its arms."""
    if f.__class__ is not Select:
        return False
    return any(c.how == "fcmp" and c.op.split(".")[1] in ("nan", "num") for c in comparisons(f.pred)) or \
        _may_be_nan_test(f.a, memo) or _may_be_nan_test(f.b, memo)


def _kinds(p) -> set:
    """The kinds of predicate p may be in some thread ("int", "fcmp", "combo"; none for a mask, decided in each
    thread): a select's key names its predicate, whose form's tag tells them apart."""
    if p.__class__ is not fp.Each:
        return set()
    if p.how != "pred":
        return {"fcmp" if p.how == "fcmp" else "int"}
    return {"combo"}.union(*(_kinds(a) for a in p.args))


def _heads(f, memo: dict) -> frozenset:
    """The opcodes a tree family f stands for can have at its root in some thread (a select's: its arms' and "select:"
    with the kinds its predicate may be; a widening's: its own and max.f32, a widened join's; "*": any): two families
    with no head in common never have one key."""
    hit = memo.get(("heads", id(f)))
    if hit is not None and hit[0] is f:
        return hit[1]
    cls = f.__class__
    if cls is Select:         # (a select node's key names its predicate: tagged by the comparisons it may be)
        out = _heads(f.a, memo) | _heads(f.b, memo) | {f"select:{c}" for c in _kinds(f.pred)}
    elif cls is Node:
        out = frozenset({f.op, "max.f32"} if kind(f.op) == _WIDEN else {f.op})
    elif cls is Red:
        out = frozenset({f.op})
    elif cls is Leaf:
        out = frozenset({"load"})
    elif cls in (Pack, Part):
        out = frozenset({cls.__name__})
    elif cls is int:
        out = frozenset({f"bits:{f & _M64}"})
    else:                      # an undefined register, an integer, a Bits: any head ("*")
        out = frozenset({"*"})
    memo[("heads", id(f))] = (f, out)
    return out


def _sign0(memo: dict) -> dict:
    """key_at's record of the sign0.b16 nodes it named: {key: the key of the tree whose sign it clears}
    (symbolic.Nodes.sign0's)."""
    hit = memo.get("sign0")
    if hit is None:
        hit = memo["sign0"] = {}
    return hit


def _abs16(k: str, op: str, memo: dict) -> str:
    """A widening's operand key k as symbolic.Nodes reads it: where k is a sign0.b16 node's and op widens it as
    abs.f16 (_SIGN0_WIDENS), the key of abs.f16 of the tree (Nodes._abs16); else k."""
    x = _sign0(memo).get(k)
    return k if x is None or op not in _SIGN0_WIDENS else _hash(_SIGN0_WIDENS[op], [x], "")


def _lattice(memo: dict) -> dict:
    """key_at's record of the joins it named: {key: (opcode, the keys it joins)} (symbolic.Nodes.lattice's)."""
    hit = memo.get("lattice")
    if hit is None:
        hit = memo["lattice"] = {}
    return hit


def _join_key(op: str, kids: list, memo: dict) -> str:
    """symbolic.Nodes._key of a join over kids' keys: the set of what they join, a kid that is a join of the same
    opcode flattened into it (by key: a select that picks a join in this thread is flattened too, as there)."""
    lattice = _lattice(memo)
    out = joined(op, kids, lattice)
    key = _hash(op, out, "")
    lattice[key] = (op, frozenset(out))
    return key
