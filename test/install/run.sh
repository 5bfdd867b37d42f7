#!/bin/bash
# Builds and runs Canopy's install test against the prefix in ASCEND_HOME_PATH, the way CANN's
# samples do: source <prefix>/bin/setenv.bash, configure with ascendc.cmake, run, check the output.
# Then a C program built with `pkg-config canopy` alone. Build products go to $1 (default: a new
# temporary folder), never into the source tree.
set -euo pipefail

if [[ -z "${ASCEND_HOME_PATH:-}" || ! -f "${ASCEND_HOME_PATH}/bin/setenv.bash" ]]; then
    echo "[ERROR] ASCEND_HOME_PATH must name a Canopy install (with bin/setenv.bash)"
    exit 1
fi
source "${ASCEND_HOME_PATH}/bin/setenv.bash"
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work_dir="${1:-$(mktemp -d)}"
mkdir -p "${work_dir}"

expect_success() {
    local log="$1"
    shift
    "$@" | tee "${log}"
    grep -q '^\[SUCCESS\]' "${log}"
}

cmake -S "${script_dir}" -B "${work_dir}/build"
cmake --build "${work_dir}/build" -j2
expect_success "${work_dir}/launch_static.log" "${work_dir}/build/launch_main_STATIC"
expect_success "${work_dir}/launch_shared.log" "${work_dir}/build/launch_main_SHARED"
kernel_binary="${work_dir}/build/out/fatbin/scale_fatbin/scale_fatbin.o"
expect_success "${work_dir}/fatbin.log" "${work_dir}/build/fatbin_main" "${kernel_binary}"

# canopy.pc names the prefix it is in, wherever that is now.
pc_prefix="$(cd "$(pkg-config --variable=prefix canopy)" && pwd)"
if [[ "${pc_prefix}" != "$(cd "${ASCEND_HOME_PATH}" && pwd)" ]]; then
    echo "[ERROR] canopy.pc names prefix ${pc_prefix}, not ${ASCEND_HOME_PATH}"
    exit 1
fi
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror "${script_dir}/soc_name.c" $(pkg-config --cflags --libs canopy) -o "${work_dir}/soc_name"
soc="$("${work_dir}/soc_name")"
if [[ "${soc}" != "${SOC_VERSION}" ]]; then
    echo "[ERROR] aclrtGetSocName says ${soc}, setenv.bash exports SOC_VERSION=${SOC_VERSION}"
    exit 1
fi
# catlass's host side, linked with the libraries its examples link by name (the driver's from devlib)
# and compiled as its get_cann_version_and_soc_name.cpp is, which needs a /cann-<version> prefix.
if [[ "${ASCEND_HOME_PATH}" == */cann-* ]]; then
    g++ -std=c++17 -Wall -Werror "${script_dir}/catlass_host.cpp" -o "${work_dir}/catlass_host" \
        -I"${ASCEND_HOME_PATH}/include" -L"${ASCEND_HOME_PATH}/lib64" -L"${ASCEND_HOME_PATH}/$(uname -m)-linux/devlib" \
        -lascendc_runtime -lruntime -lprofapi -lmmpa -lascend_dump -lc_sec -lerror_manager -lascendcl \
        -ltiling_api -lnnopbase -lplatform -ldl -lascend_hal
    expect_success "${work_dir}/catlass_host.log" "${work_dir}/catlass_host"
    expected_version="${ASCEND_HOME_PATH##*/cann-}"
    expected_version="${expected_version%%/*}"
    if [[ "$(head -n1 "${work_dir}/catlass_host.log")" != "${expected_version} ${SOC_VERSION}" ]]; then
        echo "[ERROR] catlass_host read \"$(head -n1 "${work_dir}/catlass_host.log")\"," \
            "not \"${expected_version} ${SOC_VERSION}\""
        exit 1
    fi
fi
echo "[SUCCESS] install test passed against ${ASCEND_HOME_PATH}"
