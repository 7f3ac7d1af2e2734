#!/usr/bin/env bash
# Starts virtlogd and libvirtd as plain daemons when they are not already running
# (machines without systemd), and waits until qemu:///system answers.
set -euo pipefail
if ! pgrep -x virtlogd >/dev/null; then
  virtlogd --daemon
fi
if ! pgrep -x libvirtd >/dev/null; then
  libvirtd --daemon
fi
for _ in $(seq 1 50); do
  if virsh -c qemu:///system list --all >/dev/null 2>&1; then exit 0; fi
  sleep 0.2
done
echo "start-libvirtd.sh: libvirtd did not answer on qemu:///system" >&2
exit 1
