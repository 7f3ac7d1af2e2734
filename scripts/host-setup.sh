#!/usr/bin/env bash
# Makes this machine's kernel ready for the tests that use it directly (as root): mounts
# tracefs on /sys/kernel/tracing when it is not mounted (the agent tests count XFS
# tracepoints through it), and loads the loop module when /dev/loop-control is missing (the
# prepare tests make filesystems on loop devices). A fresh machine without systemd has
# neither. Idempotent: does nothing when both are there. The agent tests do the same
# themselves (guest-agent/tests/host_setup.hpp), so the test binary alone works too.
set -euo pipefail

if [ ! -d /sys/kernel/tracing/events ] && [ ! -d /sys/kernel/debug/tracing/events ]; then
  if [ ! -d /sys/kernel/tracing ]; then
    echo "host-setup.sh: /sys/kernel/tracing does not exist: this kernel has no tracefs (CONFIG_TRACING); the agent's tracepoint tests will fail" >&2
    exit 1
  fi
  if ! mount -t tracefs -o nosuid,nodev,noexec tracefs /sys/kernel/tracing; then
    echo "host-setup.sh: cannot mount tracefs on /sys/kernel/tracing (run as root); the agent's tracepoint tests need it" >&2
    exit 1
  fi
  echo "host-setup.sh: mounted tracefs on /sys/kernel/tracing"
fi

if [ ! -e /dev/loop-control ]; then
  if ! modprobe loop || [ ! -e /dev/loop-control ]; then
    echo "host-setup.sh: /dev/loop-control is missing and \`modprobe loop\` did not create it; the agent's prepare tests need loop devices" >&2
    exit 1
  fi
  echo "host-setup.sh: loaded the loop module"
fi
