#!/usr/bin/env bash
# Installs what is missing, builds Canopy (Release) and runs the main job: the pipeline program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash third_party/install-deps.sh
cmake --preset release
cmake --build --preset release --target pipeline
./build/release/bench/pipeline "$@"
