#!/usr/bin/env bash
# Installs what is missing, builds Canopy (Release) and runs the main job: canopy-bench, a verified
# multi-stream pipeline benchmark (options: ./build/release/bench/canopy-bench --help).
set -euo pipefail
cd "$(dirname "$0")/.."
bash third_party/install-deps.sh
cmake --preset release
cmake --build --preset release --target canopy-bench
./build/release/bench/canopy-bench "$@"
