#!/usr/bin/env bash
# Session 32, sixth GPU call (1db1cd0's examples, 279899f's tools):
# bench/attention.py at B4 H32 N4096 and B2 H16 N4000, D64 and D128, causal
# or not (each example autotuned; SDPA default/flash and Triton in the same
# process).
bash bench/results/v53-session32/job_second.sh 4x32x4096x64 4x32x4096x128 2x16x4000x128 2x16x4000x64
