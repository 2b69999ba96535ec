#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The measurement window of each point of tests/data/measured/nim-llama3-8b-h100-tp1-fp16.csv, recovered from the GenAI-Perf
# records it was taken from (docs/cost-model.md, h13au and h13aw). Not a test; run by hand:
#   git --git-dir=GITDIR show 0e25b2e236211ad01ed2221bd2c1cfa5b3f47b55:code/ch10_inference/inference_gpu_cluster_sizing/dataset/nim.csv > nim.csv
#   scripts/nim-measurement-windows.py nim.csv tests/data/measured/nim-llama3-8b-h100-tp1-fp16.csv
# prints one line per row of the set: its source rows, each row's request count k (the smallest for which the exact-fraction
# averages of the input tokens, the TTFT and the request latency, integers in tokens and ns, are whole numbers x k), the span
# k / request throughput (GenAI-Perf's benchmark duration: first request sent to last response), and the window: 72 s x the
# windows the span needs, at least three (perf_analyzer, src/inference_profiler.cc: windows of 1.2 x --measurement-interval,
# 60,000 ms here; a window without a finished request fails, and it measures on until three windows in a row succeed; the
# requests of every window are exported). 2 s of slack for the profiler's own time between windows (spans of 216.2 and
# 288.2-288.8 s). A span under two windows (144 s) cannot end a measurement of three: the smallest k is then a divisor of
# the true count (the averages happen to be whole at k / j too), the window is given as three, 216 s, and the row is marked.
import csv
import math
import sys

WINDOW_S = 1.2 * 60.0  # perf_analyzer's window: 1.2 x --measurement-interval 60000 ms
SLACK_S = 2.0


def request_count(row):
    values = [float(row[c]) for c in ("num_input_token-avg", "time_to_first_token-avg", "request_latency-avg")]
    for k in range(1, 1_000_000):
        if all(abs(v * k - round(v * k)) <= max(1e-6, abs(v * k) * 4e-15) for v in values):
            return k
    raise ValueError("no request count")


def main(source_path, set_path):
    source = list(csv.DictReader(open(source_path, newline="")))
    for point in csv.DictReader(open(set_path, newline="")):
        parts, windows = [], []
        for line in point["source_row"].split("+"):
            row = source[int(line) - 2]  # line 1 is the header
            k = request_count(row)
            span = k / float(row["request_throughput-avg"])
            m = max(3, math.ceil((span - SLACK_S) / WINDOW_S))
            windows.append(m)
            parts.append(f"row {line}: k {k} ({k / float(point['concurrency']):.4g} a client), span {span:.1f} s"
                         + (" (under two windows: k ambiguous)" if span < 2 * WINDOW_S else ""))
        print(f"ISL {point['isl']} OSL {point['osl']} N {point['concurrency']}: {'; '.join(parts)} -> "
              f"{max(windows)} windows, measurement_window_s {max(windows) * WINDOW_S:g}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: nim-measurement-windows.py nim.csv SET.csv")
    main(sys.argv[1], sys.argv[2])
