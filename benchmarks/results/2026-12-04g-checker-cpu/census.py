"""What a column representation would hold: every register column an instruction writes (outside skipped regions), classed
by the values its threads hold, over one configuration per kernel (seed 2, the nine Inductor cross-entropy kernels left
out; the same draw as ceiling.py). python census.py (reads /tmp/ckd/all)."""
import pickle,time,sys,random,glob,os,collections
sys.path.insert(0,'/work/main/src')
from bitorder.check import dataflow, parse
from bitorder.check.signature import divisible_params
from bitorder.check.rules import _text_shape
cnt=collections.Counter()
orig=dataflow._Block.step
def classify(col):
    kinds=set(); shared=None; ok=True
    for v in col:
        if v.__class__ is bool: kinds.add('pred'); continue
        if v.__class__ is int: kinds.add('int'); sym=()
        elif v.__class__ is dict:
            kinds.add('poly'); sym=tuple(sorted((m,c) for m,c in v.items() if m!=()))
        elif v.__class__ is tuple and v and v[0]=='node': return 'float'
        else: return 'other:'+(v[0] if isinstance(v,tuple) and v else type(v).__name__)
        if shared is None: shared=sym
        elif shared!=sym: ok=False
    if kinds=={'pred'}: return 'pred'
    if 'pred' in kinds: return 'other:mixed'
    if kinds=={'int'}: return 'int-concrete'
    return 'int-shared+offset' if ok else 'int-varying-symbolic'
def wrap(self, ins):
    r=orig(self, ins)
    if self.region is None:
        for d in _text_shape(ins)[0]:
            col=self.cols.get(d)
            if col is not None:
                cnt[classify(col)]+=1
    return r
dataflow._Block.step=wrap
class C: pass
names=sorted(os.path.basename(p)[:-4] for p in glob.glob('/tmp/ckd/all/*.pkl'))
rng=random.Random(2)
for name in names:
    if name.startswith('inductor_cross_entropy'): continue
    recs=[r for r in pickle.load(open(f'/tmp/ckd/all/{name}.pkl','rb')) if r[4] is not None]
    r=rng.choice(recs); c=C(); c.asm=r[4]
    try: dataflow.walk(parse(r[4]['ptx'])[0], divisible=divisible_params(c))
    except dataflow.Unsupported: pass
tot=sum(cnt.values())
for k,v in cnt.most_common(): print(f'{v:8d} {v/tot:.3f} {k}')
