#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets with clang and runs each for a bounded time on the repo's corpus,
# then replays every saved regression input.
# Usage: scripts/ci-fuzz.sh [seconds per target] [build dir]
# With a build dir that scripts/ci-sanitizers.sh made (clang, RIDGELINE_FUZZ=ON) it reuses that
# build; otherwise it configures build-fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
dir="${2:-build-fuzz}"
missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! grep -qs "^RIDGELINE_FUZZ:BOOL=ON" "$dir/CMakeCache.txt"; then
  CC=clang CXX=clang++ cmake -S . -B "$dir" -DRIDGELINE_FUZZ=ON -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$dir" --target fuzzers --parallel "$(nproc)"
# One target per core at a time (each libFuzzer run is single-threaded); each one's output goes to its own
# log, printed when it ends, so that the lines of two targets never interleave.
run_target() { # run_target NAME: its regressions replayed, then fuzzed for $seconds; status 1 on a finding
  local target=$1 work="$dir/corpus-$1" artifacts="$dir/artifacts-$1"
  mkdir -p "$work"
  echo "fuzz_$target: ${seconds}s"
  if [ -d "fuzz/regressions/$target" ]; then
    "$dir/fuzz/fuzz_$target" -runs=0 fuzz/regressions/$target/* 2>&1 | tail -n 1
  fi
  rm -rf "$artifacts" && mkdir -p "$artifacts"
  "$dir/fuzz/fuzz_$target" "$work" "fuzz/corpus/$target" -max_total_time="$seconds" -timeout=10 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | grep -E 'stat::number_of_executed_units|Done' || true
  # slow-unit-* files are warnings on a loaded machine; crashes, leaks, timeouts and OOMs fail.
  if ls "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-* >/dev/null 2>&1; then
    echo "fuzz_$target failed: $(ls "$artifacts")"
    return 1
  fi
}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
slots=$(nproc)
pids=() names=() failed=()
collect() { # waits for the oldest running target, prints its log, records a failure
  local status=0
  wait "${pids[0]}" || status=$?
  cat "$logs/${names[0]}.log"
  [ "$status" -eq 0 ] || failed+=("${names[0]}")
  pids=("${pids[@]:1}") names=("${names[@]:1}")
}
for target in scenario_json hfconfig triage set_key simulation_file calibration trace_csv; do
  [ ${#pids[@]} -lt "$slots" ] || collect
  run_target "$target" >"$logs/$target.log" 2>&1 &
  pids+=($!) names+=("$target")
done
while [ ${#pids[@]} -gt 0 ]; do collect; done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz targets with findings: ${failed[*]}" >&2
  exit 1
fi
