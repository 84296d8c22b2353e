"""Fit cuBLAS algorithm 35's in-kernel split-K order (F.linear with a bias, fp16, K 236k-452k) on the CPU.

cuBLAS 13.1 on the H200 answers some deep-K F.linear calls with algorithm 35 (tile 32x32, stages
64x6, split_k 9, reduction scheme 2, custom option 2): a `Memset (Device)` then ONE kernel
`sm80_xmma_gemm_f16f16_f16f32_f32_{nn,tn}_n_tilesize32x32x64_stage6_..._tensor16x8x16`, no reduce
kernel. The ten surveyed calls (benchmarks/results/2026-12-01g-gpu/survey-35-41.jsonl.gz) carry
sampled output bits of two seeded draws and +L/-L/r walks at a coarse stride.

The walks read first: r_small (at k = 0) survives a pair in any other 64-wide K tile and is lost
where the pair straddles two tiles, or sits in tile 9, 18, ... (r's own accumulator): the K tiles of
64 are dealt to the 9 parts in turn (tile t to part t mod 9), not cut into contiguous spans.

Candidates (each part an mma.sync k16 chain from zero over its tiles in increasing K, the groups
of 16 counted from the tile's start; a partial last tile is a short turn at the end):
  assignment  "strided" (tile t -> part t mod s) / "contiguous" (tiles split evenly)
  merge       fp32 partials summed in part order 0..s-1, reversed, or as a pairwise tree;
              partials rounded to fp16 first (partial fp16)
  bias        added in fp32 to the merged sum before the rounding (acc), seeded into part 0's
              accumulator (seed0: the chain starts from the bias), added to part 0's finished
              accumulator (part0), added to the rounded fp16 output (out)
plus the plain k16 chain (one accumulator over all of K) with the bias in fp32 or after rounding.

Result (2026-12-02, results/2026-12-02-algo35): "strided" with fp32 partials summed in part order and
the bias in fp32 (acc, seed0 and part0 alike) gives every sampled output of the 10 records (768 of
768) and every walk position (76,956); reversed and tree merges fit the samples but miss 19,960 and
11,402 walk positions; every other candidate misses samples. algo35_desc: the descriptor (split_k with
layout="strided", which the twin replays); replay: the fit's own reading, checked against the twin.

    python benchmarks/fit_algo35.py [--out benchmarks/results/2026-12-02-algo35/fit_algo35.json]   (~15 min, one core)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
from bitorder.cublas import walks as W  # noqa: E402
from bitorder.cublas.prober import TID_BIAS, load_records, operand_rows, walk_codes  # noqa: E402
from bitorder.draws import numpy_draw  # noqa: E402
from bitorder.emulate import tensorcore as tc  # noqa: E402
from bitorder.emulate.gemm import add_rn, round_to, to_format  # noqa: E402

SURVEY = os.path.join(HERE, "results", "2026-12-01g-gpu", "survey-35-41.jsonl.gz")
KINDS = ("narrow", "wide")
TILE = 64
L = 16


def algo35_records(path: str = SURVEY) -> list:
    return [r for r in load_records(path) if r.get("ran") and int(r["ran"][0]["algo_id"]) == 35]


# -- the K order: which tiles each part walks ----------------------------------------------------

def tiles(k: int, tile: int = TILE) -> list:
    """(start, stop) of each K tile from k = 0 (the last one short when the tile does not divide K)."""
    return [(s, min(s + tile, k)) for s in range(0, k, tile)]


def part_tiles(k: int, split: int, assign: str, tile: int = TILE) -> list:
    """For each of `split` parts, its tiles in the order it walks them."""
    t = tiles(k, tile)
    if assign == "strided":
        return [t[p::split] for p in range(split)]
    if assign == "contiguous":        # tiles dealt as evenly as possible, the first T % s parts one more
        n, r = divmod(len(t), split)
        out, i = [], 0
        for p in range(split):
            c = n + (1 if p < r else 0)
            out.append(t[i:i + c])
            i += c
        return out
    if assign == "contiguous_ceil":   # span of ceil(T / s) tiles, the last part shorter
        c = -(-len(t) // split)
        return [t[p * c:(p + 1) * c] for p in range(split)]
    raise ValueError(assign)


def groups_of(tile_list: list, ik: int = L) -> list:
    """mma.sync k16 (instruction-k ik) groups over tiles, in order (counted from each tile's start)."""
    return [(s, min(s + ik, te)) for (ts, te) in tile_list for s in range(ts, te, ik)]


# -- the merge and the bias -----------------------------------------------------------------------

def merge(parts: list, order: str, partial: str) -> np.ndarray:
    ps = [round_to(p, partial) for p in parts]
    if order == "reverse":
        ps = ps[::-1]
    if order in ("forward", "reverse"):
        acc = ps[0]
        for p in ps[1:]:
            acc = add_rn(acc, p)
        return acc
    if order == "tree":
        while len(ps) > 1:
            ps = [add_rn(ps[i], ps[i + 1]) for i in range(0, len(ps) - 1, 2)] + ([ps[-1]] if len(ps) % 2 else [])
        return ps[0]
    raise ValueError(order)


def finish(acc: np.ndarray, bias32: np.ndarray, bias: str) -> np.ndarray:
    """fp32 sum -> fp16 output bits as int16, the bias where `bias` says (seed0/part0: already in)."""
    if bias == "acc":
        acc = add_rn(acc, bias32[None, :])
    out = round_to(acc, "fp16")
    if bias == "out":
        out = add_rn(out, bias32[None, :], "fp16")
    return to_format(out, "fp16").view(np.int16)


# -- a record's draws -----------------------------------------------------------------------------

def record_draws(rec: dict, kinds=KINDS):
    """[(kind, a (R, K), b (K, C), bias fp32 (C,), recorded bits (R, C) int16)] of the draws `kinds` (both)."""
    case = rec["case"]
    out = []
    for kind in kinds:
        s = rec["samples_" + kind]
        seed = rec["seed"] + (1 if kind == "wide" else 0)
        bias = numpy_draw(None, case["dtype"], seed, TID_BIAS, kind, index=np.array(s["cols"])).astype(np.float32)
        for bi, b in enumerate(s["batches"]):
            a = operand_rows(case, seed, kind, "a", b, s["rows"])
            bc = operand_rows(case, seed, kind, "b", b, s["cols"]).T
            out.append((kind, a, bc, bias, np.array(s["bits"][bi], dtype=np.int16)))
    return out


def part_accs(a, b, ptiles, seed0=None) -> list:
    """Each part's fp32 chain from zero (part 0 from seed0 when given)."""
    accs = []
    for p, tl in enumerate(ptiles):
        c0 = None
        if p == 0 and seed0 is not None:
            c0 = np.broadcast_to(seed0[None, :], (a.shape[0], b.shape[1])).astype(np.float32)
        accs.append(tc.chain(a, b, groups_of(tl), "fp16", c0))
    return accs


def candidates_for(a, b, bias32, k: int, split: int) -> dict:
    """{name: output bits (R, C) int16} for every candidate on one draw."""
    out = {}
    plain = tc.chain(a, b, groups_of(tiles(k)), "fp16")
    for bias in ("acc", "out"):
        out[f"plain bias={bias}"] = finish(plain, bias32, bias)
    plain_seed = tc.chain(a, b, groups_of(tiles(k)), "fp16",
                          np.broadcast_to(bias32[None, :], (a.shape[0], b.shape[1])).astype(np.float32))
    out["plain bias=seed0"] = finish(plain_seed, bias32, "seed0")
    for assign in ("strided", "contiguous", "contiguous_ceil"):
        pt = part_tiles(k, split, assign)
        accs = part_accs(a, b, pt)
        seeded = part_accs(a, b, pt[:1], seed0=bias32) + accs[1:]
        for order in ("forward", "reverse", "tree"):
            for partial in ("fp32", "fp16"):
                for bias in ("acc", "out", "seed0", "part0"):
                    if bias == "seed0":
                        ps = seeded
                    elif bias == "part0":
                        ps = [add_rn(accs[0], bias32[None, :])] + accs[1:]
                    else:
                        ps = accs
                    out[f"{assign} merge={order} partial={partial} bias={bias}"] = finish(merge(ps, order, partial), bias32, bias)
        # serial continuation in part order: part p's chain starts from part p-1's fp32 result
        run = None
        for tl in pt:
            run = tc.chain(a, b, groups_of(tl), "fp16", run)
        out[f"{assign} serial-continued bias=acc"] = finish(run, bias32, "acc")
    return out


# -- the fitted rule as a descriptor ---------------------------------------------------------------
# GEMMDesc's split_k layout="strided": the k_cuts[0]-wide tiles dealt to k_parts parts in turn (part p:
# tiles p, p + k_parts, ...), each part one chain from zero over its tiles in increasing K. The twin
# (bitorder.emulate) replays it; replay() below is the fit's own independent reading of the same rule,
# kept to check the twin against.

def algo35_desc(k: int, split: int = 9, dtype: str = "fp16", layout: str | None = "strided"):
    """Algorithm 35's fitted order for one K (layout=None: the same cuts read as contiguous parts)."""
    from bitorder.desc import GEMMDesc
    return GEMMDesc("split_k", dtype, k, "mma_sync", 16, k_cuts=(TILE,), k_parts=split, partial_dtype="fp32",
                    merge_dtype="fp32", merge_order="sequential", layout=layout, epilogue=("bias_acc", "round"))


def dealt_parts(desc) -> list:
    """The fit's own reading of a strided split_k descriptor: for each of desc.parts parts, the
    instruction groups it walks (its k_cuts[0]-wide tiles, in K order)."""
    return [groups_of(t, desc.instruction_k) for t in part_tiles(desc.k, desc.parts, "strided", desc.k_cuts[0])]


def replay(desc, a, b, bias=None) -> np.ndarray:
    """The fit's replay (dtype values) of a (R, K) @ b (K, C) under a strided desc: each dealt part a
    chain (emulate.tensorcore), the parts merged as desc says, then desc's epilogue (here the bias
    in fp32, then one rounding). The twin (emulate.accumulate) should give the same bytes."""
    from bitorder.emulate import gemm as G
    parts = [tc.chain(a, b, g, desc.operand_dtype) for g in dealt_parts(desc)]
    acc = G._merge(parts, desc)
    return G.epilogue(acc, desc, desc.operand_dtype, bias)


def record_mismatches(rec: dict, desc_for=algo35_desc, strided: bool = True, kinds=KINDS) -> dict:
    """{kind: wrong sampled outputs} of a record's draws `kinds` under desc_for(K), on the twin
    (emulate.accumulate); strided=False reads the same cuts as contiguous parts. The fit's replay()
    must agree with the twin."""
    from bitorder.emulate import accumulate, epilogue
    c = rec["case"]
    d = desc_for(c["k"])
    if not strided:
        d = d.replace(layout=None)
    bad = {}
    for kind, a, b, bias32, bits in record_draws(rec, kinds):
        got = epilogue(accumulate(a, b, d, bias32), d, c["dtype"], bias32)
        if d.layout == "strided":
            assert np.array_equal(got.view(np.int16), replay(d, a, b, bias32).view(np.int16)), "twin != fit's replay"
        bad[kind] = bad.get(kind, 0) + int((got.view(np.int16) != bits).sum())
    return bad


# -- walks (sparse: a walk row has three nonzeros; a step over zeros leaves the accumulator as is) --

def predict_walk_codes(part_groups: list, merge_parts, positions, r: float) -> dict:
    """Codes for pair positions (r at k = 0, a zero bias) when part p walks part_groups[p] (its
    instruction groups in order) and merge_parts(list of (1, 1) fp32 partials) gives the fp32 sum."""
    where = {}
    for p, gs in enumerate(part_groups):
        for g in gs:
            where[g[0]] = (p, g)
    starts = np.array(sorted(where))
    codes = {}
    for m in positions:
        vals = {0: r, m: W.L_VALUE, m + 1: -W.L_VALUE}
        parts = [np.zeros((1, 1), np.float32) for _ in part_groups]
        hit = sorted({int(starts[np.searchsorted(starts, x, side="right") - 1]) for x in vals})
        for p, (s, e) in sorted((where[h] for h in hit), key=lambda pg: pg[1][0]):   # each part's steps in K order
            av = np.array([[vals.get(x, 0.0) for x in range(s, e)]])
            parts[p] = tc.mma_step(av, np.ones((e - s, 1)), parts[p], "fp16")
        out = round_to(merge_parts(parts), "fp16").astype(np.float64)[0, 0]
        codes[m] = int(W.code(np.array([out]), r)[0])
    return codes


def walk_mismatches(rec: dict, part_groups: list, merge_parts) -> tuple:
    """(wrong positions, compared positions) over both recorded walks of a record."""
    bad = n = 0
    for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
        rec_codes = walk_codes(rec, which)
        pred = predict_walk_codes(part_groups, merge_parts, sorted(rec_codes), r)
        bad += sum(pred[m] != c for m, c in rec_codes.items())
        n += len(rec_codes)
    return bad, n


def desc_walk_mismatches(rec: dict, desc_for=algo35_desc) -> tuple:
    """walk_mismatches of a strided descriptor: its parts' groups as the twin deals them
    (GEMMDesc.part_tiles, emulate.gemm.k_groups), merged as the twin merges."""
    from bitorder.emulate import gemm as G
    d = desc_for(rec["case"]["k"])
    groups = [[g for s, e in tl for g in G.k_groups(d, s, e)] for tl in d.part_tiles()]
    return walk_mismatches(rec, groups, lambda ps: G._merge(ps, d))


def fit_walks(rec: dict, assign: str, order: str) -> tuple:
    """walk_mismatches of a fit candidate (assignment, merge order) with fp32 partials."""
    k, split = rec["case"]["k"], rec["ran"][0]["split_k"]
    return walk_mismatches(rec, [groups_of(tl) for tl in part_tiles(k, split, assign)],
                           lambda ps: merge(ps, order, "fp32"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--records", default=SURVEY)
    args = ap.parse_args(argv)
    recs = sorted(algo35_records(args.records), key=lambda r: r["case"]["k"])
    table = {}
    per_record = []
    t0 = time.time()
    for rec in recs:
        c = rec["case"]
        split = rec["ran"][0]["split_k"]
        row = {"case": f"{c['m']}x{c['n']}x{c['k']} {c['layout']}", "seed": rec["seed"], "bad": {}}
        for kind, a, b, bias32, bits in record_draws(rec):
            for name, got in candidates_for(a, b, bias32, c["k"], split).items():
                nbad = int((got != bits).sum())
                t = table.setdefault(name, {"bad": 0, "samples": 0, "records_all_equal": 0})
                t["bad"] += nbad
                t["samples"] += bits.size
                row["bad"].setdefault(name, 0)
                row["bad"][name] += nbad
        for name, v in row["bad"].items():
            table[name]["records_all_equal"] += v == 0
        wm = {f"{assign} {order}": fit_walks(rec, assign, order)
              for assign in ("strided", "contiguous") for order in ("forward", "reverse", "tree")}
        row["walks"] = wm
        per_record.append(row)
        best = sorted(row["bad"].items(), key=lambda kv: kv[1])[:3]
        print(f"{row['case']}: best {best}; walks {wm}  ({time.time() - t0:.0f} s)", flush=True)
    print("\ncandidate: records with every sampled bit equal (of %d), wrong samples / compared" % len(recs))
    for name, v in sorted(table.items(), key=lambda kv: (-kv[1]["records_all_equal"], kv[1]["bad"])):
        print(f"  {v['records_all_equal']:2d}  {v['bad']:5d}/{v['samples']}  {name}")
    if args.out:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out, "w") as f:
            json.dump({"records": per_record, "table": table}, f, indent=1)
    return table


if __name__ == "__main__":
    main()
