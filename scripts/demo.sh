#!/usr/bin/env bash
# README command 1: install what is missing, build, and launch the app on the bundled demo.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup-deps.sh"
"$here/scripts/build.sh" "$here/build"
exec "$here/build/app/gui/qatdoctor" --demo "$@"
