"""Fit gemvNSP_kernel (cuBLAS gemv, algorithm 13, custom option 10) with blockDim.y lanes, on the CPU.

cuBLAS 13.1 answers some gemv calls (M = 1 or N = 1) with custom option 10, which launches
gemvNSP_kernel<T,T,T,f,1,L,4,1024,false> with L = 32, 16 or 8 and a block (x, y): x outputs per
block (grid.x * x covers the outputs) and y threads along K. The L = 32 instance runs y = 32 and is
GemvOrder(lanes=32, chunk=4, fold="down"); the L = 16 / 8 instances run y = 12, 20, 24, 26: not a
power of two, so bitorder's fit (power-of-two lanes only) kept nothing for several of them.

This script reads every option-10 probe record that has a launch (the designed-input probes listed in
SOURCES), rebuilds each record's design (benchmarks/probe_gemv.py design_for, digest checked),
decodes its bits into tracer masks (gemv_design.decode), and holds them against candidate orders:

  * lanes: the launch's blockDim.y, its neighbours y - 2 .. y + 2, the template's L, 32 and 64;
  * chunk: 1, 2, 4 or 8 consecutive K elements dealt to lanes round robin (lane = (u // chunk) % lanes),
    each lane one fp32 chain in increasing K;
  * fold (how the lanes' accumulators meet, every combine one fp32 add), FOLDS below: sequential in
    lane order, count-down butterfly over the lanes padded to the next power of two, pairwise
    stride-halving trees (from P / 2 or from ceil(y / 2), halving rounded up), neighbours first,
    and warp-level folds (thread linear index tx + x * ty; a shuffle butterfly inside each warp's
    lanes, the warps' results summed in order or as a tree in shared memory).

The predictor (`predict`) is gemv_design.tracer_bits for one part without banking, with the lane
layout and the fold's combine schedule given explicitly (the fold may depend on the output's tx =
output % x, for warp folds when x does not divide 32). It is checked first against
gemv_design.predict on every record for every GemvOrder it can express (power-of-two lanes, folds
down/up/seq, the chunks), then used for the rest.

    python benchmarks/fit_gemvnsp.py [--out benchmarks/results/2026-12-01e-ground/fit_gemvnsp.json]   (about 10 s; also writes *_launches.tsv)
"""
from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))
import probe_gemv  # noqa: E402  (design_for: the designs the GPU ran)
from bitorder.cublas import gemv_design as G  # noqa: E402
from bitorder.emulate import simt  # noqa: E402

RESULTS = os.path.join(HERE, "results")
# The designed-input probe files that hold option-10 / gemvNSP records (label, path).
SOURCES = [
    ("01d", "2026-12-01d-ground/probe_gemv.json.gz"),
    ("01c", "2026-12-01c-gemv/probe_gemv.json.gz"),
    ("01b", "2026-12-01b-gemv/probe_gemv.json"),
    ("30j10", "2026-11-30j-gemv/probe-10/probe_gemv.json"),
    ("30i", "2026-11-30i-gemv/probe/probe_gemv.json"),
    ("30d", "2026-11-30d-components/probe_gemv.json"),
]
# Launch-only evidence (no designed bits): F.linear M = 1 calls of the 2026-12-01b Lt-bias probe.
LAUNCH_ONLY = [("ltbias", "2026-12-01b-ltbias/probe_ltbias.json.gz")]
CHUNKS = (4, 1, 2, 8)
SMS = 132


# -- folds: the combine schedule (dst, src) over n lanes, values[dst] += values[src] ---------------

def next_pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def fold_seq(n, **_):
    """One thread adds lane 1, 2, ... to lane 0 (shared memory read in order)."""
    return [(0, t) for t in range(1, n)]


