"""How many of a walk's tree nodes are distinct (by key): python distinct_nodes.py SRC k1,k2 (cached PTX in /tmp/ckd/ptx)."""
import sys, os, pickle, time, glob, collections
sys.path.insert(0, sys.argv[1])
from bitorder import check
from bitorder.check import dataflow
orig = dataflow.walk
S = collections.Counter()
def walk(*a, **k):
    r, nodes = orig(*a, **k)
    S["walks"] += 1; S["nodes"] += len(nodes.key_of); S["distinct"] += len(set(nodes.key_of.values()))
    return r, nodes
dataflow.walk = walk
names = sys.argv[2].split(",")
class C:
    def __init__(s, a): s.asm = a
for n in names:
    S.clear()
    for r in pickle.load(open(f"/tmp/ckd/ptx/{n}.pkl", "rb")):
        if r[4] is None: continue
        check.signature(C(r[4]))
    print(n, dict(S), f"{S['distinct']/max(S['nodes'],1):.2f}")
