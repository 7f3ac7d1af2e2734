#pragma once
// XPath queries over one XML document (libxml2), for what libvirt answers in XML: host and
// domain capabilities, storage pools. Parsing never reaches the network (XML_PARSE_NONET).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::vm {

/// A parsed XML document. Not thread-safe; cheap to move.
class XmlDoc {
 public:
  /// Parses `text`. Throws std::runtime_error naming `what` (e.g. "capabilities of
  /// qemu:///system") and libxml2's message when it is not well-formed XML.
  XmlDoc(std::string_view text, std::string what);
  ~XmlDoc();
  XmlDoc(XmlDoc&&) noexcept;
  XmlDoc& operator=(XmlDoc&&) noexcept;

  /// The string value of XPath 1.0 expression `xpath` (e.g. "string(/capabilities/host/cpu/arch)"
  /// or a node path: its first node's text), "" when nothing matches. Throws
  /// std::invalid_argument for an expression libxml2 cannot compile.
  std::string text(const std::string& xpath) const;
  /// The text of every node `xpath` selects (elements: their content; attributes: their
  /// value), in document order.
  std::vector<std::string> texts(const std::string& xpath) const;
  /// text(xpath) as an unsigned integer; nullopt when it is empty or not a number.
  std::optional<unsigned long long> number(const std::string& xpath) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rlab::vm
