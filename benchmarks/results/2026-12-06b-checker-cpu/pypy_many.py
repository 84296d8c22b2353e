import sys, types, os, pickle, time, json
src = sys.argv[1]
pkg = types.ModuleType('bitorder'); pkg.__path__ = [os.path.join(src, 'bitorder')]
sys.modules['bitorder'] = pkg
from bitorder import check
picks=json.load(open(sys.argv[2]))
by={}
for n,j in picks: by.setdefault(n,[]).append(j)
class C:
    def __init__(s,a): s.asm=a
tot=0; rows=[]
for n,js in by.items():
    recs={r[1]:r for r in pickle.load(open(f'/tmp/ckd/all/{n}.pkl','rb'))}
    for j in js:
        c=C(recs[j][4])
        t=time.process_time(); s=check.signature(c); dt=time.process_time()-t; tot+=dt
        rows.append((n,j,round(dt,3),s[:16]))
print('total',round(tot,2))
json.dump(rows,open(sys.argv[3],'w'))
