"""The planted fault of scripts/gpu-calls/planned-fold-stores.sh on this machine: class the stored centered_rows
configurations with the tree at argv[1] (a copy with storefold's template keyed without its value, or the real one),
the grid given, the rule on, and print the number of classes.

    python3 mutcheck.py /tmp/mut/src       (the copy: scripts/mutant-run's edit, made by hand)
    python3 mutcheck.py src
"""
import sys, pickle, collections
sys.path.insert(0, sys.argv[1])
import bitorder; print('imports', bitorder.__file__)
from bitorder.check import dataflow, storefold
from bitorder.check.ptx import parse
storefold.STORES = True
for name in ('centered_rows', 'centered_rows_bf16'):
    recs = pickle.load(open(f'/tmp/ckd/all/{name}.pkl', 'rb'))
    sigs = collections.Counter()
    for rec in recs:
        if rec[4] is None: continue
        try: sigs[dataflow.signature_of(dataflow.walk(parse(rec[4]['ptx'])[0], grid_x=256)[0])] += 1
        except Exception: sigs["v0"] += 1
    print(name, len(sigs), 'classes')
