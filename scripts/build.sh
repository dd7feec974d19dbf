#!/usr/bin/env bash
# Configures (once) and builds QAT Doctor. Usage: scripts/build.sh [BUILD_DIR] [cmake args...]
# ccache is used when present, so a rebuild after a small change takes seconds.
# Optimised, without debug info: debug info costs a third of the compile time on a 2-core CI
# machine and nobody debugs this build (configure your own RelWithDebInfo tree for that, see
# CMakePresets.json).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$here/build}"
shift || true
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "${launcher[@]}" "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@" >/dev/null
fi
cmake --build "$build" -j"$(nproc)"
