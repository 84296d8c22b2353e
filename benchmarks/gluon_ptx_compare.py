"""chain8_ws_kernel's PTX for the gated variants, compiled from this tree and from another kernels_fp8_gluon.py,
compared with debug info dropped (CPU; sm_90a). A kernel edit that should leave the gated kernel alone (the
2026-12-04 gate ran it) must print "identical" for every variant; exit status 1 otherwise.

    python3 benchmarks/gluon_ptx_compare.py OLD_KERNELS_FP8_GLUON.py
    (e.g. git show 776cb11:src/bitorder/gemm/kernels_fp8_gluon.py > /tmp/old.py)
"""
import difflib
import importlib.util
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path[:0] = [os.path.join(ROOT, "tests", "gemm"), os.path.join(ROOT, "tests"), os.path.join(ROOT, "src")]
import test_fp8_gluon as t  # noqa: E402  (its compile helper)

spec = importlib.util.spec_from_file_location("bitorder.gemm.kg_old", sys.argv[1])
old = importlib.util.module_from_spec(spec)
sys.modules["bitorder.gemm.kg_old"] = old   # its relative imports resolve inside bitorder.gemm
spec.loader.exec_module(old)


def norm(p):
    p = re.sub(r"^\s*\.(loc|file)\b.*$", "", p, flags=re.M)
    p = re.sub(r"^\s*//.*$", "", p, flags=re.M)
    p = re.sub(r"^\$L__(func|tmp|info|debug)\w*:\s*$", "", p, flags=re.M)   # debug labels alone on a line
    p = re.sub(r"\$L__(func|tmp|info|debug)\w*", "L", p)
    p = re.sub(r"\.section\s+\.debug.*", "", p, flags=re.S)
    return [ln for ln in p.splitlines() if ln.strip()]


variants = [dict(overlap=True), dict(overlap=True, consumers=1), dict(overlap=True, stages=6), dict(overlap=True, persistent=True),
            dict(promote=0), dict(promote=0, consumers=1, block_n=256), dict(overlap=True, out="fp16", bias=True, scale=4),
            dict(overlap=True, rowwise=True, scale=3, out="fp32"), dict(overlap=False), dict(block_n=64, stages=6, overlap=True)]
bad = 0
for v in variants:
    a, b = norm(t._compile(module=old, **v)), norm(t._compile(**v))
    same = a == b
    bad += not same
    print(v, "identical" if same else f"DIFFER ({len(a)} vs {len(b)} lines)")
    if not same:
        print("\n".join(list(difflib.unified_diff(a, b, lineterm=""))[:30]))
sys.exit(1 if bad else 0)
