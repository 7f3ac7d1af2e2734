#include "load/workload_files.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace rlab::agent {

InputStats input_stats(std::string_view t) {
  InputStats s;
  s.bytes = t.size();
  std::set<std::string_view> distinct;
  std::size_t start = 0;
  while (start < t.size()) {
    std::size_t nl = t.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? t.size() : nl;
    const std::string_view line = t.substr(start, end - start);
    ++s.lines;
    distinct.insert(line);
    if (line.find("the") != std::string_view::npos) {
      ++s.the_lines;
      s.the_bytes += line.size() + (nl == std::string_view::npos ? 0 : 1);
    }
    start = end + 1;
  }
  s.distinct_lines = distinct.size();
  for (unsigned char c : t)
    if (c != '\n' && (c < 32 || c > 126)) s.printable_ascii = false;
  return s;
}

InputStats unixbench_input_stats() {
  InputStats s;
  s.bytes = 8546;
  s.lines = 362;
  s.distinct_lines = 273;
  s.the_lines = 35;
  s.the_bytes = 924;
  return s;
}

namespace {

/// A fixed linear congruential generator (Numerical Recipes' constants): the same sequence on
/// every platform and compiler.
struct Lcg {
  std::uint32_t state;
  std::uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  std::size_t below(std::size_t n) { return next() % n; }
};

// rlab's vocabulary: no entry contains "the", so only the lines built around "the" match.
const char* const kWords[] = {
    "kernel", "inode", "queue", "worker", "flush",  "disk",   "page",   "block",  "extent", "journal",
    "mount",  "loop",  "shell", "pass",   "copy",   "buffer", "cache",  "lock",   "spin",   "wait",
    "log",    "tree",  "node",  "leaf",   "key",    "value",  "write",  "read",   "sync",   "file",
    "dir",    "path",  "name",  "size",   "count",  "list",   "item",   "base",   "temp",   "result",
    "output", "input", "error", "status", "option", "flag",   "mode",   "user",   "group",  "time",
    "date",   "run",   "test",  "make",   "build",  "clean",  "check",  "print",  "format", "number",
    "$1",     "$$",    "-f",    "-n",     "0",      "1",      "42",     "2>&1",   "||",     "&&",
    "${dir}", "$#",    "-eq",   "-gt",    "\"$@\"", ">>",     "[",      "]",      "{",      "}"};
const char* const kCommands[] = {"echo", "printf", "test", "mkdir -p", "chmod", "cp", "mv", "ls",
                                 "cat",  "awk",    "sed",  "cut",      "tr",    "expr", "kill", "trap"};
const char* const kVariables[] = {"HOMEDIR", "BINDIR", "LOGDIR", "TMPDIR", "WORKDIR", "RESULTS",
                                  "COUNT",   "PASSES", "LIMIT",  "STATUS", "VERSION", "MODE"};

/// Exactly n characters (n >= 1) of vocabulary words separated by single spaces, without a
/// leading or trailing space; the last word may be cut short.
std::string fill(Lcg& r, std::size_t n) {
  std::string s;
  while (s.size() < n) {
    if (!s.empty()) s += n - s.size() >= 2 ? ' ' : 'x';
    std::string w = kWords[r.below(std::size(kWords))];
    s += w.substr(0, n - s.size());
  }
  return s;
}

/// A line of exactly n characters without "the": a comment, an assignment, a command or words.
std::string plain_line(Lcg& r, std::size_t n) {
  const std::string var = kVariables[r.below(std::size(kVariables))];
  const std::string cmd = kCommands[r.below(std::size(kCommands))];
  switch (r.below(4)) {
    case 0:
      if (n >= 3) return "# " + fill(r, n - 2);
      break;
    case 1:
      if (n >= var.size() + 2) return var + "=" + fill(r, n - var.size() - 1);
      break;
    case 2:
      if (n >= cmd.size() + 2) return cmd + " " + fill(r, n - cmd.size() - 1);
      break;
    default: break;
  }
  return fill(r, n);
}

/// A line of exactly n >= 7 characters that contains "the": a comment or words around the
/// word "the", or a condition ending in "; then".
std::string the_line(Lcg& r, std::size_t n) {
  switch (r.below(3)) {
    case 0:
      if (n >= 9) {
        const std::size_t a = 1 + r.below(n - 8);
        return "# " + fill(r, a) + " the " + fill(r, n - 7 - a);
      }
      break;
    case 1:
      if (n >= 10) return "if " + fill(r, n - 9) + "; then";
      break;
    default: break;
  }
  const std::size_t a = 1 + r.below(n - 6);
  return fill(r, a) + " the " + fill(r, n - 5 - a);
}

/// `count` line lengths in [lo, hi], drawn skewed towards short lines, then nudged one
/// character at a time until they add up to `total` characters.
std::vector<std::size_t> lengths(Lcg& r, std::size_t count, std::size_t total, std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> len(count);
  std::size_t sum = 0;
  for (auto& l : len) {
    const std::size_t a = r.below(hi - lo + 1), b = r.below(hi - lo + 1);
    l = lo + (a + b) / 2;  // a triangle around the middle of the range
    sum += l;
  }
  while (sum != total) {
    auto& l = len[r.below(count)];
    if (sum < total && l < hi) ++l, ++sum;
    else if (sum > total && l > lo) --l, --sum;
  }
  return len;
}

std::string generate_input() {
  // Repeated lines: short shell keywords and statements, each appearing `times` times.
  const std::pair<const char*, int> repeated[] = {
      {"fi", 30},       {"done", 19},    {";;", 15},         {"esac", 6},       {"exit 0", 4},
      {"else", 3},      {"shift", 3},    {"}", 3},           {"do", 2},         {"break", 2},
      {"wait", 2},      {"sync", 2},     {"exit 1", 2},      {"return 1", 2},   {"continue", 2},
      {"cd $OLDPWD", 2}, {"set -u", 2},  {"umask 022", 2},   {"echo", 2},       {"shift 2", 2},
      {"read line", 2}, {"local rc=0", 2}};
  const InputStats want = unixbench_input_stats();
  std::vector<std::string> lines;
  std::set<std::string> seen;
  for (const auto& [text, times] : repeated) {
    seen.insert(text);
    for (int i = 0; i < times; ++i) lines.emplace_back(text);
  }
  std::size_t fixed_bytes = 0;
  for (const auto& l : lines) fixed_bytes += l.size() + 1;
  const std::size_t singles = want.distinct_lines - seen.size();
  const std::size_t plain = singles - want.the_lines;
  Lcg r{20261201u};
  auto add_unique = [&](auto make, std::size_t n) {
    std::string l = make(n);
    while (!seen.insert(l).second) l = make(n);
    lines.push_back(std::move(l));
  };
  for (std::size_t n : lengths(r, want.the_lines, want.the_bytes - want.the_lines, 12, 40))
    add_unique([&](std::size_t k) { return the_line(r, k); }, n);
  const std::size_t plain_chars = want.bytes - want.the_bytes - fixed_bytes - plain;
  for (std::size_t n : lengths(r, plain, plain_chars, 3, 70))
    add_unique([&](std::size_t k) { return plain_line(r, k); }, n);
  for (std::size_t i = lines.size() - 1; i > 0; --i) std::swap(lines[i], lines[r.below(i + 1)]);
  std::string out;
  for (const auto& l : lines) out += l + '\n';
  return out;
}

}  // namespace

