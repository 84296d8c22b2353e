"""Seeded draws: torch (built in pieces) and numpy give the same bits for every format."""
import numpy as np
import pytest

from bitorder import draws

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("fmt", ["fp16", "bf16", "fp32", "e4m3", "e5m2"])
@pytest.mark.parametrize("kind", ["narrow", "wide"])
def test_torch_draws_in_pieces_equal_numpy_draws(monkeypatch, fmt, kind):
    monkeypatch.setattr(draws, "_CHUNK", 1000)   # 37 x 91 elements: four pieces, the last short
    t = draws.torch_draw((37, 91), fmt, 5, 2, kind, device="cpu")
    n = draws.numpy_draw((37, 91), fmt, 5, 2, kind)
    ints = {1: (torch.int8, np.uint8), 2: (torch.int16, np.uint16), 4: (torch.int32, np.uint32)}[t.element_size()]
    assert t.shape == (37, 91)
    assert np.array_equal(t.view(ints[0]).numpy().view(ints[1]), n.view(ints[1]))
