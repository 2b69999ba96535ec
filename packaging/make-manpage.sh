#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the manual page: the hand-written template (version already filled in by CMake) with its
# line `.\" SCENARIO-KEYS-FROM-HELP` replaced by the scenario keys that `ridgeline --help` prints,
# one subsection per prefix, so the list never falls behind the binary.
# Usage: make-manpage.sh RIDGELINE_BINARY TEMPLATE OUTPUT
set -eu
binary=$1
template=$2
output=$3
help=$("$binary" --help) || { echo "make-manpage.sh: $binary --help failed" >&2; exit 1; }
keys=$output.keys
trap 'rm -f "$keys" "$output.tmp"' EXIT

printf '%s\n' "$help" | awk -v q="'" '
  /^Scenario keys/ { on = 1; next }
  on && /^$/ { exit }
  on && /^  [a-z_]+\.[a-z0-9_]+ / {
    key = $1
    text = $0
    sub(/^  [^ ]+ +/, "", text)
    gsub(/\\/, "\\e", text)                        # a backslash is troff escape
    c = substr(text, 1, 1)
    if (c == "." || c == q) text = "\\&" text      # no request at the start of a line
    split(key, part, ".")
    if (part[1] != section) {
      section = part[1]
      print ".SS " toupper(substr(section, 1, 1)) substr(section, 2)
    }
    print ".TP"
    print ".B " key
    print text
  }' > "$keys"
[ -s "$keys" ] || { echo "make-manpage.sh: no scenario keys found in $binary --help" >&2; exit 1; }
[ "$(grep -c '^\.\\" SCENARIO-KEYS-FROM-HELP$' "$template")" = 1 ] ||
  { echo "make-manpage.sh: $template needs one line '.\\\" SCENARIO-KEYS-FROM-HELP'" >&2; exit 1; }

sed -e '/^\.\\" SCENARIO-KEYS-FROM-HELP$/{r '"$keys" -e 'd' -e '}' "$template" > "$output.tmp"
mv "$output.tmp" "$output"
