#!/bin/bash
# Draws docs/modules.svg from docs/modules.dot (Graphviz: apt-get install graphviz).
set -euo pipefail
cd "$(dirname "$0")"
command -v dot > /dev/null || { echo "draw-modules.sh: Graphviz's dot is missing (apt-get install graphviz)" >&2; exit 1; }
dot -Tsvg modules.dot -o modules.svg
