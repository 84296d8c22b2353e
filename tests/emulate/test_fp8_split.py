"""The twin's fp8 split-K vocabulary: promotion intervals counted from k = 0 or from each part's
start (promotion_anchor), and scales applied to each part before the merge (scale_parts)."""
import numpy as np
import pytest

from bitorder import emulate
from bitorder.desc import DescError, GEMMDesc
from bitorder.draws import numpy_draw


def split(k, span, **kw):
    base = dict(operand_dtype="e4m3", k=k, instruction="wgmma", instruction_k=32, promotion=128, k_cuts=(span,),
                partial_dtype="fp32", merge_dtype="fp32", merge_order="sequential", epilogue=("scale", "round"))
    return GEMMDesc("split_k", **{**base, **kw})


def operands(k, seed=1):
    return numpy_draw((8, k), "e4m3", seed, 1, "wide"), numpy_draw((k, 16), "e4m3", seed, 2, "wide")


SA, SB = np.float32(0.37), np.float32(1.7000001)


def test_anchor_matters_only_off_multiples_of_the_interval():
    a, b = operands(1024)
    same = [emulate.matmul(a, b, split(1024, 512, promotion_anchor=x), None, "fp32", SA, SB) for x in (None, "k0")]
    assert np.array_equal(same[0].view(np.int32), same[1].view(np.int32))
    diff = [emulate.matmul(a, b, split(1024, 448, promotion_anchor=x), None, "fp32", SA, SB) for x in (None, "k0")]
    assert not np.array_equal(diff[0].view(np.int32), diff[1].view(np.int32))


def test_the_scales_place_shows_in_fp32_outputs():
    """Each part scaled (and rounded) before the merge is not the merged sum scaled once."""
    a, b = operands(1024, 3)
    once = emulate.matmul(a, b, split(1024, 256), None, "fp32", SA, SB).view(np.int32)
    parts = emulate.matmul(a, b, split(1024, 256, epilogue=("scale_parts", "round")), None, "fp32", SA, SB)
    assert (parts.view(np.int32) != once).sum() > 0


def test_scale_parts_with_unit_scales_is_the_unscaled_split():
    a, b = operands(640, 5)
    one = np.float32(1)
    d = split(640, 320, epilogue=("scale_parts", "round"))
    assert np.array_equal(emulate.matmul(a, b, d, None, "bf16", one, one).view(np.int16),
                          emulate.matmul(a, b, split(640, 320), None, "bf16", one, one).view(np.int16))
    with pytest.raises(ValueError, match="scale_parts"):
        emulate.matmul(a, b, d, None, "bf16")


def test_descriptor_rules_for_the_new_fields():
    with pytest.raises(DescError, match="scale_parts"):
        GEMMDesc("plain", "e4m3", 64, "wgmma", 32, epilogue=("scale_parts", "round"))
    with pytest.raises(DescError, match="promotion_anchor"):
        split(640, 320, promotion=None, promotion_anchor="k0")
    with pytest.raises(DescError, match="one way of scaling"):
        split(640, 320, epilogue=("scale", "scale_parts", "round"))
    d = split(640, 320, promotion_anchor="k0", epilogue=("scale_parts", "bias_acc", "round"))
    assert GEMMDesc.from_json(d.to_json()) == d and "promote/128@k0" in str(d)