const std::string& sort_input_text() {
  static const std::string text = generate_input();
  return text;
}

const std::string& copy_script_text() {
  static const std::string text =
      "# rlab shell1 copy: the work of one copy of the pipeline, as UnixBench's tst.sh does it.\n"
      "# Input: $1 (the sort input); output: four temporary files named after this shell's\n"
      "# PID in the current directory, removed at the end. The exit status is rm's.\n"
      "rlab_script=copy\n"
      "sort >sort.$$ <$1\n"
      "od sort.$$ | sort -n -k 1 >od.$$\n"
      "grep the sort.$$ | tee grep.$$ | wc >wc.$$\n"
      "rm sort.$$ grep.$$ od.$$ wc.$$\n";
  return text;
}

const std::string& loop_script_text() {
  static const std::string text =
      "# rlab shell1 loop: one counted loop, as UnixBench's multi.sh runs it: $1 copies of\n"
      "# copy.sh in the background on the input sort.src, then one plain wait (status 0).\n"
      "rlab_script=loop\n"
      "input=sort.src\n"
      "n=1\n"
      "while [ $n -le $1 ]; do\n"
      "\t/bin/sh \"$RLAB_PGMS/copy.sh\" $input &\n"
      "\tn=$(($n + 1))\n"
      "done\n"
      "wait\n";
  return text;
}

}  // namespace rlab::agent
