#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Proves the README's two set-up commands on a machine that has nothing: makes a fresh Debian 12
# root with debootstrap (minbase: no compiler, no Qt, no CMake), clones this repository into it and
# runs, inside it, `./test.sh` (installs what the build needs, builds, runs every test) and then
# `./run.sh` with no display (report and screenshot), then the package checks of
# scripts/ci-package.sh on that build (RIDGELINE_FRESH_ROOT_PACKAGE=0 skips them). Nothing is cached between runs: the root is
# made anew each time and removed at the end.
#
# Usage: scripts/ci-fresh-root.sh [ROOT_DIR]   (as root; ROOT_DIR defaults to a new folder in /tmp)
# Needs: debootstrap and git on the host (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
mirror=${RIDGELINE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${RIDGELINE_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}

[ "$(id -u)" -eq 0 ] || { echo "ci-fresh-root.sh: must run as root (debootstrap, chroot, mount)" >&2; exit 1; }

need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v git >/dev/null || need+=(git)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

root=${1:-$(mktemp -d /tmp/ridgeline-fresh-root.XXXXXX)}
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

echo "--- debootstrap --variant=minbase bookworm $root"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
  tail -n 30 "$root.debootstrap.log" >&2
  echo "debootstrap failed" >&2
  exit 1
}
rm -f "$root.debootstrap.log"

# A fresh Debian 12 install: main, updates and security, as the installer writes them.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
for m in proc sys dev dev/pts; do
  case $m in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount -t sysfs sysfs "$root/sys" ;;
    *) mount --bind "/$m" "$root/$m" ;;
  esac
  mounted+=("$root/$m")
done

# A clean clone of what is committed (the work tree's uncommitted changes are not part of it).
# dpkg without fsync after each unpacked file, as Debian's container images do: CI time only (the root is
# thrown away after the run); which packages are installed, and from where, is unchanged.
echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/ci-unsafe-io"

git clone -q --no-hardlinks "$repo" "$root/root/ridgeline"

echo "--- packages in the fresh root before the set-up: $(chroot "$root" dpkg-query -W -f='.\n' | wc -l)"
for tool in cmake g++ qmake6; do
  if chroot "$root" sh -c "command -v $tool" >/dev/null; then
    echo "the fresh root already has $tool: it is not fresh" >&2
    exit 1
  fi
done

run_in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb bash -c "cd /root/ridgeline && $1"
}

echo "--- in the fresh root: ./test.sh"
run_in_root ./test.sh

echo "--- in the fresh root: ./run.sh with no display"
run_in_root ./run.sh
run_in_root 'test "$(head -c 8 build/ridgeline.png | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a' || {
  echo "./run.sh did not write a PNG screenshot to build/ridgeline.png in the fresh root" >&2
  exit 1
}
echo "--- the fresh root passed ./test.sh and ./run.sh"

if [ "${RIDGELINE_FRESH_ROOT_PACKAGE:-1}" = 1 ]; then
  echo "--- in the fresh root: the Debian package (scripts/ci-package.sh)"
  run_in_root scripts/ci-package.sh
fi
