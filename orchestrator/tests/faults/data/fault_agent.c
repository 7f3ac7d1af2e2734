/* A stand-in for rlab-agent as the guest's PID 1 that injects a fault into chosen cells.
 *
 * Started by the kernel (rdinit=) with nothing mounted, it first mounts what the real agent
 * mounts as PID 1 (proc, sysfs, devtmpfs, devpts, tracefs): the agent, its child, does not.
 * The binary is this program followed by the real static rlab-agent and a 16-byte trailer
 * (8-byte little-endian length of the agent, then "RLABFLT1"). At start it writes the real
 * agent to /rlab-agent.real and runs it as its child with --poweroff, so the host sees the
 * ordinary agent. PID 1 reaps orphans and watches /proc/mounts: once the disk under test is
 * mounted on /mnt/rlab as ext4 with the volume label "rlab-panic" or "rlab-crash"
 * (mkfs.ext4 -L), it waits kFaultDelayS seconds (mid-pass) and then
 *   rlab-panic: panics the kernel (sysrq 'c');
 *   rlab-crash: kills the agent with SIGSEGV.
 * When the agent dies, PID 1 exits with its status as the real agent (PID 1 itself) would:
 * the kernel panics with "Attempted to kill init!". Other cells run undisturbed.
 * Built by the fault tests with aarch64-linux-gnu-gcc -static. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { kFaultDelayS = 6 };
static const char kMagic[8] = {'R', 'L', 'A', 'B', 'F', 'L', 'T', '1'};
static const char kReal[] = "/rlab-agent.real";

static void say(const char* msg) { fprintf(stderr, "rlab-fault-agent: %s\n", msg); }

/* PID 1's mounts, as the real agent makes them when the kernel starts it (serve/pid1.hpp). */
static void mount_pseudo_filesystems(void) {
  static const char* const kMounts[][2] = {{"proc", "/proc"}, {"sysfs", "/sys"}, {"devtmpfs", "/dev"},
                                           {"devpts", "/dev/pts"}, {"tracefs", "/sys/kernel/tracing"}};
  if (access("/proc/self", F_OK) == 0) return;
  for (unsigned i = 0; i < sizeof kMounts / sizeof kMounts[0]; ++i) {
    mkdir(kMounts[i][1], 0755);
    if (mount(kMounts[i][0], kMounts[i][1], kMounts[i][0], 0, NULL) != 0) say(kMounts[i][1]);
  }
  mkdir("/dev/virtio-ports", 0755);  /* the agent links its port there itself */
}

/* Writes the appended agent to kReal; 0 on success. */
static int extract(void) {
  int in = open("/proc/self/exe", O_RDONLY);
  struct stat st;
  if (in < 0 || fstat(in, &st) != 0 || st.st_size < 16) return -1;
  unsigned char trailer[16];
  if (pread(in, trailer, 16, st.st_size - 16) != 16 || memcmp(trailer + 8, kMagic, 8) != 0) return -1;
  unsigned long long len = 0;
  for (int i = 7; i >= 0; --i) len = len << 8 | trailer[i];
  if (len == 0 || len > (unsigned long long)st.st_size - 16) return -1;
  char* buf = malloc(len);
  if (!buf || pread(in, buf, len, st.st_size - 16 - (off_t)len) != (ssize_t)len) return -1;
  int out = open(kReal, O_WRONLY | O_CREAT | O_TRUNC, 0755);
  if (out < 0 || write(out, buf, len) != (ssize_t)len || close(out) != 0) return -1;
  free(buf);
  close(in);
  return 0;
}

/* The fault asked for by the mounted disk under test: 'p' (panic), 'c' (crash) or 0. */
static int wanted_fault(void) {
  FILE* f = fopen("/proc/mounts", "r");
  if (!f) return 0;
  char dev[256], dir[256], type[64];
  int fault = 0;
  while (fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3) {
    if (strcmp(dir, "/mnt/rlab") != 0 || strcmp(type, "ext4") != 0) continue;
    char label[17] = {0};
    int fd = open(dev, O_RDONLY);
    if (fd >= 0 && pread(fd, label, 16, 1024 + 0x78) == 16) {  /* ext4 s_volume_name */
      if (strcmp(label, "rlab-panic") == 0) fault = 'p';
      if (strcmp(label, "rlab-crash") == 0) fault = 'c';
    }
    if (fd >= 0) close(fd);
  }
  fclose(f);
  return fault;
}

int main(int argc, char** argv) {
  (void)argc;
  mount_pseudo_filesystems();
  if (extract() != 0) {
    say("cannot extract the appended rlab-agent");
    return 1;
  }
  pid_t agent = fork();
  if (agent == 0) {
    char* args[] = {argv[0], "--poweroff", NULL};
    execv(kReal, args);
    _exit(127);
  }
  int fault = 0;
  time_t mounted = 0, done = 0;
  for (;;) {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      if (pid != agent) continue;
      char msg[96];
      if (WIFSIGNALED(status)) {
        snprintf(msg, sizeof msg, "rlab-agent killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
        say(msg);
        return 128 + WTERMSIG(status);
      }
      snprintf(msg, sizeof msg, "rlab-agent exited with status %d", WEXITSTATUS(status));
      say(msg);
      return WEXITSTATUS(status);
    }
    if (!done) {
      if (!fault && (fault = wanted_fault())) mounted = time(NULL);
      if (fault && time(NULL) - mounted >= kFaultDelayS) {
        done = time(NULL);
        if (fault == 'p') {
          say("panicking the kernel (sysrq c)");
          int fd = open("/proc/sysrq-trigger", O_WRONLY);
          if (fd < 0 || write(fd, "c", 1) != 1) say("cannot write /proc/sysrq-trigger");
        } else {
          say("sending SIGSEGV to rlab-agent");
          kill(agent, SIGSEGV);
        }
      }
    }
    usleep(200 * 1000);
  }
}