def fold_pad_down(n, **_):
    """Count-down butterfly over n lanes padded to P = next power of two: offsets P/2, ..., 1,
    lane t += lane t + o where t + o < n (a shared-memory tree `if (t < s && t + s < n)` is the same)."""
    out, o = [], next_pow2(n) // 2
    while o >= 1:
        out += [(t, t + o) for t in range(o) if t + o < n]
        o //= 2
    return out


def fold_half_ceil(n, **_):
    """Stride halving from ceil(n / 2): m = n; h = ceil(m / 2); lane t += lane t + h for t < m - h; m = h."""
    out, m = [], n
    while m > 1:
        h = (m + 1) // 2
        out += [(t, t + h) for t in range(m - h)]
        m = h
    return out


def fold_half_floor(n, **_):
    """Stride halving from floor(n / 2), the odd last lane folded into lane 0 first at each level."""
    out, m = [], n
    while m > 1:
        h = m // 2
        if m % 2:
            out.append((0, m - 1))
        out += [(t, t + h) for t in range(h)]
        m = h
    return out


def fold_up(n, **_):
    """Neighbours first (offsets 1, 2, 4, ...; an odd one carried): simt.schedule('up')."""
    return simt.schedule("up", n)


def fold_seq_rev(n, **_):
    """The last lane first: lane n-2 += lane n-1, then n-3 += n-2, ..., into lane 0."""
    return [(t - 1, t) for t in range(n - 1, 0, -1)]


