#pragma once
// The agent started by the kernel itself (`rdinit=/usr/bin/rlab-agent`), with nothing mounted:
// it does what the initramfs's shell /init would have done before exec'ing it, without a shell
// and a process per step (each an exec under TCG: 0.3-0.5 s of the boot). A no-op when /init
// already did it, so the agent runs either way.

namespace rlab::agent {

/// When this process is PID 1 and /proc is not mounted: mounts proc (/proc), sysfs (/sys),
/// devtmpfs (/dev), devpts (/dev/pts) and tracefs (/sys/kernel/tracing), makes /dev/shm and
/// /dev/virtio-ports (DeviceServer links its port there from sysfs as it opens it), sets PATH, LANG
/// and LC_ALL, and exports RLAB_INIT_UPTIME (the guest's uptime as this process started, s:
/// the hello's init_uptime_s, equal to its agent_uptime_s), then prints "rlab-agent: init at <uptime>s" on the console. A mount that
/// fails is reported on stderr and the rest goes on (the load's prepare says what is missing).
/// Returns whether it did the setup.
bool setup_as_init();

}  // namespace rlab::agent
