"""The grid `bitorder check DIR` reads off an Inductor variant's code (check/tritoncache.inductor_grid) against the
grid its launches used, for every stored configuration of the 21 captured Inductor kernels.

    python3 grids.py [/tmp/ckd/all]     (the stored PTX: benchmarks/results/2026-12-04e-checker-speed-cpu/dump_all.py)
"""
import ast
import collections
import glob
import os
import pickle
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src"))
from bitorder.check.tritoncache import inductor_grid  # noqa: E402

folder = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ckd/all"
tally = collections.Counter()
for path in sorted(glob.glob(os.path.join(folder, "inductor_*.pkl"))):
    with open(path, "rb") as f:
        rows = pickle.load(f)
    for _, _, cfg, grid, asm in rows:
        if asm is None:
            continue
        name = re.search(r"tt\.func public @(\w+)", asm["ttgir"]).group(1)
        got = inductor_grid(asm["ptx"], asm["ttgir"], name)
        grid = ast.literal_eval(grid) if isinstance(grid, str) else grid
        want = tuple(grid) + (1,) * (3 - len(grid))
        kernel = os.path.basename(path)[:-4]
        tally[(kernel, "none" if got is None else "equal" if got == want else f"differs {got} {want}")] += 1
for (kernel, outcome), n in sorted(tally.items()):
    print(f"{kernel:40s} {outcome:10s} {n}")
by = collections.Counter()
for (_, outcome), n in tally.items():
    by[outcome.split()[0]] += n
print(dict(by))
sys.exit(1 if by["differs"] else 0)
