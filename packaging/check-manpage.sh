#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that the manual page names every option and every scenario key that `ridgeline --help`
# prints. Usage: check-manpage.sh RIDGELINE_BINARY MANPAGE (troff source, not gzipped).
set -eu
binary=$1
manpage=$2
help=$("$binary" --help) || { echo "FAIL: $binary --help exited with status $?" >&2; exit 1; }

# Option lines start "  -"; the option column ends at the first run of two spaces.
# "  -h, --help   show..." gives -h and --help; "  --format text|json   ..." gives --format.
options=$(printf '%s\n' "$help" | sed -n 's/^  \(-[^ ].*\)$/\1/p' | sed 's/   *.*//' |
          tr ',' '\n' | sed -n 's/^ *\(--*[A-Za-z0-9][A-Za-z0-9-]*\).*/\1/p')
# Scenario keys are the lines "  section.name   help" after "Scenario keys".
keys=$(printf '%s\n' "$help" | sed -n '/^Scenario keys/,/^$/p' |
       sed -n 's/^  \([a-z_]*\.[a-z0-9_]*\) .*/\1/p')
[ -n "$options" ] || { echo "FAIL: found no options in $binary --help" >&2; exit 1; }
[ -n "$keys" ] || { echo "FAIL: found no scenario keys in $binary --help" >&2; exit 1; }

# The page as a reader sees the words: \- is -, font changes and \% vanish.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\%//g' -e 's/\\&//g' "$manpage")

missing=0
count=0
for word in $options $keys; do
  count=$((count + 1))
  # Whole words only: -h must not match inside --help, nor model.heads inside model.heads_x.
  if ! printf '%s\n' "$text" | grep -Eq -- "(^|[^A-Za-z0-9_.-])$(printf '%s' "$word" | sed 's/\./\\./g')([^A-Za-z0-9_-]|\.?$|\.[^A-Za-z0-9_])"; then
    echo "FAIL: '$word' is in '$(basename "$binary") --help' but not in $manpage: document it in packaging/ridgeline.1.in" >&2
    missing=$((missing + 1))
  fi
done
if [ "$missing" -ne 0 ]; then
  echo "$missing of $count options and scenario keys are missing from the manual page" >&2
  exit 1
fi
echo "All $count options and scenario keys of --help are in the manual page"
