#!/usr/bin/env bash
# A libvirtd that shares no filesystem view with rlab, for the isolated-host test: run it in a
# network namespace of its own as
#   ip netns exec <ns> unshare -m bash isolated-libvirtd.sh <config dir> <dir to hide>...
# In its mount namespace /etc/libvirt is <config dir>, and /run/libvirt, /var/lib/libvirt,
# /var/cache/libvirt, /tmp, /var/tmp and every <dir to hide> (rlab's checkout, build and cache)
# are fresh empty tmpfs: nothing of rlab's — run directory, store, kernels — is at its path
# there, so files reach the daemon's QEMU only through libvirt (storage volumes). The config's
# libvirtd.conf makes it listen on TCP on the namespace's own address. It replaces this script
# (exec): killing the process stops the daemon.
set -euo pipefail
conf=$1
shift
mount --make-rprivate /
mount --bind "$conf" /etc/libvirt  # first: the config dir itself is under /var/tmp
for d in /run/libvirt /var/lib/libvirt /var/cache/libvirt /tmp /var/tmp "$@"; do
  [[ -d "$d" ]] || continue  # already hidden under one mounted before it
  mount -t tmpfs -o mode=0755 tmpfs "$d"
done
exec libvirtd --listen -f /etc/libvirt/libvirtd.conf -p /run/libvirt/libvirtd.pid
