#!/bin/bash
# The ASC language against a Canopy install, the way the official samples use it: sources
# <prefix>/bin/setenv.bash (prefix: $1, else ASCEND_HOME_PATH), then
#   1. builds test/asc/sample with its own CMakeLists.txt (find_package(ASC), .asc sources) with
#      -DCMAKE_ASC_FLAGS=-Werror, runs its programs (scale_add, the negate pair, matmul_relu, the
#      catlass-style core_split, destructor_fault) and checks their golden comparisons;
#   2. builds it with -DCMAKE_ASC_RUN_MODE=cpu -DCMAKE_ASC_STANDARD=20 and runs it again;
#   3. builds scale_add for dav-3510 (Ascend 950), runs it with CANOPY_SOC_VERSION=Ascend950PR_9599
#      and checks that an A2 runtime refuses its launch; dav-2002 stops the configure step.
# Build products go to $2 (default: a new temporary folder), never into the source tree.
set -euo pipefail

prefix="${1:-${ASCEND_HOME_PATH:-}}"
if [[ -z "${prefix}" || ! -f "${prefix}/bin/setenv.bash" ]]; then
    echo "[ERROR] usage: $0 <Canopy install prefix with bin/setenv.bash> [work dir] (or set ASCEND_HOME_PATH)"
    exit 1
fi
source "${prefix}/bin/setenv.bash"
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work_dir="${2:-$(mktemp -d)}"
mkdir -p "${work_dir}"

fail() {
    echo "[ERROR] $*"
    exit 1
}

# expect_refusal <log> <text> <command...>: the command fails and its output contains <text>.
expect_refusal() {
    local log="$1" text="$2"
    shift 2
    if "$@" >"${log}" 2>&1; then
        cat "${log}"
        fail "'$*' succeeded; it should have been refused"
    fi
    # CMake wraps its messages: compare with the lines joined.
    tr -s ' \n' ' ' <"${log}" | grep -qF -- "${text}" || { cat "${log}"; fail "'$*' failed without saying: ${text}"; }
}

# 1. The samples' own steps, in a login shell as the presmoke cases run them (PATH is reset there).
build="${work_dir}/build"
rm -rf "${build}"
mkdir -p "${build}"
(cd "${build}" && bash -lc "cmake '${script_dir}/sample' -DCMAKE_ASC_ARCHITECTURES=dav-2201 -DCMAKE_ASC_FLAGS=-Werror && make -j2")
for program in scale_add negate_static_main negate_shared_main matmul_relu core_split destructor_fault; do
    (cd "${build}" && bash -lc "./${program}") | tee "${work_dir}/${program}.log"
    grep -q '^\[SUCCESS\]' "${work_dir}/${program}.log" || fail "${program} did not report success"
done

# 2. cpu run mode accepted (the kernels run on Canopy's CPU model either way), and
#    CMAKE_ASC_STANDARD honoured: the sample builds and runs as C++20 too.
build20="${work_dir}/build-cpu-cxx20"
cmake -S "${script_dir}/sample" -B "${build20}" -DCMAKE_ASC_RUN_MODE=cpu -DCMAKE_ASC_STANDARD=20 \
    >"${work_dir}/cpu.log" 2>&1 || { cat "${work_dir}/cpu.log"; fail "configuring with CMAKE_ASC_RUN_MODE=cpu failed"; }
cmake --build "${build20}" --target scale_add -- VERBOSE=1 >"${work_dir}/cxx20.log" 2>&1 \
    || { cat "${work_dir}/cxx20.log"; fail "building scale_add as C++20 failed"; }
grep -q -- "-std=c++20" "${work_dir}/cxx20.log" || fail "CMAKE_ASC_STANDARD=20 did not reach the compiler"
"${build20}/scale_add" | grep -q '^\[SUCCESS\]' || fail "scale_add built as C++20 did not report success"

# 3. dav-3510: the sample configured and built for the Ascend 950 runs on a runtime modelling a 950
#    SoC, and its launch is refused, naming both parts, on one modelling an A2 SoC.
build3510="${work_dir}/build-3510"
cmake -S "${script_dir}/sample" -B "${build3510}" -DCMAKE_ASC_ARCHITECTURES=dav-3510 -DCMAKE_ASC_FLAGS=-Werror \
    >"${work_dir}/dav3510-configure.log" 2>&1 || { cat "${work_dir}/dav3510-configure.log"; fail "configuring for dav-3510 failed"; }
cmake --build "${build3510}" --target scale_add -- VERBOSE=1 >"${work_dir}/dav3510-build.log" 2>&1 \
    || { cat "${work_dir}/dav3510-build.log"; fail "building scale_add for dav-3510 failed"; }
grep -q -- "--npu-arch=dav-3510" "${work_dir}/dav3510-build.log" || fail "dav-3510 did not reach the compiler"
CANOPY_SOC_VERSION=Ascend950PR_9599 SOC_VERSION=Ascend950PR_9599 "${build3510}/scale_add" | grep -q '^\[SUCCESS\]' \
    || fail "scale_add built for dav-3510 did not report success on Ascend950PR_9599"
# A SIMT kernel of its own (simt_reduce.asc: shuffles, a barrier, atomics) built for dav-3510.
cmake --build "${build3510}" --target simt_reduce >"${work_dir}/simt-build.log" 2>&1 \
    || { cat "${work_dir}/simt-build.log"; fail "building the SIMT sample simt_reduce for dav-3510 failed"; }
CANOPY_SOC_VERSION=Ascend950PR_9599 "${build3510}/simt_reduce" | grep -q '^\[SUCCESS\]' \
    || fail "the SIMT sample simt_reduce did not report success"
expect_refusal "${work_dir}/dav3510-on-a2.log" "is built for dav-3510 (Ascend 950), but the runtime models Ascend910B4" \
    env CANOPY_SOC_VERSION=Ascend910B4 "${build3510}/scale_add"
# An architecture Canopy does not model stops the configure step.
expect_refusal "${work_dir}/dav2002-configure.log" "unknown or unmodelled NPU architecture 'dav-2002'" \
    cmake -S "${script_dir}/sample" -B "${work_dir}/build-2002" -DCMAKE_ASC_ARCHITECTURES=dav-2002

echo "[SUCCESS] ASC language test passed against ${prefix}"
