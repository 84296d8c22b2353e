import pickle,sys,time,json,importlib,collections
sys.path.insert(0,'src')
from bitorder import check
from bitorder.check import storefold, dataflow
S=importlib.import_module('bitorder.check.signature')
orig=storefold.StoreFold._run_lanes
stats=collections.Counter(); fr=[]
def rl(self, runs, sl, counters, t0, t1, starts):
    split=orig(self, runs, sl, counters, t0, t1, starts)
    if t0==0 and split:
        fr.append(len(split)/len(runs))
    return split
storefold.StoreFold._run_lanes=rl
origseg=storefold.StoreFold._segment_runs
segt=[0.0]
def sr(self,*a,**k):
    t=time.perf_counter()
    for x in origseg(self,*a,**k):
        segt[0]+=time.perf_counter()-t
        yield x
        t=time.perf_counter()
    segt[0]+=time.perf_counter()-t
storefold.StoreFold._segment_runs=sr
T=0
for n in sys.argv[1:]:
    recs=pickle.load(open(f'/tmp/ckd/all/{n}.pkl','rb'))
    for r in recs:
        if r[4] is None: continue
        e=S._entry(r[4]['ptx'])
        t=time.perf_counter()
        try: dataflow.walk(e, divisible=S.divisible_params(r[4]))
        except Exception as ex: pass
        T+=time.perf_counter()-t
print('walk total',round(T,1),'segment_runs time',round(segt[0],1))
c=collections.Counter(round(x,2) for x in fr)
print('split fractions (partial/all):', sorted(c.items())[:40])
