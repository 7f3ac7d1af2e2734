#!/usr/bin/env bash
# Prepares a fresh Debian 12 machine (as root) for rlab: installs scripts/packages.txt,
# starts virtlogd and libvirtd by hand when they are not running (no systemd needed),
# and builds what the main job (scripts/run.sh) needs: rlab and the static aarch64 agent.
# The tests, the host-native agent and the fuzz targets are built by scripts/test.sh.
# Idempotent: a second run installs and rebuilds only what changed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: run as root (it installs packages and starts libvirtd)" >&2
  exit 2
fi

# The static aarch64 agent links Debian's arm64 libbpf, libelf and zlib archives
# (scripts/packages.txt lists them as :arm64): apt needs the architecture first.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "setup.sh: adding the arm64 architecture to apt (dpkg --add-architecture arm64)"
  dpkg --add-architecture arm64
fi

mapfile -t pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/packages.txt | grep -v '^$')
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

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
