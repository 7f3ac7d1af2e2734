#!/usr/bin/env bash
# Prepares a fresh Debian 12 machine (as root; amd64, or arm64 where everything is native) for
# rlab: installs scripts/packages.txt as resolved for this machine's architecture
# (scripts/packages.sh), starts libvirtd (through systemd where systemd runs, by hand where it
# does not: scripts/start-libvirtd.sh), and builds what the main job (scripts/run.sh) needs:
# rlab and the static aarch64 agent (cross built, or native on an aarch64 machine).
# The tests, the host-native agent and the fuzz targets are built by scripts/test.sh.
# Idempotent: a second run installs nothing when every package is installed, and rebuilds
# only what changed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: run as root (it installs packages and starts libvirtd)" >&2
  exit 2
fi

# Packages of another architecture (`name:arch` in packages.txt: the arm64 libraries of the
# cross-built agent on amd64) need that architecture in dpkg first. None on arm64.
foreign=$(bash scripts/packages.sh foreign)
for arch in $foreign; do
  if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    echo "setup.sh: adding the $arch architecture to apt (dpkg --add-architecture $arch)"
    dpkg --add-architecture "$arch"
  fi
done

# Installs what scripts/packages.sh reports missing; nothing (not even apt-get update) when
# nothing is. Twice: the second round adds npm where the nodejs just installed has none.
updated=0
install_missing() {
  local out missing
  out=$(bash scripts/packages.sh missing)
  [ -n "$out" ] || return 0
  mapfile -t missing <<<"$out"
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [ "$updated" = 0 ]; then
    apt-get update -q
    updated=1
  fi
  apt-get install -y -q --no-install-recommends "${missing[@]}"
}
install_missing
install_missing

bash scripts/start-libvirtd.sh

# ccache keyed relative to the checkout, so a fresh clone elsewhere reuses earlier objects.
export CCACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/rlab/ccache-host"
export CCACHE_BASEDIR="$here" CCACHE_NOHASHDIR=1
cmake --preset host >/dev/null
cmake --build --preset host --target rlab
# The aarch64-agent preset has RLAB_BUILD_TESTS=OFF: its default target is the agent alone.
cmake --preset aarch64-agent >/dev/null
cmake --build --preset aarch64-agent
echo "setup.sh: built build/host/orchestrator/rlab and build/aarch64/guest-agent/rlab-agent"
