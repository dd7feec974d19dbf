#!/usr/bin/env bash
# Checks that every C++ file the repository tracks, or will (new files not yet added), is formatted
# as .clang-format says (part of scripts/test.sh). --fix rewrites the files instead. Needs clang-format.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
# tracked files and new ones not yet added (a file created since the last commit is checked too)
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.h' '*.cpp')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=$(clang-format --dry-run "${files[@]}" 2>&1 | grep -oE '^[^:]+\.(h|cpp)' | sort -u || true)
if [ -n "$bad" ]; then
  echo "Not formatted as .clang-format says (scripts/check_format.sh --fix rewrites them):"
  echo "$bad" | sed 's/^/  /'
  exit 1
fi
echo "format: ${#files[@]} files as .clang-format says"
