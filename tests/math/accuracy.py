"""The shared exp/log's accuracy against mpmath (correctly rounded), on seeded samples.

Prints the worst ulp distance per function and range; exits nonzero above 1 ulp.
"""
import sys

import mpmath
import numpy as np

import bitorder
from bitorder.math import exp, log

print(f"bitorder from {bitorder.__file__}")
mpmath.mp.prec = 96
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
rng = np.random.default_rng(20261129)


def nearest32(v):
    """The float32 nearest the exact value v (ties to even): no double rounding through float64."""
    with np.errstate(over="ignore"):
        f = np.float32(float(v))
    if not np.isfinite(f):
        return f
    cands = (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf)))
    return min(cands, key=lambda c: (abs(mpmath.mpf(float(c)) - v), int(c.view(np.int32)) & 1))


def ulps(got, exact):
    want = np.array([nearest32(v) for v in exact], dtype=np.float32)
    g, w = got.view(np.int32).astype(np.int64), want.view(np.int32).astype(np.int64)
    g = np.where(g < 0, -(g & 0x7FFFFFFF), g)  # ordered integer line across zero
    w = np.where(w < 0, -(w & 0x7FFFFFFF), w)
    return np.abs(g - w)


worst = {}
ranges = {"exp whole (-104, 89)": ("exp", rng.uniform(-104, 89, N)), "exp softmax (-30, 0)": ("exp", rng.uniform(-30, 0, N // 2)),
          "log (0, 3.4e38)": ("log", np.exp(rng.uniform(-87.3, 88.7, N))),
          "log subnormal": ("log", rng.uniform(1e-45, 1.17e-38, N // 10)),
          "log near 1": ("log", rng.uniform(0.5, 2.0, N // 2))}
for name, (fn, xs) in ranges.items():
    xs = xs.astype(np.float32)
    got = exp(xs) if fn == "exp" else log(xs)
    exact = [mpmath.exp(mpmath.mpf(float(x))) if fn == "exp" else mpmath.log(mpmath.mpf(float(x))) for x in xs]
    worst[name] = int(ulps(got, exact).max())
    print(f"{name:24s} {len(xs):7d} inputs, worst {worst[name]} ulp")
sys.exit(0 if max(worst.values()) <= 1 else 1)
