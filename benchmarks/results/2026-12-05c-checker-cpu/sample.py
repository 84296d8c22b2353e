"""The census scripts' sample: every Ath stored kernel (/tmp/ckd/all), every Bth of its configurations, classed."""
import glob
import pickle


class _Compiled:
    def __init__(self, asm):
        self.asm = asm


def class_sample(check, every_kernel: int, every_config: int):
    """check.signature of every every_config-th configuration of every every_kernel-th stored kernel."""
    for path in sorted(glob.glob('/tmp/ckd/all/*.pkl'))[::every_kernel]:
        with open(path, 'rb') as f:
            recs = pickle.load(f)
        for rec in recs[::every_config]:
            if rec[4] is not None:
                check.signature(_Compiled(rec[4]))
