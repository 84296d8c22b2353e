"""The gemv probe's old command line: the probe and its fit are bitorder.cublas.prober_gemv now
(`bitorder probe gemv`, `bitorder probe gemv-fit`); this shim keeps the scripts that import it,
and the recorded calls that run it, working.

    python benchmarks/probe_gemv.py --out DIR [--budget S]        (GPU; scripts/gpu-run OUT gemv-probe)
    python benchmarks/probe_gemv.py --out DIR --cases GATE.json   (GPU; a gate's gemv fallbacks, batched too)
    python benchmarks/probe_gemv.py --fit DIR/probe_gemv.json      (CPU; writes probe_gemv_fit.json beside it)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))
from bitorder.cublas import prober_gemv  # noqa: E402

if __name__ == "__main__":
    sys.exit(prober_gemv.main())
# `import probe_gemv` is the package module itself (`from prober_gemv import *` would copy the
# names): private names (_typed, _bias_rows) come along, and a script that patches one
# (fit_split75's _bias_rows) patches what confirm calls.
sys.modules[__name__] = prober_gemv
