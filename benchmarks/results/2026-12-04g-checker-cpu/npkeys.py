"""Per-column node keys in numpy, against _make_column, on the columns real walks make."""
import pickle,time,sys,random,glob,os,collections
import numpy as np
sys.path.insert(0,'/work/main/src')
from bitorder.check import dataflow, parse, allthreads
from bitorder.check.signature import divisible_params
caps=[]; spent=[0.0, 0]
orig=allthreads._make_column
def cap(nodes, op, argss, kind):
    t=time.perf_counter(); out=orig(nodes, op, argss, kind); spent[0]+=time.perf_counter()-t; spent[1]+=len(out)
    if argss and len(argss[0]) in (2,3):
        ko=nodes.key_of
        caps.append((op, kind, [tuple(ko[c] if c.__class__ is int else c for c in a) for a in argss]))
    return out
allthreads._make_column=cap
class C: pass
names=sorted(os.path.basename(p)[:-4] for p in glob.glob('/tmp/ckd/all/*.pkl'))
rng=random.Random(2)
for name in names:
    if name.startswith('inductor_cross_entropy'): continue
    recs=[r for r in pickle.load(open(f'/tmp/ckd/all/{name}.pkl','rb')) if r[4] is not None]
    r=rng.choice(recs); c=C(); c.asm=r[4]
    try: dataflow.walk(parse(r[4]['ptx'])[0], divisible=divisible_params(c))
    except dataflow.Unsupported: pass
print(f'_make_column in walks: {spent[0]:.2f}s for {spent[1]} nodes: {1e6*spent[0]/spent[1]:.3f} us a node')
# numeric keys: every string key mapped to two random uint64 (what a numeric key layer would hold)
rs=np.random.default_rng(0); num={}
def nk(k):
    v=num.get(k)
    if v is None: v=num[k]=tuple(int(x) for x in rs.integers(0,2**63,2))
    return v
cols=[]
for op,kind,rows in caps:
    arity=len(rows[0])
    if any(len(r)!=arity for r in rows): continue
    arr=np.array([[x for k in r for x in nk(k)] for r in rows], dtype=np.uint64).reshape(len(rows), arity, 2)
    cols.append((hash(op)&(2**63-1), kind==allthreads._COMMUTES, kind==2, arr))
M1,M2=np.uint64(0xbf58476d1ce4e5b9),np.uint64(0x94d049bb133111eb)
def mix(x):
    x=(x^(x>>np.uint64(30)))*M1; x=(x^(x>>np.uint64(27)))*M2; return x^(x>>np.uint64(31))
def keys(opc, commutes, fma, arr):
    a=arr[:,0,:]; b=arr[:,1,:]
    if commutes or fma:   # order the first two by (hi, lo)
        swap=(b[:,0]<a[:,0])|((b[:,0]==a[:,0])&(b[:,1]<a[:,1]))
        a,b=np.where(swap[:,None],b,a),np.where(swap[:,None],a,b)
    h=mix(np.uint64(opc)^a[:,0])*np.uint64(3)+b[:,0]; l=mix(np.uint64(opc)^a[:,1]^np.uint64(0x9e3779b97f4a7c15))+b[:,1]
    if arr.shape[1]==3: h=mix(h)+arr[:,2,0]; l=mix(l)+arr[:,2,1]
    return mix(h), mix(l^h)
n=sum(a.shape[0] for *_,a in cols)
with np.errstate(over='ignore'):
    t=time.perf_counter()
    for c in cols: keys(*c)
    dt=time.perf_counter()-t
print(f'numpy keys: {len(cols)} columns, {n} nodes, {dt:.2f}s: {1e6*dt/n:.3f} us a node, {1e6*dt/len(cols):.1f} us a column')
