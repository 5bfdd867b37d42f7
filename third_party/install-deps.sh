#!/usr/bin/env bash
# Installs the Debian 12 packages Canopy builds with, if any is missing. Needs root (or sudo).
set -euo pipefail

packages=(cmake g++ make pkg-config libtbb-dev libeigen3-dev nlohmann-json3-dev doctest-dev libbenchmark-dev
          clang-16 libclang-16-dev libclang-cpp16-dev llvm-16-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "Installing: ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
