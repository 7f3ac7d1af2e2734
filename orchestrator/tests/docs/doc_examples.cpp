#include "doc_examples.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace rlab::docs {
namespace {

const std::string kMarker = "<!-- rlab-example";
const std::string kEllipsis = "…";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(l);
  }
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(' ') - b + 1);
}

/// The marker's words: key=value, key="value with blanks", or a bare word.
std::map<std::string, std::string> parse_attrs(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size()) break;
    std::size_t k = i;
    while (k < text.size() && text[k] != ' ' && text[k] != '=') ++k;
    const std::string key = text.substr(i, k - i);
    std::string value;
    if (k < text.size() && text[k] == '=') {
      ++k;
      if (k < text.size() && text[k] == '"') {
        const auto close = text.find('"', k + 1);
        if (close == std::string::npos) throw std::runtime_error("unclosed quote in marker: " + text);
        value = text.substr(k + 1, close - k - 1);
        k = close + 1;
      } else {
        const auto end = text.find(' ', k);
        value = text.substr(k, end == std::string::npos ? std::string::npos : end - k);
        k = end == std::string::npos ? text.size() : end;
      }
    }
    out[key] = value;
    i = k;
  }
  return out;
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// Hex words of 7 or more digits with a letter and a digit (commits, cache keys): "<hex>".
std::string mask_hex(const std::string& s) {
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!std::isalnum(static_cast<unsigned char>(s[i]))) {
      out += s[i++];
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
    const std::string w = s.substr(i, j - i);
    const bool hex = w.size() >= 7 && std::all_of(w.begin(), w.end(), [](char c) {
                       return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
                     });
    const bool digit = std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    const bool letter = std::any_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'f'; });
    out += hex && digit && letter ? "<hex>" : w;
    i = j;
  }
  return out;
}

bool is_ellipsis(const std::string& line) {
  const std::string t = trim(line);
  return t == kEllipsis || t == "...";
}

/// The loose sections' heads of an example (its `loose` attribute, ";"-separated).
std::vector<std::string> loose_heads(const Example& e) {
  std::vector<std::string> out;
  const auto it = e.attrs.find("loose");
  if (it == e.attrs.end()) return out;
  std::string h;
  std::istringstream in(it->second);
  while (std::getline(in, h, ';'))
    if (!h.empty()) out.push_back(h);
  return out;
}

/// One item of an example: a line, "…", or a loose section (its head line; the indented lines
/// under it in the example are part of it).
struct Item {
  enum Kind { line, any, loose } kind = line;
  std::size_t from = 0, to = 0;  ///< the example's output lines it covers
  std::string head;              ///< loose: the head it starts with
};

std::vector<Item> items_of(const Example& e) {
  const auto heads = loose_heads(e);
  std::vector<Item> out;
  for (std::size_t i = 0; i < e.output.size();) {
    Item it;
    it.from = i;
    if (is_ellipsis(e.output[i])) {
      it.kind = Item::any;
      it.to = ++i;
    } else {
      const auto h = std::find_if(heads.begin(), heads.end(),
                                  [&](const std::string& p) { return e.output[i].rfind(p, 0) == 0; });
      if (h != heads.end()) {
        it.kind = Item::loose;
        it.head = *h;
        ++i;
        while (i < e.output.size() && !e.output[i].empty() && e.output[i][0] == ' ') ++i;
        it.to = i;
      } else {
        it.to = ++i;
      }
    }
    out.push_back(it);
  }
  return out;
}

/// Matches items[k..] against actual[j..]; fills `choice` (per (k, j): where item k ends in
/// actual) for the path found.
class Matcher {
 public:
  Matcher(const Example& e, const std::vector<std::string>& actual)
      : e_(e), actual_(actual), items_(items_of(e)) {}

  std::optional<Alignment> run() {
    if (!at(0, 0)) return std::nullopt;
    Alignment a(e_.output.size(), {0, 0});
    std::size_t j = 0;
    for (std::size_t k = 0; k < items_.size(); ++k) {
      const std::size_t end = choice_.at({k, j});
      for (std::size_t l = items_[k].from; l < items_[k].to; ++l) a[l] = {j, end};
      j = end;
    }
    return a;
  }

 private:
  bool same(std::size_t line, std::size_t j) {
    return shape(e_.output[line], e_.exact()) == shape(actual_[j], e_.exact());
  }

  bool at(std::size_t k, std::size_t j) {
    if (k == items_.size()) return j == actual_.size();
    const auto key = std::make_pair(k, j);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    bool ok = false;
    const Item& it = items_[k];
    if (it.kind == Item::any) {
      for (std::size_t end = j; end <= actual_.size() && !ok; ++end)
        if (at(k + 1, end)) {
          ok = true;
          choice_[key] = end;
        }
    } else if (it.kind == Item::loose) {
      if (j < actual_.size() && actual_[j].rfind(it.head, 0) == 0) {
        std::size_t end = j + 1;
        while (end < actual_.size() && !actual_[end].empty() && actual_[end][0] == ' ') ++end;
        if (at(k + 1, end)) {
          ok = true;
          choice_[key] = end;
        }
      }
    } else if (j < actual_.size() && same(it.from, j) && at(k + 1, j + 1)) {
      ok = true;
      choice_[key] = j + 1;
    }
    memo_[key] = ok;
    return ok;
  }

