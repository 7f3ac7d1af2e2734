#!/usr/bin/env bash
# Starts virtlogd and libvirtd when they are not already running (machines without systemd),
# and waits until qemu:///system answers.
#
# libvirtd leaves every QEMU it starts to be reaped by an ancestor, and a domain is gone only
# once its QEMU's exit is seen (a zombie still answers kill(pid, 0)). Without systemd that
# ancestor is the machine's PID 1, which in containers and sandboxed VMs may reap late: 1.2 to
# 1.9 s added to every guest's power-off was measured on such a machine, against 20 ms for
# the QEMU itself. So libvirtd runs in the foreground under tini as a child subreaper
# (`tini -s`), which reaps its QEMUs at once; its log goes to /var/log/libvirt/libvirtd.log.
set -euo pipefail
if ! pgrep -x virtlogd >/dev/null; then
  virtlogd --daemon
fi
if ! pgrep -x libvirtd >/dev/null; then
  mkdir -p /var/log/libvirt
  setsid tini -s -- libvirtd >>/var/log/libvirt/libvirtd.log 2>&1 </dev/null &
fi
for _ in $(seq 1 50); do
  if virsh -c qemu:///system list --all >/dev/null 2>&1; then exit 0; fi
  sleep 0.2
done
echo "start-libvirtd.sh: libvirtd did not answer on qemu:///system" >&2
exit 1
