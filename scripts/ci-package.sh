#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CI's packaging checks, run after ./test.sh has built build/ (in CI: inside the fresh Debian 12 root
# that scripts/ci-fresh-root.sh makes): build the Debian package, install it as a user would, and
# check the installed program, its menu entry, metadata, icon and manual page; then remove it.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
checks=0
step() { printf '\n=== %s [%ds]\n' "$*" $((SECONDS - start)); }
fail() { printf '\nCI FAILED: %s\n' "$*" >&2; exit 1; }
ok() { checks=$((checks + 1)); echo "ok: $*"; }

app_id=io.github.ridgeline.Ridgeline
scenario=incident-drill-13b-a100.json   # a shipped scenario: 13B bf16 on a 2.0 TB/s A100

[ -x build/app/ridgeline ] || fail "build/app/ridgeline is missing: run ./test.sh first"

step "Packaging tools: dpkg-dev and file (dpkg-shlibdeps, CPackDeb), desktop-file-utils, appstream, python3"
tools=(dpkg-dev file desktop-file-utils appstream python3)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  apt-get update -qq || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    fail "could not install ${missing[*]}"
fi

step "Debian package: cpack -G DEB in build/"
rm -f build/ridgeline_*.deb
(cd build && cpack -G DEB) || fail "cpack -G DEB failed in build/"
debs=(build/ridgeline_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one build/ridgeline_*.deb, found: ${debs[*]}"
deb=$(realpath "${debs[0]}")
dpkg-deb --info "$deb"
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6widgets6 libqt6charts6 libqcustomplot2.1-qt6; do
  grep -q "$lib" <<<"$depends" || fail "$deb does not depend on $lib (Depends: $depends)"
done
ok "$deb, version $version, depends on Qt 6 Widgets, Charts and QCustomPlot"
contents=$(dpkg-deb -c "$deb")
for f in usr/bin/ridgeline usr/share/applications/$app_id.desktop usr/share/metainfo/$app_id.metainfo.xml \
         usr/share/icons/hicolor/scalable/apps/$app_id.svg usr/share/man/man1/ridgeline.1.gz \
         usr/share/doc/ridgeline/copyright usr/share/doc/ridgeline/changelog.gz \
         usr/share/ridgeline/scenarios/$scenario; do
  grep -q " \./$f\$" <<<"$contents" || fail "$deb lacks /$f"
done
ok "the package holds the binary, menu entry, metainfo, icon, manual page, copyright, changelog and scenarios"

step "Install: dpkg -i, then apt-get -f install for the dependencies"
dpkg -i "$deb" || echo "(dpkg -i left dependencies unconfigured: apt-get -f install brings them)"
DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq >/dev/null || fail "apt-get -f install failed"
dpkg-query -W -f='${Status} ${Version}' ridgeline | grep -qx "install ok installed $version" ||
  fail "ridgeline $version is not installed: $(dpkg-query -W -f='${Status} ${Version}' ridgeline 2>&1)"
ok "ridgeline $version installed"

step "The installed program"
cd /  # nothing from the work tree
out=$(/usr/bin/ridgeline --version) || fail "/usr/bin/ridgeline --version exited with status $?"
[ "$out" = "ridgeline $version" ] || fail "/usr/bin/ridgeline --version printed '$out', expected 'ridgeline $version'"
ok "/usr/bin/ridgeline --version: $out"

report=$(/usr/bin/ridgeline --report --scenario /usr/share/ridgeline/scenarios/$scenario) ||
  fail "/usr/bin/ridgeline --report --scenario .../$scenario exited with status $?"
grep -E 'batch-1 decode floor +13\.00 ms/token' <<<"$report" ||
  fail "the text report of $scenario does not give a 13.00 ms/token decode floor:"$'\n'"$report"
ok "text report of $scenario: decode floor 13.00 ms/token"

json=$(/usr/bin/ridgeline --report --format json --scenario /usr/share/ridgeline/scenarios/$scenario) ||
  fail "/usr/bin/ridgeline --report --format json exited with status $?"
python3 -c '
import json, sys
floor = json.loads(sys.stdin.read())["decode"]["floor_ms_batch1"]
print("decode.floor_ms_batch1 =", floor)
sys.exit(0 if abs(floor - 13.0) < 1e-9 else "expected 13.0 ms (26 GB of weights at 2.0 TB/s)")
' <<<"$json" || fail "the JSON report of $scenario has the wrong decode floor"
ok "JSON report of $scenario: decode.floor_ms_batch1 = 13.0"

png=$(mktemp --suffix=.png)
/usr/bin/ridgeline --screenshot "$png" --size 1280x800 --scenario /usr/share/ridgeline/scenarios/$scenario ||
  fail "/usr/bin/ridgeline --screenshot exited with status $?"
[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(stat -c %s "$png")" -gt 10000 ] ||
  fail "/usr/bin/ridgeline --screenshot wrote no PNG image to $png"
rm -f "$png"
ok "the installed window renders offscreen (--screenshot)"

zcat /usr/share/man/man1/ridgeline.1.gz | grep -c '^\.SH OPTIONS' >/dev/null || fail "the manual page has no OPTIONS section"
ok "manual page /usr/share/man/man1/ridgeline.1.gz"

step "Menu entry, icon and AppStream metadata, as installed"
desktop=/usr/share/applications/$app_id.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate $desktop"
exec_bin=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
[ "$(command -v "$exec_bin")" = /usr/bin/ridgeline ] || fail "$desktop runs '$exec_bin', which is not /usr/bin/ridgeline"
icon=$(sed -n 's/^Icon=//p' "$desktop")
[ -f "/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "$desktop names icon '$icon', not installed in hicolor"
ok "desktop-file-validate $desktop; Exec $exec_bin and Icon $icon are installed"

appstreamcli validate --no-net --strict "/usr/share/metainfo/$app_id.metainfo.xml" ||
  fail "appstreamcli validate /usr/share/metainfo/$app_id.metainfo.xml"
tree=$(mktemp -d)
dpkg-deb -x "$deb" "$tree"
appstreamcli validate-tree --no-net "$tree" || fail "appstreamcli validate-tree on the package's files"
rm -rf "$tree"
ok "appstreamcli validate and validate-tree (metainfo, launchable desktop file and icon together)"

step "Remove: dpkg --remove ridgeline (the machine as it was)"
dpkg --remove ridgeline >/dev/null || fail "dpkg --remove ridgeline failed"
[ ! -e /usr/bin/ridgeline ] && [ ! -e "$desktop" ] || fail "dpkg --remove ridgeline left its files behind"
ok "removed cleanly"

echo "package checks: $checks passed, 0 failed"
