"""Fit the SIMT gemv model (bitorder.emulate.simt) to the H200 survey's gemv records (algorithm 13).

CPU only. For each record: enumerate GemvOrders (split span, lanes per output, chunk, lane fold,
part merge), keep those whose walks (read off the order, simt.walk_codes) give the recorded
codes at every walked position, then those whose CPU twin (simt.accumulate, with both product
forms and, with a bias, both bias placements) reproduces every sampled output of both draws
bytewise. Per kernel kind, says which fields every record settles and which stay open.

    python benchmarks/fit_gemv.py [SURVEY] [--out DIR]
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
import time

import numpy as np

from bitorder.cublas import prober
from bitorder.emulate import simt

HERE = os.path.dirname(os.path.abspath(__file__))
SURVEY = os.path.join(HERE, "results", "2026-11-29-survey", "survey.jsonl.gz")
LANES = (1, 2, 4, 8, 16, 32, 64)
CHUNKS = (None, 1, 2, 4, 8, 16, 32, 64, 128)
SPLITS = range(2, 257)
GRANULES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
BLOCKS = (256, 512, 1024)


def gemv_records(path: str = SURVEY) -> list:
    return [r for r in prober.load_records(path) if r.get("ran") and r["ran"][0]["algo_id"] == 13]


def kernel_kind(rec: dict) -> str:
    """The gemv kernel's name and template arguments (types shortened), + a reduce kernel after it."""
    names = [k for k in rec["kernels"] if "elementwise_kernel" not in k]
    m = re.search(r"(gemv\w+|gemvx::kernel)<(.*?), cublasGemv", names[0])
    args = [x.strip() for x in m.group(2).split(",")]
    short = {"__half": "h", "__nv_bfloat16": "bf", "float": "f"}
    kind = m.group(1).replace("internal::", "") + "<" + ",".join(short.get(x, x) for x in args) + ">"
    return kind + (" + splitKreduce" if any("splitKreduce" in k for k in names) else "")


def vector_operand(rec: dict) -> str:
    """Which torch operand is the vector, and whether the matrix runs along K in memory ("T" gemv)
    or along the outputs ("N" gemv)."""
    q = rec["query"]
    if q["m"] == 1:        # cuBLAS's A (torch's B) is the vector; the matrix is cuBLAS's B
        return "torch B (N=1), " + ("N" if q["transb"] else "T")
    return "torch A (M=1), " + ("T" if q["transa"] else "N")


