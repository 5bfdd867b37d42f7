#!/usr/bin/env bash
# Compile times of kernel sources through the kernel compiler (canopy-asc, installed as bisheng),
# against a source including <Eigen/Dense> compiled by g++ -O2 in the same run, interleaved:
#
#   bash bench/kernel_compile/run.sh [build dir] [repetitions]     (default build/release, 5)
#
# Prints each one's CPU seconds (user + sys) per repetition, the medians and the ratios to Eigen:
#   header_only   a source including only kernel_operator.h, -O2, over the warm precompiled header
#   scale_add     test/asc/sample/scale_add.asc (two kernels, host code), -O2, warm
#   core_split    test/asc/sample/core_split.asc (catlass-style, compiled per core type), -O2, warm
#   no_pch        the header-only source with CANOPY_ASC_PCH=0
#   first         the header-only source into an empty precompiled-header cache (builds its headers)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$root/build/release}" && pwd)"
repetitions="${2:-5}"
driver="$build/kernels/compiler/canopy-asc"
[[ -x "$driver" ]] || { echo "no kernel compiler at $driver: build Canopy first" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf '#include "kernel_operator.h"\n' > "$work/header_only.asc"
printf '#include <Eigen/Dense>\n' > "$work/eigen.cpp"
export CANOPY_ASC_CACHE="$work/cache"
samples="$root/test/asc/sample"
command_of() {
    case "$1" in
        eigen) echo "g++ -O2 -I/usr/include/eigen3 -c $work/eigen.cpp -o $work/eigen.o" ;;
        header_only) echo "$driver -O2 -c $work/header_only.asc -o $work/h.o" ;;
        scale_add) echo "$driver -O2 -DSCALE_ADD_BLOCKS=8 -I$samples -c $samples/scale_add.asc -o $work/s.o" ;;
        core_split) echo "$driver -O2 -I$samples -c $samples/core_split.asc -o $work/c.o" ;;
        no_pch) echo "env CANOPY_ASC_PCH=0 $driver -O2 -c $work/header_only.asc -o $work/n.o" ;;
        first) echo "env CANOPY_ASC_CACHE=$work/cold.\$RANDOM $driver -O2 -c $work/header_only.asc -o $work/f.o" ;;
    esac
}
names=(eigen header_only scale_add core_split no_pch first)
# Warm the cache once for each configuration.
for name in header_only scale_add core_split; do eval "$(command_of $name)" > /dev/null; done
declare -A times
for ((i = 0; i < repetitions; ++i)); do
    for name in "${names[@]}"; do
        /usr/bin/time -o "$work/time" -f '%U %S' bash -c "$(command_of $name)" > /dev/null 2>&1
        seconds=$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")
        times[$name]+="$seconds "
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
eigen_median="$(echo "${times[eigen]}" | median)"
printf '%-12s %-40s %8s %8s\n' source "CPU s per repetition" median "x Eigen"
for name in "${names[@]}"; do
    m="$(echo "${times[$name]}" | median)"
    printf '%-12s %-40s %8s %8s\n' "$name" "${times[$name]}" "$m" "$(awk -v a="$m" -v b="$eigen_median" 'BEGIN { printf "%.2f", a / b }')"
done
