"""cuBLAS algorithm 35 (F.linear with a bias, fp16, split 9, scheme 2, one sm80_xmma 32x32x64 kernel
after a Memset, no reduce kernel) against the H200's 10 recorded calls (2026-12-01g survey): the
64-wide K tiles are dealt to the 9 parts in turn (part p: tiles p, p + 9, ...), each part an mma.sync
k16 chain from zero, the fp32 partials summed in part order, the bias added in fp32, one rounding
(benchmarks/fit_algo35.py: the fit and the descriptor, split_k with layout="strided", replayed on the
twin and checked against the fit's own replay)."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))


def _fit():
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    import fit_algo35
    return fit_algo35


def _records(F):
    recs = sorted(F.algo35_records(), key=lambda r: r["case"]["k"])
    assert len(recs) == 10 and all(r["ran"][0]["split_k"] == 9 for r in recs)
    return recs


def _twin_against_the_fits_replay(F):
    """The twin (GEMMDesc.part_tiles, emulate) and the fit's own replay give the same bytes on a
    small designed draw (K: 27 whole tiles and a short one over the 9 parts; half of K cancels the
    other, so the fp16 outputs keep the fp32 partials' last bits), which the contiguous reading of
    the same cuts does not give: a dealing fault in either fails here, in seconds."""
    import numpy as np
    from bitorder.emulate import accumulate, epilogue
    k = 64 * 27 + 40
    rng = np.random.default_rng(35)
    a = (rng.standard_normal((8, k)) * 2.0 ** rng.integers(-8, 6, (8, k))).astype(np.float16).astype(np.float64)
    b = (rng.standard_normal((k, 8)) * 2.0 ** rng.integers(-8, 6, (k, 8))).astype(np.float16).astype(np.float64)
    h = k // 2
    a[:, h:2 * h], b[h:2 * h] = -a[:, :h], b[:h]
    bias = rng.standard_normal(8).astype(np.float16).astype(np.float32)
    d = F.algo35_desc(k)
    twin = epilogue(accumulate(a, b, d, bias), d, "fp16", bias).view(np.int16)
    assert np.array_equal(twin, F.replay(d, a, b, bias).view(np.int16)), "twin != fit's replay"
    c = d.replace(layout=None)
    assert (epilogue(accumulate(a, b, c, bias), c, "fp16", bias).view(np.int16) != twin).sum() > 0


def test_the_dealt_split_gives_the_recorded_bytes_and_walks():
    """CI: the twin against the fit's replay on a small draw; the shallowest call's sampled bits,
    the narrow draw through the prober and the wide one through the fit (its replay too), and the
    cheapest call's walks; on the shallowest call's narrow draw the contiguous reading and the bias
    after the rounding miss, on the walks a tree merge and tiles of 32. (Each 236k-deep replay is
    seconds: the other draw of each, and every record, run by hand:
    test_every_algo35_record_sampled_bits_and_walks.)"""
    F = _fit()
    _twin_against_the_fits_replay(F)              # (the planted faults stop here)
    recs = _records(F)
    shallow = recs[0]                                                  # 744x16x236336
    # through the prober (the twin as a survey record is checked): the strided desc, and its
    # contiguous reading; through the fit's own draws (and its replay): the wide draw
    from bitorder.cublas.prober import sample_mismatches
    d = F.algo35_desc(shallow["case"]["k"])
    assert d.layout == "strided" and sample_mismatches(shallow, d, "narrow") == 0
    assert F.record_mismatches(shallow, kinds=("wide",)) == {"wide": 0}
    cheap = min(recs, key=lambda r: len(F.walk_codes(r, "small")) + len(F.walk_codes(r, "edge")))
    bad, n = F.desc_walk_mismatches(cheap)
    assert n > 900 and bad == 0, (bad, n)
    # negative checks: each perturbation of the order misses
    assert sample_mismatches(shallow, d.replace(layout=None), "narrow") > 0          # contiguous parts
    assert F.desc_walk_mismatches(cheap, lambda k: F.algo35_desc(k).replace(merge_order="tree"))[0] > 0
    assert F.desc_walk_mismatches(cheap, lambda k: F.algo35_desc(k).replace(k_cuts=(32,)))[0] > 0
    assert sample_mismatches(shallow, d.replace(epilogue=("round", "bias_out")), "narrow") > 0   # the bias after the rounding


@pytest.mark.by_hand
def test_every_algo35_record_sampled_bits_and_walks():
    """All 10 records: every sampled output of both draws, and every recorded walk position."""
    F = _fit()
    for rec in _records(F):
        c = rec["case"]
        assert F.record_mismatches(rec) == {"narrow": 0, "wide": 0}, c
        bad, n = F.desc_walk_mismatches(rec)
        assert bad == 0 and n > 0, (c, bad, n)


def test_planted_fault_parts_dealt_in_reverse_order_fails(tmp_path):
    """A copied tree whose twin (GEMMDesc.part_tiles) deals part p the tiles 8 - p, 17 - p, ...
    (the part order reversed): the CI record test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/desc.py", "t[p::self.k_parts]", "t[self.k_parts - 1 - p::self.k_parts]",
                           "tests/cublas/test_algo35_records.py::test_the_dealt_split_gives_the_recorded_bytes_and_walks")


def test_planted_fault_in_the_fits_replay_fails(tmp_path):
    """The fit's own replay dealt in reverse: the twin-against-replay check must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "benchmarks/fit_algo35.py", "t[p::split] for p in range(split)",
                           "t[split - 1 - p::split] for p in range(split)",
                           "tests/cublas/test_algo35_records.py::test_the_dealt_split_gives_the_recorded_bytes_and_walks")


def test_the_bias_probes_design_reads_acc_on_the_twin():
    """benchmarks/probe_algo35_bias.py's designed rows under the candidate (bias in fp32 after the merge)
    give the "acc" row pattern on the twin, and no other reading's."""
    import numpy as np
    import probe_algo35_bias as P
    from bitorder.emulate import accumulate, epilogue
    F = _fit()
    k = 64 * 9 * 3 + 40
    d = F.algo35_desc(k)
    a = np.zeros((4, k))
    for i, row in enumerate(P.design(k, 9)):
        for kk, v in row:
            a[i, kk] = v
    bias = np.array([P.BIAS])
    out = epilogue(accumulate(a, np.ones((k, 1)), d, bias), d, "fp16", bias)[:, 0]
    assert P.classify(out) == ["acc"]