def _warp_groups(n, x, tx):
    """Lanes ty = 0..n-1 of output tx grouped by warp: warp = (tx + x * ty) // 32."""
    groups = {}
    for ty in range(n):
        groups.setdefault((tx + x * ty) // 32, []).append(ty)
    return list(groups.values())


def _within(lanes, inner):
    """A fold `inner` over the lanes listed (their first one ends with the sum)."""
    return [(lanes[d], lanes[s]) for d, s in inner(len(lanes))]


def make_warp_fold(inner, outer):
    def fold(n, x=1, tx=0):
        groups = _warp_groups(n, x, tx)
        out = []
        for g in groups:
            out += _within(g, inner)
        heads = [g[0] for g in groups]
        return out + _within(heads, outer)
    return fold


FOLDS = {
    "seq": fold_seq,
    "seq_rev": fold_seq_rev,
    "pad_down": fold_pad_down,
    "half_ceil": fold_half_ceil,
    "half_floor": fold_half_floor,
    "up": fold_up,
    "warp(pad_down)+seq": make_warp_fold(fold_pad_down, fold_seq),
    "warp(pad_down)+pad_down": make_warp_fold(fold_pad_down, fold_pad_down),
    "warp(up)+seq": make_warp_fold(fold_up, fold_seq),
    "warp(pad_down)+up": make_warp_fold(fold_pad_down, fold_up),
}
TX_DEPENDENT = {f for f in FOLDS if f.startswith("warp")}


@functools.lru_cache(maxsize=None)
def first_meet(schedule: tuple, n: int):
    """(meet (n, n): the combine where lanes i and j first share a node, -1 for i == j; members
    (C + 1, n): the lanes under each combine's node, a last all-False row for -1). As
    gemv_design._first_meet, for any schedule; checks every lane ends in lane 0."""
    member = np.eye(n, dtype=bool)
    meet = np.full((n, n), -1, np.int64)
    rows = []
    for c, (dst, src) in enumerate(schedule):
        new = np.outer(member[dst], member[src])
        meet[new | new.T] = c
        member[dst] |= member[src]
        member[src] = False                   # src's value is consumed (a second read would double it)
        rows.append(member[dst].copy())
    if not member[0].all():
        raise ValueError(f"schedule leaves lanes out of lane 0: {schedule}")
    rows.append(np.zeros(n, bool))
    return meet, np.array(rows)


def predict(k, lanes, chunk, schedule, pairs, tracers) -> np.ndarray:
    """Tracer masks (E,) of one part of k elements: lane = (u // chunk) % lanes, one chain per lane
    in increasing K, the lanes met by `schedule` (gemv_design.tracer_bits, one part, no banking)."""
    lane = (np.arange(k) // chunk) % lanes
    a, b = pairs[:, 0], pairs[:, 1]
    valid = tracers >= 0
    t = np.where(valid, tracers, 0)
    la, lb, lt = lane[a], lane[b], lane[t]
    meet, mem = first_meet(tuple(schedule), lanes)
    lost_fold = mem[meet[la, lb][:, None], lt]
    lost_chain = (lt == la[:, None]) & (t <= np.maximum(a, b)[:, None])
    lost = np.where((la == lb)[:, None], lost_chain, lost_fold)
    surv = valid & ~lost
    return (surv.astype(np.int64) << np.arange(tracers.shape[1])).sum(1)


def predict_fold(k, lanes, chunk, fold, x, pairs, tracers) -> np.ndarray:
    """predict() under a named fold; warp folds per output tx = experiment % x (experiment e is
    output e: every probe call here has more outputs than experiments)."""
    f = FOLDS[fold]
    if fold not in TX_DEPENDENT:
        return predict(k, lanes, chunk, f(lanes), pairs, tracers)
    out = np.zeros(len(pairs), np.int64)
    tx = np.arange(len(pairs)) % x
    for v in np.unique(tx):
        sel = tx == v
        out[sel] = predict(k, lanes, chunk, f(lanes, x=x, tx=int(v)), pairs[sel], tracers[sel])
    return out


# -- the records -----------------------------------------------------------------------------------

def _load(path):
    path = os.path.join(RESULTS, path)
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def kernel_of(launch) -> str:
    """gemvNSP_kernel<h,1,16,4,1024> style name of the first launch (gemvx for the batched dots)."""
    name = launch[0]["name"] if launch and "name" in launch[0] else ""
    m = re.search(r"gemvNSP_kernel<([^,]+),[^,]+,[^,]+,[^,]+, (\d+), (\d+), (\d+), (\d+), (\w+)", name)
    if m:
        t = {"__half": "h", "__nv_bfloat16": "bf"}.get(m.group(1), m.group(1))
        return f"gemvNSP<{t},{m.group(2)},{m.group(3)},{m.group(4)},{m.group(5)}>"
    m = re.search(r"(gemvx::kernel|gemv\w+)<", name)
    return m.group(1) if m else name[:40]


def option10_records():
    """Every designed probe record answered with option 10 or running gemvNSP_kernel, with a launch."""
    out = []
    for label, path in SOURCES:
        for i, rec in enumerate(_load(path)["records"]):
            a = rec.get("answer") or {}
            ks = " ".join(rec.get("kernels") or [])
            if "error" in rec or not rec.get("launch"):
                continue
            if a.get("custom_option") != 10 and "gemvNSP" not in ks:
                continue
            out.append((f"{label}:{i}", rec))
    return out


def candidates(y, L):
    lanes = sorted({v for v in range(max(2, y - 2), y + 3)} | {L, 32, 64})
    for n in lanes:
        for chunk in CHUNKS:
            for fold in FOLDS:
                yield n, chunk, fold


def validate(recs) -> int:
    """Our predictor against gemv_design.predict for every GemvOrder it can express: must agree."""
    checked = 0
    for name, rec in recs:
        c = rec["case"]
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        for lanes in (2, 4, 8, 16, 32, 64):
            for chunk in CHUNKS:
                for fold, ours in (("down", "pad_down"), ("up", "up"), ("seq", "seq")):
                    want = G.predict(simt.GemvOrder(lanes=lanes, chunk=chunk, fold=fold), c["k"], pairs, tracers)
                    got = predict_fold(c["k"], lanes, chunk, ours, 1, pairs, tracers)
                    assert np.array_equal(want, got), (name, lanes, chunk, fold)
                    checked += 1
    return checked



# -- the bytes: one replay of the designed rows under a (lanes, chunk, schedule) order -------------

def replay(a64, lanes, chunk, schedule):
    """fp32 result (E,) of rows a64 (E, k) against a ones vector: lane chains (fma, +0 start, K order),
    then the lanes met by `schedule` (simt's _fma / _add: one rounding per step)."""
    k = a64.shape[1]
    lane = (np.arange(k) // chunk) % lanes
    acc = []
    for t in range(lanes):
        v = np.zeros(a64.shape[0], np.float32)
        for kk in np.flatnonzero(lane == t):
            v = simt._fma(a64[:, kk], v)
        acc.append(v)
    for dst, src in schedule:
        acc[dst] = simt._add(acc[dst], acc[src])
    return acc[0]


def replays(rec, lanes, chunk, schedule) -> bool:
    """Whether the order gives the record's bytes on its designed rows (and the bias call's, the
    bias added in fp32 before the rounding: "acc")."""
    c = rec["case"]
    k, dtype = c["k"], c["dtype"]
    pairs, tracers = probe_gemv.design_for(k, dtype)
    a = probe_gemv._typed(G.dense_rows(k, pairs, tracers, dtype), dtype).astype(np.float64)
    got = simt.epilogue(replay(a, lanes, chunk, schedule)[:, None], simt.GemvOrder(), dtype)[:, 0]
    ok = np.array_equal(got.view(np.int16), np.asarray(rec["bits"], np.int64).astype(np.int16))
    if ok and rec.get("bias_bits") is not None:
        rows, h = probe_gemv._bias_rows(c)
        acc = replay(rows.astype(np.float64), lanes, chunk, schedule)[:, None]
        gotb = simt.epilogue(acc, simt.GemvOrder(bias="acc"), dtype, bias=np.array([h]))[:, 0]
        ok = np.array_equal(gotb.view(np.int16), np.asarray(rec["bias_bits"], np.int64).astype(np.int16)[:len(rows)])
    return ok


# -- the fit of one record ------------------------------------------------------------------------

def template_lanes(kern: str):
    m = re.search(r",(\d+),4,1024", kern)
    return int(m.group(1)) if m else None


def fit_one(name, rec):
    """Every candidate (lanes, chunk, fold) whose tracer masks equal the record's decoded bits."""
    c = rec["case"]
    launch = rec["launch"][0]
    x, y = launch["block"][0], launch["block"][1]
    kern = kernel_of(rec["launch"])
    L = template_lanes(kern) or 32
    pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
    row = {"record": name, "kernel": kern, "dtype": c["dtype"], "shape": f"{c['m']}x{c['n']}x{c['k']}",
           "batch": c.get("batch", 1), "layout": c["layout"], "op": c["op"], "k": c["k"],
           "outputs": max(c["m"], c["n"]), "grid": launch["grid"], "block": launch["block"]}
    if G.digest(pairs, tracers) != rec["design"]["digest"]:
        return {**row, "error": "design digest differs"}
    obs = G.decode(rec["bits"], c["dtype"])
    row["experiments"] = len(obs)
    if (obs < 0).any():
        return {**row, "error": f"{int((obs < 0).sum())} outputs are not tracer sums"}
    fits = []
    for n, chunk, fold in candidates(y, L):
        if np.array_equal(predict_fold(c["k"], n, chunk, fold, x, pairs, tracers), obs):
            fits.append((n, chunk, fold))
    row["fits"] = [f"{n}/{ch}/{f}" for n, ch, f in fits]
    row["fits_with_y_lanes"] = [f"{ch}/{f}" for n, ch, f in fits if n == y]
    row["rule_fits"] = (y, 4, "pad_down") in fits
    # the lanes that matter: a chunk-4 layout puts K elements on ceil(K / 4) lanes at most
    row["lanes_used"] = min(y, -(-c["k"] // 4))
    if row["rule_fits"] and "gemvNSP" in kern:
        row["rule_bytes"] = replays(rec, y, 4, fold_pad_down(y))
    return row


def one_rules(rows):
    """For each (lane source, chunk, fold): how many gemvNSP records it fits."""
    ns = [r for r in rows if "gemvNSP" in r["kernel"] and "fits" in r]
    out = {}
    for src in ("y", "L", "32", "y-1", "y+1", "y-2", "y+2"):
        for chunk in CHUNKS:
            for fold in FOLDS:
                hit = 0
                for r in ns:
                    y, L = r["block"][1], template_lanes(r["kernel"])
                    n = {"y": y, "L": L, "32": 32, "y-1": y - 1, "y+1": y + 1, "y-2": y - 2, "y+2": y + 2}[src]
                    hit += f"{n}/{chunk}/{fold}" in r["fits"]
                out[f"lanes={src} chunk={chunk} fold={fold}"] = hit
    return len(ns), dict(sorted(out.items(), key=lambda kv: -kv[1]))


# -- the launch: (x, y) from (outputs, K, dtype) ---------------------------------------------------

# The configurations seen, in the order the rule tries them; cap: outputs one wave holds,
# SMS * blocks per SM * x, blocks per SM = 2048 // (x * y rounded up to 128 threads) (this makes
# (56, 12) two blocks per SM; cuBLAS's own waves_count counts three there, see FINDINGS).
CONFIGS = [(24, 32), (4, 32), (24, 26), (16, 24), (24, 20), (56, 12), (24, 16)]


def blocks_per_sm(x, y, granule=128):
    return 2048 // (-(-(x * y) // granule) * granule)


def capacity(x, y):
    return SMS * blocks_per_sm(x, y) * x


def launch_rule(n):
    """(x, y) the rule gives n outputs: the first configuration whose one wave holds them (x 4 and 8 tie
    at y 32: both hold 8,448); past the last, (4, 32) in more than one wave. n <= 91 ran (8, 32) on
    every record (x unsettled between 92 and 129); the bits need only y."""
    if n <= 91:
        return (8, 32)
    for x, y in CONFIGS:
        if n <= capacity(x, y):
            return (x, y)
    return (4, 32)


def launch_points(rows):
    """Every gemvNSP launch: the designed records' and the Lt-bias probe's (launch only)."""
    pts = [{"src": r["record"], "dtype": r["dtype"], "layout": r["layout"], "op": r["op"], "n": r["outputs"],
            "k": r["k"], "kernel": r["kernel"], "grid": r["grid"][0], "block": tuple(r["block"][:2])}
           for r in rows if "gemvNSP" in r["kernel"]]
    for label, path in LAUNCH_ONLY:
        for i, row in enumerate(_load(path)["rows"]):
            ls = [x for x in row.get("launch") or [] if "gemvNSP" in x["name"]]
            if ls:
                c = row["case"]
                pts.append({"src": f"{label}:{i}", "dtype": c["dtype"], "layout": c["layout"], "op": c["op"],
                            "n": max(c["m"], c["n"]), "k": c["k"], "kernel": kernel_of(ls),
                            "grid": ls[0]["grid"][0], "block": tuple(ls[0]["block"][:2])})
    return sorted(pts, key=lambda p: (p["n"], p["src"]))


def check_launches(pts):
    bad = []
    for p in pts:
        x, y = p["block"]
        want = launch_rule(p["n"])
        p["rule"] = want
        p["grid_ok"] = p["grid"] == -(-p["n"] // x)
        p["L_ok"] = template_lanes(p["kernel"]) == 1 << (y.bit_length() - 1)   # L = largest power of two <= y
        tie = want[1] == 32 and y == 32 and (want[0], x) in ((4, 8), (8, 4))
        p["match"] = (x, y) == want or tie
        p["y_match"] = y == want[1]
        if not (p["match"] and p["grid_ok"] and p["L_ok"]):
            bad.append(p)
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(RESULTS, "2026-12-01e-ground", "fit_gemvnsp.json"))
    args = ap.parse_args(argv)
    recs = option10_records()
    print(f"[nsp] {len(recs)} option-10 / gemvNSP records with a launch ({', '.join(p for _, p in SOURCES)})")
    print(f"[nsp] our predictor == gemv_design.predict on {validate(recs)} (record, GemvOrder) pairs "
          f"(power-of-two lanes, chunks {CHUNKS}, folds down/up/seq)")
    rows = [fit_one(n, r) for n, r in recs]
    print("\n[nsp] per record: lanes = blockDim.y, chunk 4, pad_down (count-down butterfly over y lanes padded "
          "to the next power of two)")
    for r in rows:
        if "error" in r:
            print(f"  {r['record']:9s} {r['kernel']:24s} {r['shape']:13s} {r['error']}")
            continue
        tag = ("FITS" + (", bytes too" if r.get("rule_bytes") else (", BYTES DIFFER" if "rule_bytes" in r else "")))\
            if r["rule_fits"] else "no"
        print(f"  {r['record']:9s} {r['kernel']:24s} {r['shape']:13s} b{r['batch']:<2d} block {r['block'][0]:2d}x"
              f"{r['block'][1]:2d} lanes used {r['lanes_used']:2d}: {tag:17s} y-lane fits {r['fits_with_y_lanes'][:5]}"
              f"{' ...' if len(r['fits_with_y_lanes']) > 5 else ''}; any {len(r['fits'])}")
    total, rules = one_rules(rows)
    print(f"\n[nsp] one rule across the {total} gemvNSP records (fits / {total}), best first:")
    for name, hit in list(rules.items())[:8]:
        print(f"  {hit:3d}  {name}")
    pts = launch_points(rows)
    bad = check_launches(pts)
    print(f"\n[nsp] launches: {len(pts)} gemvNSP launches; the launch rule (x, y) matches "
          f"{sum(p['match'] for p in pts)}, y {sum(p['y_match'] for p in pts)}, grid = ceil(n / x) "
          f"{sum(p['grid_ok'] for p in pts)}, L = pow2 floor of y {sum(p['L_ok'] for p in pts)}")
    print("  configs (x, y): blocks/SM, one-wave capacity: " + ", ".join(
        f"({x},{y}) {blocks_per_sm(x, y)} {capacity(x, y)}" for x, y in CONFIGS))
    seen = {}
    for p in pts:
        seen.setdefault(p["block"], []).append(p["n"])
    print("  block seen: outputs (min..max, count)")
    for blk, ns in sorted(seen.items(), key=lambda kv: min(kv[1])):
        print(f"    {blk}: {min(ns)}..{max(ns)} ({len(ns)})")
    for p in bad:
        print(f"  MISMATCH {p['src']} n={p['n']} k={p['k']} {p['dtype']} block {p['block']} rule {p['rule']} "
              f"grid_ok {p['grid_ok']} L_ok {p['L_ok']}")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"rows": rows, "one_rule": rules, "launches": [{**p, "block": list(p["block"]),
                   "rule": list(p["rule"])} for p in pts]}, f, indent=1)
    tsv = os.path.splitext(args.out)[0] + "_launches.tsv"
    with open(tsv, "w") as f:
        f.write("src\tdtype\tlayout\top\toutputs\tk\tkernel\tgrid_x\tblock_x\tblock_y\trule_x\trule_y\tmatch\n")
        for p in pts:
            f.write("\t".join(str(v) for v in (p["src"], p["dtype"], p["layout"], p["op"], p["n"], p["k"], p["kernel"],
                                                p["grid"], *p["block"], *p["rule"], p["match"])) + "\n")
    print(f"\n[nsp] wrote {args.out} and {tsv}")


if __name__ == "__main__":
    main()
