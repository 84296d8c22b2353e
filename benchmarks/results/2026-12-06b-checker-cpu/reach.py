import pickle,sys,time,json,importlib,collections
sys.path.insert(0,'src')
from bitorder import check
from bitorder.check import dataflow
S=importlib.import_module('bitorder.check.signature')
picks=json.load(open('/tmp/heavy60.json'))[::2]
tot=collections.Counter()
for n,j in picks:
    recs={r[1]:r for r in pickle.load(open(f'/tmp/ckd/all/{n}.pkl','rb'))}
    asm=recs[j][4]; e=S._entry(asm['ptx'])
    try:
        roots,nodes=dataflow.walk(e, True, divisible=S.divisible_params(asm))
    except Exception as ex:
        print(n,j,'refused',str(ex)[:60]); continue
    ids=len(nodes.key_of)-1
    uniq=set(nodes.key_of[1:])
    seen=set(); stack=[]
    for k,v in roots.items():
        stack.append(v[1])
    while stack:
        k=stack.pop()
        if k in seen or not isinstance(k,str): continue
        seen.add(k)
        sh=nodes.shape.get(k)
        if sh is None: continue
        for c in sh[1]:
            if c not in seen: stack.append(c)
    r=len(seen & uniq)
    ops=collections.Counter(nodes.shape[k][0] for k in uniq if k in nodes.shape)
    dead=collections.Counter(nodes.shape[k][0].split('.')[0] for k in uniq-seen if k in nodes.shape)
    tot['ids']+=ids; tot['uniq']+=len(uniq); tot['reach']+=r
    for o,c in dead.items(): tot['dead:'+o]+=c
    print(f"{n:40s} {j:4d} ids {ids:7d} unique {len(uniq):7d} reachable {r:7d} roots {len(roots)}", flush=True)
print(dict(tot.most_common(25)))
