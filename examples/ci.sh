#!/bin/bash
# Installs a configured Canopy build into a temporary prefix, then builds and runs every example
# against it as a user would: each with its own CMake project and find_package(canopy), and
# eight_steps once more with a plain g++ line from canopy.pc. Warnings are errors. Fails on any error.
# Usage: examples/ci.sh <build dir>
set -euo pipefail
build_dir="${1:?usage: $0 <build dir>}"
examples_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "${scratch}"' EXIT
prefix="${scratch}/prefix"

cmake --install "${build_dir}" --prefix "${prefix}" > "${scratch}/install.log"
# A clean environment: nothing of a CANN or Canopy set up before may leak in.
unset SOC_VERSION ASCENDC_CMAKE_DIR ASCEND_HOME_PATH ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME CMAKE_PREFIX_PATH canopy_DIR

for example in eight_steps own_kernel two_streams; do
    echo "== ${example} (CMake, find_package(canopy))"
    cmake -S "${examples_dir}/${example}" -B "${scratch}/${example}" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="${prefix}" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" > "${scratch}/${example}.log"
    cmake --build "${scratch}/${example}" -j1 >> "${scratch}/${example}.log" || { cat "${scratch}/${example}.log"; exit 1; }
    "${scratch}/${example}/${example}"
done

echo "== eight_steps (g++, pkg-config canopy)"
export PKG_CONFIG_PATH="${prefix}/lib64/pkgconfig"
libdir="$(pkg-config --variable=libdir canopy)"
# aclnn's libraries are named beside the runtime, as CANN programs link them.
# shellcheck disable=SC2046
g++ -std=c++17 -Wall -Wextra -Werror "${examples_dir}/eight_steps/main.cpp" $(pkg-config --cflags canopy) \
    -lopapi -lnnopbase $(pkg-config --libs canopy) -Wl,-rpath,"${libdir}" -o "${scratch}/eight_steps_pc"
"${scratch}/eight_steps_pc"
echo "[SUCCESS] examples built and ran against ${build_dir} installed"