def spans(k: int) -> list:
    out = {-(-(-(-k // s)) // g) * g for s in SPLITS for g in GRANULES}
    return [None] + sorted(s for s in out if s < k)


def structures(k: int, split: bool):
    """Every order considered for one call: split spans only where a reduce kernel ran after the gemv;
    lane chains banked every BLOCKS elements where a part is longer than the block (gemv2T: 512)."""
    for span in (spans(k)[1:] if split else [None]):
        for lanes, chunk, fold in itertools.product(LANES, CHUNKS, simt.FOLDS):
            for merge in (simt.MERGES if span else ("sequential",)):
                for block in (None,) + tuple(b for b in BLOCKS if b < (span or k)):
                    yield simt.GemvOrder(lanes=lanes, chunk=chunk, fold=fold, span=span, merge=merge, block=block)


def recorded_walk(rec: dict) -> dict:
    """{position: code} over both walks (small and edge give the same codes on every gemv record)."""
    small, edge = prober.walk_codes(rec, "small"), prober.walk_codes(rec, "edge")
    assert small == edge or not edge
    return small


def walk_fit(rec: dict, orders) -> list:
    codes = recorded_walk(rec)
    if not codes:
        return list(orders)
    pos = np.array(sorted(codes))
    want = np.array([codes[m] for m in pos])
    if (want == 2).any():
        return []
    k = rec["case"]["k"]
    # Codes at m >= span - 1 depend on the span and the merge only: settle those first, per group.
    groups = {}
    for o in orders:
        groups.setdefault((o.span, o.merge), []).append(o)
    kept = []
    for (span, merge), os_ in groups.items():
        if span is not None:
            tail = pos >= span - 1
            rep = simt.GemvOrder(span=span, merge=merge)
            if not np.array_equal(simt.walk_codes(rep, k, pos[tail]), want[tail]):
                continue
        kept += os_
    # then a cheap pass over the positions where the code changes and a few others
    edge = np.flatnonzero(np.diff(want)) if len(want) > 1 else np.array([], int)
    pick = np.unique(np.concatenate([edge, edge + 1, np.arange(0, len(pos), max(1, len(pos) // 200))]))
    alive = [o for o in kept if np.array_equal(simt.walk_codes(o, k, pos[pick]), want[pick])]
    return [o for o in alive if np.array_equal(simt.walk_codes(o, k, pos), want)]


def signature(o: simt.GemvOrder, k: int) -> tuple:
    """Orders with equal signatures sum the same K indices in the same tree (empty lanes kept)."""
    parts = o.parts(k)
    lanes = tuple(o.lane_of(e - s).tobytes() for s, e in parts)
    used = max(len(set(o.lane_of(e - s).tolist())) for s, e in parts)
    return (tuple(parts), lanes, o.fold if used > 1 else "-", o.merge if len(parts) > 1 else "-")


def sample_mismatches(rec: dict, order: simt.GemvOrder) -> int:
    """Sampled outputs (both draws) the twin of `order` gets wrong."""
    return prober.gemv_mismatches({**rec, "walk_small": None, "walk_edge": None}, order)[0]


def sample_fit(rec: dict, orders) -> tuple:
    """(orders reproducing every sampled bit, {signature: mismatches} of the distinct trees tried)."""
    k = rec["case"]["k"]
    biases = simt.BIASES if rec["case"]["op"] == "linear_bias" else ("acc",)
    seen, alive = {}, []
    for o in orders:
        sig = signature(o, k)
        for product, bias in itertools.product(simt.PRODUCTS, biases):
            key = sig + (product, bias)
            if key not in seen:
                seen[key] = sample_mismatches(rec, o.replace(product=product, bias=bias))
            if seen[key] == 0:
                alive.append(o.replace(product=product, bias=bias))
    return alive, seen


def hypothesis(o: simt.GemvOrder) -> tuple:
    """What a kernel kind must share across its calls: all but the per-call lanes and span."""
    return (o.fold, "contiguous" if o.chunk is None else o.chunk, o.merge if o.span else "-", o.product, o.bias)


def settled(orders: list, k: int) -> dict:
    """For each field, the values the surviving orders take (a single value: settled)."""
    out = {}
    for f in ("span", "lanes", "chunk", "block", "fold", "merge", "product", "bias"):
        out[f] = sorted({str(getattr(o, f)) for o in orders})
    out["distinct_trees"] = len({signature(o, k) for o in orders})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("survey", nargs="?", default=SURVEY)
    ap.add_argument("--out", default=None, help="write fit.json here")
    args = ap.parse_args(argv)
    recs = gemv_records(args.survey)
    rows, t0 = [], time.time()
    for i, rec in enumerate(recs):
        c, k = rec["case"], rec["case"]["k"]
        cand = list(structures(k, any("splitKreduce" in x for x in rec["kernels"])))
        walked = walk_fit(rec, cand)
        alive, tried = sample_fit(rec, walked)
        n_samples = sum(len(rec["samples_" + d]["bits"]) * len(rec["samples_" + d]["rows"]) *
                        len(rec["samples_" + d]["cols"]) for d in ("narrow", "wide"))
        row = {"i": i, "kind": kernel_kind(rec), "vector": vector_operand(rec), "op": c["op"], "dtype": c["dtype"],
               "m": c["m"], "n": c["n"], "k": k, "batch": c["batch"], "layout": c["layout"],
               "custom_option": rec["ran"][0]["custom_option"], "walk_positions": len(recorded_walk(rec)),
               "sampled_outputs": n_samples, "candidates": len(cand), "walk_survivors": len(walked),
               "trees_tried": len(tried), "survivors": len(alive), "settled": settled(alive, k),
               "examples": [str(o) for o in alive[:3]]}
        row["hypotheses"] = sorted({hypothesis(o) for o in alive}, key=str)
        row["per_hypothesis"] = {str(h): sorted({(o.lanes, o.span) for o in alive if hypothesis(o) == h}, key=str)[:8]
                                 for h in row["hypotheses"]}
        rows.append(row)
        print(f"[{time.time() - t0:6.0f}s] {i:2d} {row['kind'][:60]:60s} {c['dtype']} {c['m']}x{c['n']}x{k} "
              f"walk {len(walked)}/{len(cand)} bits {len(alive)} {row['settled']}", flush=True)
    kinds = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row)
    summary = {}
    for kind, rs in kinds.items():
        common = None
        for r in rs:
            hs = {str(h) for h in r["hypotheses"]}
            if r["op"] != "linear_bias":        # no bias: both placements fit alike
                hs |= {h.replace("'acc')", "'out')") for h in hs}
            common = hs if common is None else common & hs
        summary[kind] = {"records": [r["i"] for r in rs], "explained": all(r["survivors"] for r in rs),
                         "common_hypotheses": sorted(common)}
        print(f"== {kind}: records {summary[kind]['records']}, every record explained: "
              f"{summary[kind]['explained']}, hypotheses shared by all: {len(common)}")
        for h in sorted(common):
            print("     ", h)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "fit.json"), "w") as f:
            json.dump({"survey": os.path.relpath(args.survey, os.path.dirname(HERE)), "kinds": summary,
                       "records": rows}, f, indent=1)
    return rows


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
