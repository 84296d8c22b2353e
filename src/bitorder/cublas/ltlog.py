"""cuBLASLt's own log as an instrument: which algorithm a call really ran.

With CUBLASLT_LOG_LEVEL=2 (trace) and CUBLASLT_LOG_FILE set before the process
starts, every matmul cuBLAS runs -- cublasGemmEx goes through cuBLASLt internally --
writes one line naming its algorithm:

  [..][cublasLt][pid][Trace][cublasLtHSHMatmul] A=0X.. Adesc=[..] ... D=0X7F.. Ddesc=[..]
      computeDesc=[..] algo=[algoId=24 tile=MATMUL_TILE_128x128 reductionScheme=REDUCTION_SCHEME_COMPUTE_TYPE
      numSplitsK=5] workSpace=0X.. workSpaceSizeInBytes=15340000 beta=0 outOfPlace=0 stream=0X0

Fields the log leaves out are at their defaults. `algo_key` turns a line's algo into
the same key an LtAnswer has, so what ran and what the heuristic answers compare.
"""
from __future__ import annotations

import os
import re

_LINE = re.compile(r"\[Trace\]\[(cublasLt\w*Matmul)\] (.*)$")
_FIELD = re.compile(r"(\w+)=(\[[^\]]*\]|\S+)")


def parse_line(line: str):
    """A trace line -> {"api", "A", "D", "algo": {...}, "workspace", ...}, or None."""
    m = _LINE.search(line)
    if not m:
        return None
    out = {"api": m.group(1)}
    for k, v in _FIELD.findall(m.group(2)):
        out[k] = _fields(v[1:-1]) if v.startswith("[") else v
    return out


def _fields(text: str) -> dict:
    return {k: v for k, v in _FIELD.findall(text)}


def algo_key(algo: dict) -> dict:
    """The log's algo=[...] in LtAnswer's vocabulary (defaults filled in)."""
    def strip(v, prefix):
        return v.removeprefix(prefix) if v else v
    scheme = {"REDUCTION_SCHEME_NONE": 0, "REDUCTION_SCHEME_INPLACE": 1, "REDUCTION_SCHEME_COMPUTE_TYPE": 2,
              "REDUCTION_SCHEME_OUTPUT_TYPE": 4}
    return {
        "algo_id": int(algo.get("algoId", -1)),
        "tile": strip(algo.get("tile", "MATMUL_TILE_UNDEFINED"), "MATMUL_TILE_"),
        "stages": strip(algo.get("stages", "MATMUL_STAGES_UNDEFINED"), "MATMUL_STAGES_"),
        "split_k": int(algo.get("numSplitsK", 1)),
        "reduction_scheme": scheme.get(algo.get("reductionScheme", "REDUCTION_SCHEME_NONE"), -1),
        "swizzle": int(algo.get("swizzling", algo.get("ctaSwizzling", 0))),
        "custom_option": int(algo.get("customOption", 0)),
        "inner_shape": algo.get("innerShapeId", "0"),
        "cluster_shape": strip(algo.get("clusterShape", "CLUSTER_SHAPE_AUTO"), "CLUSTER_SHAPE_"),
        "raw": algo,
    }


class LtLog:
    """Follows the log file named by CUBLASLT_LOG_FILE; `new()` returns the matmul lines since the last call."""

    def __init__(self, path: str | None = None):
        self.path = path or os.environ.get("CUBLASLT_LOG_FILE")
        self.pos = os.path.getsize(self.path) if self.path and os.path.exists(self.path) else 0

    @property
    def active(self) -> bool:
        return bool(self.path) and os.environ.get("CUBLASLT_LOG_LEVEL", "0") not in ("", "0")

    def new(self) -> list:
        if not self.path or not os.path.exists(self.path):
            return []
        with open(self.path, "r", errors="replace") as f:
            f.seek(self.pos)
            text = f.read()
        cut = text.rfind("\n") + 1  # keep a torn last line for next time
        self.pos += len(text[:cut].encode("utf-8", errors="replace"))
        return [p for p in map(parse_line, text[:cut].splitlines()) if p]
