"""The checker's symbolic values: floating-point trees hash-consed by structure (commutative
operations sorted, max.f32 as a set, one-hot sums as the set of their terms: onehot.py), and the
exact integer rules the walk (dataflow.py) applies to them (integers are poly.py's polynomials over
atoms; predicates and selects: predicates.py; payloads.py marks the selects whose NaN payload ptxas
may change)."""
from __future__ import annotations

import functools
import hashlib
import re

from . import onehot, payloads
from .poly import atom, pkey
from .ptx import opcode_base


class Unsupported(Exception):
    """The walk cannot decide this kernel exactly (the message says why)."""


@functools.lru_cache(maxsize=None)
def _is_float_op(op: str) -> bool:
    return bool(_FLOAT_OPS.match(op) and _FLOAT_TYPE.search(op))


@functools.lru_cache(maxsize=None)
def _pair_cvt(op: str) -> bool:
    return re.fullmatch(r"cvt\.(rn|rz|rm|rp)(\.relu)?\.(f16|bf16)x2\.f32", op) is not None


@functools.lru_cache(maxsize=None)
def _itype(op):
    """(signed, bits) of an integer opcode's last type, e.g. 'shr.u32' -> (False, 32)."""
    for part in reversed(op.split(".")):
        m = re.fullmatch(r"([sub])(8|16|32|64)", part)
        if m:
            return m.group(1) == "s", int(m.group(2))
    raise Unsupported(f"no integer type in {op}")


