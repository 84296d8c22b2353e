"""Per-column node keys in numpy against _make_column, on the columns real walks make (ceiling.py's draw).

    python npkeys.py PTX_DIR

Every two- and three-operand float column _make_column makes in those walks is captured with its children's keys
(and _make_column's own time measured); each distinct key then gets a random 128-bit number (what a numeric key layer
would hold), and each column's keys are computed at once: the first two children ordered for commuting ops and fma,
a splitmix64-style mix per 64-bit half. No marks, memo or id bookkeeping: the least a column's keys cost."""
import sys
import time
import zlib

import numpy as np

from ceiling import drawn
from bitorder.check import allthreads, dataflow
from bitorder.check.symbolic import _COMMUTES, _FMA

_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(x):
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def _keys(opc, ordered, arr):
    """(hi, lo) keys of a column: arr is (threads, children, 2) uint64."""
    a, b = arr[:, 0, :], arr[:, 1, :]
    if ordered:
        swap = (b[:, 0] < a[:, 0]) | ((b[:, 0] == a[:, 0]) & (b[:, 1] < a[:, 1]))
        a, b = np.where(swap[:, None], b, a), np.where(swap[:, None], a, b)
    h = _mix(np.uint64(opc) ^ a[:, 0]) * np.uint64(3) + b[:, 0]
    lo = _mix(np.uint64(opc) ^ a[:, 1] ^ np.uint64(0x9E3779B97F4A7C15)) + b[:, 1]
    if arr.shape[1] == 3:
        h, lo = _mix(h) + arr[:, 2, 0], _mix(lo) + arr[:, 2, 1]
    return _mix(h), _mix(lo ^ h)


def main(ptx_dir):
    caps, spent = [], [0.0, 0]
    make = allthreads._make_column

    def captured(nodes, op, argss, kind):
        t = time.perf_counter()
        out = make(nodes, op, argss, kind)
        spent[0] += time.perf_counter() - t
        spent[1] += len(out)
        if argss and len(argss[0]) in (2, 3):
            ko = nodes.key_of
            caps.append((op, kind, [tuple(ko[c] if c.__class__ is int else c for c in a) for a in argss]))
        return out

    allthreads._make_column = captured
    for _, _, entry, divisible in drawn(ptx_dir):
        try:
            dataflow.walk(entry, divisible=divisible)
        except dataflow.Unsupported:
            pass
    print(f"_make_column in walks: {spent[0]:.2f}s for {spent[1]} nodes: {1e6 * spent[0] / spent[1]:.3f} us a node")
    rng, number = np.random.default_rng(0), {}
    cols = []
    for op, kind, rows in caps:
        arity = len(rows[0])
        if any(len(r) != arity for r in rows):
            continue
        flat = []
        for r in rows:
            for k in r:
                if k not in number:
                    number[k] = tuple(int(x) for x in rng.integers(0, 2**63, 2))
                flat.extend(number[k])
        arr = np.array(flat, dtype=np.uint64).reshape(len(rows), arity, 2)
        cols.append((zlib.crc32(op.encode()), kind in (_COMMUTES, _FMA), arr))
    n = sum(c[2].shape[0] for c in cols)
    with np.errstate(over="ignore"):
        t = time.perf_counter()
        for c in cols:
            _keys(*c)
        dt = time.perf_counter() - t
    print(f"numpy keys: {len(cols)} columns, {n} nodes, {dt:.2f}s: {1e6 * dt / n:.3f} us a node, "
          f"{1e6 * dt / len(cols):.1f} us a column")


if __name__ == "__main__":
    main(sys.argv[1])
