"""GEMMDesc: JSON round trip, hash/eq consistency, validation of inconsistent records."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from bitorder.desc import DescError, GEMMDesc


@st.composite
def descs(draw):
    dtype = draw(st.sampled_from(["fp16", "bf16", "e4m3", "e5m2"]))
    eight = dtype in ("e4m3", "e5m2")
    family = draw(st.sampled_from(["plain", "split_k", "chained_chunks", "gemv", "dot"]))
    k = draw(st.integers(2, 1 << 20))
    if family in ("chained_chunks", "gemv", "dot"):
        instruction, ik = "fma", 1
    elif eight:
        instruction, ik = "wgmma", 32
    else:
        instruction, ik = draw(st.sampled_from([("wgmma", 16), ("mma_sync", 8), ("mma_sync", 16), ("wmma", 16)]))
    kw = {}
    if eight and draw(st.booleans()):
        kw["promotion"] = ik * draw(st.integers(1, 8))
    if draw(st.booleans()):
        kw.update(k_tail="first", k_step=ik * draw(st.integers(1, 16)))
    if family in ("split_k", "chained_chunks"):
        outer = draw(st.integers(1, k - 1))
        cuts = [outer]
        if draw(st.booleans()) and outer > 1:
            cuts.append(draw(st.integers(1, outer - 1)))
        kw["k_cuts"] = tuple(cuts)
    if family == "split_k" or (family == "chained_chunks" and draw(st.booleans())):
        kw["partial_dtype"] = draw(st.sampled_from(["fp32", "fp16", "bf16"]))
        kw["merge_dtype"] = draw(st.sampled_from(["fp32", "fp16", "bf16"]))
        kw["merge_order"] = draw(st.sampled_from(["sequential", "tree", "serial_seeded", "serial_added"]))
    if (family == "split_k" and len(kw["k_cuts"]) == 1 and "k_step" not in kw and "promotion" not in kw
            and kw["merge_order"] in ("sequential", "tree") and draw(st.booleans())):
        tiles = -(-k // kw["k_cuts"][0])
        if tiles >= 2:
            kw.update(layout="strided", k_parts=draw(st.integers(2, tiles)))
    if family in ("gemv", "dot"):
        kw["layout"] = draw(st.sampled_from(["contiguous", "strided"]))
        kw["lane_fold"] = tuple(draw(st.permutations([1, 2, 4, 8, 16])))
    epi = ["round"]
    if draw(st.booleans()):
        epi.insert(0, "bias_acc")
    if eight and draw(st.booleans()):
        epi.insert(0, "scale")
    kw["epilogue"] = tuple(epi)
    return GEMMDesc(family, dtype, k, instruction, ik, **kw)


@settings(max_examples=300, deadline=None)
@given(descs())
def test_json_round_trip_is_exact(d):
    text = d.to_json()
    back = GEMMDesc.from_json(text)
    assert back == d and hash(back) == hash(d) and back.to_json() == text
    assert json.loads(text) == d.to_dict()


@settings(max_examples=200, deadline=None)
@given(descs(), descs())
def test_hash_agrees_with_eq(d1, d2):
    if d1 == d2:
        assert hash(d1) == hash(d2)
    assert (d1.to_json() == d2.to_json()) == (d1 == d2)


@settings(max_examples=100, deadline=None)
@given(descs())
def test_frozen(d):
    with pytest.raises(Exception):
        d.k = 3


BASE = dict(family="split_k", operand_dtype="fp16", k=4096, instruction="wgmma", instruction_k=16,
            k_cuts=(1024,), partial_dtype="fp32", merge_dtype="fp32", merge_order="sequential")


@pytest.mark.parametrize("change, message", [
    (dict(k_cuts=(4096,)), "split_k with one span"),
    (dict(k_cuts=()), "split_k needs k_cuts"),
    (dict(partial_dtype=None), "merge_dtype without partial_dtype"),
    (dict(merge_dtype=None, merge_order=None, partial_dtype=None), "split_k needs partial_dtype"),
    (dict(merge_order=None), "merge_order and merge_dtype go together"),
    (dict(instruction_k=32), "wgmma on fp16 folds 16"),
    (dict(instruction="mma_sync", instruction_k=4), "mma_sync folds"),
    (dict(family="plain", k_cuts=(), partial_dtype=None, merge_dtype=None, merge_order=None, k_step=64), "k_step decides bits only"),
    (dict(k_tail="first"), "k_tail='first' needs k_step"),
    (dict(promotion=128), "promotion is an fp8"),
    (dict(k_cuts=(1024, 2048)), "must shrink"),
    (dict(layout="strided"), "strided split_k needs k_parts"),
    (dict(layout="contiguous", k_parts=2), "split_k takes layout None"),
    (dict(layout="strided", k_parts=2, k_cuts=(1024, 512)), "one level of k_cuts"),
    (dict(layout="strided", k_parts=2, k_tail="first", k_step=64), "counts its instruction groups"),
    (dict(layout="strided", k_parts=2, merge_order="serial_added"), "merged after they finish"),
    (dict(layout="strided", k_parts=5), "leave the last part empty"),
    (dict(family="plain", k_cuts=(), partial_dtype=None, merge_dtype=None, merge_order=None, layout="strided"),
     "layout is a gemv/dot field"),
    (dict(epilogue=("bias_out", "round")), "bias_out comes after round"),
    (dict(epilogue=()), "round to the output type exactly once"),
    (dict(epilogue=("scale", "round")), "scales are fp8"),
    (dict(family="plain"), "plain walks the whole of K"),
    (dict(family="gemv", instruction="fma", instruction_k=1, k_cuts=(), partial_dtype=None, merge_dtype=None,
          merge_order=None), "gemv needs layout"),
    (dict(k=0), "k must be a positive int"),
    (dict(operand_dtype="fp64"), "operand_dtype must be one of"),
])
def test_inconsistent_records_are_rejected(change, message):
    with pytest.raises(DescError, match=message):
        GEMMDesc(**{**BASE, **change})


def test_from_json_rejects_unknown_and_missing_fields():
    d = GEMMDesc(**BASE)
    with pytest.raises(DescError, match="unknown field"):
        GEMMDesc.from_json(json.dumps({**d.to_dict(), "block_m": 128}))
    partial = d.to_dict()
    del partial["k"]
    with pytest.raises(DescError, match="missing field"):
        GEMMDesc.from_json(json.dumps(partial))
    with pytest.raises(DescError, match="not JSON"):
        GEMMDesc.from_json("{")


def test_str_is_one_readable_line():
    s = str(GEMMDesc(**BASE))
    assert "\n" not in s and "split_k" in s and "cuts=1024(4 parts)" in s and "merge=sequential@fp32" in s


def test_strided_split_deals_tiles_in_turn():
    """split_k layout="strided": k_cuts[0]-wide tiles dealt to k_parts parts in turn (algorithm 35)."""
    d = GEMMDesc("split_k", "fp16", 300, "mma_sync", 16, k_cuts=(64,), k_parts=3, partial_dtype="fp32",
                 merge_dtype="fp32", merge_order="sequential", layout="strided", epilogue=("bias_acc", "round"))
    assert d.parts == 3
    assert d.part_tiles() == [[(0, 64), (192, 256)], [(64, 128), (256, 300)], [(128, 192)]]
    assert "tiles=64 dealt to 3 parts in turn" in str(d) and "\n" not in str(d)
    assert GEMMDesc.from_json(d.to_json()) == d
    with pytest.raises(ValueError, match="part_tiles"):
        d.outer_parts()
    c = d.replace(layout=None)          # the same cuts as contiguous parts: the last takes the rest
    assert c.part_tiles() == [[(0, 64)], [(64, 128)], [(128, 300)]]