def _wrap(x, signed, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def _extend(v, signed, bits):
    """A value of `bits` bits used at a wider width. Index arithmetic is assumed not to wrap
    (as LLVM's nsw and inbounds flags already assume in the code Triton emits), so a
    widened index is the same integer: sext(a + k) = sext(a) + k, however LLVM split it."""
    if isinstance(v, int):
        return _wrap(v, signed, bits)
    # float bits used as integers do wrap: their widening stays an atom (EXTENDED remembers what it widened)
    if "tree:" not in pkey(v):
        return v
    wide = atom(f"ext{'su'[not signed]}{bits}({pkey(v)})")
    EXTENDED[pkey(wide)] = (v, bits, signed)   # (emptied between walks only: dataflow._reset_tables)
    return wide


EXTENDED: dict = {}   # an extension atom's text -> (the value it widened, its width, signed): a pure function


# -- floating-point trees, hash-consed by structure ------------------------------------------------

class Nodes:
    def __init__(self, shapes: bool = False, max_nodes: int = 0):
        self.record = shapes     # keep each node's shape (for explanations; costs time)
        self.max_nodes = max_nodes or _MAX_NODES   # tree nodes before the walk gives up (memory)
        # node id -> canonical hash of the tree: ids are 1, 2, ... in order of making, so a list
        # indexed by id (entry 0 unused) is the table; reading it is an index, not a hash lookup
        self.key_of = [None]
        self.muls = set()    # ids of unrounded multiplies (ptxas may contract them into an add)
        self.undefined = set()   # ids of trees that read a register or shared word never written
        self.nanish = set()      # ids of trees whose NaN payload ptxas may change (payloads.py)
        self.shape = {}      # canonical hash -> (op, child hashes or tokens, payload), for explanations
        self.lattice = {}    # hash of a max node -> (its opcode, the set of what it takes the maximum of)
        self.sign0 = {}      # hash of a 16-bit tree's sign cleared (and.b16 x, 0x7FFF) -> x's hash (_abs16)
        self._seen = {}      # (op, child keys..., payload) -> the node's key (with shapes recorded)

    def make(self, op, children=(), payload=""):
        key_of = self.key_of
        kids = [key_of[c] if c.__class__ is int else c for c in children]
        nid = len(key_of)
        if nid > self.max_nodes:
            raise Unsupported(f"more than {self.max_nodes} tree nodes")
        undefined = self.undefined
        if op == "undefined" or (undefined and not undefined.isdisjoint(children)):
            undefined.add(nid)
        nanish = self.nanish
        select_key = None
        if op == "select":
            select_key = self._select_marked(nid, children[0], children[1], kids[0], kids[1], payload)
        elif nanish and not nanish.isdisjoint(children) and not payloads.canonical(op):
            nanish.add(nid)
        kind = _KIND.get(op)
        if kind is None:
            kind = _kind(op)
        if self.record:
            return self._make_recorded(nid, op, kids, payload, kind, select_key)
        if kind == _ONCE:   # a leaf or a select: seldom twice in a walk, but again in the next
            # configuration's walk (the same loads, masked alike): their own memo, not to crowd _SEEN
            if select_key is not None:
                key_of.append(select_key)
                return nid
            key_of.append(_once_key(op, kids, payload))   # (id nid: nothing made a node since nid was read)
            return nid
        if op in onehot.HOT and (onehot.TERM or onehot.SUM):
            key = onehot.key(op, kids)
            if key is not None:
                key_of.append(key)
                return nid
        if kind == _WIDEN:
            key = self._widen(op, kids[0])
            if key is not None:
                key_of.append(key)
                return nid
            if kids[0] in self.sign0 and op in _SIGN0_WIDENS:
                kids[0] = self._abs16(kids[0], _SIGN0_WIDENS[op])
        if kind == _COMMUTES or kind == _JOINED:
            kids.sort()     # their key does not depend on the children's order: neither does the memo
        # the key is a function of the operation, the children's keys and the payload alone: threads
        # that build the same tree (every lane after a butterfly), and walks of other texts that
        # build it (a num_warps twin's element trees), hash it once (_SEEN, shared by every walk)
        seen = (op, *kids, payload)
        key = _SEEN.get(seen)
        if key is None:
            key = self._seen_miss(seen, op, kids, payload, kind)
        elif kind == _JOINED:          # (key, the set it joins): this walk's lattice learns it
            self.lattice[key[0]] = key[1]
            key = key[0]
        if onehot.TERM and op in onehot.MULS:   # a mul of a one-hot term is one (onehot.note_mul)
            onehot.note_mul(key, kids[0], kids[1])
        key_of.append(key)
        return nid

    def make_load(self, payload, key=None):
        """make("load", (), payload): a leaf (no children, so never undefined), its key memoised
        as make memoises it, without make's dispatch (a load per element per thread). key:
        leaf_key(payload) where the caller holds it already."""
        if self.record:
            return self.make("load", (), payload)
        key_of = self.key_of
        nid = len(key_of)
        if nid > self.max_nodes:
            raise Unsupported(f"more than {self.max_nodes} tree nodes")
        key_of.append(key or leaf_key(payload))
        return nid

    def make_keyed(self, key, shape=("onehot", (), "")):
        """A node whose canonical key the caller computed (storefold.py's folded one-hot sums): its id."""
        nid = len(self.key_of)
        if nid > self.max_nodes:
            raise Unsupported(f"more than {self.max_nodes} tree nodes")
        if self.record:
            self.shape.setdefault(key, shape)
        self.key_of.append(key)
        return nid

    def make_select(self, a, b, payload):
        """make("select", (a, b), payload) without make's dispatch (a masked load's value, made
        into a node in every thread that reads it): the same key, id and undefined mark."""
        if self.record:
            return self.make("select", (a, b), payload)
        key_of = self.key_of
        ka = key_of[a] if a.__class__ is int else a
        kb = key_of[b] if b.__class__ is int else b
        nid = len(key_of)
        if nid > self.max_nodes:
            raise Unsupported(f"more than {self.max_nodes} tree nodes")
        undefined = self.undefined
        if undefined and (a in undefined or b in undefined):
            undefined.add(nid)
        key_of.append(self._select_marked(nid, a, b, ka, kb, payload))
        return nid

    def _select_marked(self, nid, a, b, ka, kb, payload) -> str:
        """The key of select node nid (arms a, b, keyed ka, kb), marked payload-free where ptxas may
        make it a min or max or an arm is (payloads.py): make's and make_select's select."""
        key = _select_key(ka, kb, payload)
        nanish = self.nanish
        if payloads.payload_free(key, payload, ka, kb) or (nanish and (a in nanish or b in nanish)):
            nanish.add(nid)
        return key

    def make_all(self, op, argss) -> list:
        """[make(op, args) for args in argss], in order (the node ids): one call for an instruction
        in every thread, the same keys, ids and marks make gives one by one."""
        kind = _KIND.get(op)
        if kind is None:
            kind = _kind(op)
        if self.record or kind == _JOINED or kind == _ONCE or kind == _WIDEN or op == "undefined" or \
                (op in onehot.HOT and (onehot.TERM or onehot.SUM)):
            return [self.make(op, args) for args in argss]
        key_of, undefined, get = self.key_of, self.undefined, _SEEN.get
        commutes = kind == _COMMUTES
        nanish = self.nanish if self.nanish and not payloads.canonical(op) else None
        out = []
        for args in argss:
            kids = [key_of[c] if c.__class__ is int else c for c in args]
            nid = len(key_of)
            if nid > self.max_nodes:
                raise Unsupported(f"more than {self.max_nodes} tree nodes")
            if undefined and not undefined.isdisjoint(args):
                undefined.add(nid)
            if nanish and not nanish.isdisjoint(args):
                nanish.add(nid)
            if commutes:
                kids.sort()
            seen = (op, *kids, "")
            key = get(seen)   # (a generation flipped meanwhile: the old one still maps correctly)
            if key is None:
                key = self._seen_miss(seen, op, kids, "", kind)
            key_of.append(key)
            out.append(nid)
        return out

    def _seen_miss(self, seen, op, kids, payload, kind):
        """make's key for a tuple not in the current generation of _SEEN: from the previous one,
        or hashed (and for max.f32 its set put in this walk's lattice, as _key does)."""
        global _SEEN, _SEEN_OLD
        hit = _SEEN_OLD.get(seen)
        if hit is None:
            key = self._key(op, kids, payload, kind)
            hit = (key, self.lattice[key]) if kind == _JOINED else key
        if len(_SEEN) >= _SEEN_MAX:    # two generations: the memory stays bounded, recent trees stay
            _SEEN_OLD, _SEEN = _SEEN, {}
        _SEEN[seen] = hit
        if kind == _JOINED:
            self.lattice[hit[0]] = hit[1]
            return hit[0]
        return hit

    def _make_recorded(self, nid, op, kids, payload, kind, select_key=None):
        """make with shapes recorded (explanations): every key from this walk's own _key
        (select_key: a select's, which make has made)."""
        if kind == _ONCE:   # a leaf or a select: almost never built twice, so not worth a memo entry
            key = select_key if select_key is not None else self._key(op, kids, payload, kind)
            self.shape.setdefault(key, (op, kids, payload))
            self.key_of.append(key)
            return nid
        if op in onehot.HOT and (onehot.TERM or onehot.SUM):
            key = onehot.key(op, kids)
            if key is not None:
                self.shape.setdefault(key, ("onehot", sorted(kids), ""))
                self.key_of.append(key)
                return nid
        if kind == _WIDEN:
            key = self._widen(op, kids[0])
            if key is not None:
                self.key_of.append(key)
                return nid
            if kids[0] in self.sign0 and op in _SIGN0_WIDENS:
                kids[0] = self._abs16(kids[0], _SIGN0_WIDENS[op])
        if kind == _COMMUTES or kind == _JOINED:
            kids.sort()
        seen = (op, *kids, payload)
        key = self._seen.get(seen)
        if key is None:
            key = self._seen[seen] = self._key(op, kids, payload, kind)
        if op in onehot.MULS and len(kids) == 2:
            onehot.note_mul(key, kids[0], kids[1])
        self.key_of.append(key)
        return nid

    def _key(self, op, kids, payload, kind):
        """The canonical hash of a new node (and its shape, when recorded); kind is _KIND[op]."""
        if kind == _JOINED:
            # max.f32 / .f16 / .bf16 are joins (+0 above -0, a NaN operand ignored, two NaNs the
            # canonical one; measured on the H200 in both operand orders): any tree of one over
            # the same operands gives the same bits, so the node is the set of its operands,
            # nested maxima of the same opcode flattened, repeats dropped.
            kids = joined(op, kids, self.lattice)
        elif kind == _COMMUTES:     # IEEE add and mul commute bitwise (NaNs are canonical on NVIDIA)
            # (make sorted them for its memo already; the key's own rule stays stated here)
            kids = sorted(kids)
        elif kind == _FMA:
            kids = sorted(kids[:2]) + kids[2:]
        key = _hash(op, kids, payload)
        if kind == _JOINED:
            self.lattice[key] = (op, frozenset(kids))
        if self.record:
            self.shape.setdefault(key, (op, kids, payload))
        return key

    def _widen(self, op, k):
        """The key of cvt.f32.f16 (or .bf16) of node k when k is a max.f16 (.bf16) join: the
        max.f32 join of its members widened one by one, else None. Widening is exact and
        monotone; on the H200 cvt.f32.f16(max.f16(a, b)) = max.f32(cvt(a), cvt(b)) bit for bit
        on every pair, and for bf16 on every pair but two NaNs, where the widened canonical bf16
        NaN (0x7FFF0000) is not max.f32's canonical 0x7FFFFFFF (benchmarks/max_join_probe.py,
        2026-12-03g). So LLVM's narrowing of an f32 max of widened halves into a half max (what
        row_max_f16 compiles to at some sizes) keeps the f16 tree's key; the bf16 one is the f32
        join marked "all NaN: 0x7FFF0000" (a payload of its own: equal only to such joins), which
        a max.f32 over it flattens (its NaN result is then max.f32's own, as its members' is)."""
        hit = self.lattice.get(k)
        if hit is None or hit[0] != _WIDENS[op][0]:
            return None
        widened = []
        for s in hit[1]:
            if s in self.sign0 and op in _SIGN0_WIDENS:
                s = self._abs16(s, _SIGN0_WIDENS[op])
            seen = (op, s, "")
            w = _SEEN.get(seen)
            if w is None:
                w = self._seen_miss(seen, op, [s], "", _WIDEN)
            widened.append(w)
            if self.record:
                self.shape.setdefault(w, (op, [s], ""))
        return self._key("max.f32", sorted(set(widened)), _WIDENS[op][1], _JOINED)

    def _abs16(self, k, absop):
        """The key of abs.f16(x) for k, x's sign cleared (and.b16 x, 0x7FFF): what cvt.f32.f16 reads in its place.
        abs.f16 of a NaN is the canonical NaN, not x's sign cleared, but cvt.f32.f16 makes every NaN canonical, so
        the two widened are equal on all 2^16 inputs (benchmarks/max_join_probe.py, 2026-12-03g call 2; for bf16 they
        are not: cvt.f32.bf16 keeps payloads)."""
        x = self.sign0[k]
        seen = (absop, x, "")
        key = _SEEN.get(seen)
        if key is None:
            key = self._seen_miss(seen, absop, [x], "", _kind(absop))
        if self.record:
            self.shape.setdefault(key, (absop, [x], ""))
        return key

    def summary(self, key, memo=None):
        """(leaves, depth, pairs): the loads under a node, its height, and the pairs of
        loads it combines directly (what a reduction order is, read bottom-up)."""
        memo = {} if memo is None else memo
        if key in memo:
            return memo[key]
        op, kids, payload = self.shape.get(key, ("token", (), key))
        if self.leaf(key):
            out = (1, 0, frozenset())
        else:
            subs = [self.summary(k, memo) for k in kids]
            pairs = frozenset().union(*(p for _, _, p in subs)) if subs else frozenset()
            if len(kids) == 2 and all(self.leaf(k) for k in kids):
                pairs |= {tuple(sorted(self.leaf(k) for k in kids))}
            out = (sum(n for n, _, _ in subs), 1 + max((d for _, d, _ in subs), default=0), pairs)
        memo[key] = out
        return out

    def leaf(self, key):
        """The address of a load, or of a masked load (select of a load and a constant)."""
        op, kids, payload = self.shape.get(key, ("token", (), key))
        if op == "load":
            return payload
        if op == "select" and len(kids) == 2 and self.shape.get(kids[0], ("",))[0] == "load" \
                and kids[1] not in self.shape:
            return self.shape[kids[0]][2]
        return None

    def describe(self, key) -> str:
        """A node in words: its operation, the loads under it, its height, its first pair."""
        if key not in self.shape:
            return key
        op, kids, payload = self.shape[key]
        if self.leaf(key):
            return f"load{self.leaf(key)}"
        n, d, pairs = self.summary(key)
        first = f", first pair {min(pairs)[0]} + {min(pairs)[1]}" if pairs else ""
        return f"{op} over {n} loads, height {d}{first}"


def first_difference(ka: str, a: Nodes, kb: str, b: Nodes, path: str = "root") -> str:
    """Where two trees first differ: the path from the root and the two nodes there."""
    while ka != kb:
        sa, sb = a.shape.get(ka), b.shape.get(kb)
        if sa is None or sb is None or sa[0] != sb[0] or sa[2] != sb[2] or len(sa[1]) != len(sb[1]):
            return f"at {path}: {a.describe(ka)} vs {b.describe(kb)}"
        diff = [i for i, (x, y) in enumerate(zip(sa[1], sb[1])) if x != y]
        if len(diff) != 1:   # several children differ: the node itself is where the trees part
            return f"at {path}: {a.describe(ka)} vs {b.describe(kb)}"
        i = diff[0]
        ka, kb, path = sa[1][i], sb[1][i], f"{path}/{sa[0]}[{i}]"
    return "nowhere"


_FLOAT_OPS = re.compile(r"^(add|sub|mul|fma|max|min|div|neg|abs|sqrt|rsqrt|rcp|ex2|lg2|sin|cos|tanh|cvt|copysign)\.")
_FLOAT_TYPE = re.compile(r"\.(f16|bf16|f32|f64|f16x2|bf16x2)(\.|$)")
_RING = {"add", "sub", "mul", "mad", "shl"}
# Joins. benchmarks/results/2026-11-29-checker-gpu: max.f32(+0,-0) = max.f32(-0,+0) = +0 and
# max.f32(NaN, x) = max.f32(x, NaN) = x on the H200; max.f16 and max.bf16 over all 2^32 pairs
# (2026-12-03f-gpu call 5; two NaNs give the canonical NaN); min, .NaN and .xorsign not probed.
_JOIN = {"max.f32", "max.ftz.f32", "max.f16", "max.bf16"}
# widenings that carry a 16-bit join into an f32 one (Nodes._widen): cvt opcode -> (the join it folds,
# the payload of the f32 join it makes: "" where two NaNs widen to max.f32's canonical NaN)
_WIDENS = {"cvt.f32.f16": ("max.f16", ""), "cvt.f32.bf16": ("max.bf16", "nan:0x7fff0000")}
# widenings under which a half's sign cleared (and.b16 x, 0x7FFF) is its abs (Nodes._abs16): cvt -> that abs
_SIGN0_WIDENS = {"cvt.f32.f16": "abs.f16"}


def joined(op: str, kids, lattice: dict) -> list:
    """The sorted keys a join of opcode op over kids' keys joins: a kid that lattice ({key: (opcode, its set)})
    names a join of the same opcode flattened into it, repeats dropped (Nodes._key; families/floats.key_at)."""
    members: set = set()
    for k in kids:
        hit = lattice.get(k)
        if hit is not None and hit[0] == op:
            members |= hit[1]
        else:
            members.add(k)
    return sorted(members)


_blake2b = hashlib.blake2b
# how _key orders a node's children, by opcode (decided once per opcode text)
# (_ONCE: children in order, like _PLAIN; memoised in _ONCE_SEEN, not in _SEEN or Nodes._seen)
_PLAIN, _COMMUTES, _FMA, _JOINED, _ONCE, _WIDEN = 0, 1, 2, 3, 4, 5
_KIND = {}


def _kind(op: str) -> int:
    base = opcode_base(op)
    kind = _KIND[op] = (_JOINED if op in _JOIN else _WIDEN if op in _WIDENS else _COMMUTES if base in ("add", "mul")
                        else _FMA if base == "fma" else _ONCE if op in ("load", "select") else _PLAIN)
    return kind


# make's memo, shared by every walk: (op, child keys..., payload) -> the node's key, or for max.f32
# (key, the set of what it joins). A pure function of the tuple (the key hashes exactly these; a
# max node's set is what its key hashes), so a hit gives what _key would. Two generations of at
# most _SEEN_MAX entries each.
_SEEN: dict = {}
_SEEN_OLD: dict = {}
_ONCE_SEEN: dict = {}   # the same for loads and selects (_ONCE): (op, child keys..., payload) -> key
_SEEN_MAX = 250_000


def _hash(op, kids, payload) -> str:
    """A node's canonical hash from its operation, its children's keys (in the order the kind
    decides) and its payload: the text every key is made from."""
    return _blake2b(f"{op}({','.join(kids)}){payload}".encode(), digest_size=12).hexdigest()


def _once_key(op, kids, payload) -> str:
    """The key of a leaf or select (_ONCE: children in order), memoised in _ONCE_SEEN under
    (op, *kids, payload) (a pure function of it), as make, make_select and leaf_key need it."""
    seen = (op, *kids, payload)
    key = _ONCE_SEEN.get(seen)
    if key is None:
        key = _hash(op, kids, payload)
        if len(_ONCE_SEEN) >= _SEEN_MAX:
            _ONCE_SEEN.clear()
        _ONCE_SEEN[seen] = key
    return key


def _select_key(ka: str, kb: str, payload: str) -> str:
    """The key of select(payload, ka, kb): a one-hot sum's where it guards one (onehot.py), else
    _once_key's; a select that makes a one-hot term is noted as one."""
    if onehot.SUM:
        key = onehot.select(ka, kb, payload)
        if key is not None:
            return key
    key = _once_key("select", (ka, kb), payload)
    if kb == "bits:0" and onehot.NAMED:
        onehot.note_select(key, ka, kb, payload)
    return key


def leaf_key(payload) -> str:
    """The key make("load", (), payload) gives a leaf (shapes not recorded)."""
    return _once_key("load", (), payload)

# what a walk may spend before it gives up (check.signature's args "nodes" and "steps" raise them)
_MAX_NODES = 2_000_000   # tree nodes (memory)
_MAX_STEPS = 20000   # instructions executed, each over all threads (a long loop)
_KNOWN = {"bra", "ret", "bar", "barrier", "ld", "st", "ldmatrix", "stmatrix", "shfl", "mov", "cvta", "setp", "selp",
          "add", "sub", "mul", "mad", "fma", "div", "abs", "neg", "min", "max", "copysign", "sqrt", "rsqrt", "rcp",
          "ex2", "lg2", "sin", "cos", "tanh", "cvt", "shl", "shr", "and", "or", "xor", "not", "bfe", "prmt", "popc"}
_BITS = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "bf16": 2,
         "b32": 4, "u32": 4, "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}
