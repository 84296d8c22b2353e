"""Where algorithm 35 adds F.linear's bias (GPU probe, designed rows; no fit needed).

The 10 records fit the bias added in fp32 after the merge of the 9 parts ("acc"), seeded into part 0's
accumulator ("seed0") or added to part 0's finished sum ("part0") alike. Designed rows, bias 2^-17
on every column, B (the weight) all ones, L = 512 (ulp 2^-14: L + 2^-17 rounds back to L):
  row 0  zeros                          every reading: 2^-17
  row 1  +L at k = 10, -L at k = 11     (one k16 step of part 0) every reading: 2^-17
  row 2  +L at k = 63, -L at k = 64     (tile 0 -> part 0, tile 1 -> part 1):
                                        acc 2^-17; seed0 and part0 0 (the bias is lost in part 0's L)
  row 3  +L at k = 0, -L at k = 64 * s  (tiles 0 and s, both part 0; s = split_k):
                                        seed0 0 (truncated away in the step with L); part0, acc 2^-17
Each shape is one of algorithm 35's cases (operands laid out as gate_gemm lays them out: the answer
depends on shapes and strides only); the plan's answer is recorded to confirm algorithm 35, and
bitorder.linear's bytes (the candidate, under BITORDER_UNVERIFIED=1) are compared too.

    BITORDER_UNVERIFIED=1 python benchmarks/probe_algo35_bias.py --cases CASES.json --out DIR [--n 12]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))
L, BIAS = 512.0, 2.0 ** -17
READINGS = {"acc": (BIAS, BIAS, BIAS, BIAS), "seed0": (BIAS, BIAS, 0.0, 0.0), "part0": (BIAS, BIAS, 0.0, BIAS)}


def design(k: int, split: int):
    """{row: [(k, value)]} of the four designed rows (see the module doc)."""
    return [[], [(10, L), (11, -L)], [(63, L), (64, -L)], [(0, L), (64 * split, -L)]]


def classify(values) -> list:
    """The readings whose predicted rows equal the observed ones (values: 4 rows, one column's)."""
    return [r for r, want in READINGS.items() if all(float(v) == w for v, w in zip(values, want))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=12)
    args = ap.parse_args()
    import torch
    import torch.nn.functional as F

    import bitorder
    from bitorder.gemm import api
    from gate_gemm import Case, answer_fields, shell
    os.makedirs(args.out, exist_ok=True)
    cases = [c for c in json.load(open(args.cases))["not_reached_cases"] if c["op"] == "linear_bias"][:args.n]
    rows, tally = [], {}
    for c in cases:
        if c["m"] < 4:
            continue     # (four designed rows; another M could change the answer)
        case = Case(c["op"], c["dtype"], c["m"], c["n"], c["k"], 1, c["layout"], c.get("group", "probe"))
        a, b, bias = shell(case)
        w = b.transpose(-1, -2)
        p = api.plan(a, b, bias)
        ans = answer_fields(p.answer)
        split = (ans or {}).get("split_k", 9)
        with torch.no_grad():
            a.zero_(); b.fill_(1.0); bias.fill_(BIAS)
            for i, row in enumerate(design(case.k, split)):
                for kk, v in row:
                    if kk < case.k:
                        a[i, kk] = v
        ref = F.linear(a, w, bias)
        ours = bitorder.linear(a, w, bias)
        got = ref[:4, 0].float().cpu().tolist()
        fits = classify(got)
        same = bool(torch.equal(ours.view(torch.int16), ref.view(torch.int16)))
        for r in fits:
            tally[r] = tally.get(r, 0) + 1
        rows.append({"case": c, "answer": ans, "path": p.path, "rows": got, "fits": fits, "bitorder_equal": same})
        print(f"[algo35-bias] {case.m}x{case.n}x{case.k} {case.layout} algo {(ans or {}).get('algo_id')} "
              f"split {split}: rows {got} fits {fits} bitorder {'==' if same else '!='}", flush=True)
    json.dump({"readings": READINGS, "tally": tally, "calls": rows}, open(os.path.join(args.out, "algo35-bias.json"), "w"),
              indent=1)
    print(f"[algo35-bias] {len(rows)} calls; readings that fit: {tally}")


if __name__ == "__main__":
    main()
