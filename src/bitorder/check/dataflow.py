"""Checker v1 for loop-free kernels and the loops loops.py folds: the dependence tree of every output element.

All threads of one block run in lockstep over the entry (Triton's loop-free kernels are
straight-line SIMT code), with the thread index concrete and everything the host chooses
symbolic: block indices, parameters, the data. Integers are polynomials over those symbols
(add, sub, mul and shl are ring operations; anything else -- a shift right, a mask, a
comparison -- becomes an atom named by its operands). A load
is a leaf named by its address and width; floating-point instructions are nodes over what
their operands hold; shuffles and shared memory move nodes between concrete lanes. Each
global store is a root: address -> (guard, tree).

Two kernels are equivalent when their roots are the same: the same trees over the same
leaves at the same addresses under the same guards. A pinned reduction compiled for
different num_warps computes the same tree in different code and merges; a free-order one
does not. A forward branch on data over straight-line code, or an if-else of it (libdevice's
tanhf), is walked as that code guarded by its condition (regions.py); a loop over a runtime bound
with a straight-line body is folded (loops.py), the branch that skips it merged as a select. Anything this walk
cannot model exactly -- any other branch, an instruction it does not know, a multiply that ptxas may contract into an add, a shared-memory access that races,
a global load after a global store, an output that depends on a register never written --
raises Unsupported, and the caller falls back to v0's program-text signature.

Assumed, as the compiler that emitted the code already assumed: outputs do not overlap
inputs, integer index arithmetic does not wrap (nor does a 64-to-32-bit conversion of an
index truncate), launches are race-free across blocks, and configurations compared launch
the same grid.
"""
from __future__ import annotations

import gc
import hashlib

from .allthreads import _INT_REG, AllThreads, selp_atom
from .memory import Memory
from .integers import Integers
from .regions import Regions
from .loops import Loops, loop_shapes
from .storefold import StoreFold, store_loops
from . import storefold
from . import loops, magic, trips
from .ptx import Entry, Instr, Label
from . import onehot, payloads
from .bits import _FORM, Bits
from .rules import _BITS16, _address, _branches_on_constants, _diamond, _hammock, _is_memory, _operand, _text_shape
from .tensorcore import _PROXY_FENCE, TensorCore
from .poly import atom, _is_int, padd, pkey, pmul, UNDEF_PRED
from .symbolic import EXTENDED, Nodes, Unsupported, _BITS, _KNOWN, _MAX_STEPS, _RING, _is_float_op, _itype, _pair_cvt, first_difference
from .predicates import _SELECT, _pred, negate, select

_BITS_TOKEN = {}   # an int -> the token of its bits as a float operand (_Block.fnode)

__all__ = ["Unsupported", "first_difference", "roots", "signature", "signature_of", "walk"]


