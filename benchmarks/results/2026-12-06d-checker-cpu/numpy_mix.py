"""What a thread-columnar walk's float instruction would cost with numpy: a 128-bit node key (two uint64 lanes,
splitmix64-style finalizers) mixed from an opcode and two children's keys for a column of n threads, the children
sorted as a commuting op's are, against the same with the keys held as Python ints (the form the walk's scalar
paths read) converted in and out. No checker code: the numbers bound a design, they are not the checker's.

    python numpy_mix.py
"""
import json
import random
import timeit

import numpy as np

M64 = (1 << 64) - 1
C2, C3 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def fmix(x):
    x ^= x >> np.uint64(30)
    x *= C2
    x ^= x >> np.uint64(27)
    x *= C3
    x ^= x >> np.uint64(31)
    return x


def mix(ah, al, bh, bl):
    swap = (ah > bh) | ((ah == bh) & (al > bl))
    h1, l1 = np.where(swap, bh, ah), np.where(swap, bl, al)
    h2, l2 = np.where(swap, ah, bh), np.where(swap, al, bl)
    x = fmix(fmix(fmix(h1 ^ np.uint64(17)) ^ l1) ^ h2)
    y = fmix(fmix(fmix(l1 ^ np.uint64(91)) ^ h1) ^ l2)
    return fmix(x ^ l2), fmix(y ^ h2)


out = {}
random.seed(0)
for n in (32, 64, 128, 256, 512):
    keys = [random.getrandbits(128) for _ in range(100_000)]
    kh, kl = np.array([k >> 64 for k in keys], np.uint64), np.array([k & M64 for k in keys], np.uint64)
    ia, ib = np.array(random.sample(range(100_000), n)), np.array(random.sample(range(100_000), n))
    la, lb = ia.tolist(), ib.tolist()

    def arrays():          # keys already in numpy columns: the mix alone
        return mix(kh[ia], kl[ia], kh[ib], kl[ib])

    def from_ints():       # keys as Python ints in and out (a list indexed by node id, as the walk's key_of)
        a, b = [keys[i] for i in la], [keys[i] for i in lb]
        h, l = mix(np.array([k >> 64 for k in a], np.uint64), np.array([k & M64 for k in a], np.uint64),
                   np.array([k >> 64 for k in b], np.uint64), np.array([k & M64 for k in b], np.uint64))
        return [(x << 64) | y for x, y in zip(h.tolist(), l.tolist())]

    row = {}
    for f in (arrays, from_ints):
        t = min(timeit.repeat(f, number=500, repeat=3)) / 500
        row[f.__name__] = {"us_per_instruction": round(t * 1e6, 1), "ns_per_thread": round(t / n * 1e9)}
    out[n] = row
print(json.dumps(out, indent=1))
