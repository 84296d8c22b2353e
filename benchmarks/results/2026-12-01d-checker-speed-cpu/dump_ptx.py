"""Compile every corpus config (as checker_gate.config_records, no GPU, no bind) and store
(kernel, index, cfg repr, grid, {'ptx','ttgir'}) per kernel in /tmp/ckd/ptx/NAME.pkl."""
import os, sys, pickle, json, time
sys.path.insert(0, "benchmarks")
import checker_gate
from checker_gate import SPECS, _configs
from bitorder.check.prune import compile_config
names = sys.argv[1].split(",") if len(sys.argv) > 1 and sys.argv[1] else sorted({r["kernel"] for r in json.load(open("benchmarks/results/2026-11-30d-checker/checker.json"))["grids"]})
os.makedirs("/tmp/ckd/ptx", exist_ok=True)
for name in names:
    path = f"/tmp/ckd/ptx/{name}.pkl"
    if os.path.exists(path):
        continue
    spec = SPECS[name]; t0 = time.time()
    configs = _configs(spec, None, 7)
    args0 = spec.make("cpu", 7)
    recs = []
    for i, cfg in enumerate(configs):
        try:
            c = compile_config(spec.fn, cfg, {**args0, **spec.fixed}, {}, "sm90")
        except Exception as e:
            recs.append((name, i, str(cfg), None, None)); continue
        grid = spec.grid({**args0, **cfg.kwargs})
        asm = c.asm if isinstance(c.asm, dict) else {"ptx": c.asm, "ttgir": getattr(c, "ttgir", None)}
        recs.append((name, i, str(cfg), str(grid), {"ptx": asm["ptx"], "ttgir": asm.get("ttgir")}))
    pickle.dump(recs, open(path, "wb"))
    print(name, len(recs), f"{time.time()-t0:.0f}s", flush=True)
