#pragma once
// The examples of rlab's output in README.md and docs/*.md, and how the docs test compares
// them with what the binary prints.
//
// An example is a fenced block preceded by a marker comment, whose first line is the command:
//
//   <!-- rlab-example store=default -->
//   ```
//   $ rlab results
//   run 1  done  /root/rlab/matrix.yaml  seed 7
//   …
//   ```
//
// The marker's words: `store=<fixture>` runs the command in a directory holding that
// fixture's store (results/rlab.db, passed as --db) and matrix; `exit=<code>[|<code>...]` the
// exit codes it may end with (default 0); `file=<path>` compares that file, written by the
// command (one `*` per path component matches one name), instead of its output; `exact`
// compares numbers as printed (help texts: their defaults) instead of as `#`;
// `loose="<head>;<head>"` leaves a section of machine-specific lines out: a line starting with
// <head> and the indented lines under it (which host answered, what the cache holds).
//
// Shapes, not values: both sides are compared line by line after paths, timestamps, commit
// hashes, durations and (unless `exact`) numbers are masked and runs of blanks are made one;
// a line "…" in the example matches any number of lines (an excerpt).
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rlab::docs {

/// One marked example.
struct Example {
  std::filesystem::path file;          ///< the Markdown file
  std::size_t marker_line = 0;         ///< 1-based line of the marker comment
  std::size_t first_line = 0;          ///< 1-based line of the "$ rlab ..." line
  std::size_t end_line = 0;            ///< 1-based line of the closing fence
  std::map<std::string, std::string> attrs;  ///< the marker's words (`exact` -> "")
  std::vector<std::string> command;    ///< the "$" line's words, "rlab" first
  std::vector<std::string> output;     ///< the block's lines after the "$" line

  /// "docs/usage.md:69" for messages.
  std::string where() const;
  bool exact() const { return attrs.count("exact") > 0; }
};

/// Every marked example of `files`, in file order. Throws std::runtime_error naming the
/// file and line of a marker without a fenced block or a block without a "$ rlab" line.
std::vector<Example> find_examples(const std::vector<std::filesystem::path>& files);

/// `text`'s lines with every `from` (longest first; it may span a line end) replaced by its `to`, trailing blanks
/// dropped, rlab's log lines ("[2026-12-06 10:00:00.000] [info] ...") left out, and leading and
/// trailing empty lines removed.
std::vector<std::string> normalize(const std::string& text, const std::map<std::string, std::string>& replace);

/// A line's shape: paths, timestamps, hashes, durations and (unless `exact`) numbers masked,
/// blanks collapsed.
std::string shape(const std::string& line, bool exact);

/// How an example's lines matched the output: for each example line, the output lines it
/// stands for ([begin, end)); nullopt when the shapes differ.
using Alignment = std::vector<std::pair<std::size_t, std::size_t>>;
std::optional<Alignment> match(const Example& e, const std::vector<std::string>& actual);

/// The first place where the shapes part (for the failure message): both sides' lines there.
std::string first_difference(const Example& e, const std::vector<std::string>& actual);

/// The example's lines rewritten from `actual` along `a` ("…" lines kept), or, for an example
/// without "…" lines, `actual` itself.
std::vector<std::string> rewrite(const Example& e, const std::vector<std::string>& actual,
                                 const std::optional<Alignment>& a);

}  // namespace rlab::docs
