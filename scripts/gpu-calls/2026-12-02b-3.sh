#!/usr/bin/env bash
# 2026-12-02 second session, call 3 (issue 3, ~6 min): the whole gate's three non-tail fallbacks (call 2), each with a
# candidate, checked on fresh shapes near them: a census of near shapes finds the ones that get the same kind of
# answer, then their rerun under BITORDER_UNVERIFIED=1 (three fresh draws each), then the planted fault:
#  (a) algorithm 21 scheme 4 (algo21-splitk-out-partials): K +-2% around three seen calls (2026-12-01g, 2026-12-02, 2026-12-02b);
#  (b) algorithm 21 scheme 1 at K a multiple of 64 in cuBLAS layout nt (algo21-s16816-splitk-serial-nt): F.linear with a bias near
#      80x8x283584, fp16 and bf16;
#  (c) algorithm 13 option 10 batched dots at K = 2 (2 lanes, as K 3-15): bmm 1x1x2, batches 2-257, four layouts, both dtypes.
#  mutant-candidates (scheme-4 partials in fp32, the nt span granule doubled) over (a) and (b) must fail; (c)'s
#  order cannot show in its bytes beyond signed zeros (two products, one rounding in any order): no fault for it.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
export PYTHONPATH=src:/tmp/site
python3 - $R/near.json <<'PY'
import json, random, sys
rng, cases = random.Random(20261803), []
for d, m, n, k, l in [("bf16", 64, 264, 349879, "tn"), ("bf16", 24, 112, 250864, "tt"), ("bf16", 32, 504, 307032, "nn")]:
    cases += [dict(op="mm", dtype=d, m=m, n=n, k=k + rng.randint(-k // 50, k // 50), batch=1, layout=l, group="fuzz-deep")
              for _ in range(300)]
for d in ("bf16", "fp16"):
    cases += [dict(op="linear_bias", dtype=d, m=rng.randint(56, 104), n=rng.choice((8, 16, 24)),
                   k=64 * rng.randint(283584 // 64 - 280, 283584 // 64 + 280), batch=1, layout="tn", group="fuzz-deep")
              for _ in range(300)]
cases += [dict(op="bmm", dtype=d, m=1, n=1, k=2, batch=b, layout=l, group="fuzz") for d in ("fp16", "bf16")
          for l in ("nn", "nt", "tn", "tt") for b in (2, 3, 5, 7, 11, 19, 33, 64, 130, 257)]
json.dump({"not_reached_cases": cases}, open(sys.argv[1], "w")); print(f"[near] {len(cases)} shapes")
PY
CENSUS_ARGS="--rerun $R/near.json --budget 40 --name census-near" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 - $R/census-near.json $R/ground.json <<'PY'
import collections, json, random, sys
got = collections.defaultdict(list)
for r in json.load(open(sys.argv[1]))["not_triton"]:
    a = r.get("answer") or {}
    if a.get("algo_id") == 21 and a.get("reduction_scheme") == 4:
        got["scheme4"].append(r["case"])
    elif a.get("algo_id") == 21 and a.get("reduction_scheme") == 1:
        got["serial-nt"].append(r["case"])
    elif a.get("algo_id") == 13 and a.get("custom_option") == 10 and r["case"]["k"] == 2:
        got["dots-k2"].append(r["case"])
    else:
        got["other: " + r["reason"][:60]].append(r["case"])
rng, cases = random.Random(3), []
for key, cs in sorted(got.items()):
    print(f"[ground] {key}: {len(cs)}")
    if not key.startswith("other"):
        rng.shuffle(cs); cases += cs[:70]
json.dump({"not_reached_cases": cases}, open(sys.argv[2], "w")); print(f"[ground] {len(cases)} cases")
PY
pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 110 --retry-oom 5 --seed 20261804 --rerun $R/ground.json --name near-ground" \
  timeout -k 5 140 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/near-ground.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 70 --retry-oom 5 --seed 20261805 --rerun $R/ground.json" \
  timeout -k 5 100 scripts/gpu-run $R mutant-candidates | g 6; pack
rm -rf $R
