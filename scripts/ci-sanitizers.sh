#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the whole project with clang, AddressSanitizer and UndefinedBehaviorSanitizer (and the
# libFuzzer targets in the same tree, so scripts/ci-fuzz.sh needs no second build), then runs every
# test. Usage: scripts/ci-sanitizers.sh [build dir, default build-asan]
# clang at -O1 with line tables only: about half the compile time of g++ -O2 -g with the same
# sanitizers, and stack traces still name file and line.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build-asan}"
missing=()
for p in clang libclang-rt-14-dev lld; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
flags="-O1 -gline-tables-only -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=None -DRIDGELINE_FUZZ=ON -DRIDGELINE_BENCH=OFF -DRIDGELINE_UNITY_BUILD=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
cmake --build "$dir" --target fuzzers --parallel "$(nproc)"
# Leak checking is off: Qt and fontconfig keep caches alive until exit by design. Instrumented code
# runs several times slower, so QtTest's 5-minute limit per test function is raised to 15.
# The two exhaustive sweeps run whole in ./test.sh (the fresh root in CI); here, where they were more than
# a third of the suite's time (extremeui 348 s, properties 59 s of 512 s), a sample of each:
# - extremeui: every 16th slider corner per combo entry, a different sixteenth for each entry (about 40
#   entries), so that every corner is still drawn under the sanitizers (tests/app/tst_extremeui.cpp);
# - properties: 10,000 random scenarios instead of 100,000 (tests/model/tst_properties.cpp).
# (Halved again at the eighteenth stop of issue 16: CI took 1,790 s of its 1,800; docs/performance.md, "CI time".)
# - mainwindow's everyTabLooksAsUnderThePaneStyleSheet: its first row of four (light, 1600x1000; the pixel comparison of
#   every tab is the same code in each row), where the four were more than half of tst_mainwindow's time (twenty-sixth stop).
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  QTEST_FUNCTION_TIMEOUT=900000 QT_QPA_PLATFORM=offscreen \
  RIDGELINE_EXTREMEUI_CORNER_STRIDE=16 RIDGELINE_PROPERTY_CASES=10000 RIDGELINE_TAB_LOOK_ROWS=1 \
  ctest --test-dir "$dir" --output-on-failure --timeout 1200 --parallel "$(nproc)"