  const Example& e_;
  const std::vector<std::string>& actual_;
  std::vector<Item> items_;
  std::map<std::pair<std::size_t, std::size_t>, bool> memo_;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> choice_;
};

}  // namespace

std::string Example::where() const { return fmt::format("{}:{}", file.filename().string(), marker_line); }

std::vector<Example> find_examples(const std::vector<std::filesystem::path>& files) {
  std::vector<Example> out;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::stringstream buf;
    buf << in.rdbuf();
    const auto lines = lines_of(buf.str());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string t = trim(lines[i]);
      if (t.rfind(kMarker, 0) != 0) continue;
      Example e;
      e.file = f;
      e.marker_line = i + 1;
      const auto close = t.rfind("-->");
      if (close == std::string::npos) throw std::runtime_error(e.where() + ": marker without -->");
      e.attrs = parse_attrs(t.substr(kMarker.size(), close - kMarker.size()));
      if (i + 2 >= lines.size() || lines[i + 1].rfind("```", 0) != 0)
        throw std::runtime_error(e.where() + ": the marker is not followed by a fenced block");
      if (lines[i + 2].rfind("$ rlab", 0) != 0)
        throw std::runtime_error(e.where() + ": the block's first line is not \"$ rlab ...\"");
      e.first_line = i + 3;
      e.command = split_words(lines[i + 2].substr(2));
      std::size_t j = i + 3;
      for (; j < lines.size() && lines[j].rfind("```", 0) != 0; ++j) e.output.push_back(lines[j]);
      if (j == lines.size()) throw std::runtime_error(e.where() + ": the fenced block is not closed");
      e.end_line = j + 1;
      out.push_back(std::move(e));
      i = j;
    }
  }
  return out;
}

std::vector<std::string> normalize(const std::string& text, const std::map<std::string, std::string>& replace) {
  std::vector<std::pair<std::string, std::string>> by_length(replace.begin(), replace.end());
  std::sort(by_length.begin(), by_length.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  static const std::regex log_line(R"(^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\] \[[a-z]+\] )");
  std::string all = text;
  for (const auto& [from, to] : by_length)
    for (std::size_t at = 0; (at = all.find(from, at)) != std::string::npos; at += to.size()) all.replace(at, from.size(), to);
  std::vector<std::string> out;
  for (std::string l : lines_of(all)) {
    if (std::regex_search(l, log_line)) continue;
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out.push_back(l);
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  while (!out.empty() && out.front().empty()) out.erase(out.begin());
  return out;
}

std::string shape(const std::string& line, bool exact) {
  static const std::regex path(R"((^|[^\w.~/-])/[\w.+@*~-][\w.+@*~/-]*)");
  static const std::regex time(R"(\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?Z?)?)");
  static const std::regex date(R"(\d{4}-\d\d-\d\d)");
  static const std::regex duration(R"(\b(\d+h(\d+m)?(\d+s)?|\d+m\d+s|\d+m|\d+(\.\d+)?s)\b)");
  static const std::regex number(R"([+-]?\d+(\.\d+)?(e[+-]?\d+)?)");
  static const std::regex blanks(R"( +)");
  std::string s = std::regex_replace(line, path, "$1<path>");
  s = std::regex_replace(s, time, "<time>");
  s = std::regex_replace(s, date, "<date>");
  s = mask_hex(s);
  if (!exact) {
    s = std::regex_replace(s, duration, "<t>");
    s = std::regex_replace(s, number, "#");
  }
  return trim(std::regex_replace(s, blanks, " "));
}

std::optional<Alignment> match(const Example& e, const std::vector<std::string>& actual) {
  return Matcher(e, actual).run();
}

std::string first_difference(const Example& e, const std::vector<std::string>& actual) {
  // Along the lines, as far as both agree (ignoring "…" and loose sections): enough to find
  // the place in most cases.
  std::size_t i = 0, j = 0;
  const auto heads = loose_heads(e);
  while (i < e.output.size() && j < actual.size()) {
    if (is_ellipsis(e.output[i])) break;
    if (std::any_of(heads.begin(), heads.end(), [&](const std::string& h) { return e.output[i].rfind(h, 0) == 0; })) {
      for (++i; i < e.output.size() && !e.output[i].empty() && e.output[i][0] == ' ';) ++i;
      for (++j; j < actual.size() && !actual[j].empty() && actual[j][0] == ' ';) ++j;
      continue;
    }
    if (shape(e.output[i], e.exact()) != shape(actual[j], e.exact())) break;
    ++i;
    ++j;
  }
  return fmt::format("  example line {}: {}\n  output line  {}: {}\n  shapes: {}\n          {}", e.first_line + 1 + i,
                     i < e.output.size() ? e.output[i] : "(end)", j + 1, j < actual.size() ? actual[j] : "(end)",
                     i < e.output.size() ? shape(e.output[i], e.exact()) : "(end)",
                     j < actual.size() ? shape(actual[j], e.exact()) : "(end)");
}

std::vector<std::string> rewrite(const Example& e, const std::vector<std::string>& actual,
                                 const std::optional<Alignment>& a) {
  if (!a) return actual;
  std::vector<std::string> out;
  const auto items = items_of(e);
  for (const auto& it : items) {
    if (it.kind == Item::any) {
      out.push_back(e.output[it.from]);
      continue;
    }
    const auto [b, end] = (*a)[it.from];
    for (std::size_t j = b; j < end; ++j) out.push_back(actual[j]);
  }
  return out;
}

}  // namespace rlab::docs
