#!/usr/bin/env bash
# Runs rlab's whole test suite (unit tests and the tests against real components: kernel
# build, QEMU guests, libvirtd, Prometheus). Expects scripts/setup.sh to have run (packages,
# rlab, the static aarch64 agent); builds the tests and the fuzz targets itself
# (incrementally), mounts tracefs and loads the loop module when missing
# (scripts/host-setup.sh), then runs ctest.
# The first run on a fresh machine builds the default matrix's 64K-page arm64 kernels (the
# lab_kernels fixture, ~9 min on 2 cores); later runs take them from the cache in
# ${XDG_CACHE_HOME:-~/.cache}/rlab.
#
# RLAB_LONG_TESTS=1 also runs the long tier (docs/architecture.md "Building and testing
# rlab"): RealBisect.* (rlab bisect over generated kernel series), RealNightlyBisect.* (two
# nights that find, bisect and check a planted regression, one of them as the XFS / ext4 gap), RealKvmBisect.* and RealKvmMatrix.*
# (a bisection and the whole KVM matrix on the emulated arm64 KVM host), RealSoak.TenNights*
# (ten nights with faults), RealBpfKernels.* (the agent's BPF programs on a 6.1 guest kernel),
# RealWorkTreeBuild.* (an incremental kernel equals a clean build of the same commit),
# RealPrebuiltKernel.* (the 6.12 Image and .config handed back as a prebuilt kernel, booted to a
# score), RealFullConfigKernel.* (a kernel configured from a full distribution-style .config,
# its changes listed) and
# RealLibvirtdRestart.* (a run across a libvirtd restart, also night 3 of RealSoak.ThreeNights),
# and inside RealKvmHost.* apt's resolution of setup.sh's package list on the emulated host;
# up to an hour each on 2 cores. Their last passing runs are in docs/benchmarks.md "Test
# command"; the default tier covers each of their components in a shorter form.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

# The same ccache as scripts/setup.sh: objects it built are reused.
export CCACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/rlab/ccache-host"
export CCACHE_BASEDIR="$here" CCACHE_NOHASHDIR=1
cmake --preset host >/dev/null
cmake --build --preset host          # rlab, the host-native agent, every test binary
# The libFuzzer targets (clang, ASan + UBSan) build beside ctest at the lowest CPU priority:
# on a fresh machine they take the cores the guest tests leave idle. Their log is
# build/fuzz-build.log; a failed build fails this script before the fuzz runs.
cmake --preset fuzz >/dev/null
nice -n 19 cmake --build --preset fuzz >build/fuzz-build.log 2>&1 &
fuzz_build=$!
trap 'kill "$fuzz_build" 2>/dev/null || true' EXIT

bash scripts/host-setup.sh
bash scripts/start-libvirtd.sh
long=(-E '^(RealBisect|RealNightlyBisect|RealKvmBisect|RealKvmMatrix|RealBpfKernels|RealWorkTreeBuild|RealLibvirtdRestart|RealPrebuiltKernel|RealFullConfigKernel)\.|^RealSoak\.TenNights')
[[ "${RLAB_LONG_TESTS:-0}" == 1 ]] && long=()
# Tests run side by side: each test's share of the cores is in cmake/test_resources.cmake (a
# kernel build or two guests take two, one 1-vCPU guest one, unit tests none; tests that
# measure in real time run alone). The spec offers twice the machine's cores: a guest test
# keeps its cores busy for only part of its time (boot, mkfs, libvirt calls, power-off and the
# fixed pauses between passes; docs/benchmarks.md "Test command"), so two run side by side.
cores=$(nproc)
((cores >= 2)) || cores=2   # a test's share is at most two cores
spec="$here/build/host/test-resources.json"
printf '{"version": {"major": 1, "minor": 0}, "local": [{"cores": [{"id": "0", "slots": %d}]}]}\n' "$((2 * cores))" >"$spec"
ctest --preset host --timeout 3600 -j "$((2 * cores + 2))" --resource-spec-file "$spec" "${long[@]}" "$@"
if ! wait "$fuzz_build"; then
  tail -n 40 build/fuzz-build.log >&2
  echo "test.sh: building the fuzz targets failed (build/fuzz-build.log)" >&2
  exit 1
fi
trap - EXIT
# Short regression runs of the libFuzzer targets (ASan + UBSan) on their seed corpora, side by side.
ctest --preset fuzz --timeout 600 -j "$cores" "$@"
