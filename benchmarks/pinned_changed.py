"""Which pinned-suite binaries a layout-pass switch changes (CPU: Triton compiles for sm90, no GPU).

Prints one JSON line per kernel: how many of its configurations' pinned PTX differ between the
pass with every conversion switch off and the pass under the switches in the environment
(BITORDER_PINNED_CONVERT_ROWS, _SHUFFLE: on unless =0; _KEEP_WARPS: off unless =1; read at import). A kernel whose pinned binaries are all unchanged keeps its H200
results (same binary, same bits and time); only the changed ones need the GPU again.

    PYTHONPATH=src python benchmarks/pinned_changed.py row_sum,softmax > changed.jsonl
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

os.environ.setdefault("PINNED_DEVICE", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
SWITCHES = ("BITORDER_PINNED_CONVERT_ROWS", "BITORDER_PINNED_CONVERT_SHUFFLE", "BITORDER_PINNED_CONVERT_KEEP_WARPS")


def hashes(name: str) -> dict:
    """{"w,s,b,aligned": sha of the pinned PTX} over the suite's whole space of kernel `name`,
    under the switches of this process's environment."""
    import pinned_kernels as pk
    from pinned_suite import _space
    from bitorder.compiler import harness, layouts
    layouts.enable(True)
    kernel, sig, consts, block_name = pk.signature(name)
    out = {}
    for w, s, b, al in _space(name, quick=False):
        c = harness.compile(kernel, "sm90", signature=sig, constexprs={**consts, block_name: b, "PINNED": True},
                            aligned=[a for a in sig if a.endswith("_ptr")] if al else [], num_warps=w, num_stages=s)
        out[f"{w},{s},{b},{al}"] = hashlib.sha256(c.asm.encode()).hexdigest()[:16]
    return out


def main(names):
    here = os.path.abspath(__file__)
    for name in names:
        got = {}
        for mode in ("stock", "switched"):
            env = dict(os.environ)
            if mode == "stock":      # (rows and shuffle are on by default since 2026-12-02c)
                env.update({k: "0" for k in SWITCHES})
            r = subprocess.run([sys.executable, here, "--hashes", name], env=env, capture_output=True, text=True)
            if r.returncode:
                raise SystemExit(f"{name} ({mode}): {r.stderr[-2000:]}")
            got[mode] = json.loads(r.stdout.strip().splitlines()[-1])
        diff = sorted(k for k in got["stock"] if got["stock"][k] != got["switched"].get(k))
        print(json.dumps({"kernel": name, "configs": len(got["stock"]), "changed": len(diff),
                          "switches": {k: os.environ[k] for k in SWITCHES if k in os.environ}, "changed_configs": diff}),
              flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--hashes":
        print(json.dumps(hashes(sys.argv[2])))
    else:
        main(sys.argv[1].split(","))
