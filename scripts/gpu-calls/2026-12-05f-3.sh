#!/usr/bin/env bash
# 2026-12-05f call 3 (issue 5): the machine of call 2 was an H200, held warm, so 2026-12-05e-4.sh (the element-fold
# gate on the landing tree, the 8 kernels the folds change, every configuration, --grid --adversarial; its planted
# fault mutant-fold-stores; the mutant check) ran on it unchanged: the repeat "on an H200" 2026-12-05d planned.
#   bash scripts/gpu-calls/2026-12-05f-3.sh      (carry [".whl"])
exec bash "$(dirname "$0")/2026-12-05e-4.sh"
