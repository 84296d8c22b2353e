"""A bound, not a design: the walk with blake2b replaced by Python's tuple hash (unsound: 64 bits), timed against
the real one:  python3 hashexp.py base|cheap k1,k2,...   (from the repository root)"""
import sys, pickle, time
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import symbolic
mode = sys.argv[1]
if mode == 'cheap':
    symbolic._hash = lambda op, kids, payload: '%x' % (hash((op, *kids, payload)) & 0xffffffffffffffffffffffff)
class C:
    def __init__(s, a): s.asm = a
recs = []
for k in sys.argv[2].split(','):
    recs += [r for r in pickle.load(open(f'/tmp/ckd/all/{k}.pkl', 'rb')) if r[4] is not None]
t0 = time.process_time()
for r in recs:
    c = C(r[4]); check.signature(c); check.level(c)
print(mode, len(recs), time.process_time() - t0)
