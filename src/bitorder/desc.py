"""GEMMDesc: the frozen record of everything that decides a GEMM's bits.

Paper section 3.2: a GEMM's output bits are fixed by how its contracted axis K
is cut and what happens at every cut -- the instruction that folds a group of
products into one rounding (instruction_k), where the short turn of the K loop
falls, the nest of spans a split cuts K into (k_cuts), the types a finished part
is written and summed in, and the epilogue. Block sizes, warps, stages, clusters
and swizzles are speed knobs and are deliberately absent: two equal descriptors
owe each other the same bits, on the GPU and in the CPU twin.

A GEMMDesc describes one point: one operand dtype and one contracted length K.
The arch profile (bitorder.cublas) maps a cost-model answer to a rule that makes
these points; the descriptor itself holds numbers, never formulas.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Optional

FAMILIES = ("plain", "split_k", "chained_chunks", "gemv", "dot")
OPERAND_DTYPES = ("fp16", "bf16", "e4m3", "e5m2", "fp32")
ACC_DTYPES = ("fp32", "fp16", "bf16")
# The instruction that folds products, with the instruction_k values it has on sm_90.
INSTRUCTIONS = {
    "wgmma": (16, 32),     # m64nNk16 (fp16/bf16), m64nNk32 (fp8)
    "mma_sync": (8, 16),   # m16n8k8 (cutlass s1688), m16n8k16
    "wmma": (16,),         # wmma m16n16k16 (lowered to mma.sync k16)
    "fma": (1,),           # the scalar path: one fused multiply-add per product
}
K_TAILS = ("last", "first")
MERGE_ORDERS = ("sequential", "serial_seeded", "serial_added", "tree")
LAYOUTS = ("contiguous", "strided")
EPILOGUE_STEPS = ("scale", "scale_a", "scale_b", "scale_bias_fma", "scale_parts", "bias_acc", "bias_last", "round",
                  "bias_out", "add_zero")
_SCALES = ("scale", "scale_a", "scale_b", "scale_bias_fma", "scale_parts")
PROMOTION_ANCHORS = ("part", "k0")
_EIGHT_BIT = ("e4m3", "e5m2")


class DescError(ValueError):
    """An inconsistent GEMMDesc: the message names the field and the rule it breaks."""


def _tuple_of_ints(name, value):
    if not isinstance(value, tuple) or not all(type(v) is int for v in value):
        raise DescError(f"{name} must be a tuple of ints, got {value!r}")


@dataclass(frozen=True)
class GEMMDesc:
    """The bits contract of one GEMM point, C = A @ B contracted over K.

    Fields (paper section 3.2.2):
      family         plain (one block walks all of K), split_k (K cut into parts
                     summed by a merge), chained_chunks (the scalar path: threads
                     share an element, each folding a chunk), gemv, dot.
      operand_dtype  the type of A and B as the instruction reads them.
      k              the contracted length this point describes.
      instruction    what folds products: wgmma, mma_sync, wmma or fma (scalar).
      instruction_k  products folded into one rounding by one instruction (16 for
                     fp16/bf16 wgmma and mma.sync k16, 8 for cutlass s1688, 32 for
                     fp8 wgmma, 1 for fma).
      acc_dtype      the accumulator's type (fp32 for every sm_90 family we know).
      promotion      fp8 only: K elements after which a partial chain started at
                     zero is added into the fp32 accumulator with a round-to-nearest
                     add; None means one pure chain (use_fast_accum=True).
      promotion_anchor  fp8 split_k only: where the promotion intervals are counted
                     from: None or "part" (each part's own start: a part restarts its
                     intervals), "k0" (multiples of promotion from k = 0, so a part
                     that starts off a multiple begins with a short interval).
      k_tail         where the short turn of the K loop falls: "last" (groups of
                     instruction_k counted from k=0) or "first" (the first turn
                     covers K mod k_step, cutlass's residue-first mainloop).
      k_step         the length of a full turn of the K loop; it decides bits only
                     when k_tail == "first", and must be None otherwise.
      k_cuts         the nest of spans, outermost first: level i cuts each part of
                     level i-1 into pieces of k_cuts[i] (the last piece takes the
                     rest), each accumulated from zero. () for plain.
      k_parts        split_k only, optional: the number of outer parts when it is
                     fixed rather than ceil(k / k_cuts[0]); the last part then takes
                     everything the others leave, and can be longer than the span
                     (cuBLAS's nvjet split-K rounds floor(K/s) to 64). None: every
                     part is k_cuts[0] long but the last, which takes the rest.
      partial_dtype  the type a finished part is written in (split_k, chains).
      merge_dtype    the type the running sum of parts is kept in.
      merge_order    how parts meet: sequential (p0+p1, then +p2 ...), tree
                     (pairs of neighbours), serial_seeded (part i starts its chain
                     from part i-1's rounded result), serial_added (part i's
                     finished chain is added to part i-1's rounded result).
      layout         gemv/dot: which K elements a lane takes, contiguous slices or
                     every count-th tile (strided). split_k: None (contiguous parts,
                     the default) or "strided": K is cut into tiles of k_cuts[0] from
                     k = 0 (the last one short when it does not divide K), dealt to
                     k_parts parts in turn (part p walks tiles p, p + k_parts, ... in
                     increasing K, one chain from zero over all its tiles, the
                     instruction groups counted from each tile's start); the parts
                     are then merged in part order as merge_order says (cuBLAS's
                     algorithm 35, sm80_xmma 32x32x64 split 9: benchmarks/fit_algo35.py).
                     A strided split needs k_parts, one level of k_cuts, k_tail
                     "last", no promotion and a non-serial merge.
      lane_fold      gemv/dot/chains: the butterfly offsets of the cross-lane fold,
                     in the order they run (count-down (16, 8, 4, 2, 1) or up).
      epilogue       the steps after the K reduction, in order, from scale
                     (multiply by scale_a * scale_b, that product rounded to fp32
                     first), scale_a / scale_b (multiply by one scale at a time),
                     scale_bias_fma (fma(acc, scale_a * scale_b, bias), one rounding),
                     scale_parts (split_k: every part's fp32 accumulator multiplied by
                     scale_a * scale_b before it is rounded to partial_dtype and
                     merged, the split kernel scaling its own partial),
                     bias_acc (add the bias in
                     the accumulator type), round (to the output type), bias_out
                     (add the bias to the rounded output, rounding again). Under a
                     serial merge, bias_acc goes into the first part's accumulator
                     before that part is rounded (cuBLAS's in-place split-K);
                     bias_last (serial_added only) adds it in fp32 to the last
                     part's sum with the running output, before that rounding
                     (algorithm 21's s16816 serial kernels, 2026-12-01e CPU fit).
                     add_zero (last: the rounded output added to +0, so -0 becomes
                     +0: a split whose last partitions are empty merges their +0
                     partials into output-type partials; 2026-12-02f H200 gate).
    """

    family: str
    operand_dtype: str
    k: int
    instruction: str
    instruction_k: int
    acc_dtype: str = "fp32"
    promotion: Optional[int] = None
    k_tail: str = "last"
    k_step: Optional[int] = None
    k_cuts: tuple = ()
    k_parts: Optional[int] = None
    partial_dtype: Optional[str] = None
    merge_dtype: Optional[str] = None
    merge_order: Optional[str] = None
    layout: Optional[str] = None
    lane_fold: tuple = ()
    epilogue: tuple = ("round",)
    promotion_anchor: Optional[str] = None

    def __post_init__(self):
        self._validate()

    # -- validation: every rule names the field it protects ---------------------
    def _validate(self):
        def need(cond, msg):
            if not cond:
                raise DescError(f"GEMMDesc({self.family}): {msg}")

        need(self.family in FAMILIES, f"family must be one of {FAMILIES}, got {self.family!r}")
        need(self.operand_dtype in OPERAND_DTYPES,
             f"operand_dtype must be one of {OPERAND_DTYPES}, got {self.operand_dtype!r}")
        need(type(self.k) is int and self.k >= 1, f"k must be a positive int, got {self.k!r}")
        need(self.instruction in INSTRUCTIONS,
             f"instruction must be one of {tuple(INSTRUCTIONS)}, got {self.instruction!r}")
        need(self.instruction_k in INSTRUCTIONS[self.instruction],
             f"{self.instruction} folds {INSTRUCTIONS[self.instruction]} products, not {self.instruction_k!r}")
        need(self.acc_dtype in ACC_DTYPES, f"acc_dtype must be one of {ACC_DTYPES}")
        eight_bit = self.operand_dtype in _EIGHT_BIT
        if self.instruction == "wgmma":
            need(self.instruction_k == (32 if eight_bit else 16),
                 f"wgmma on {self.operand_dtype} folds {32 if eight_bit else 16} products, not {self.instruction_k}")
        if self.promotion is not None:
            need(eight_bit, "promotion is an fp8 accumulation fact; operand_dtype is not 8-bit")
            need(type(self.promotion) is int and self.promotion > 0 and self.promotion % self.instruction_k == 0,
                 f"promotion {self.promotion!r} must be a positive multiple of instruction_k {self.instruction_k}")
        need(self.k_tail in K_TAILS, f"k_tail must be one of {K_TAILS}, got {self.k_tail!r}")
        if self.k_tail == "first":
            need(type(self.k_step) is int and self.k_step > 0 and self.k_step % self.instruction_k == 0,
                 f"k_tail='first' needs k_step, a positive multiple of instruction_k, got {self.k_step!r}")
        else:
            need(self.k_step is None, "k_step decides bits only when k_tail='first'; leave it None (it is a speed knob)")
        _tuple_of_ints("k_cuts", self.k_cuts)
        _tuple_of_ints("lane_fold", self.lane_fold)
        need(all(s > 0 for s in self.k_cuts), f"k_cuts spans must be positive, got {self.k_cuts}")
        need(all(a > b for a, b in zip(self.k_cuts, self.k_cuts[1:])),
             f"k_cuts must shrink from the outermost level inwards, got {self.k_cuts}")
        has_parts = self.partial_dtype is not None
        for name in ("partial_dtype", "merge_dtype"):
            v = getattr(self, name)
            need(v is None or v in ACC_DTYPES, f"{name} must be one of {ACC_DTYPES} or None, got {v!r}")
        need(not (self.merge_dtype is not None and not has_parts),
             "merge_dtype without partial_dtype: there are no partials to merge")
        need((self.merge_order is None) == (self.merge_dtype is None),
             "merge_order and merge_dtype go together: a merge has both or neither")
        need(self.merge_order is None or self.merge_order in MERGE_ORDERS,
             f"merge_order must be one of {MERGE_ORDERS}, got {self.merge_order!r}")
        if self.family == "plain":
            need(self.k_cuts == (), f"plain walks the whole of K; k_cuts must be (), got {self.k_cuts}")
            need(not has_parts, "plain has no partials: partial_dtype/merge_dtype must be None")
        if self.family == "split_k":
            need(len(self.k_cuts) >= 1, "split_k needs k_cuts: the span of its parts")
            need(self.k_cuts[0] < self.k,
                 f"split_k with one span: k_cuts[0]={self.k_cuts[0]} covers all of k={self.k}; that is family 'plain'")
            need(has_parts and self.merge_dtype is not None,
                 "split_k needs partial_dtype and merge_dtype (what parts are written and summed in)")
        if self.k_parts is not None:
            need(self.family == "split_k", "k_parts is a split_k field")
            need(type(self.k_parts) is int and self.k_parts >= 2,
                 f"k_parts must be an int of at least 2, got {self.k_parts!r}")
            need((self.k_parts - 1) * self.k_cuts[0] < self.k,
                 f"k_parts={self.k_parts} parts of {self.k_cuts[0]} leave the last part empty at k={self.k}")
        if self.family == "chained_chunks":
            need(self.instruction == "fma", "chained_chunks is the scalar path: instruction must be 'fma'")
            need(len(self.k_cuts) >= 1, "chained_chunks needs k_cuts: the chunk each thread folds")
        if self.family in ("gemv", "dot"):
            need(self.layout in LAYOUTS, f"{self.family} needs layout in {LAYOUTS}, got {self.layout!r}")
            need(len(self.lane_fold) >= 1, f"{self.family} needs lane_fold: the butterfly rounds")
        elif self.family == "split_k" and self.layout is not None:
            need(self.layout == "strided",
                 f"split_k takes layout None (contiguous parts) or 'strided' (tiles dealt in turn), got {self.layout!r}")
            need(self.k_parts is not None, "a strided split_k needs k_parts: the number of parts the tiles are dealt to")
            need(len(self.k_cuts) == 1, f"a strided split_k has one level of k_cuts (the tile width), got {self.k_cuts}")
            need(self.k_tail == "last", "a strided split_k counts its instruction groups from each tile's start (k_tail 'last')")
            need(self.promotion is None, "a strided split_k has no fp8 promotion (not modelled)")
            need(self.merge_order not in ("serial_seeded", "serial_added"),
                 "a strided split_k's parts are merged after they finish, not serially")
        else:
            need(self.layout is None, "layout is a gemv/dot field (and split_k's 'strided')")
        need(all(o > 0 and o & (o - 1) == 0 for o in self.lane_fold),
             f"lane_fold offsets are powers of two, got {self.lane_fold}")
        need(isinstance(self.epilogue, tuple) and all(s in EPILOGUE_STEPS for s in self.epilogue),
             f"epilogue steps must come from {EPILOGUE_STEPS}, got {self.epilogue!r}")
        need(self.epilogue.count("round") == 1, "epilogue must round to the output type exactly once")
        r = self.epilogue.index("round")
        need(all(s != "bias_out" for s in self.epilogue[:r]), "bias_out comes after round")
        need(all(s not in _SCALES + ("bias_acc", "bias_last") for s in self.epilogue[r:]),
             "scales, bias_acc and bias_last come before round")
        need("bias_last" not in self.epilogue or (self.merge_order == "serial_added" and "bias_acc" not in self.epilogue),
             "bias_last is a serial_added merge's last part's bias (and the only bias)")
        need(len(set(self.epilogue)) == len(self.epilogue), "an epilogue step appears twice")
        need("add_zero" not in self.epilogue or self.epilogue[-1] == "add_zero", "add_zero is the last step")
        need(eight_bit or not any(s in self.epilogue for s in _SCALES), "scales are fp8 epilogue steps")
        need(sum(s in self.epilogue for s in ("scale", "scale_bias_fma", "scale_parts")) + (
             "scale_a" in self.epilogue or "scale_b" in self.epilogue) <= 1,
             "one way of scaling: scale, scale_a/scale_b, or scale_bias_fma")
        need("scale_parts" not in self.epilogue or (self.family == "split_k" and self.merge_order != "serial_seeded"),
             "scale_parts scales each finished part before the merge: a split_k step, not with serial_seeded")
        need(self.promotion_anchor is None or (self.promotion_anchor in PROMOTION_ANCHORS and self.promotion),
             f"promotion_anchor is one of {PROMOTION_ANCHORS} and needs a promotion, got {self.promotion_anchor!r}")
        need(not ("scale_bias_fma" in self.epilogue and "bias_acc" in self.epilogue),
             "scale_bias_fma adds the bias itself (fma(acc, scale_a * scale_b, bias)): no bias_acc")

    # -- derived facts ----------------------------------------------------------
    @property
    def parts(self) -> int:
        """How many outermost parts K is cut into (1 when uncut)."""
        if self.k_parts is not None:
            return self.k_parts
        return -(-self.k // self.k_cuts[0]) if self.k_cuts else 1

    @property
    def strided_split(self) -> bool:
        """A split_k whose K tiles are dealt to the parts in turn (layout "strided"), not cut into spans."""
        return self.family == "split_k" and self.layout == "strided"

    def outer_parts(self) -> list:
        """(start, stop) of each outermost part, in K order (contiguous parts: see part_tiles for
        a strided split)."""
        if self.strided_split:
            raise ValueError("a strided split's parts are not contiguous spans: use part_tiles()")
        if not self.k_cuts:
            return [(0, self.k)]
        span, n = self.k_cuts[0], self.parts
        return [(i * span, self.k if i == n - 1 else min((i + 1) * span, self.k)) for i in range(n)]

    def part_tiles(self) -> list:
        """For each outermost part, in part order, the (start, stop) spans it walks in increasing K:
        one span a part for contiguous parts, its dealt tiles for a strided split."""
        if self.strided_split:
            tile = self.k_cuts[0]
            t = [(s, min(s + tile, self.k)) for s in range(0, self.k, tile)]
            return [t[p::self.k_parts] for p in range(self.k_parts)]
        return [[se] for se in self.outer_parts()]

    def replace(self, **changes) -> "GEMMDesc":
        """A copy with fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    # -- the stable JSON form ---------------------------------------------------
    def to_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    def to_json(self) -> str:
        """Canonical JSON: sorted keys, no spaces; from_json(to_json()) == self."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict) -> "GEMMDesc":
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise DescError(f"GEMMDesc: unknown field(s) {sorted(unknown)}")
        missing = {f.name for f in dataclasses.fields(cls)
                   if f.default is dataclasses.MISSING} - set(d)
        if missing:
            raise DescError(f"GEMMDesc: missing field(s) {sorted(missing)}")
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})

    @classmethod
    def from_json(cls, text: str) -> "GEMMDesc":
        """Parse the JSON form; raises DescError on an unknown, missing or inconsistent field."""
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise DescError(f"GEMMDesc: not JSON ({e})") from None
        if not isinstance(d, dict):
            raise DescError("GEMMDesc: JSON must be an object")
        return cls.from_dict(d)

    def __str__(self) -> str:
        bits = [self.family, self.operand_dtype, f"K={self.k}", f"{self.instruction}.k{self.instruction_k}"]
        if self.promotion:
            bits.append(f"promote/{self.promotion}" + ("@k0" if self.promotion_anchor == "k0" else ""))
        if self.k_tail == "first":
            bits.append(f"tail=first/{self.k_step}")
        if self.k_cuts and self.strided_split:
            bits.append(f"tiles={self.k_cuts[0]} dealt to {self.parts} parts in turn")
        elif self.k_cuts:
            last = "" if self.k_parts is None else ", last takes the rest"
            bits.append("cuts=" + "/".join(map(str, self.k_cuts)) + f"({self.parts} parts{last})")
        if self.partial_dtype:
            bits.append(f"partials={self.partial_dtype}")
        if self.merge_order:
            bits.append(f"merge={self.merge_order}@{self.merge_dtype}")
        if self.layout:
            bits.append(f"layout={self.layout}")
        if self.lane_fold:
            bits.append("fold=" + ",".join(map(str, self.lane_fold)))
        if self.acc_dtype != "fp32":
            bits.append(f"acc={self.acc_dtype}")
        bits.append("epilogue=" + "+".join(self.epilogue))
        return "GEMMDesc(" + " ".join(bits) + ")"
