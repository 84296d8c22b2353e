"""The prober's candidate elimination against simulated black boxes (CPU twins with known rules)."""
from bitorder.cublas.prober import answer_kind, fit, rule_desc, simulate_record

SPLIT = {"instruction_k": 8, "k_tail": "first", "k_step": 32, "family": "split_k", "granule": 16, "round": "ceil",
         "partial": "out", "merge_order": "sequential", "bias": "bias_out"}
PLAIN = {"instruction_k": 8, "k_tail": "first", "k_step": 32, "family": "plain", "bias": "bias_acc"}
# (M, N, K, splits): M rows carry a full walk of K (M * 24 >= K); 321/4 separates ceil from floor.
CASES = [(20, 40, 301, 4), (24, 33, 455, 6), (20, 24, 321, 4), (12, 20, 203, 3)]
SPLIT_FIELDS = ("instruction_k", "family", "granule", "round", "partial", "merge_order", "bias")


def records(truth, cases, scheme=4, seed=100):
    """Simulated survey records of a box running `truth`; a case is (M, N, K, splits) in torch's
    "nt" layout, or (M, N, K, splits, torch layout)."""
    recs = []
    for i, (m, n, k, s, *layout) in enumerate(cases):
        layout = layout[0] if layout else "nt"
        answer = {"algo_id": 24, "stages": "UNDEFINED", "split_k": s if truth["family"] == "split_k" else 1,
                  "reduction_scheme": scheme if truth["family"] == "split_k" else 0}
        case = {"op": "linear_bias", "dtype": "bf16", "m": m, "n": n, "k": k, "batch": 1, "layout": layout}
        recs.append(simulate_record(case, seed + i, answer,      # cuBLAS's layout: torch's letters reversed
                                    lambda kk, a=answer, lay=layout[::-1]: rule_desc(truth, a, kk, "bf16", True, lay)))
    return recs


def variants(truth, changes):
    return [{**truth, **c} for c in changes]


def test_split_rule_recovered():
    recs = records(SPLIT, CASES)
    assert answer_kind(recs[0]["ran"][0]) == (24, False, True, 4)
    decoys = variants(SPLIT, [{"granule": 8}, {"granule": 32}, {"round": "floor"}, {"partial": "fp32"},
                              {"merge_order": "serial_added"}, {"bias": "bias_acc"},
                              {"instruction_k": 16, "k_step": 32}, {"k_tail": "last", "k_step": None}])
    alive = fit(recs, [SPLIT] + decoys)
    assert SPLIT in alive
    # Walks with r at k=0 see instruction groups in the first part only; the spans here are
    # multiples of 16, so where the short turn falls stays open (the survey reads it off
    # unsplit calls, next test). Every other field is settled.
    assert all(all(a[f] == SPLIT[f] for f in SPLIT_FIELDS) for a in alive), alive


def test_plain_tail_recovered():
    # K = 220 leaves a residue of 28 (mod 32) but 12 (mod 16): it separates the K steps
    recs = records(PLAIN, [(m, n, k, 1) for m, n, k, _ in CASES] + [(12, 20, 220, 1)])
    decoys = variants(PLAIN, [{"k_tail": "last", "k_step": None}, {"k_step": 64}, {"k_step": 16},
                              {"instruction_k": 16, "k_step": 32}, {"bias": "bias_out"}])
    assert fit(recs, [PLAIN] + decoys) == [PLAIN]


def test_each_wrong_box_is_told_apart():
    """Used as the box, every decoy's own evidence rejects the true rule."""
    for change in ({"granule": 8}, {"granule": 32}, {"partial": "fp32"}, {"merge_order": "serial_added"},
                   {"bias": "bias_acc"}, {"instruction_k": 16, "k_step": 32}):
        wrong = {**SPLIT, **change}
        scheme = 1 if wrong["merge_order"] == "serial_added" else (2 if wrong["partial"] == "fp32" else 4)
        assert SPLIT not in fit(records(wrong, CASES, scheme), [SPLIT, wrong]), change


K_MAJOR = {**SPLIT, "granule": 8, "k_major": 64}


def k_major_records():
    """Records of a box with K_MAJOR: K % 64 != 0, K % 64 == 0 in cuBLAS layouts tn and tt, and
    K % 64 == 0 in cuBLAS "nt" (torch "tn"), where granule 8 holds."""
    return records(K_MAJOR, [(20, 40, 281, 4, "nt"), (20, 40, 320, 3, "nt"), (24, 33, 448, 5, "tt"),
                             (20, 24, 384, 5, "tn")], seed=300)


def test_k_major_span_rule_recovered():
    """cuBLAS 13.1's CUTLASS splits: granule 8, but 64 when K % 64 == 0 and an operand runs along
    K (every cuBLAS layout but "nt"). A box with that rule: the prober keeps it and drops both
    one-granule rules; the torch "tn" call (cuBLAS "nt") at K = 384 keeps granule 8."""
    truth, recs = K_MAJOR, k_major_records()
    decoys = variants(truth, [{"k_major": None}, {"granule": 64, "k_major": None}, {"granule": 16}])
    assert fit(recs, [truth] + decoys) == [truth]


def test_fitted_rules_become_a_profile_that_describes_new_calls():
    """The prober writes what elimination settles as arch-profile entries; the profile they make
    gives the box's own descriptor for K values no record had."""
    from bitorder.cublas.prober import answer_kind, entry_from_rules
    from bitorder.cublas.profile import ArchProfile
    truth, recs = K_MAJOR, k_major_records()
    kind = answer_kind(recs[0]["ran"][0])
    alive = fit(recs, [truth] + variants(truth, [{"k_major": None}, {"granule": 16}]))
    entry = entry_from_rules(kind, alive, recs)
    assert entry["span"] == {"rule": "round_up", "granule": 8, "k_major": {"k_multiple_of": 64, "granule": 64}}
    prof = ArchProfile({"arch": "sm_90", "cublas": "13.1.0", "entries": [entry]})
    answer = {"algo_id": 24, "stages": "UNDEFINED", "split_k": 7, "reduction_scheme": 4}
    for k, layout in ((4096, "tt"), (4096, "nt"), (4100, "tt")):
        assert prof.describe(answer, k, "bf16", True, layout=layout) == rule_desc(truth, answer, k, "bf16", True, layout)
    assert entry_from_rules(kind, [truth, {**truth, "granule": 16}], recs) is None      # unsettled: no entry


def test_bias_added_by_the_last_part_is_recovered():
    """Algorithm 21's s16816 serial splits add F.linear's bias in the last part (2026-12-01f): a box
    running that rule keeps it and drops the first-part (bias_acc) and after-the-merge (bias_out)
    readings; a box adding it in the first part drops bias_last. The whole candidate space holds it."""
    serial = {**SPLIT, "merge_order": "serial_added", "bias": "bias_last"}
    recs = records(serial, CASES, scheme=1)
    decoys = variants(serial, [{"bias": "bias_acc"}, {"bias": "bias_out"}])
    assert fit(recs, [serial] + decoys) == [serial]
    first = {**serial, "bias": "bias_acc"}
    assert fit(records(first, CASES, scheme=1), [serial, first]) == [first]
    from bitorder.cublas.prober import candidate_rules
    assert {**serial, "k_major": None} in candidate_rules((21, True, True, 1))
