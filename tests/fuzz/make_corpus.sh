#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from the committed fixtures (tests/data/**,
# resources/, faq/, and a few of Debian's libonnx-testdata files when installed) into
# OUT (default: $FUZZ_BUILD/corpus, FUZZ_BUILD defaulting to build-fuzz in the source tree). Nothing here is committed: the corpora are rebuilt at will.
# Usage: tests/fuzz/make_corpus.sh [OUT]
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-${FUZZ_BUILD:-$src/build-fuzz}/corpus}"
onnxdata=/usr/share/libonnx-testdata/data
data="$src/tests/data"
maxBytes=65536   # big fixtures are cut: the fuzzer mutates the head, where the structure is

mkdir -p "$out"
n=0
# seed TARGET FILE [PREFIX_BYTE_OCTAL]: copies the head of FILE, optionally after one selector byte.
seed() {
  local target="$1" file="$2" prefix="${3:-}"
  mkdir -p "$out/$target"
  n=$((n + 1))
  local dest="$out/$target/seed_$(printf '%05d' "$n")"
  if [ -n "$prefix" ]; then
    { printf "\\$prefix"; head -c "$maxBytes" "$file"; } > "$dest"
  else
    head -c "$maxBytes" "$file" > "$dest"
  fi
}
files() { find "$@" -type f 2>/dev/null | LC_ALL=C sort; }

# Logs: the first byte is where the harness cuts the file for the live-tail path.
for cut in 000 200 377; do
  for f in $(files "$data/logs" "$data/logs_bad" "$data/runs" -name '*.log'); do seed fuzz_log_text "$f" $cut; done
  for f in $(files "$data/logs" "$data/logs_bad" "$data/runs" \( -name '*.csv' -o -name '*.tsv' \)); do seed fuzz_log_csv "$f" $cut; done
  for f in $(files "$data/logs" "$data/logs_bad" "$data/runs" \( -name '*.jsonl' -o -name '*.log.json' -o -name 'metrics.json' -o -name 'scalars.json' \)); do seed fuzz_log_jsonl "$f" $cut; done
  for f in $(files "$data/logs" \( -name 'trainer_state.json' -o -name 'history.json' \)); do seed fuzz_log_json_history "$f" $cut; done
  for f in $(files "$data" "$src/resources/demo" -name 'events.out.tfevents*'); do seed fuzz_log_tfevents "$f" $cut; done
done

# Models: the project's fixtures plus small models of the ONNX node tests.
for f in $(files "$data/models" "$src/resources/demo" -name '*.onnx'); do seed fuzz_onnx "$f"; done
if [ -d "$onnxdata" ]; then
  for f in $(files "$onnxdata/node" -name model.onnx | head -n 150); do seed fuzz_onnx "$f"; done
  for f in $(files "$onnxdata/node" -name 'input_*.pb' | head -n 100); do seed fuzz_tensor_pb "$f"; done
fi
for f in $(files "$data" -name '*.pb'); do seed fuzz_tensor_pb "$f"; done
for f in $(files "$data" -name '*.npy'); do seed fuzz_npy "$f"; done

# The simulator harness (simulator_harness.h): byte 0 picks the op, byte 1 the opset, then the
# inputs (count, then kind and shape of each) and attributes. One seed per op with two 2x3
# float inputs, one with a 1x1x4x4 input through Q/DQ and a 1x1x3x3 weight of 1.0 (convolutions,
# pooling).
for op in $(seq 0 110); do
  mkdir -p "$out/fuzz_simulator"
  printf "\\$(printf '%03o' "$op")\\001\\001\\000\\002\\001\\002\\000\\002\\001\\002\\000" > "$out/fuzz_simulator/op_${op}_2x3"
  printf "\\$(printf '%03o' "$op")\\001\\001\\000\\004\\000\\000\\003\\003\\002\\004\\000\\000\\002\\002\\004\\000\\001\\000" > "$out/fuzz_simulator/op_${op}_conv"
