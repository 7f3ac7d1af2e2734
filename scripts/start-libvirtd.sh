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
# Who may connect: with systemd, Debian's libvirt-daemon-system lets the group `libvirt` in
# through polkit. Without a system D-Bus there is no polkit, and libvirtd's default
# (auth_unix_rw = "polkit") would refuse everyone but root; so the daemon started by hand gets
# the same policy from the socket's permissions instead: group `libvirt`, mode 0770,
# auth_unix_rw = "none" (/run/rlab/libvirtd.conf: /etc/libvirt/libvirtd.conf plus those three
# settings, each only when /etc does not set it). A libvirtd that an earlier version of this
# script started without that policy is restarted with it when it runs no domain.
#
# The tests point these elsewhere: RLAB_SYSTEMD_DIR (/run/systemd/system), RLAB_SYSTEM_BUS
# (/run/dbus/system_bus_socket), RLAB_LIBVIRT_SOCK (/run/libvirt/libvirt-sock),
# RLAB_LIBVIRTD_CONF_IN (/etc/libvirt/libvirtd.conf), RLAB_LIBVIRTD_CONF (/run/rlab/libvirtd.conf).
set -euo pipefail
answers() { virsh -c qemu:///system list --all >/dev/null 2>&1; }
sock=${RLAB_LIBVIRT_SOCK:-/run/libvirt/libvirt-sock}

# The by-hand daemon's configuration: the group's socket policy where polkit cannot serve.
by_hand_config() {
  local conf=${RLAB_LIBVIRTD_CONF:-/run/rlab/libvirtd.conf}
  mkdir -p "$(dirname "$conf")"
  local given=${RLAB_LIBVIRTD_CONF_IN:-/etc/libvirt/libvirtd.conf}
  if [ -f "$given" ]; then cp "$given" "$conf"; else : >"$conf"; fi  # libvirt-daemon alone ships none
  if [ ! -S "${RLAB_SYSTEM_BUS:-/run/dbus/system_bus_socket}" ] && getent group libvirt >/dev/null; then
    set_unless_given() { grep -Eq "^[[:space:]]*$1[[:space:]]*=" "$conf" || echo "$1 = $2" >>"$conf"; }
    set_unless_given unix_sock_group '"libvirt"'
    set_unless_given unix_sock_rw_perms '"0770"'
    set_unless_given auth_unix_rw '"none"'
  fi
  echo "$conf"
}

if [ -d "${RLAB_SYSTEMD_DIR:-/run/systemd/system}" ]; then
  if ! answers; then
    systemctl start libvirtd.service
  fi
else
  if ! pgrep -x virtlogd >/dev/null; then
    virtlogd --daemon
  fi
  conf=$(by_hand_config)
  if pgrep -x libvirtd >/dev/null && grep -q '^unix_sock_group = "libvirt"' "$conf" &&
     [ "$(stat -c %G "$sock" 2>/dev/null)" != libvirt ] &&
     [ -z "$(virsh -c qemu:///system list --name 2>/dev/null | tr -d '[:space:]')" ]; then
    pkill -x libvirtd
    for _ in $(seq 1 50); do pgrep -x libvirtd >/dev/null || break; sleep 0.2; done
  fi
  if ! pgrep -x libvirtd >/dev/null; then
    mkdir -p /var/log/libvirt
    setsid tini -s -- libvirtd -f "$conf" >>/var/log/libvirt/libvirtd.log 2>&1 </dev/null &
  fi
fi
for _ in $(seq 1 50); do
  if answers; then exit 0; fi
  sleep 0.2
done
echo "start-libvirtd.sh: libvirtd did not answer on qemu:///system" >&2
exit 1
