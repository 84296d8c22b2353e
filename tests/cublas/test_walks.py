"""The +L/-L/r walks read a simulated black box's groups and parts."""
import numpy as np

from bitorder.cublas.walks import R_EDGE, R_SMALL, pair_walk, walk_positions
from bitorder.desc import GEMMDesc
from bitorder.emulate import accumulate, epilogue


def box_for(desc, out="fp16"):
    def box(rows):
        return epilogue(accumulate(rows, np.ones((rows.shape[1], 1)), desc), desc, out)[:, 0].astype(np.float64)
    return box


def lost(desc, r, k):
    return pair_walk(box_for(desc), k, range(1, k - 1), r, 64).lost()


def test_edge_walk_reads_instruction_groups():
    assert lost(GEMMDesc("plain", "fp16", 100, "wgmma", 16), R_EDGE, 100) == [15, 31, 47, 63, 79, 95]
    k8 = GEMMDesc("plain", "fp16", 100, "mma_sync", 8, k_tail="first", k_step=32)
    assert lost(k8, R_EDGE, 100) == list(range(3, 99, 8))


def test_small_walk_reads_parts():
    split = GEMMDesc("split_k", "fp16", 100, "wgmma", 16, k_cuts=(48,), partial_dtype="fp32",
                     merge_dtype="fp32", merge_order="sequential")
    w = pair_walk(box_for(split), 100, range(1, 99), R_SMALL, 64)
    assert w.runs() == [[0, 1, 47], [1, 48, 94], [0, 95, 95], [1, 96, 98]]
    # an unsplit chain absorbs r wherever the pair goes
    assert lost(GEMMDesc("plain", "fp16", 100, "wgmma", 16), R_SMALL, 100) == list(range(1, 99))


def test_walk_positions():
    assert walk_positions(10, 100) == list(range(1, 9))
    pos = walk_positions(1 << 16, 600)
    assert len(pos) <= 600 and 4095 in pos and 4096 in pos
