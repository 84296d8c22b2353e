"""The arch profile: cuBLASLt's answer for a shape -> the GEMMDesc of the kernel it runs.

Paper section 4: the descriptor depends on the shape only through the cost model's
answer, so one (SM version, cuBLAS version) is a finite table. An entry matches
answers by the fields that decide the kernel (algorithm id, whether the stages are
named, split count, reduction scheme) and gives the descriptor as a template whose
few shape-dependent numbers are rules (the split span, the K step the stages name).
Entries carry the evidence they were verified on; an answer no entry matches has no
descriptor, and the caller falls back to cuBLAS itself.

Profiles are JSON data in bitorder/cublas/profiles/.
"""
from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from importlib import resources

from ..desc import GEMMDesc

MATCH_KEYS = {"algo_id", "stages_named", "stages", "split", "reduction_scheme", "dtype"}
SPAN_RULES = {"round_up", "tiles"}
# "round_up": contiguous parts of round_up(ceil(K / split), granule). "tiles": K tiles of span["tile"]
# dealt to the answer's split_k parts in turn (the desc template's layout "strided"; algorithm 35):
# k_cuts (tile,) and k_parts split_k whatever K; None where some part would get no tile (unread).
BIAS_RULES = {"bias_acc", "bias_last", "bias_out", "none", "unverified"}
# Where a bias goes, as epilogue steps: before the one rounding (a serial split: into its first part),
# into a serial split's last part, or to the rounded output (rounding again). The prober's rules share it.
BIAS_EPILOGUE = {"bias_acc": ("bias_acc", "round"), "bias_last": ("bias_last", "round"),
                 "bias_out": ("round", "bias_out")}


class ProfileError(ValueError):
    """A malformed arch profile: the message names the entry and the field."""


def candidates_allowed() -> bool:
    """Whether BITORDER_UNVERIFIED=1 lets candidates (unverified entries and probed orders) plan:
    read per call, set only by the GPU gates that decide them."""
    return os.environ.get("BITORDER_UNVERIFIED") == "1"


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _round_up(x: int, g: int) -> int:
    return _ceil_div(x, g) * g


