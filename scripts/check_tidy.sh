#!/usr/bin/env bash
# Runs clang-tidy (the committed .clang-tidy) on the sources of core/, app/ and ui/ and fails on
# new issues: warnings are counted per file and check, and a count above the one recorded in
# scripts/tidy_baseline.txt is new. Part of scripts/test.sh.
#
# A full run costs about 3 CPU-seconds a file (12 CPU-minutes for all), too much for every CI
# run; so by default only what changed since the baseline's commit is checked: the .cpp files
# changed since then and those including a changed header. --all checks every file.
#   scripts/check_tidy.sh [--all] [BUILD_DIR]          check (BUILD_DIR has compile_commands.json; default build/)
#   scripts/check_tidy.sh --update-baseline [BUILD_DIR]  record today's counts of the files changed since the
#                                                      baseline's commit (after fixing, or to accept) and move
#                                                      its commit to HEAD, so CI checks only what comes next
#   scripts/check_tidy.sh --update-baseline --all [BUILD_DIR]  the same for every file
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mode=changed
scope=changed
case "${1:-}" in
  --update-baseline) mode=update; shift ;;
  --all) mode=all; scope=all; shift ;;
esac
if [ "$mode" = update ] && [ "${1:-}" = --all ]; then scope=all; shift; fi
build="${1:-$here/build}"
baseline="$here/scripts/tidy_baseline.txt"
[ -f "$build/compile_commands.json" ] || { echo "check_tidy: no $build/compile_commands.json (build first)"; exit 2; }

mapfile -t files < <(git ls-files 'core/*.cpp' 'app/*.cpp' 'ui/*.cpp')
since="$(sed -n 's/^# at \([0-9a-f]\{40\}\).*/\1/p' "$baseline" 2>/dev/null | head -n 1)"
if [ "$scope" = changed ] && [ -n "$since" ] && git cat-file -e "$since^{commit}" 2>/dev/null; then
  mapfile -t changed < <({ git diff --name-only "$since" -- core app ui; git ls-files -m -o --exclude-standard core app ui; } | sort -u)
  headers=()
  for f in "${changed[@]}"; do [[ "$f" == *.h ]] && headers+=("$f"); done
  mapfile -t files < <({
      for f in "${changed[@]}"; do [[ "$f" == *.cpp && -f "$f" ]] && echo "$f"; done
      for h in "${headers[@]}"; do grep -lF "#include \"$h\"" "${files[@]}" 2>/dev/null || true; done
    } | grep -E '^(core|app|ui)/' | sort -u)
  echo "tidy: ${#files[@]} files changed since the baseline's commit ${since:0:10} (--all checks every file)"
elif [ "$scope" = changed ]; then
  echo "tidy: the baseline's commit is not in this history: checking every file"
  scope=all
fi
[ ${#files[@]} -gt 0 ] || { echo "tidy: nothing to check"; exit 0; }

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet 2>/dev/null >"$out" || true
# "path:line:col: warning: text [check]" -> unique findings -> "file check count" (lines move; counts
# do not); generated code under the build folder (moc, protobuf) is not ours to fix
findings="$(grep -E '^/.*: warning: .*\[[a-z-]+(,[a-z.-]+)*\]$' "$out" | sed "s|^$here/||" | grep -E '^(core|app|ui)/' | sort -u || true)"
current="$(echo "$findings" | sed -E 's/^([^:]+):[0-9]+:[0-9]+: warning: .*\[([^],]+)[],].*$/\1 \2/' | grep -v '^$' |
           sort | uniq -c | awk '{print $2, $3, $1}')"
if [ "$mode" = update ]; then
  # a partial update keeps the rows of the files it did not check (their sources did not change)
  kept=""
  if [ "$scope" = changed ]; then
    kept="$(grep -v '^#' "$baseline" | awk -v list="$(printf '%s ' "${files[@]}")" 'BEGIN {n = split(list, f, " "); for (i = 1; i <= n; i++) skip[f[i]] = 1}
                                             NF && !($1 in skip) {print}' || true)"
  fi
  tmp="$(mktemp "$baseline.XXXXXX")"
  { echo "# at $(git rev-parse HEAD) (scripts/check_tidy.sh --update-baseline)"
    echo "# clang-tidy warnings accepted so far, per file and check"
    printf '%s\n%s\n' "$kept" "$current" | awk 'NF' | sort; } >"$tmp"
  mv "$tmp" "$baseline"
  echo "tidy: baseline of $(echo "$current" | awk '{s+=$3} END {print s+0}') warnings written to $baseline"
  exit 0
fi
new="$(join -a1 -e0 -o 1.1,1.2,2.2 <(echo "$current" | awk 'NF {print $1"|"$2, $3}' | sort) \
        <(grep -v '^#' "$baseline" 2>/dev/null | awk 'NF {print $1"|"$2, $3}' | sort) | awk '$2 > $3 {print}')"
if [ -n "$new" ]; then
  echo "clang-tidy: new warnings (file|check, count now, count in the baseline):"
  echo "$new" | sed 's/^/  /'
  while read -r key _; do
    file="${key%%|*}" check="${key##*|}"
    echo "$findings" | grep -F "$file:" | grep -F "[$check" | sed 's/^/    /'
  done <<<"$new"
  exit 1
fi
echo "tidy: ${#files[@]} files, no warning beyond scripts/tidy_baseline.txt"
