#!/usr/bin/env bash
# Instructions a pixel of the OpenGL throughput workloads (docs/gl-workloads.md)
# under valgrind, one thread: a count that does not move with the machine's
# load, for before/after figures and for comparing with llvmpipe.
#
#   benches/gl_instructions.sh [--quadtex BIN] [--profile P] [--llvmpipe] VARIANT...
#
# quadtex: `quadtex bench gl-workloads` with 3 frames minus with 1 frame
# (no warm-up), halved, over 1920 x 1080 pixels: the per-frame work without
# start-up and texture creation. With --llvmpipe the same for Mesa's
# llvmpipe (LP_NUM_THREADS=1, its default mode; GALLIVM_PERF from the
# environment for its accurate mode) through the oracle's perf_gl.py worker
# ($QUADTEX_ORACLE), 9 frames minus 1, over 8 frames: its shader
# compilation and the Python driver drop out, the main thread's and the
# rasterizer thread's instructions both count. Needs valgrind
# (`apt-get install valgrind`); a variant takes one to three minutes.
# Under valgrind the CPU does not say AMD, so quadtex reads texels with
# gathers; QUADTEX_TEXEL_LOADS=scalar counts the loads it makes on AMD.
set -euo pipefail
bin=target/release/quadtex
profile=vulkan
llvmpipe=0
variants=()
while [ $# -gt 0 ]; do
    case "$1" in
        --quadtex) bin=$2; shift 2 ;;
        --profile) profile=$2; shift 2 ;;
        --llvmpipe) llvmpipe=1; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) variants+=("$1"); shift ;;
    esac
done
if [ ${#variants[@]} -eq 0 ]; then
    echo "name at least one variant (docs/gl-workloads.md)" >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 2; }
# The instructions valgrind counted for a command.
refs() {
    valgrind --tool=cachegrind --cache-sim=no --smc-check=all --cachegrind-out-file=/dev/null "$@" 2>&1 |
        sed -n 's/.*I *refs: *//p' | tr -d ','
}
per_pixel() { python3 -c "print(f'{($2 - $1) / $3 / (1920 * 1080):.1f}')"; }
for v in "${variants[@]}"; do
    one=$(refs "$bin" bench gl-workloads --variants "$v" --threads 1 --frames 1 --warmup 0 --profile "$profile")
    three=$(refs "$bin" bench gl-workloads --variants "$v" --threads 1 --frames 3 --warmup 0 --profile "$profile")
    echo "quadtex  $v ($profile): $(per_pixel "$one" "$three" 2) instructions a pixel"
    if [ $llvmpipe = 1 ]; then
        perf_gl="${QUADTEX_ORACLE:?set QUADTEX_ORACLE to the oracle scripts}/perf_gl.py"
        # The interpreter itself (a version manager's shim would be what
        # valgrind counts).
        py=$(python3 -c 'import sys; print(sys.executable)')
        lp() {
            MESA_SHADER_CACHE_DISABLE=true LP_NUM_THREADS=1 refs "$py" "$perf_gl" --worker \
                --variants "$v" --frames "$1" --warmup 0
        }
        one=$(lp 1)
        nine=$(lp 9)
        echo "llvmpipe $v (GALLIVM_PERF='${GALLIVM_PERF:-}'): $(per_pixel "$one" "$nine" 8) instructions a pixel"
    fi
done