@dataclass(frozen=True)
class Entry:
    """One row of the table: which answers it matches and the descriptor they run."""

    name: str
    match: dict
    desc: dict
    span: dict | None = None
    bias: str = "bias_acc"
    verified: bool = True          # False: a candidate the GPU gate has not confirmed (not used by default)
    fp8: dict | None = None        # fp8 entries: {"promotion_slow": K elements (or None: never), "scale": epilogue
    #                                scale steps, "promotion_anchor": "part" | "k0" (split_k entries)}
    evidence: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        bad = set(self.match) - MATCH_KEYS
        if bad:
            raise ProfileError(f"entry {self.name}: unknown match key(s) {sorted(bad)}")
        if self.span is not None and self.span.get("rule") not in SPAN_RULES:
            raise ProfileError(f"entry {self.name}: span rule must be one of {sorted(SPAN_RULES)}")
        if self.bias not in BIAS_RULES:
            raise ProfileError(f"entry {self.name}: bias must be one of {sorted(BIAS_RULES)}")
        if (self.desc.get("family") == "split_k") != (self.span is not None):
            raise ProfileError(f"entry {self.name}: a split_k entry needs a span rule, and only it")

    def matches(self, answer: dict, dtype: str) -> bool:
        m = self.match
        if answer["split_k"] < 1:
            # -1: the heuristic leaves the split count to run time (algorithms 41/42 with reduction
            # scheme 2): no entry knows what the kernel will do. The 2026-12-01e gate's 8717x13x13440
            # bf16 (algo 42, split_k -1) differed from the unsplit reading on fresh draws.
            return False
        split = answer["split_k"] > 1
        return (answer["algo_id"] in m.get("algo_id", [answer["algo_id"]])
                and ("stages_named" not in m or (answer["stages"] not in ("UNDEFINED", "")) == m["stages_named"])
                and answer["stages"] in m.get("stages", [answer["stages"]])
                and ("split" not in m or split == m["split"])
                and answer["reduction_scheme"] in m.get("reduction_scheme", [answer["reduction_scheme"]])
                and dtype in m.get("dtype", [dtype]))

    def describe(self, answer: dict, k: int, dtype: str, bias: bool, fast_accum: bool = False,
                 layout: str | None = None, out_dtype: str | None = None):
        """The GEMMDesc for this answer at this K, or None where the entry's evidence stops
        (a bias it was not verified with, a span rule's known-unknown region). fp8 entries
        promote every promotion_slow elements unless fast_accum, and scale before the bias.
        layout: cuBLAS's op letters ("nt": transa N, transb T), for rules that depend on it.
        out_dtype: the output type where it is not the operand type (fp8): what "out" partials mean."""
        if bias and self.bias == "unverified":
            return None
        d = dict(self.desc)
        empty_parts = False     # (set by the span rules below)
        if d.get("k_step") == "stages":
            d["k_step"] = int(str(answer["stages"]).split("x")[0])
        for key in ("partial_dtype", "merge_dtype"):
            if d.get(key) == "out":
                d[key] = out_dtype or dtype
        if self.span is not None and self.span["rule"] == "tiles":
            s, tile = answer["split_k"], self.span["tile"]
            if d.get("layout") != "strided" or s < 2 or _ceil_div(k, tile) < s:
                return None     # (a part without a tile: cuBLAS's order there is unread)
            d["k_cuts"], d["k_parts"] = (tile,), s
        elif self.span is not None:
            s = answer["split_k"]
            g = self.span["granule"]
            k_major = self.span.get("k_major")
            if k_major and k % k_major["k_multiple_of"] == 0:
                # cuBLAS rounds the span coarser when K is a multiple of 64 and an operand runs
                # along K in memory (every layout but "nt"); walks of 14 calls, 2026-11-30.
                if layout is None:
                    return None
                if layout != "nt":
                    g = k_major["granule"]
            unknown = self.span.get("unknown_when")
            if unknown == "k_multiple_of" and k % self.span["of"] == 0:
                return None
            if unknown == "cublas_drops_tail" and k % s and (k // s) % g == 0:
                return None
            span = _round_up(_ceil_div(k, s), g)
            # cuBLAS launches s partitions; those past ceil(k / span) are empty and merge a +0 partial.
            # Into output-type partials that turns a -0 output into +0 (2026-12-02f gate: algorithm 23,
            # scheme 4, K = 2, s = 2: torch's bytes differ from the plain chain's exactly at its -0s).
            empty_parts = s > _ceil_div(k, span) and self.desc.get("partial_dtype") == "out" and self.fp8 is None
            if span >= k:  # one part: the split degenerates to the plain chain
                d = {x: v for x, v in d.items() if x not in ("partial_dtype", "merge_dtype", "merge_order")}
                d["family"] = "plain"
            else:
                d["k_cuts"] = (span,)
        if bias and self.bias != "none":
            epi = BIAS_EPILOGUE[self.bias if d["family"] != "plain" else "bias_acc"]
        else:
            epi = ("round",) + (("add_zero",) if empty_parts else ())
        if self.fp8 is not None:
            scale = tuple(self.fp8["scale"])
            if d["family"] == "plain":   # one part: scaling it is scaling the sum
                scale = tuple("scale" if x == "scale_parts" else x for x in scale)
            epi = scale + epi
            d["promotion"] = None if fast_accum else self.fp8["promotion_slow"]
            anchor = self.fp8.get("promotion_anchor")
            if d["promotion"] and d["family"] == "split_k" and anchor not in (None, "part"):
                d["promotion_anchor"] = anchor
        return GEMMDesc(operand_dtype=dtype, k=k, epilogue=epi, **d)


def cublas_defect(answer: dict, k: int, dtype: str = "fp16") -> str | None:
    """A known cuBLAS 13.1 defect this answer hits at this K, in words, or None.

    nvjet split-K (algo 66) cuts K into s parts of round_up(floor(K/s), g) (g = 64 for fp16/bf16,
    the fp8 entry's 128 for e4m3/e5m2); when that leaves products beyond s parts (floor(K/s) a
    multiple of g, s not dividing K) they are never summed. Located from walks on the H200
    (survey-mismatch 2026-11-29); for fp8 the 2026-12-02c gate's one mismatch meets the condition.
    """
    s, g = answer.get("split_k", 1), 128 if dtype in ("e4m3", "e5m2") else 64
    if answer.get("algo_id") == 66 and s > 1 and k % s and (k // s) % g == 0:
        dropped = k - s * (k // s)
        return f"cuBLAS drops the last {dropped} of K={k} products (nvjet split-K into {s} parts of {k // s})"
    return None


class ArchProfile:
    """A loaded profile: `describe(answer, k, dtype, bias)` -> GEMMDesc or None (fall back)."""

    def __init__(self, data: dict):
        for key in ("arch", "cublas", "entries"):
            if key not in data:
                raise ProfileError(f"profile lacks '{key}'")
        self.arch, self.cublas = data["arch"], data["cublas"]
        self.meta = {k: v for k, v in data.items() if k != "entries"}
        self.entries = [Entry(**e) for e in data["entries"]]
        names = [e.name for e in self.entries]
        if len(set(names)) != len(names):
            raise ProfileError("entry names must be unique")

    @classmethod
    @functools.lru_cache(None)
    def load(cls, name: str = "sm90-cublas13.1") -> "ArchProfile":
        text = resources.files("bitorder.cublas").joinpath("profiles", f"{name}.json").read_text()
        return cls(json.loads(text))

    def entry_for(self, answer: dict, dtype: str):
        """The first verified entry matching the answer (candidates too under BITORDER_UNVERIFIED=1,
        which only the GPU gates that decide them set)."""
        trial = candidates_allowed()
        return next((e for e in self.entries if (e.verified or trial) and e.matches(answer, dtype)), None)

    def describe(self, answer: dict, k: int, dtype: str, bias: bool = False, fast_accum: bool = False,
                 layout: str | None = None, out_dtype: str | None = None):
        return self.resolve(answer, k, dtype, bias, fast_accum, layout, out_dtype)[1]

    def resolve(self, answer: dict, k: int, dtype: str, bias: bool = False, fast_accum: bool = False,
                layout: str | None = None, out_dtype: str | None = None):
        """(the entry that decides this call, its GEMMDesc): describe's lookup, naming the entry
        (None, None: no entry matches; (entry, None): the entry leaves the call to cuBLAS)."""
        answer = one_k_tile(answer, k)
        trial, first = candidates_allowed(), None
        for e in self.entries:
            if not (e.verified or trial) or not e.matches(answer, dtype) or (first is not None and e.verified):
                continue
            d = e.describe(answer, k, dtype, bias, fast_accum, layout, out_dtype)
            if d is not None or not trial:
                return e, d
            # under BITORDER_UNVERIFIED=1 a region an entry leaves open (a span rule's unknown, an
            # unverified bias) may be a later candidate's to describe; never a later verified entry's
            first = first or e
        return first, None


# Segment-K kernels (algorithms 41/42) whose split count the heuristic leaves to run time (split_k -1)
# cannot split a K that fits one K tile (the stages' first number): they run the unsplit chain. The
# 2026-12-01g survey (benchmarks/results/2026-12-01g-gpu): all three such calls (K 2, 2, 6) launched
# the "segment_k_off" kernel, and their sampled bits are the unsplit entry's; past one tile the run
# may split (2026-12-01e: 8717x13x13440 algo 42 differed from the unsplit reading): cuBLAS there.
SEGMENT_K_ALGOS = (41, 42)
# Past one tile no run-time split reads as the unsplit chain: algorithm 41 fitted it on 4 records (2026-12-02:
# F.linear with a bias, bf16, K 924-1,120), but 35 of 36 fresh calls near the 2026-12-02b leftovers (fp16 nt,
# K 1,944-2,286) differed from it on the H200 (benchmarks/results/2026-12-02c-gpu/call4/ground41.log).


def one_k_tile(answer: dict, k: int) -> dict:
    """The answer with split_k 1 where a run-time split (-1) cannot split K (one K tile), else itself."""
    if answer["split_k"] >= 1 or answer["algo_id"] not in SEGMENT_K_ALGOS:
        return answer
    tile_k = str(answer.get("stages", "")).split("x")[0]
    if tile_k.isdigit() and k <= int(tile_k):
        return {**answer, "split_k": 1}
    return answer


def layout_of(query) -> str:
    """cuBLAS's op letters for a query (an LtQuery or a survey record's query dict): "nt" etc."""
    get = query.get if isinstance(query, dict) else lambda key: getattr(query, key)
    return ("t" if get("transa") else "n") + ("t" if get("transb") else "n")
