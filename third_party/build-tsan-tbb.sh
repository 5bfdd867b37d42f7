#!/usr/bin/env bash
# Builds oneTBB with ThreadSanitizer into $1 (default build/tsan-tbb) for the tsan preset.
#
# Debian's libtbb is not instrumented: tbb::flow's header templates create task objects in
# instrumented code that libtbb then runs on other threads, and ThreadSanitizer, blind to the
# synchronization inside libtbb, reports races that are not there. So the ThreadSanitizer build
# links against the same oneTBB release (Debian's source package of libtbb-dev), instrumented.
set -euo pipefail
dest=$(realpath -m "${1:-build/tsan-tbb}")
if [ -e "$dest/install/lib/libtbb.so.12" ]; then
  exit 0
fi
mkdir -p "$dest/lists/partial" "$dest/src"
version=$(dpkg-query -W -f='${source:Version}' libtbb-dev)
echo "deb-src http://deb.debian.org/debian bookworm main" > "$dest/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$dest/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o "Dir::State::Lists=$dest/lists")
apt-get "${apt_options[@]}" update -qq
(cd "$dest/src" && apt-get "${apt_options[@]}" source --download-only -qq "onetbb=$version" > "$dest/source.log" 2>&1)
tar -xf "$dest"/src/onetbb_*.orig.tar.* -C "$dest/src"
source_dir=$(find "$dest/src" -maxdepth 1 -type d -name 'oneTBB-*' | head -n 1)
cmake -S "$source_dir" -B "$dest/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTBB_SANITIZE=thread \
  -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF -DTBBMALLOC_BUILD=OFF \
  -DCMAKE_INSTALL_PREFIX="$dest/install" > "$dest/configure.log" 2>&1
cmake --build "$dest/build" -j2 > "$dest/build.log" 2>&1
cmake --install "$dest/build" > /dev/null
