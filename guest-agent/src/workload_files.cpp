#include "workload_files.hpp"

#include <cstdint>
#include <vector>

namespace rlab::agent {

const std::string& sort_input_text() {
  static const std::string text = [] {
    // Sentences built from a fixed vocabulary by a fixed linear congruential generator:
    // deterministic, plain ASCII, mixed-case words and numbers so `sort` and `od` have work.
    static const char* const kWords[] = {
        "the",     "kernel",  "inode",   "queue",    "worker",  "flush",   "disk",   "page",
        "block",   "extent",  "journal", "mount",    "loop",    "shell",   "pass",   "copy",
        "other",   "there",   "then",    "buffer",   "cache",   "lock",    "spin",   "wait",
        "Alpha",   "Bravo",   "Charlie", "Delta",    "echo",    "fox",     "grep",   "sort",
        "tee",     "wc",      "od",      "rm",       "vcpu",    "group",   "allocation", "tree",
        "node",    "leaf",    "key",     "value",    "write",   "read",    "sync",   "log",
        "ten",     "42",      "1024",    "65536",    "0x1f",    "7",       "-3",     "zero"};
    constexpr std::size_t kNumWords = sizeof kWords / sizeof kWords[0];
    std::uint32_t state = 20260101u;
    auto next = [&state] {
      state = state * 1664525u + 1013904223u;
      return state >> 8;
    };
    std::string out;
    for (int line = 0; line < 362; ++line) {
      const std::uint32_t n = 2 + next() % 6;  // 2..7 words
      std::string l;
      for (std::uint32_t w = 0; w < n; ++w) {
        if (w) l += ' ';
        l += kWords[next() % kNumWords];
      }
      if (line % 9 == 0) l = "# " + l;  // some comment-like lines, as in a script
      out += l;
      out += '\n';
    }
    return out;
  }();
  return text;
}

const std::string& copy_script_text() {
  static const std::string text =
      "set -e\n"
      "sort >sort.$$ <sort.src\n"
      "od sort.$$ | sort -n -k 1 >od.$$\n"
      "grep the sort.$$ | tee grep.$$ | wc >wc.$$\n"
      "rm sort.$$ grep.$$ od.$$ wc.$$\n";
  return text;
}

const std::string& loop_script_text() {
  static const std::string text =
      "i=0\n"
      "pids=\n"
      "while [ \"$i\" -lt \"$1\" ]; do\n"
      "  /bin/sh ./copy.sh &\n"
      "  pids=\"$pids $!\"\n"
      "  i=$((i + 1))\n"
      "done\n"
      "rc=0\n"
      "for p in $pids; do\n"
      "  wait \"$p\" || rc=1\n"
      "done\n"
      "exit $rc\n";
  return text;
}

}  // namespace rlab::agent
