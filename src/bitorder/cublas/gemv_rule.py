"""Which summation order cuBLAS 13.1's SIMT kernels run, read off the heuristic's answer.

The orders are the SIMT half of the arch profile: JSON data in profiles/sm90-cublas13.1-simt.json
(its "history" says which probe read each rule and how it was checked), rebuilt by `bitorder probe
gemv` (designed inputs on the GPU) and `bitorder probe gemv-fit` (the orders each answer key leaves).
This module only reads that table; every order is a GemvOrder (bitorder.emulate.simt: the contract).

- gemv (algorithm 13): the answer names the kernel through its custom option, and its split_k gives
  the parts: a split gemv cuts K into parts of ceil(K / split_k), each part its own tree, the parts
  merged in K order. Within a part, the lanes and their chunks are the entry's; "cap" 64: contiguous
  slices of at most 64 elements (lanes holding min(64, ceil(span / lanes)), then round robin), the
  gemvx kernels that load 64 at a time. Entries with verified: false are candidates, planned only
  under BITORDER_UNVERIFIED=1 (the GPU gates that decide them set it).
- batches of dots (bmm with M = N = 1 answered as gemv): the option does not always name the kernel,
  so they plan only over the K ranges "batched_dots" lists.
- gemmSN (algorithm 11, 2 <= M <= 16) by layout and option, magma (algorithm 16): one order each.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Optional

from ..emulate.simt import GemvOrder
from .profile import candidates_allowed

PROFILE = "sm90-cublas13.1-simt"


@dataclass(frozen=True)
class GemvRule:
    """One gemv entry of the table: the order of a (custom option, dtype) key and how far it holds."""

    option: int
    dtype: str
    lanes: int
    chunk: Optional[int]
    cap: Optional[int]
    fold: str
    block: Optional[int]
    max_k: Optional[int]          # past it the key's order was not read: cuBLAS
    max_outputs: Optional[int]    # past it other kernel instances run (gemvNSP: NSP_LANES)
    verified: bool
    kernel: str
    records: tuple
    probe: str

    @property
    def key(self) -> tuple:
        return self.option, self.dtype


def _order(d: dict) -> GemvOrder:
    return GemvOrder(**{f: d[f] for f in ("lanes", "chunk", "cap", "fold", "block", "block_in_chunk", "bias") if f in d})


def load(name: str = PROFILE) -> dict:
    """The SIMT table as JSON data (profiles/NAME.json)."""
    return json.loads(resources.files("bitorder.cublas").joinpath("profiles", f"{name}.json").read_text())


TABLE = load()
ENTRIES = [GemvRule(**{**e, "records": tuple(e["records"])}) for e in TABLE["gemv"]]
RULES = {e.key: e for e in ENTRIES if e.verified}
CANDIDATES = {e.key: e for e in ENTRIES if not e.verified}
if len(RULES) + len(CANDIDATES) != len(ENTRIES):
    raise ValueError(f"{PROFILE}.json: a gemv key listed twice")
MAX_OUTPUTS = {e.key: e.max_outputs for e in ENTRIES if e.max_outputs is not None}

# gemvNSP_kernel (option 10) past its bound: lanes = the launch's blockDim.y, which follows the output
# count alone ((outputs up to, lanes); 32 past the table).
NSP_LANES = tuple(tuple(x) for x in TABLE["gemvnsp_lanes"])


def by_probe(probe: str, verified: Optional[bool] = None) -> dict:
    """{key: GemvRule} of the entries one probe read ("2026-12-01f", ...), verified or not or both."""
    return {e.key: e for e in ENTRIES if e.probe == probe and (verified is None or e.verified == verified)}


def nsp_lanes(outputs: int) -> int:
    """gemvNSP_kernel's lanes (blockDim.y) for a call with this many outputs (NSP_LANES; 32 past it)."""
    return next((y for top, y in NSP_LANES if outputs <= top), 32)


# The largest batch of dots shown identical: option 10 fp16 at K 92 in a batch of 100 ran other lanes than the table's
# (2026-12-02g call 4, H200: 1 of 285 designed dots at batches 19-100 differed; batches to 80 identical); the
# fuzz deals batches of 2-64. Past it a batch of dots goes to cuBLAS.
MAX_DOT_BATCH = 80
# Batched gemv and gemmSN plans (launches whose block cuBLAS may pick by the batch, as the dots showed) only up to
# batch 62: the gates dealt 2-64 and were identical, but past 62 the dots' launcher picked other blocks (16x8,
# gemv2T) at some K (2026-12-03d call 1), and no probe record holds a batched gemv past 62. Past it cuBLAS.
MAX_GEMV_BATCH = 62


