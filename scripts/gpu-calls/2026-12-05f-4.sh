#!/usr/bin/env bash
# 2026-12-05f call 4 (issue 5), the same H200 still warm: 2026-12-05d-5.sh unchanged (the landing tree over the whole
# corpus, sampled: 16 configurations a kernel, 10 workers, each grid apart, adversarial draws, default limits).
#   bash scripts/gpu-calls/2026-12-05f-4.sh      (carry [".whl"])
exec bash "$(dirname "$0")/2026-12-05d-5.sh"
