"""Run benchmarks/reclass_cpu.py unchanged, also logging each kernel's configurations and
classing process-seconds (the `cs` that reclass_cpu sums) as gate_all yields it. Writes
per_kernel.json next to reclass.json. Arguments are reclass_cpu.py's."""
import json, os, sys, time
sys.path.insert(0, "benchmarks")
import checker_gate
import reclass_cpu

_orig = checker_gate.gate_all
per = {}
t0 = time.time()
p0 = time.process_time()

def gate_all(*a, **k):
    for name, res in _orig(*a, **k):
        rows, skipped, cs = res
        n = sum(r["configs"] for r in rows)
        per[name] = {"configs": n, "classes": sum(r["classes"] for r in rows), "classing_s": round(cs, 3),
                     "configs_per_s": round(n / max(cs, 1e-9), 1), "skipped": len(skipped),
                     "wall_at_end_s": round(time.time() - t0, 1)}
        print(f"{name}: {n} cfg, {per[name]['classes']} classes, classing {cs:.2f} s "
              f"({per[name]['configs_per_s']}/s), wall {time.time() - t0:.0f} s", flush=True)
        yield name, res

checker_gate.gate_all = gate_all
out = sys.argv[sys.argv.index("--out") + 1]
rc = reclass_cpu.main()
tot_n = sum(v["configs"] for v in per.values()); tot_cs = sum(v["classing_s"] for v in per.values())
json.dump({"total_configs": tot_n, "total_classing_s": round(tot_cs, 2),
           "configs_per_classing_s": round(tot_n / tot_cs, 1), "wall_s": round(time.time() - t0, 1),
           "process_s_total": round(time.process_time() - p0, 1),
           "kernels": dict(sorted(per.items(), key=lambda kv: -kv[1]["classing_s"]))},
          open(os.path.join(out, "per_kernel.json"), "w"), indent=1)
sys.exit(rc)
