#!/bin/bash
# Installs a configured Canopy build into a temporary prefix, moves the prefix elsewhere (the
# install must be relocatable), then builds and runs test/install against it with run.sh.
# Usage: test/install/ci.sh <build dir>
set -euo pipefail
build_dir="${1:?usage: $0 <build dir>}"
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "${scratch}"' EXIT

cmake --install "${build_dir}" --prefix "${scratch}/installed" > "${scratch}/install.log"
# Moved under a name with the CANN version, as catlass reads it from the path (see README).
mkdir "${scratch}/moved"
mv "${scratch}/installed" "${scratch}/moved/cann-9.1.0"
# A clean environment: nothing of a CANN or Canopy set up before may leak in.
env -u SOC_VERSION -u ASCENDC_CMAKE_DIR -u ASCEND_INSTALL_PATH -u ASCEND_TOOLKIT_HOME -u PKG_CONFIG_PATH \
    ASCEND_HOME_PATH="${scratch}/moved/cann-9.1.0" bash "${script_dir}/run.sh" "${scratch}/work"
