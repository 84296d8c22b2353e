"""A quick sample A/B: python sample.py SRC OUT.json [BASE.json] (1 configuration per kernel from /tmp/ckd/all, seed 1, the looped cross-entropy kernels left out; SRC: the src folder whose bitorder.check is timed)."""
import pickle,time,sys,random,glob,os,json
sys.path.insert(0,sys.argv[1])
from bitorder import check
class C: pass
names=sorted(os.path.basename(p)[:-4] for p in glob.glob('/tmp/ckd/all/*.pkl'))
random.seed(int(os.environ.get('SEED','1'))); cs=[]
for name in names:
    if name.startswith('inductor_cross_entropy'): continue
    recs=[r for r in pickle.load(open(f'/tmp/ckd/all/{name}.pkl','rb')) if r[4] is not None]
    for r in random.sample(recs, min(int(os.environ.get('PER','1')),len(recs))):
        c=C(); c.asm=r[4]; cs.append((f'{name}|{r[1]}',c))
out={}; T0=time.process_time()
for k,c in cs: out[k]=(check.signature(c), check.level(c))
T=time.process_time()-T0
print(f'{len(cs)} configs {T:.2f}s {len(cs)/T:.2f}/s')
json.dump(out,open(sys.argv[2],'w'))
if len(sys.argv)>3:
    b=json.load(open(sys.argv[3])); d=[k for k in out if list(out[k])!=list(b[k])]
    print('differ', len(d), d[:5])
