# Environment of a Canopy install used as a CANN installation: `source <prefix>/bin/setenv.bash`
# (or <prefix>/set_env.sh). Exports what CANN's script does, for the install this file is in, found
# from the file's own location so that the install can move. Safe under `set -euo pipefail`, and
# sourcing it again does not grow the search paths.

_canopy_setenv_prefix="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Puts $2 first in the colon-separated variable named $1, once.
_canopy_setenv_prepend() {
    local current="${!1:-}"
    local rest=":${current}:"
    rest="${rest//":$2:"/:}"
    rest="${rest#:}"
    rest="${rest%:}"
    if [[ -n "${rest}" ]]; then
        export "$1=$2:${rest}"
    else
        export "$1=$2"
    fi
}

export ASCEND_HOME_PATH="${_canopy_setenv_prefix}"
export ASCEND_INSTALL_PATH="${_canopy_setenv_prefix}"
export ASCEND_TOOLKIT_HOME="${_canopy_setenv_prefix}"
export ASCENDC_CMAKE_DIR="${_canopy_setenv_prefix}/tikcpp/ascendc_kernel_cmake"
# The part Canopy models (CANOPY_SOC_VERSION picks it), as aclrtGetSocName names it; a SOC_VERSION
# already chosen is kept.
export SOC_VERSION="${SOC_VERSION:-${CANOPY_SOC_VERSION:-Ascend910B4}}"
_canopy_setenv_prepend PATH "${_canopy_setenv_prefix}/bin"
_canopy_setenv_prepend LD_LIBRARY_PATH "${_canopy_setenv_prefix}/lib64"
# find_package finds Canopy's packages from here also in login shells that reset PATH.
_canopy_setenv_prepend CMAKE_PREFIX_PATH "${_canopy_setenv_prefix}"
_canopy_setenv_prepend CMAKE_PREFIX_PATH "${_canopy_setenv_prefix}/lib64/cmake"  # as CANN: find_package(ASC) before project()
_canopy_setenv_prepend PKG_CONFIG_PATH "${_canopy_setenv_prefix}/lib64/pkgconfig"

unset -f _canopy_setenv_prepend
unset _canopy_setenv_prefix
