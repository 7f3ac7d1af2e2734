#!/usr/bin/env bash
# Starts libvirtd when it is not running, and waits until qemu:///system answers.
#
# Where systemd runs (/run/systemd/system exists, as sd_booted(3) checks), through systemd:
# `systemctl start libvirtd.service`, whose unit (libvirt-daemon-system) pulls in virtlogd's
# and virtlockd's sockets; nothing is started when qemu:///system already answers.
#
# Elsewhere (containers, sandboxed VMs) by hand: virtlogd and libvirtd when they are not
# already running. libvirtd leaves every QEMU it starts to be reaped by an ancestor, and a
# domain is gone only once its QEMU's exit is seen (a zombie still answers kill(pid, 0)).
# Without systemd that ancestor is the machine's PID 1, which in containers and sandboxed VMs
# may reap late: 1.2 to 1.9 s added to every guest's power-off was measured on such a machine,
# against 20 ms for the QEMU itself. So libvirtd runs in the foreground under tini as a child
# subreaper (`tini -s`), which reaps its QEMUs at once; its log goes to
# /var/log/libvirt/libvirtd.log.
#
# RLAB_SYSTEMD_DIR replaces /run/systemd/system (the tests point it elsewhere).
set -euo pipefail
answers() { virsh -c qemu:///system list --all >/dev/null 2>&1; }

if [ -d "${RLAB_SYSTEMD_DIR:-/run/systemd/system}" ]; then
  if ! answers; then
    systemctl start libvirtd.service
  fi
else
  if ! pgrep -x virtlogd >/dev/null; then
    virtlogd --daemon
  fi
  if ! pgrep -x libvirtd >/dev/null; then
    mkdir -p /var/log/libvirt
    setsid tini -s -- libvirtd >>/var/log/libvirt/libvirtd.log 2>&1 </dev/null &
  fi
fi
for _ in $(seq 1 50); do
  if answers; then exit 0; fi
  sleep 0.2
done
echo "start-libvirtd.sh: libvirtd did not answer on qemu:///system" >&2
exit 1
