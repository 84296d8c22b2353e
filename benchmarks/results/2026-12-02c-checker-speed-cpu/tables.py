"""Tables for the README from run_timed's per_kernel.json files: python tables.py BEFORE AFTER."""
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print(f"| | before | after |\n|---|---|---|")
for k in ("total_configs", "total_classing_s", "configs_per_classing_s", "wall_s"):
    print(f"| {k} | {a[k]} | {b[k]} |")
print("\n| kernel | configs | before s | after s | before /s | after /s | x |\n|---|---|---|---|---|---|---|")
for name, r in a["kernels"].items():
    s = b["kernels"][name]
    print(f"| {name} | {r['configs']} | {r['classing_s']:.2f} | {s['classing_s']:.2f} | {r['configs_per_s']} | "
          f"{s['configs_per_s']} | {r['classing_s'] / max(s['classing_s'], 1e-9):.2f} |")
