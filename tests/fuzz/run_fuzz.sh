#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) on its corpus, with the project's limits:
# 5 s per input (hang), 2 GiB RSS, 1 GiB per allocation. New inputs are kept in the corpus;
# crashes / leaks / timeouts / OOMs land in OUT/artifacts/<target>/ and make the script exit 1.
# Usage: tests/fuzz/run_fuzz.sh [SECONDS] [TARGET...]
#   FUZZ_BUILD (default build-fuzz in the source tree, the fuzz preset's folder): a build configured with -DQATDOCTOR_FUZZ=ON
#   FUZZ_JOBS (default 1): targets run in parallel
#   FUZZ_KEEP_GOING (default 1): see below
set -uo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${FUZZ_BUILD:-$src/build-fuzz}"
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_log_text fuzz_log_csv fuzz_log_jsonl fuzz_log_tfevents fuzz_onnx fuzz_printed
           fuzz_toolchain fuzz_faq fuzz_npy fuzz_tensor_pb fuzz_json_inputs fuzz_expect fuzz_session
           fuzz_pickle fuzz_checkpoint)
fi
corpus="$build/corpus"
[ -d "$corpus" ] || "$src/tests/fuzz/make_corpus.sh" "$corpus" >/dev/null
# Findings of an earlier run are kept aside, so this run reports only its own.
[ -d "$build/artifacts" ] && mv "$build/artifacts" "$build/artifacts-$(date +%Y%m%d-%H%M%S)"
logs="$build/fuzz-logs"
mkdir -p "$logs"

run_one() {
  local t="$1" exe="$build/tests/fuzz/$1"
  local art="$build/artifacts/$t/"
  mkdir -p "$art" "$corpus/$t"
  if [ ! -x "$exe" ]; then echo "$t: not built ($exe)"; return 2; fi
  # a target's dictionary of tokens (tests/fuzz/dict/<target>.dict), when it has one
  local dict=()
  [ -f "$src/tests/fuzz/dict/$t.dict" ] && dict=(-dict="$src/tests/fuzz/dict/$t.dict")
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$exe" "$corpus/$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
      -malloc_limit_mb=1024 -max_len=65536 -print_final_stats=1 -artifact_prefix="$art" \
      "${dict[@]}" "${keepGoing[@]}" >"$logs/$t.log" 2>&1
  local rc=$?
  local stats
  stats="$(grep -E '^#[0-9]+.*(DONE|cov:)' "$logs/$t.log" | tail -n 1)"
  echo "$t: rc=$rc ${stats}"
  [ $rc -eq 0 ]
}

# FUZZ_KEEP_GOING=1 (default): fork mode, so one finding does not end the run (each is still
# written to artifacts/). 0: stop at the first finding (CI smoke runs).
keepGoing=()
[ "${FUZZ_KEEP_GOING:-1}" = "1" ] && keepGoing=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)

fail=0
jobs="${FUZZ_JOBS:-1}"
running=0
for t in "${targets[@]}"; do
  if [ "$jobs" -le 1 ]; then
    run_one "$t" || fail=1
  else
    run_one "$t" &
    running=$((running + 1))
    if [ $running -ge "$jobs" ]; then wait -n || fail=1; running=$((running - 1)); fi
  fi
done
while [ $running -gt 0 ]; do wait -n || fail=1; running=$((running - 1)); done

found="$(find "$build/artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) 2>/dev/null)"
if [ -n "$found" ]; then
  echo "findings:"; echo "$found"
  fail=1
fi
exit $fail
