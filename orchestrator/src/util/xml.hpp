#pragma once
// XML documents rlab writes (libvirt domain, pool and volume XML, SVG, JUnit) and text inside
// HTML: one escaping rule (xml_escape) and one writer (XmlWriter, libxml2's xmlTextWriter).
#include <concepts>
#include <memory>
#include <string>
#include <string_view>

namespace rlab::util {

/// `text` with &, <, >, " and ' written as character references (&amp; &lt; &gt; &quot;
/// &#39;) and the control characters XML 1.0 cannot carry (below 0x20 but tab, newline and
/// carriage return; guest consoles have some) left out: safe in element content and in quoted
/// attribute values of XML and HTML. The one escaping rule of every document rlab writes.
std::string xml_escape(std::string_view text);

/// How a document XmlWriter writes looks: attributes quoted with `quote` (' as libvirt writes
/// its XML, " for SVG and JUnit), with or without an XML declaration
/// (<?xml version="1.0" encoding="UTF-8"?>).
struct XmlStyle {
  char quote = '\'';
  bool declaration = false;
};

/// Writes one XML document into memory through libxml2's xmlTextWriter, which keeps it well
/// formed (every element closed, in order) and indents it by two spaces; text and attribute
/// values go through xml_escape. Every call throws std::runtime_error when libxml2 refuses it (e.g. an attribute
/// after an element's content). Not copyable.
class XmlWriter {
 public:
  explicit XmlWriter(XmlStyle style = {});
  ~XmlWriter();
  XmlWriter(const XmlWriter&) = delete;
  XmlWriter& operator=(const XmlWriter&) = delete;

  /// Starts element `name` (e.g. "domain", "qemu:arg").
  XmlWriter& open(std::string_view name);
  /// An attribute of the element just opened.
  XmlWriter& attr(std::string_view name, std::string_view value);
  /// An attribute with a number: integers in decimal, other numbers in the shortest form that
  /// reads back as the same double (std::to_chars; "12.5", "3").
  template <class T>
    requires std::integral<T> || std::floating_point<T>
  XmlWriter& attr(std::string_view name, T value) {
    if constexpr (std::integral<T>) return attr(name, std::to_string(value));
    else return attr(name, number(static_cast<double>(value)));
  }
  /// Text inside the element opened last.
  XmlWriter& text(std::string_view text);
  /// Closes the element opened last (`<x/>` when it has no content).
  XmlWriter& close();
  /// open(name), text(content), close(): e.g. leaf("name", "rlab-1-c") -> <name>rlab-1-c</name>.
  XmlWriter& leaf(std::string_view name, std::string_view content);
  /// Closes what is open and returns the document, ending in a newline. The writer is spent.
  std::string finish();

 private:
  static std::string number(double v);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlab::util
