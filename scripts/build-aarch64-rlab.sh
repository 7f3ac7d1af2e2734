#!/usr/bin/env bash
# Builds rlab for aarch64 on a machine that is not (x86_64), and packs it with what it needs
# to run on an arm64 Debian 12 host that has libvirt and QEMU but no compiler:
#
#   <out>/bin/rlab                    the aarch64 program
#   <out>/lib/                        the arm64 shared libraries it needs beyond glibc
#                                     (libvirt0, libyaml-cpp0.7, libprometheus-cpp-*, ...)
#   <out>/share/rlab/, <out>/lib/rlab/rlab-agent
#                                     what `cmake --install` puts there (the default matrix,
#                                     images/, the static agent when build/aarch64 has one)
#   <out>/rlab                        a wrapper that runs bin/rlab with lib/ on its library path
#
# How: Debian's cross compiler (g++-aarch64-linux-gnu) against an arm64 sysroot of rlab's
# build dependencies — bookworm's arm64 -dev packages unpacked by `mmdebstrap --variant=extract`
# (nothing runs, no root, no binfmt), kept in the cache as sysroot-arm64/<key> — because several
# of them cannot be installed beside their amd64 selves through multiarch (prometheus-cpp-dev,
# libyaml-cpp-dev). cmake/aarch64-sysroot.cmake is the toolchain, build/aarch64-rlab the build
# tree, its own ccache in <cache>/ccache-aarch64-rlab.
#
# Usage: scripts/build-aarch64-rlab.sh <out dir>
# The mirror is RLAB_DEBIAN_MIRROR, else the first Debian URI apt uses here (an error names
# the variable when there is none).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/build-aarch64-rlab.sh <out dir>}
cache="${RLAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rlab}"

mirror=${RLAB_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "URIs:" && $2 ~ /debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
  mirror=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
fi
if [ -z "$mirror" ]; then
  echo "build-aarch64-rlab: no Debian mirror in this machine's apt sources; set RLAB_DEBIAN_MIRROR=http://<a Debian mirror>/debian" >&2
  exit 2
fi

packages=libc6-dev,libstdc++-12-dev,libvirt-dev,libboost-dev,libyaml-cpp-dev,prometheus-cpp-dev,libsqlite3-dev,libspdlog-dev,libfmt-dev,libxml2-dev,libssl-dev,libcurl4-openssl-dev,libcli11-dev,nlohmann-json3-dev,libbpf-dev,libelf-dev,zlib1g-dev
key=$(printf '%s\n%s\n' "$packages" "$mirror" | sha256sum | cut -c1-16)
sysroot="$cache/sysroot-arm64/$key"
if [ ! -d "$sysroot/usr/lib/aarch64-linux-gnu" ]; then
  echo "build-aarch64-rlab: unpacking the arm64 sysroot ($mirror bookworm) into $sysroot"
  rm -rf "$sysroot.partial"
  mkdir -p "$(dirname "$sysroot")"
  mmdebstrap --mode=chrootless --variant=extract --architectures=arm64 --quiet \
    --include="$packages" bookworm "$sysroot.partial" "deb $mirror bookworm main"
  mv "$sysroot.partial" "$sysroot"
fi

export CCACHE_DIR="$cache/ccache-aarch64-rlab" CCACHE_BASEDIR="$here" CCACHE_NOHASHDIR=1
cd "$here"
# A build tree configured against another sysroot (another cache directory or mirror) keeps
# that sysroot's paths in every find_package result: it is configured afresh. The sysroot it
# was last configured against is in build/aarch64-rlab/sysroot.
fresh=()
if [ "$(cat build/aarch64-rlab/sysroot 2>/dev/null)" != "$sysroot" ]; then fresh=(--fresh); fi
cmake --preset aarch64-rlab "${fresh[@]}" -DRLAB_ARM64_SYSROOT="$sysroot" >/dev/null
echo "$sysroot" >build/aarch64-rlab/sysroot
cmake --build --preset aarch64-rlab --target rlab
rm -rf "$out"
cmake --install build/aarch64-rlab --prefix "$out" >/dev/null

# The shared libraries bin/rlab needs, found by their DT_NEEDED names in the sysroot, closed
# over what they need in turn; glibc's own (libc, libm, ld-linux, ...) stay the host's.
mkdir -p "$out/lib"
declare -A seen=()
queue=("$out/bin/rlab")
while ((${#queue[@]})); do
  elf=${queue[0]}
  queue=("${queue[@]:1}")
  for lib in $(aarch64-linux-gnu-readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    case "$lib" in libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux-*|libresolv.so.*) continue ;; esac
    [ -n "${seen[$lib]:-}" ] && continue
    seen[$lib]=1
    found=""
    for dir in "$sysroot/lib/aarch64-linux-gnu" "$sysroot/usr/lib/aarch64-linux-gnu"; do
      if [ -e "$dir/$lib" ]; then found="$dir/$lib"; break; fi
    done
    [ -n "$found" ] || { echo "build-aarch64-rlab: $lib (needed by $elf) is not in the sysroot" >&2; exit 1; }
    cp -L "$found" "$out/lib/$lib"
    queue+=("$out/lib/$lib")
  done
done
cat >"$out/rlab" <<'EOF'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$here/bin/rlab" "$@"
EOF
chmod 755 "$out/rlab"
echo "build-aarch64-rlab: $out ($(du -sh "$out" | cut -f1)): bin/rlab and ${#seen[@]} libraries"
