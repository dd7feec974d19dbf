#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build, run the whole test suite, then the
# core tests again under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="$(nproc)"
start=$(date +%s)

"$here/scripts/setup-deps.sh"

echo "== build (-O2) =="
"$here/scripts/build.sh" "$here/build"
echo "== tests (unit, gui, e2e; benchmarks excluded) =="
(cd "$here/build" && QT_QPA_PLATFORM=offscreen ctest -j"$jobs" --output-on-failure -LE bench)
echo "== format (.clang-format) and clang-tidy (.clang-tidy, new issues) =="
"$here/scripts/check_format.sh"
"$here/scripts/check_tidy.sh" "$here/build"

if [ "${QATDOCTOR_SKIP_SANITIZERS:-0}" != "1" ]; then
  echo "== core tests under ASan + UBSan =="
  # -O1 with line tables: sanitizer reports keep file:line, the build stays cheap, and asserts
  # stay on (no NDEBUG) so a broken invariant fails here too.
  "$here/scripts/build.sh" "$here/build-asan" -DQATDOCTOR_SANITIZE=ON -DQATDOCTOR_BUILD_GUI=OFF \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -g1"
  (cd "$here/build-asan" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest -j"$jobs" --output-on-failure -L unit)
fi
echo "== all tests passed in $(( $(date +%s) - start )) s =="