done

# Printed modules and toolchain files (first byte = toolchain kind, 0..6).
for f in $(files "$data/printed" -name '*.txt'); do seed fuzz_printed "$f"; done
for kind in 000 001 002 003 004 005 006; do
  for f in $(files "$data/toolchain" \( -name '*.txt' -o -name '*.csv' \)); do seed fuzz_toolchain "$f" $kind; done
done

# Checkpoints: the torch.save fixtures whole; their pickles for the unpickler (the legacy file is
# pickles back to back; the zip archives' data.pkl is taken out when python3 is there).
for f in $(files "$data/checkpoints" \( -name '*.pt' -o -name '*.pth' \)); do seed fuzz_checkpoint "$f"; done
seed fuzz_pickle "$data/checkpoints/legacy_state_dict.pt"
if command -v python3 > /dev/null; then
  for f in $(files "$data/checkpoints" \( -name '*.pt' -o -name '*.pth' \)); do
    n=$((n + 1))
    python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
name = next((x for x in z.namelist() if x.endswith("/data.pkl")), None)
if name: sys.stdout.buffer.write(z.read(name))' "$f" > "$out/fuzz_pickle/seed_$(printf '%05d' "$n")" 2>/dev/null || true
  done
fi

# JSON: FAQ trees, thresholds (selector 1), wizard sessions (selector 0).
for f in $(files "$src/faq" "$data/faq_good" "$data/faq_bad" -name '*.json'); do seed fuzz_faq "$f"; done
seed fuzz_json_inputs "$src/resources/thresholds.json" 001
printf '\000{"version":1,"start":"qat.calibration_low","path":[{"topic":"qat.calibration_low","node":"q_calib_low","answer":"yes","automatic":true,"outcome":"found","evidence":[{"run":"r","line":3,"step":1.5}]}],"overridden":["a"]}' \
  > "$out/fuzz_json_inputs/session_min"

# Expected dtypes (--expect): the fixture, and the spellings parseDType accepts.
for f in $(files "$data" -name '*.expect.json'); do seed fuzz_expect "$f"; done
printf '{"conv1": "torch.qint16", "conv2": "qint8", "fc": "float32", "add": "horizon.qint16", "relu": "int16"}' \
  > "$out/fuzz_expect/spellings"

# GUI session files (.qatdoctor), as the app writes them: inputs, roles, expect path, page states
# with a wizard session, notes; and the smallest one it accepts.
mkdir -p "$out/fuzz_session"
cat > "$out/fuzz_session/full" <<'JSON'
{
    "expect": "/data/models/qat_int16.expect.json",
    "format": "qatdoctor-session",
    "inputs": ["/data/runs/no_gpu", "/data/models/qat_int16.onnx", "/data/printed/qat_calibrated.txt"],
    "notes": "calibration looked low\n第二行",
    "pages": {
        "curves": {"metrics": ["loss", "acc"], "smoothing": 0.6, "log": false},
        "report": {"sections": ["overview", "wizard"], "lang": "zh", "paper": "A4"},
        "wizard": {
            "reportItems": [{"topic": "qat.calibration_low", "node": "q_calib_low"}],
            "search": "calib",
            "view": "walk",
            "session": {"version": 1, "start": "qat.calibration_low",
                        "path": [{"topic": "qat.calibration_low", "node": "q_calib_low", "answer": "yes",
                                  "automatic": true, "outcome": "found",
                                  "evidence": [{"run": "r", "line": 3, "step": 1.5}]}],
                        "overridden": ["a"]}
        }
    },
    "roles": {"float": "float", "qat": "qat", "run3": "calibration"},
    "version": 1
}
JSON
printf '{"format":"qatdoctor-session"}' > "$out/fuzz_session/minimal"

for d in "$out"/*/; do echo "$(basename "$d"): $(find "$d" -type f | wc -l) seeds"; done
