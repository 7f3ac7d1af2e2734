#!/usr/bin/env bash
# A second, private libvirtd on this machine for the many-hosts tests: run it as
#   unshare -m bash private-libvirtd.sh <config dir> <pid file>
# In its own mount namespace it gets empty /run/libvirt, /var/lib/libvirt and
# /var/cache/libvirt and <config dir> as /etc/libvirt, so it shares no state, socket or
# domain with the machine's libvirtd (whose guests it must never see or adopt). The config
# dir's libvirtd.conf makes it listen on TCP (qemu+tcp://127.0.0.1:<port>/system), like a
# remote host. It replaces this script (exec): killing the spawned pid stops the daemon.
set -euo pipefail
conf=$1
pidfile=$2
mount --make-rprivate /
for d in /run/libvirt /var/lib/libvirt /var/cache/libvirt; do
  mount -t tmpfs -o mode=0755 tmpfs "$d"
done
mount --bind "$conf" /etc/libvirt
exec libvirtd --listen -f /etc/libvirt/libvirtd.conf -p "$pidfile"
