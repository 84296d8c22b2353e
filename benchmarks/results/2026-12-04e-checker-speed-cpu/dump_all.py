"""Compile every configuration of the named corpus kernels for sm90 on this machine (no GPU), as
checker_gate.config_records compiles them unbound, and store (kernel, index, cfg repr, grid, {'ptx', 'ttgir'})
per kernel in OUT/NAME.pkl, the form benchmarks/checker_speed.py reads (--ptx OUT).

    python dump_all.py OUT PART NPARTS     (kernels of the whole corpus, every NPARTS-th from PART)
"""
import os
import pickle
import sys
import time

sys.path.insert(0, "benchmarks")
from checker_gate import SPECS, _configs  # noqa: E402
from bitorder.check.prune import compile_config  # noqa: E402

out, part, nparts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out, exist_ok=True)
for name in sorted(SPECS)[part::nparts]:
    path = os.path.join(out, f"{name}.pkl")
    if os.path.exists(path):
        continue
    spec, t0 = SPECS[name], time.time()
    args0 = spec.make("cpu", 7)
    recs = []
    for i, cfg in enumerate(_configs(spec, None, 7)):
        try:
            c = compile_config(spec.fn, cfg, {**args0, **spec.fixed}, {}, "sm90")
        except Exception:   # a configuration Triton cannot build: listed, not classed
            recs.append((name, i, str(cfg), None, None))
            continue
        grid = spec.grid({**args0, **cfg.kwargs})
        asm = c.asm if isinstance(c.asm, dict) else {"ptx": c.asm, "ttgir": getattr(c, "ttgir", None)}
        recs.append((name, i, str(cfg), str(grid), {"ptx": asm["ptx"], "ttgir": asm.get("ttgir")}))
    with open(path + ".tmp", "wb") as f:
        pickle.dump(recs, f)
    os.replace(path + ".tmp", path)
    print(name, len(recs), f"{time.time() - t0:.0f}s", flush=True)