def order_for(answer: dict, k: int, dtype: str, outputs: int = 1, batch: int = 1) -> Optional[GemvOrder]:
    """The GemvOrder the table predicts for an algorithm-13 answer on a K-long fp16 or bf16
    product with `outputs` outputs (M or N) in a batch of `batch`, or None (not algorithm 13, an option
    the table does not hold for the dtype, K past the entry's max_k, more outputs than its max_outputs
    allows but for unsplit option 10, whose gemvNSP lane count then follows the outputs: nsp_lanes;
    a batch past MAX_GEMV_BATCH)."""
    if answer is None or int(answer.get("algo_id", -1)) != 13 or batch > MAX_GEMV_BATCH:
        return None
    split = int(answer.get("split_k") or 1)
    if split < 1:                    # -1: the split left to run time; no rule knows it
        return None
    key = (int(answer.get("custom_option", -1)), dtype)
    rule = RULES.get(key) or (CANDIDATES.get(key) if candidates_allowed() else None)
    if rule is None or (rule.max_k is not None and k > rule.max_k):
        return None
    lanes = rule.lanes
    if rule.max_outputs is not None and outputs > rule.max_outputs:
        if not (key[0] == 10 and split == 1):
            return None
        lanes = nsp_lanes(outputs)   # gemvNSP's other instances
    span = -(-k // split) if split > 1 else None
    return GemvOrder(lanes=lanes, chunk=rule.chunk, cap=rule.cap, span=span, fold=rule.fold, block=rule.block)


# (option, dtype) -> [(lowest K, highest K or None, lowest batch, highest batch or None, GemvOrder or None: the
# option's rule, verified)]. An entry may bound the batch ("batch_low", "batch_high"): cuBLAS picks a dot's launch
# by K and the batch (2026-12-03b: option 10 bf16 at K 41-79 runs 16 lanes at batches 2-21 and 4 from 24), so such
# an entry holds only over the batches its records ran (gemv-fit's dot_regions reads them from records).
BATCHED_DOTS: dict = {}
for _d in TABLE["batched_dots"]:
    BATCHED_DOTS.setdefault((_d["option"], _d["dtype"]), []).append(
        (_d["k_low"], _d["k_high"], _d.get("batch_low", 1), _d.get("batch_high"),
         None if _d.get("order") == "rule" else _order(_d), _d["verified"]))


def batched_dot_order(answer: dict, k: int, dtype: str, batch: int = 1) -> Optional[GemvOrder]:
    """The GemvOrder of a batch of dots (bmm, M = N = 1, K long) answered as gemv (algorithm 13), or
    None (cuBLAS): its option's rule, or the order the table names, only over the K ranges (and batch ranges,
    where an entry names them) listed and for batches up to MAX_DOT_BATCH."""
    if answer is None or int(answer.get("algo_id", -1)) != 13 or int(answer.get("split_k") or 1) != 1:
        return None
    if batch > MAX_DOT_BATCH:
        return None
    allowed = candidates_allowed()
    for low, high, b_low, b_high, order, verified in BATCHED_DOTS.get((int(answer.get("custom_option", -1)), dtype), ()):
        if ((verified or allowed) and k >= low and (high is None or k <= high)
                and batch >= b_low and (b_high is None or batch <= b_high)):
            return order_for(answer, k, dtype, outputs=1) if order is None else order
    return None


def lt_bias_placement(answer: dict) -> str:
    """Where cuBLASLt's BIAS epilogue adds F.linear's bias on its gemv path (M = 1, algorithm 13):
    "acc" (in fp32 before the one rounding) when the answer is unsplit, "out" (to the rounded
    output, rounded again) when split: splitKreduce rounds and a third kernel (cublasLt::epilogue)
    adds the bias. The 2026-12-01b ltbias probe: 1,182 unsplit calls fit "acc" only and 399 split
    calls "out" only, of 1,581 with one fit (26 more fit both), no exception
    (benchmarks/results/2026-12-01b-ltbias)."""
    return "out" if int(answer.get("split_k") or 1) > 1 else "acc"


# gemmSN: "nt" (torch B a transposed view, A row-major) one kernel; "nn" (both row-major) by custom option.
GEMMSN_TN = _order(TABLE["gemmsn"]["nt"])
GEMMSN_NN = {int(o): _order(d) for o, d in TABLE["gemmsn"]["nn"].items()}


def gemmsn_order_for(answer: dict, layout: str, m: int, bias: bool, k: int = 1, batch: int = 1) -> Optional[GemvOrder]:
    """The GemvOrder every output of an algorithm-11 (gemmSN) call runs, where the probes pinned it:
    layout "nt" (A row-major, B a transposed view) and "nn" (both row-major), with or without a bias
    (in fp32 before the rounding), at every K; 2 <= M <= 16, batches up to MAX_GEMV_BATCH; None otherwise
    (A transposed, other options)."""
    if answer is None or int(answer.get("algo_id", -1)) != 11 or not 2 <= m <= 16 or batch > MAX_GEMV_BATCH:
        return None
    if layout == "nt":
        return GEMMSN_TN
    if layout == "nn":
        return GEMMSN_NN.get(int(answer.get("custom_option", -1)))
    return None


# magma_sgemmEx_kernel (algorithm 16; bf16, small K): one fp32 chain per output in K order.
MAGMA_ORDER = _order(TABLE["magma"])


def magma_order_for(answer: dict) -> Optional[GemvOrder]:
    """MAGMA_ORDER for an algorithm-16 answer, None for any other."""
    return MAGMA_ORDER if answer is not None and int(answer.get("algo_id", -1)) == 16 else None
