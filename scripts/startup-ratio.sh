#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Start-up against the one-plot app (issue 16, target <= 1.2x): runs bench/oneplot_startup and
# `bench/ridgeline_bench --startup-only` in turn, N times each, alternating (so that both see the same
# load), and prints each program's start-up times ("start-up to first painted window", ms: process start to the
# end of the event-loop pass that painted the window), their medians, the ratio of the medians, and the
# machine's load average before and after. Offscreen by default; --xvfb runs both under xvfb-run (the xcb
# platform) when xvfb-run exists. Wall time on a shared machine is noisy: compare runs made at the same load.
# When BUILD_DIR has bench/window_startup (the plain-widgets window with Ridgeline's content, issue 16, thirty-third
# stop), it is run in turn with the other two, and two more lines at the end give its times, its median and the ratios
# one-plot -> plain window -> Ridgeline (the lines above them are unchanged: other scripts read them).
# Usage: scripts/startup-ratio.sh [--xvfb] [BUILD_DIR [N]]      (BUILD_DIR default build, N default 15)
set -euo pipefail

xvfb=0
if [ "${1:-}" = "--xvfb" ]; then
  xvfb=1
  shift
fi
build=${1:-build}
runs=${2:-15}
for program in "$build/bench/oneplot_startup" "$build/bench/ridgeline_bench"; do
  if [ ! -x "$program" ]; then
    echo "startup-ratio.sh: $program not found (build the project first, or give its build directory)" >&2
    exit 2
  fi
done
plain="$build/bench/window_startup"
[ -x "$plain" ] || plain=""
if [ "$xvfb" = 1 ] && ! command -v xvfb-run >/dev/null; then
  echo "startup-ratio.sh: --xvfb given but xvfb-run is not installed" >&2
  exit 2
fi

# One run of a program; prints its start-up in ms (the number before " ms" on the start-up line). The program is
# exec()ed by a bash that sets RL_LAUNCH_REALTIME to $EPOCHREALTIME just before: both programs time their start from
# it to the microsecond, instead of from /proc's start time in 10 ms ticks (issue 16, thirty-first stop).
launch='t=$EPOCHREALTIME; export RL_LAUNCH_REALTIME=${t/,/.}; exec "$@"' # a decimal point whatever the locale
run_once() {
  local out
  if [ "$xvfb" = 1 ]; then
    out=$(QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1920x1200x24" bash -c "$launch" bash "$@" 2>&1)
  else
    out=$(QT_QPA_PLATFORM=offscreen bash -c "$launch" bash "$@" 2>&1)
  fi
  sed -n 's/.*start-up to first painted window: \([0-9]*\) ms.*/\1/p' <<<"$out" | head -n 1
}

median() { # numbers on one line -> their median (mean of the middle two for an even count)
  tr ' ' '\n' | grep -v '^$' | sort -n | awk '{v[NR] = $1} END {if (NR == 0) exit 1;
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
one=""
rl=""
pw=""
for _ in $(seq "$runs"); do
  one="$one $(run_once "$build/bench/oneplot_startup")"
  # --startup-only: the process ends at its first painted window, as the one-plot app's does (it ran a sweep and
  # the bursts after start-up, a minute a run on a loaded machine; issue 16, fifteenth stop).
  rl="$rl $(run_once "$build/bench/ridgeline_bench" --startup-only)"
  if [ -n "$plain" ]; then
    pw="$pw $(run_once "$plain")"
  fi
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
one_median=$(median <<<"$one")
rl_median=$(median <<<"$rl")
echo "one-plot app (ms):$one"
echo "ridgeline (ms):   $rl"
echo "medians: one-plot $one_median ms, ridgeline $rl_median ms, ratio $(awk -v a="$rl_median" -v b="$one_median" 'BEGIN {printf "%.2f", a / b}')x"
if [ -n "$plain" ]; then
  pw_median=$(median <<<"$pw")
  echo "plain-widgets window (ms):$pw"
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
  echo "plain-widgets window median $pw_median ms: $(ratio "$pw_median" "$one_median")x the one-plot app;" \
    "ridgeline / plain-widgets window $(ratio "$rl_median" "$pw_median")x"
fi
