import pickle,sys,time,cProfile,pstats,json,importlib,gc
sys.path.insert(0,sys.argv[1])
from bitorder import check
S=importlib.import_module('bitorder.check.signature')
picks=json.load(open(sys.argv[2]))
by={}
for n,j in picks: by.setdefault(n,[]).append(j)
class C:
    def __init__(s,a): s.asm=a
prof = len(sys.argv)>3 and sys.argv[3]=='prof'
pr=cProfile.Profile()
tot=0
for n,js in by.items():
    recs={r[1]:r for r in pickle.load(open(f'/tmp/ckd/all/{n}.pkl','rb'))}
    for j in js:
        c=C(recs[j][4])
        if prof: pr.enable()
        t=time.process_time(); check.signature(c); tot+=time.process_time()-t
        if prof: pr.disable()
print('total',round(tot,2))
if prof:
    pr.dump_stats('/tmp/many.prof')
    pstats.Stats(pr).sort_stats('tottime').print_stats(45)
