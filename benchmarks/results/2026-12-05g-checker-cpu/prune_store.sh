cd /work/main && . /work/venv/bin/activate
export BITORDER_CACHE_DIR=$(mktemp -d) TRITON_CACHE_DIR=$(mktemp -d)
echo "fresh caches, store on"; python3 benchmarks/prune_gpu_check.py --time softmax_bwd_c1024_f16 1
echo "compile caches warm, store off"; python3 benchmarks/prune_gpu_check.py --time softmax_bwd_c1024_f16 1 0
echo "compile caches warm, store on (read back)"; python3 benchmarks/prune_gpu_check.py --time softmax_bwd_c1024_f16 1
