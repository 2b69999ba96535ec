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
for target in scenario_json hfconfig triage set_key simulation_file calibration trace_csv; do
  work="$dir/corpus-$target"
  mkdir -p "$work"
  echo "fuzz_$target: ${seconds}s"
  if [ -d "fuzz/regressions/$target" ]; then
    "$dir/fuzz/fuzz_$target" -runs=0 fuzz/regressions/$target/* 2>&1 | tail -n 1
  fi
  artifacts="$dir/artifacts-$target"
  rm -rf "$artifacts" && mkdir -p "$artifacts"
  "$dir/fuzz/fuzz_$target" "$work" "fuzz/corpus/$target" -max_total_time="$seconds" -timeout=10 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | grep -E 'stat::number_of_executed_units|Done' || true
  # slow-unit-* files are warnings on a loaded machine; crashes, leaks, timeouts and OOMs fail.
  if ls "$artifacts"/crash-* "$artifacts"/leak-* "$artifacts"/timeout-* "$artifacts"/oom-* >/dev/null 2>&1; then
    echo "fuzz_$target failed: $(ls "$artifacts")" >&2
    exit 1
  fi
done
