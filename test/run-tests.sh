#!/usr/bin/env bash
# Installs what is missing, builds Canopy (Release) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash third_party/install-deps.sh
cmake --preset release
cmake --build --preset release
ctest --preset release
