#!/usr/bin/env bash
# Session 2026-11-30d, call 6 (one command line; 215 s limit): the Inductor demo's planted fault.
R=$OUT/r; mkdir -p $R; timeout 25 scripts/gpu-run $R report >/dev/null 2>&1; timeout 170 scripts/gpu-run $R mutant-inductor 2>&1 | tail -15; rm -rf $R/inductor $R/report*; tar czf $OUT/results.tgz -C $OUT r
