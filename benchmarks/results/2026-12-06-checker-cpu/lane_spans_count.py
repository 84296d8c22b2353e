"""The kernels of the stored corpus (/tmp/ckd/all, as checker_speed.py reads it) whose walks reach storefold._lane_spans
(walk 2 of the element folds), and how often: every configuration classed, a spy counting the calls."""
import pickle,sys,glob,os,collections
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'src'))
from bitorder import check
from bitorder.check import dataflow
class C:
    def __init__(s,a): s.asm=a
cnt=collections.Counter(); cur=[None]
real=dataflow._Block._lane_spans
def spy(self,*a,**k):
    cnt[cur[0]]+=1
    return real(self,*a,**k)
dataflow._Block._lane_spans=spy
for f in sorted(glob.glob('/tmp/ckd/all/*.pkl')):
    cur[0]=os.path.basename(f)[:-4]
    for r in pickle.load(open(f,'rb')):
        if r[4]: check.signature(C(r[4]))
    if cnt[cur[0]]: print(cur[0], cnt[cur[0]], flush=True)
print('DONE', dict(cnt))
