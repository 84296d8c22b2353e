import pickle,sys,time,json,importlib,collections
sys.path.insert(0,'src')
from bitorder import check
from bitorder.check import dataflow
S=importlib.import_module('bitorder.check.signature')
B=dataflow._Block
orig=B.step
tm=collections.Counter(); cnt=collections.Counter()
pc=time.perf_counter
def step(self, ins):
    t=pc()
    try: return orig(self, ins)
    finally:
        op=ins.opcode
        parts=op.split('.')
        typ=parts[-1]
        cat=parts[0]
        if cat in ('ld','st'): cat=cat+('.shared' if '.shared' in op else '.global' if '.global' in op else '.param')
        elif cat in ('add','sub','mul','mad','shl','shr','and','or','xor','cvt','neg','min','max','not','bfe','popc','setp','selp','mov'):
            cat=cat+('.F' if typ in ('f32','f16','bf16','f16x2','bf16x2','f64') else '.pred' if typ=='pred' else '.I')
        tm[cat]+=pc()-t; cnt[cat]+=1
B.step=step
picks=json.load(open('/tmp/heavy60.json'))
T0=pc()
for n,j in picks:
    recs={r[1]:r for r in pickle.load(open(f'/tmp/ckd/all/{n}.pkl','rb'))}
    asm=recs[j][4]; e=S._entry(asm['ptx'])
    try: dataflow.walk(e, divisible=S.divisible_params(asm))
    except Exception as ex: pass
tot=pc()-T0
print('total',round(tot,1))
for k,v in tm.most_common(30): print(f"{k:16s} {v:6.2f} {v/tot:6.1%} n={cnt[k]}")
