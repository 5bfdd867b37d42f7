#!/bin/bash
# Installs a configured Canopy build into a temporary prefix and runs test/asc/run.sh against it.
# Usage: test/asc/ci.sh <build dir>
set -euo pipefail
build_dir="${1:?usage: $0 <build dir>}"
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "${scratch}"' EXIT

cmake --install "${build_dir}" --prefix "${scratch}/prefix" > "${scratch}/install.log"
env -u SOC_VERSION -u ASCENDC_CMAKE_DIR -u ASCEND_INSTALL_PATH -u ASCEND_TOOLKIT_HOME -u CMAKE_PREFIX_PATH \
    bash "${script_dir}/run.sh" "${scratch}/prefix" "${scratch}/work"