class _Block(Memory, TensorCore, AllThreads, Integers, Regions, Loops, StoreFold):
    def __init__(self, entry: Entry, nodes: Nodes, divisible=frozenset(), bound=(), cta=None, grid_x=None,
                 max_steps: int = 0, sblock=None, nonneg=frozenset()):
        if not entry.reqntid:
            raise Unsupported("no .reqntid launch bound")
        self.n = entry.reqntid[0]
        self.e = entry
        self.nodes = nodes
        # the register file by register, not by thread: register -> [its value in thread t, ...].
        # An instruction over all threads reads one list per operand and writes one new list, where
        # a dict per thread made every read a lookup in a different large table (a cache miss per
        # thread). A register no thread wrote has no list; a thread that never wrote a listed
        # register holds self.undef there; both read as self.undef, as a missing key read before.
        self.cols = {}
        self.undef = ("node", nodes.make("undefined"))
        self.smem = {}         # address key -> (value, writer thread, epochs when written)
        self.smem_reads = {}   # address key -> {(reader thread, epochs when read)}
        self.smem_bytes = {}   # (symbolic part of an address, byte) -> (start, width) of the word stored there
        self.words = set()     # (address key, width) of shared words whose bytes all map to them (memory.py)
        # (bar.sync count, bar.sync + bar.warp.sync count): two accesses of different threads
        # race unless a barrier both take lies between them (a warp barrier orders one warp)
        self.epoch = (0, 0)
        self.uniform = set()     # registers holding one and the same value in every thread
        self.region = None       # inside a skipped-over region or an if-else arm: regions.py
        self.skip = None         # inside code a branch skips around a folded loop: loops.py
        self.loop_steps = 0      # instructions the loop folds walked (loops.py)
        self.turns = 0           # a folded loop's constant trip count while its turn is walked (loops.py)
        self.turn_eq = False     # whether that turn was compared for equality with data (loops.py)
        self.turn_range = None   # storefold.py's walk 2: (first, count) of the elements a lane stores
        self.turn_lane = None    # and (e, D): they are e + D t, t = 0, 1, ...
        self.turn_split = False  # and whether a comparison of u alone was undecided over them
        self.lane_split = False  # and whether a thread's lane was walked segment by segment
        self.fold_split = False  # and whether an earlier lane of the fold was (its segments first: storefold.py)
        self.turn_prefixes = None   # storefold.py's walk 1: the "T < k" the turn's comparisons gave
        self._shape_of = {}      # id(instruction) -> (registers it writes, registers it reads, may run once)
        self.stored = False
        self._selects = {}               # id(select tuple) -> (the tuple, its node id)
        self.bits = Bits()               # registers known bit by bit (predicates packed into integers)
        self.loads, self.packs = {}, {}  # node id -> (address, bytes); node id -> [(part, bytes)]
        self.part_of = {}                # node id of a part -> (the value, i, n, bytes) (memory.subword)
        self.bits_of_tree = {}   # the text of a tree's bits as an integer (tree_bits) -> the tree (fnode)
        self.bases, self.bytes = {}, {}   # output pointer -> symbolic address part; (part, byte) -> store
        self.roots = {}
        self.root_guards = {}  # address key -> the guards of equal stores to it (memory.store)
        self.params = {p: f"arg{i}" for i, p in enumerate(entry.params)}
        # parameters the compiler was told are multiples of 16 (Triton's specialisation): 16 x a symbol
        self.param_value = {p: ({(f"param:arg{i}/16",): 16} if i in divisible else atom(f"param:arg{i}"))
                            for i, p in enumerate(entry.params)}
        # bound parameters (a launch's integer arguments, `bind`): their values, not symbols
        self.bound = frozenset(entry.params[i] for i, _ in bound)
        for i, v in bound:
            self.param_value[entry.params[i]] = v
        # cta = (program_id(2), the grid's z extent): both concrete for this walk (walk's cta)
        self.cta_sub = None if cta is None else {pkey(atom("ctaid_z")): cta[0], pkey(atom("nctaid_z")): cta[1]}
        self.cta_z = cta is not None
        self.max_steps = max_steps or _MAX_STEPS
        # grid_x: the launch grid's x extent; %nctaid.x is that value, %ctaid.x a symbol below it
        self.grid_x = grid_x
        if grid_x is not None:
            self.cta_sub = dict(self.cta_sub or {}, **{pkey(atom("nctaid_x")): grid_x})
        # sblock = (r, i): program i of a super-block of r programs, so %ctaid.x is r c + i with c (the symbol
        # ctaid_x below) the super-block's index, and %nctaid.x is r C (C, the symbol nctaid_x, super-blocks)
        if sblock is not None:
            if grid_x is not None:
                raise Unsupported("a super-block walk with a given grid")
            r, i = sblock
            self.cta_sub = dict(self.cta_sub or {}, **{pkey(atom("ctaid_x")): padd(pmul(atom("ctaid_x"), r), i),
                                                       pkey(atom("nctaid_x")): pmul(atom("nctaid_x"), r)})
        # monomials of symbols known to be at least 0, which decide the orders they alone leave open
        # (integers.compare_int; only signature.stores_past_end's walk names one)
        self.nonneg = frozenset(nonneg)
        self._tc_init(entry)

    # operands -------------------------------------------------------------------------------
    def val(self, t, op):
        kind, x = _operand(op)
        if kind == "reg":
            if self.region is not None and x in self.region[2][t]:
                return self.region[2][t][x]          # inside a skipped region: its own values
            col = self.cols.get(x)
            return self.undef if col is None else col[t]   # never written: a value equal to nothing
        if kind == "tid":
            return t
        if kind == "ntid":
            return self.n
        return self.given(x) if self.cta_sub is not None else x

    def given(self, x):
        """A decoded constant operand, program_id(2) and the grid's z extent given their values (cta)."""
        return self.cta_sub.get(pkey(x), x) if x.__class__ is dict else x

    def addr(self, t, text):
        base, offset = _address(text)
        if base in self.params:
            return self.param_value[base]
        v = self.val(t, base)
        if not _is_int(v):
            raise Unsupported("an address that is not an integer")
        return padd(v, offset) if offset else v

    def key(self, v):
        """The canonical name of a value (equal for equal trees, whatever their node ids)."""
        f = self.fnode(v)
        return self.nodes.key_of[f] if isinstance(f, int) else f

    def fnode(self, v):
        """A float operand as a node id or a token for its bits."""
        if v.__class__ is tuple and v[0] == "node":   # the common case first (a tree)
            return v[1]
        if isinstance(v, int):
            token = _BITS_TOKEN.get(v)
            if token is None or v.__class__ is not int:   # (a bool: True and 1 are one key)
                token = f"bits:{v & ((1 << 64) - 1)}"
                if v.__class__ is int:
                    if len(_BITS_TOKEN) > 100_000:
                        _BITS_TOKEN.clear()
                    _BITS_TOKEN[v] = token
            return token
        if isinstance(v, dict):
            k = pkey(v)
            tree = self.bits_of_tree.get(k)   # (a node id may be 0: tested against None, not for truth)
            return f"int:{k}" if tree is None else tree
        if v[0] == "select":   # made into a node once, however often it is read
            hit = self._selects.get(id(v))
            if hit is None or hit[0] is not v:
                hit = self._selects[id(v)] = (v, self.nodes.make_select(self.fnode(v[2]), self.fnode(v[3]), v[1]))
            return hit[1]
        return v[1]

    # the walk ----------------------------------------------------------------------------------
    def run(self):
        body = self.e.body
        for item in body:   # refuse before walking what the walk would refuse later
            if isinstance(item, Instr) and item.base not in _KNOWN and item.base not in ("cp", "wgmma") \
                    and not (item.opcode == _PROXY_FENCE and self.tc is not None):
                raise Unsupported(f"control flow ({item.opcode})" if item.base in ("brx", "call", "exit")
                                  else f"instruction {item.opcode}")
        labels = {item.name: i for i, item in enumerate(body) if isinstance(item, Label)}
        # loops over a runtime bound (loops.py, when on): back edge -> header, and the branches that skip one
        backs, skips = loop_shapes(body, labels) if loops.ON and self.tc is None else ({}, {})
        # with storefold.STORES, loops of a constant trip count that store are folded too (never over a runtime bound)
        cbacks = {**backs, **store_loops(body, labels)} if storefold.STORES and self.tc is None \
            else backs
        headers = {h: b for b, h in cbacks.items()}
        straight = _branches_on_constants(body, labels, self.bound, self.cta_z, self.grid_x is not None,
                                          frozenset(backs) | frozenset(skips))
        if trips.exceeds(self, body, labels, straight, cbacks if loops.CONST else {}):   # loops of constant trip counts too long to follow: known now
            raise Unsupported(f"more than {self.max_steps} instructions executed (a long loop)")
        pc, steps = 0, 0
        entries, by_back_edge = {}, False   # header -> registers and memory where its loop was entered
        while pc < len(body):
            while self.region is not None and pc == self.region[0]:
                pc = self.leave_region(pc)   # every thread runs on from here (or a diamond's else arm)
            while self.skip is not None and pc == self.skip[0]:
                pc = self.leave_skip(pc)    # an if-else's other arm, or the join
            item = body[pc]
            pc += 1
            if isinstance(item, Label):
                if pc - 1 in headers:   # a loop entered from above: what its fold restarts from
                    if by_back_edge:
                        entries.pop(pc - 1, None)   # (a later turn: a fold needs turn 0's start)
                    else:
                        entries[pc - 1] = self.loop_snapshot()
                by_back_edge = False
                continue
            steps += 1
            if steps > self.max_steps:
                raise Unsupported(f"more than {self.max_steps} instructions executed (a long loop)")
            if item.opcode == "ret":
                if item.guard is not None:
                    raise Unsupported("a guarded return")
                break
            if item.base == "bra":
                # a branch every thread takes the same way on concrete values (a loop with a
                # constant trip count) is followed; anything else is beyond this walk
                taken = {self.guard(t, item) for t in range(self.n)}
                if len(taken) != 1 or not isinstance(next(iter(taken)), bool):
                    # a branch on data, outside a region: a forward branch over straight-line code runs
                    # that code in the threads that do not branch (every instruction guarded by "not
                    # taken"); an if-else over straight-line code runs each arm under its condition
                    end = _hammock(body, pc - 1, labels) if self.region is None else None
                    if end is not None:
                        self.enter_hammock(item, end)
                        continue
                    arms = _diamond(body, pc - 1, labels) if self.region is None else None
                    if arms is not None:
                        pc = self.enter_diamond(item, *arms)
                        continue
                    h = backs.get(pc - 1)
                    if h is not None and h in entries:     # turn 0 of a loop over a runtime bound
                        pc = self.fold(h, pc - 1, entries.pop(h))
                        continue
                    if pc - 1 in skips and self.region is None and self.skip is None:
                        pc = self.enter_skip(item, pc - 1, skips[pc - 1])
                        continue
                    raise Unsupported("a branch on a symbolic or divergent condition (a loop over a runtime "
                                      "bound, or divergence)")
                if taken == {True}:
                    if item.operands[0] not in labels:
                        raise Unsupported(f"a branch to an unknown label {item.operands[0]}")
                    by_back_edge = cbacks.get(pc - 1) == labels[item.operands[0]]
                    if by_back_edge and loops.CONST and labels[item.operands[0]] in entries:
                        # turn 0 of a loop of constant trip count: folded where fold takes it
                        at = self.fold_constant(cbacks[pc - 1], pc - 1, entries.pop(cbacks[pc - 1]))
                        if at is not None:
                            pc, by_back_edge = at, False
                            continue
                    pc = labels[item.operands[0]]
                continue
            self.step(item)
        return self.roots

    def guard(self, t, ins):
        if ins.guard is None:
            return True
        g = self.val(t, ins.guard[1])
        if isinstance(g, bool):
            return g != ins.guard[0]
        return negate(g) if ins.guard[0] else g

    def step(self, ins: Instr):
        if self.tc is not None:   # (only a program with cp.async or wgmma: the rest pay nothing)
            if self.tc.wg_regs and self.touches_inflight(ins):
                raise Unsupported("an instruction touches a wgmma accumulator still in flight")
            if ins.base in ("cp", "wgmma") or ins.opcode == _PROXY_FENCE:
                if self.region is not None:
                    raise Unsupported("cp.async or wgmma inside a skipped region")
                return self.tensor(ins)
        dsts, srcs, once, run, run_all = self._shape_of.get(id(ins)) or self._shape(ins)
        if ins.base in ("shfl", "ldmatrix"):
            self.uniform.difference_update(dsts)
        if ins.base == "shfl":
            return self.shuffle(ins)
        if ins.base in ("ldmatrix", "stmatrix"):
            return self.matrix(ins)
        if ins.opcode in ("bar.sync", "barrier.sync", "bar.sync.aligned", "barrier.sync.aligned"):
            if ins.guard is not None or ins.operands != ("0",):
                raise Unsupported(f"a partial barrier {ins.text()}")
            self.epoch = (self.epoch[0] + 1, self.epoch[1] + 1)
            return
        if ins.opcode in ("bar.warp.sync",):
            if ins.guard is not None or self.val(0, ins.operands[0]) not in (-1, 0xFFFFFFFF):
                raise Unsupported(f"a partial warp barrier {ins.text()}")
            self.epoch = (self.epoch[0], self.epoch[1] + 1)
            return
        if once and srcs <= self.uniform and self.region is None:
            # every operand is the same in every thread: so is the result (one execution, shared)
            run(0, ins, True)
            cols = self.cols
            for d in dsts:
                cols[d] = [cols[d][0]] * self.n
            self.uniform.update(dsts)
            return
        self.uniform.difference_update(dsts)
        region, guard = self.region, ins.guard
        if region is None and guard is None:     # the common case: every thread, unguarded
            if run_all is not None:
                return run_all()
            for t in range(self.n):
                run(t, ins, True)
            return
        if region is None and guard is not None and guard[1][:1] == "%" and _operand(guard[1])[0] == "reg":
            # guarded, outside a region: guard(t, ins) for a predicate register, inlined
            negated, reg = guard
            col = self.cols.get(reg) or [self.undef] * self.n
            for t in range(self.n):
                g = col[t]
                if g.__class__ is bool:
                    g = g != negated
                elif negated:
                    g = negate(g)
                if g is not False:
                    run(t, ins, g)
            return
        for t in range(self.n):
            g = self.guard(t, ins)
            if region is not None and g is not False:
                region[4][t] = g                      # the instruction's own guard, for writes
                g = _pred("and", [region[1][t], g])   # stores: the region's and the instruction's
            if g is not False:
                run(t, ins, g)

    def _shape(self, ins):
        """(registers ins writes, registers it reads, whether it may run once for all threads:
        unguarded arithmetic, conversions, moves and parameter loads, no thread index)."""
        self._shape_of[id(ins)] = hit = (*_text_shape(ins), *self._handler(ins))
        return hit

    def _handler(self, ins):
        """(run(t, ins, g), run_all() or None): what execute(t, ins, g) does with ins, chosen once per
        instruction in execute's own order, with the operand texts decoded once; run_all does it in
        every thread when none is guarded (floating point and integer arithmetic, moves)."""
        return self._handler_pair(ins) if not _is_memory(ins) else self._memory_handler(ins)

    def _handler_pair(self, ins):
        """_handler's (run, run_all) for an instruction that is not a global or shared access."""
        op, base, ops = ins.opcode, ins.base, ins.operands
        if base == "mov" and len(ops) == 2 and op.split(".")[-1] in _BITS and ("{" in ops[0]) != ("{" in ops[1]):
            return self.execute, self._packing_all(op, ops)      # unpack mov.b32 {lo, hi}, r; pack mov.b32 r, {lo, hi}
        if len(ops) < 2 or any("{" in o for o in ops):
            return self.execute, None
        try:
            decoded = tuple(_operand(o) for o in ops[1:])
        except Unsupported:    # raised where execute would raise it: when (if) it runs
            return self.execute, None
        if self.cta_sub is not None:
            decoded = tuple((k, self.given(x)) for k, x in decoded)
        if _is_float_op(op) and "x2" in op and base != "cvt":     # two scalar instructions, one per half
            return (lambda t, ins, g: self.packed_float(t, op, base, ops, g)), \
                lambda: self._each_all(ops[0], decoded, lambda vals: self.packed_value(op, base, vals))
        if _is_float_op(op) and base == "cvt" and _pair_cvt(op) and len(ops) == 3:
            return self.execute, lambda: self._each_all(ops[0], decoded, lambda vals: self.pair_cvt(op, vals))
        if base in ("and", "or", "xor", "not") and ".pred" in op:
            return self.execute, lambda: self._each_all(ops[0], decoded, lambda vals: _pred(base, vals))
        if _is_float_op(op) and (base != "cvt" or not _pair_cvt(op)):
            return (lambda t, ins, g: self._float(t, op, base, ops, g, self.vals(t, decoded, ops)),
                    lambda: self._float_all(op, base, ops[0], decoded))
        if base == "setp" and len(ops) == 3 and "|" not in ops[0]:
            return (lambda t, ins, g: self.write(t, ops[0], self.compare(op, *self.vals(t, decoded, ops)), g),
                    lambda: self._setp_all(op, ops[0], decoded))
        if base == "mov" and not op.endswith(".pred"):
            if op in _BITS16 and decoded[0][1].__class__ is int:   # a constant's 16 bits (execute's mov)
                decoded = (("value", decoded[0][1] & 0xFFFF),)
            return (lambda t, ins, g: self.write(t, ops[0], self.vals(t, decoded, ops)[0], g),
                    lambda: self._mov_all(ops[0], decoded[0]))
        if (base in _RING or base in ("shr", "and", "or", "xor", "min", "max", "cvt", "neg", "not", "bfe", "popc")) \
                and ".pred" not in op and not _is_float_op(op):
            return (lambda t, ins, g: self.write(t, ops[0], self.integer(op, self.vals(t, decoded, ops)), g),
                    lambda: self._integer_all(op, ops[0], decoded))
        if base == "selp" and len(ops) == 4 and self.tc is None:
            return self._selp_handlers(op, ops, decoded)
        return self.execute, None

    def vals(self, t, decoded, ops):
        """val(t, o) for every source operand o in ops[1:], given their decoded forms."""
        if self.region is not None:
            return [self.val(t, o) for o in ops[1:]]
        cols, undef = self.cols, self.undef
        return [(undef if cols.get(x) is None else cols[x][t]) if k == "reg" else t if k == "tid"
                else self.n if k == "ntid" else x for k, x in decoded]

    def write(self, t, reg, value, g):
        if self.region is not None:
            return self._region_write(t, reg, value)
        col = self.column(reg)
        if g == UNDEF_PRED:      # written or not on a condition nobody defined
            value = self.undef
        elif g is not True:
            value = select(g, value, col[t])
        col[t] = value

    def column(self, reg) -> list:
        """The list of reg's values by thread, made (every thread undefined) if no thread wrote it."""
        col = self.cols.get(reg)
        if col is None:
            col = self.cols[reg] = [self.undef] * self.n
        return col

    def execute(self, t, ins, g):
        op, base, ops = ins.opcode, ins.base, ins.operands
        if _is_float_op(op) and base != "cvt":   # the common case first (cvt has its own forms below)
            return self._float(t, op, base, ops, g) if "x2" not in op else self.packed_float(t, op, base, ops, g)
        if base == "ld" and ".param" in op:
            return self.write(t, ops[0], self.addr(t, ops[1]), g)
        if base in ("ld", "st") and (".global" in op or ".shared" in op):
            return self.memory(t, ins, g)
        if base == "mov" and "{" in ops[0]:          # unpack: mov.b32 {lo, hi}, r
            dsts = [d.strip() for d in ops[0].strip("{} ").split(",")]
            v = self.val(t, ops[1])
            for i, d in enumerate(dsts):
                self.write(t, d, self.subword(v, i, len(dsts), _BITS[op.split(".")[-1]]), g)
            return
        if base == "mov" and "{" in ops[1]:          # pack: mov.b32 r, {lo, hi}
            srcs = [x.strip() for x in ops[1].strip("{} ").split(",")]
            return self.write(t, ops[0], self.pack([self.val(t, x) for x in srcs],
                                                   _BITS[op.split(".")[-1]] // len(srcs)), g)
        if op == "prmt.b32":
            return self.write(t, ops[0], self.permute(*(self.val(t, x) for x in ops[1:4])), g)
        if base == "mov" and op.endswith(".pred"):   # mov.pred p, -1 / 0: a constant predicate
            v = self.val(t, ops[1])
            return self.write(t, ops[0], v != 0 if isinstance(v, int) else v, g)
        if base == "mov" or (base == "cvta" and ".to.global" in op):
            v = self.val(t, ops[1])
            # a 16-bit constant is its bit pattern (-1024 and 0xFC00 are one f16 -inf, as a half of
            # a 32-bit constant is): the same token for the same bits however ptxas wrote them
            if op in _BITS16 and v.__class__ is int and _operand(ops[1])[0] == "value":
                v &= 0xFFFF
            return self.write(t, ops[0], v, g)
        if base == "cvt" and _pair_cvt(op):   # two independent conversions, the first operand into the upper half
            return self.write(t, ops[0], self.pair_cvt(op, [self.val(t, x) for x in ops[1:3]]), g)
        if base == "setp":
            if len(ops) != 3 or "|" in ops[0]:     # a combining setp (.and/.or with a predicate, p|q)
                raise Unsupported(f"setp form {ins.text()}")
            return self.write(t, ops[0], self.compare(op, self.val(t, ops[1]), self.val(t, ops[2])), g)
        if base in ("and", "or", "xor", "not") and ".pred" in op:
            return self.write(t, ops[0], _pred(base, [self.val(t, o) for o in ops[1:]]), g)
        if base == "selp":
            c, a, b = self.val(t, ops[3]), self.val(t, ops[1]), self.val(t, ops[2])
            if c == UNDEF_PRED:
                return self.write(t, ops[0], self.undef, g)
            if isinstance(c, bool):
                return self.write(t, ops[0], a if c else b, g)
            if a.__class__ is int and a == b and b.__class__ is int:
                return self.write(t, ops[0], a, g)     # either arm (a masked one-hot term's zero: storefold.py)
            if a.__class__ is int and b.__class__ is int and _INT_REG.fullmatch(op.split(".")[-1]):
                return self.write(t, ops[0], self.bits.selp(op, c, a, b), g)   # predicate bits
            if self.tc is not None and _is_int(a) and _is_int(b) and _INT_REG.fullmatch(op.split(".")[-1]) \
                    and (self.bits.known(a) is not None or self.bits.known(b) is not None):
                # a cp.async src-size masked twice (selp of a selp); only where cp.async is issued
                width = _itype(op)[1]
                ba, bb = self.bits.of(a, width), self.bits.of(b, width)
                if ba is not None and bb is not None:   # bit by bit: c and a's bit, or not c and b's
                    nc = negate(c)
                    return self.write(t, ops[0], self.bits.make(width, [
                        x if x == y else _pred("or", [_pred("and", [c, x]), _pred("and", [nc, y])])
                        for x, y in zip(ba, bb)]), g)
            if _is_int(a) and _is_int(b):
                return self.write(t, ops[0], selp_atom(c, a, b), g)
            return self.write(t, ops[0], select(c, a, b), g)
        if _is_float_op(op):
            return self._float(t, op, base, ops, g)
        if base in _RING or base in ("shr", "and", "or", "xor", "min", "max", "cvt", "neg", "not", "bfe", "popc"):
            return self.write(t, ops[0], self.integer(op, [self.val(t, o) for o in ops[1:]]), g)
        raise Unsupported(f"instruction {op}")

    def _float(self, t, op, base, ops, g, vals=None):
        """A floating-point instruction: a tree node over what its operands hold (vals, if given)."""
        nid = self.float_node(op, base, [self.val(t, o) for o in ops[1:]] if vals is None else vals)
        if g is True and self.region is None:
            self.column(ops[0])[t] = ("node", nid)   # write's unguarded case
            return
        return self.write(t, ops[0], ("node", nid), g)

    def pair_cvt(self, op, vals):
        """cvt.rn.f16x2.f32 d, a, b (and bf16x2): two independent conversions, a's into the upper half."""
        one = op.replace("x2", "")
        hi, lo = (self.nodes.make(one, (self.fnode(v),)) for v in vals)
        return self.pack([("node", lo), ("node", hi)], 2)

    def float_node(self, op, base, vals) -> int:
        """The node of one floating-point operation on values; an unrounded multiply is noted (ptxas may
        contract it into an add that reads it: such an add is refused)."""
        args = [v[1] if v.__class__ is tuple and v[0] == "node" else self.fnode(v) for v in vals]
        muls = self.nodes.muls
        if base in ("add", "sub") and muls and ".rn" not in op and any(a in muls for a in args):
            raise Unsupported("an unrounded multiply feeds an add: ptxas may contract it")
        nid = self.nodes.make(op, args)
        if (base == "mul" and ".rn" not in op) or (base == "neg" and args[0] in muls):
            muls.add(nid)
        return nid


def roots(entry: Entry, divisible=frozenset(), bound=()) -> dict:
    """{address: (guard, tree key, width)} for one block, ctaid symbolic; raises Unsupported."""
    return walk(entry, divisible=divisible, bound=bound)[0]


_TABLES_MAX = 400_000


def _reset_tables():
    """Before a walk: onehot's node tables emptied; and once the predicate tables (onehot's
    equalities, payloads' integer-only predicates) have grown large, those emptied together with
    the memos whose hits skip their filling (int_form's, select's), so that no hit is left without
    its fact (a walk's answer never depends on what earlier walks left)."""
    onehot.reset()
    payloads.NAN_TESTS.clear()
    # facts a walk reads back (what an extension atom widened, what a mul.hi atom multiplied) are emptied here,
    # never during a walk: emptied in the middle of one, a lookup would miss an atom that walk made, and its
    # answer would depend on how many atoms earlier walks in the process had made
    for facts in (EXTENDED, magic.PRODUCTS):
        if len(facts) > 100_000:
            facts.clear()
    tables = (onehot.EQ, onehot.NAMED, payloads.INT_NAMES, payloads.INT_TEXTS, payloads.COMPARES,
              payloads.COMPOSED)
    if max(len(t) for t in tables) > _TABLES_MAX:
        for t in (*tables, _FORM, _SELECT):
            t.clear()


def walk(entry: Entry, shapes: bool = False, divisible=frozenset(), bound=(), cta=None, grid_x=None, limits=(0, 0),
         sblock=None, nonneg=frozenset()):
    """(roots, the Nodes that name their trees, with their shapes if asked); raises Unsupported.
    divisible: indices of the parameters the code was compiled assuming multiples of 16.
    bound: ((parameter index, value), ...) (check.signature's args): those parameters take their
    values (the roots then hold for launches with exactly these integers), the others stay
    symbols. cta: (program_id(2), the grid's z extent) made concrete, or None (both symbols).
    grid_x: the launch grid's x extent n, or None: %nctaid.x is n and program_id(0) ranges over
    0 .. n - 1, so comparisons it decides over that range are constants. limits: (instructions
    executed, tree nodes) before the walk gives up, 0 for the defaults (_MAX_STEPS, _MAX_NODES).
    sblock: (r, i): walk program r c + i of super-block c (the symbol ctaid_x then names c), or None.
    nonneg: monomials of symbols the walk may take to be at least 0 (a bound parameter's value may read them)."""
    block = None
    # the walk frees what it allocates by reference count: the cyclic collector, triggered by its
    # millions of allocations, would only re-scan every object of the process time and again
    collecting = gc.isenabled()
    gc.disable()
    try:
        _reset_tables()
        nodes = Nodes(shapes, limits[1])
        block = _Block(entry, nodes, frozenset(divisible), bound, cta, grid_x, limits[0], sblock, nonneg)
        return block.run(), nodes
    except Unsupported:
        raise
    except Exception as e:   # anything unforeseen is a case the walk does not model
        raise Unsupported(f"{type(e).__name__}: {e}") from e
    finally:
        if block is not None:   # its handlers refer back to it: break the cycle, free it at once
            block._shape_of.clear()
        if collecting:
            gc.enable()


def signature_of(r: dict, divisible=frozenset(), bound=()) -> str:
    """'v1:' + a hash of the roots (and of the divisibility the code assumed, and the parameter
    values bound): equal for kernels that store the same trees at the same addresses under the
    same guards and assumptions."""
    text = "\n".join(f"{k} <- {v}" for k, v in sorted(r.items()))
    if divisible:
        text += f"\nassumed multiples of 16: parameters {sorted(divisible)}"
    if bound:
        text += f"\nbound parameters: {list(bound)}"
    return "v1:" + hashlib.sha256(text.encode()).hexdigest()[:32]


def signature(entry: Entry, divisible=frozenset(), bound=()) -> str:
    """signature_of(roots(entry)); raises Unsupported where the walk cannot decide."""
    return signature_of(roots(entry, divisible, bound), divisible, bound)
