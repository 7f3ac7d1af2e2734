# How the tests share the machine: read by ctest (a TEST_INCLUDE_FILES script, included after
# GoogleTest's discovered tests), it gives each test its share of the machine's CPU cores and
# what it waits for. With `ctest -j N --resource-spec-file <cores>` (scripts/test.sh offers
# twice nproc: a guest test keeps its cores busy only part of its time), ctest never runs more
# tests at once than their shares allow; tests without a share (unit tests: a few ms to a few
# seconds of one core each) fill the gaps.
#
#   cores:2     keeps two cores busy: a kernel build (make -j), two guests at once, a 2-vCPU
#               guest, the emulated KVM host (one TCG thread per emulated CPU)
#   cores:1     one 1-vCPU TCG guest at a time, or a server, browser or apt download that
#               mostly waits
#   RUN_SERIAL  measures in real time what a neighbour would move (boot-to-hello against raw
#               QEMU, noise, fidelity, the host's steal), or runs the emulated KVM host, whose
#               nested guests and sshd stall when its two emulated CPUs are starved: nothing
#               else runs beside it
#   rlab_aarch64 the fixture that cross-builds rlab for aarch64 (scripts/build-aarch64-rlab.sh),
#               which RealKvmHost runs inside the emulated arm64 host
#   kvm_host_disk the fixture that makes the emulated KVM host's root filesystem
#               (RealKvmHostDisk.*): on a fresh machine it runs beside the kernel build instead
#               of inside the tests on the host, which run alone
#   lab_kernels the fixture that builds the default matrix's kernels (orchestrator/
#               CMakeLists.txt): every Real* test that boots a guest kernel starts after it, so
#               on an empty cache one build serves them all and the tests that need no kernel
#               run beside it
#
# A Real* test not listed takes cores:2 and waits for lab_kernels, the safe default; the
# measured time of each long test is in docs/benchmarks.md "Test command". Expects
# RLAB_TEST_LISTS: the names of the list variables gtest_discover_tests() set (<target>_TESTS).

set(_rlab_serial "^(RealBench|RealNoise|RealFidelity|RealLoad|RealSampleHost|RealKvmHost|RealKvmMatrix|RealKvmBisect)\\.")
# The agent's tests that run on this machine's kernel (rlab_agent_tests): the shell1 load,
# mkfs on loop devices, BPF programs on its tracepoints. Two cores, so no guest or kernel build
# runs beside them; unit tests may.
set(_rlab_agent_on_host "^(Run|Prepare|Attribution|AgHeaderAttribution|BpfAgHeaders|BpfWaits|XfsAg|Workload)\\.")
# Real* tests that boot no guest kernel (servers, the browser, libvirt without a guest, the
# kernel source tree, the userland): one core each, and no wait for the kernel build.
set(_rlab_no_kernel_suites
    "RealLibvirt|RealPinning|RealStorage|RealInterrupts|RealBoot|RealAgentLink|RealInitramfs|RealKernelTree|RealMetricsServers|RealPromtool|RealGrafanaSchema|RealFlameBrowser|RealBookwormPackages|RealKvmHostDisk")
set(_rlab_no_kernel "^(${_rlab_no_kernel_suites})\\.")
# One 1-vCPU guest at a time: whole suites, and the tests whose matrix gives the host a budget
# of one vCPU (two cells one after the other) or whose guest is a fake kernel.
set(_rlab_one_core "^((${_rlab_no_kernel_suites}|RealIcount|RealGuest|RealGroupUser)\\.|RealRunFaults\\.(Sigkill|TheNextRunSweeps)|RealHosts\\.EveryHostDrained|RealRemoteChannel\\.Silent)")

# The longest real tests start first once their fixtures are ready (ctest runs higher COST
# first; a fresh clone has no timings of its own yet), so the end of the run is short tests
# filling the cores rather than one long test beside idle ones. Seconds measured on a fresh
# machine (docs/benchmarks.md "Test command", 2026-12-07); other real tests count 30.
set(_rlab_cost_350 "^(RealShortBisect|RealKvmHostDisk)\\.")
set(_rlab_cost_180 "^(RealNightly\\.AnUndecided|RealSoak\\.ThreeNights)")
set(_rlab_cost_80 "^(RealRunFaults\\.FullResultsDisk|RealIsolatedHost\\.|RealGuestFaults\\.HungGuest|RealAttribution\\.|RealHosts\\.HostGone|RealRunFaults\\.Sigkill)")

foreach(_list IN LISTS RLAB_TEST_LISTS)
  foreach(_t IN LISTS ${_list})
    if(_list MATCHES "^rlab_agent_tests_TESTS$" AND _t MATCHES "${_rlab_agent_on_host}")
      # One at a time (the lock): they trace this machine's one kernel — its XFS workers and
      # AG header locks — and a neighbour's filesystems, made and torn down at the same time,
      # showed up once in a pass that expected a quiet filesystem (2026-12-07).
      # COST: about 45 s together; without one they ran last, after the tests that run alone.
      set_tests_properties("${_t}" PROPERTIES RESOURCE_GROUPS "cores:2" RESOURCE_LOCK host_kernel COST 80 LABELS unit)
      continue()
    elseif(NOT _t MATCHES "^Real")
      set_tests_properties("${_t}" PROPERTIES LABELS unit)
      continue()
    endif()
    if(_t MATCHES "${_rlab_serial}")
      set_tests_properties("${_t}" PROPERTIES RUN_SERIAL TRUE LABELS real)
    elseif(_t MATCHES "${_rlab_one_core}")
      set_tests_properties("${_t}" PROPERTIES RESOURCE_GROUPS "cores:1" LABELS real)
    else()
      set_tests_properties("${_t}" PROPERTIES RESOURCE_GROUPS "cores:2" LABELS real)
    endif()
    set(_cost 30)
    foreach(_c 350 180 80)
      if(_t MATCHES "${_rlab_cost_${_c}}")
        set(_cost ${_c})
        break()
      endif()
    endforeach()
    set_tests_properties("${_t}" PROPERTIES COST ${_cost})
    if(_t MATCHES "^RealKvmHostDisk\\.")
      set_tests_properties("${_t}" PROPERTIES FIXTURES_SETUP kvm_host_disk)
    elseif(_t MATCHES "^RealKvmHost\\.")  # it also runs the aarch64 rlab inside the host
      set_tests_properties("${_t}" PROPERTIES FIXTURES_REQUIRED "lab_kernels;rlab_aarch64;kvm_host_disk")
    elseif(_t MATCHES "^RealKvm(Matrix|Bisect)\\.")
      set_tests_properties("${_t}" PROPERTIES FIXTURES_REQUIRED "lab_kernels;kvm_host_disk")
    elseif(NOT _t MATCHES "${_rlab_no_kernel}")
      set_tests_properties("${_t}" PROPERTIES FIXTURES_REQUIRED lab_kernels)
    endif()
  endforeach()
endforeach()
