#!/usr/bin/env bash
# A second, private libvirtd on this machine for the many-hosts and restart tests: run it as
#   unshare -m bash private-libvirtd.sh <config dir> <pid file> [<state dir>]
# In its own mount namespace it gets empty /run/libvirt, /var/lib/libvirt and
# /var/cache/libvirt and <config dir> as /etc/libvirt, so it shares no state, socket or
# domain with the machine's libvirtd (whose guests it must never see or adopt). The config
# dir's libvirtd.conf makes it listen on TCP (qemu+tcp://127.0.0.1:<port>/system), like a
# remote host. It replaces this script (exec): killing the spawned pid stops the daemon.
#
# With <state dir>, the three directories are bind-mounted from <state dir>/run,
# <state dir>/lib and <state dir>/cache (created if missing) instead of fresh tmpfs: they
# outlive the daemon, so a daemon started again with the same arguments finds its running
# guests' status files and monitor sockets and reconnects to their QEMU (a libvirtd restart).
set -euo pipefail
conf=$1
pidfile=$2
state=${3:-}
mount --make-rprivate /
for d in run:/run/libvirt lib:/var/lib/libvirt cache:/var/cache/libvirt; do
  if [[ -n "$state" ]]; then
    mkdir -p "$state/${d%%:*}"
    chmod 0755 "$state/${d%%:*}"
    mount --bind "$state/${d%%:*}" "${d#*:}"
  else
    mount -t tmpfs -o mode=0755 tmpfs "${d#*:}"
  fi
done
mount --bind "$conf" /etc/libvirt
exec libvirtd --listen -f /etc/libvirt/libvirtd.conf -p "$pidfile"
