#!/usr/bin/env python3
"""Verify option 10's long batched-dot candidates when their ground passed (2026-12-03b).

    python3 scripts/gpu-calls/verify-dots-long.py GROUND.json [MUTANT.json]
    python3 scripts/gpu-calls/verify-dots-long.py --flip-only      (a later call, after a verified ground)

GROUND: `gate_gemm.py --rerun` over the census's option-10 dots, under BITORDER_UNVERIFIED=1. It passes when
every case ran (no error, none unreached), none differs, at least 10 ran on the candidates (no option-10 dot
among the fallbacks in their K ranges) and, where MUTANT (mutant-dots-long over the same list) is given, the
planted fault differs somewhere. Then, and only then, the two entries' "verified" turn true in this tree's
profile: the same edit on the device (before its gate) and here (the commit), so both gate the same bytes.
Exit 0 when it flipped the entries, 1 when it did not (with the reason).
"""
import json
import sys

PROFILE = "src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json"
RANGES = {"fp16": (255, 4096), "bf16": (365, 4096)}
ENTRIES = [f'"dtype": "{d}", "k_low": {lo}, "k_high": {hi}, "lanes": 16, "chunk": null, "cap": 64, "fold": "down", '
           '"verified": false}' for d, (lo, hi) in RANGES.items()]


def in_range(case: dict) -> bool:
    lo, hi = RANGES.get(case["dtype"], (1, 0))
    return case["op"] == "bmm" and case["m"] == case["n"] == 1 and lo <= case["k"] <= hi


def flip() -> int:
    """Turn the two entries' "verified" true in PROFILE (idempotent); 0 when both are true afterwards."""
    text = open(PROFILE).read()
    for e in ENTRIES:
        done = e.replace('"verified": false', '"verified": true')
        if text.count(e) + text.count(done) != 1:
            print(f"not verified: entry not found once: {e}")
            return 1
        text = text.replace(e, done)
    open(PROFILE, "w").write(text)
    return 0


def main(argv) -> int:
    if argv[1:] == ["--flip-only"]:
        rc = flip()
        print("verified (call 1's ground): entries flipped" if rc == 0 else "flip failed")
        return rc
    ground = json.load(open(argv[1]))
    left = [f for f in ground.get("fallback_cases", [])
            if in_range(f["case"]) and (f.get("answer") or {}).get("custom_option") == 10]
    ran = ground["run"] - len(ground.get("fallback_cases", []))
    why = []
    if ground["n_mismatches"] or ground["n_errors"] or ground["n_not_reached"]:
        why.append(f"ground: {ground['n_mismatches']} mismatches, {ground['n_errors']} errors, "
                   f"{ground['n_not_reached']} unreached")
    if left:
        why.append(f"{len(left)} option-10 dots in range went to cuBLAS")
    if ran < 10:
        why.append(f"only {ran} calls ran on Triton")
    if len(argv) > 2:
        mutant = json.load(open(argv[2]))
        if not mutant["n_mismatches"]:
            why.append("the planted fault differed nowhere")
    if why:
        print("not verified:", "; ".join(why))
        return 1
    if flip():
        return 1
    print(f"verified: {ran} calls on Triton identical; entries flipped in {PROFILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
