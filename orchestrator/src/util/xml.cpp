#include "util/xml.hpp"

#include <libxml/xmlwriter.h>

#include <charconv>
#include <stdexcept>

namespace rlab::util {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t' || c == '\r') out += c;
    }
  return out;
}

namespace {
[[noreturn]] void refused(std::string_view what, std::string_view name) {
  throw std::runtime_error("XML writer: libxml2 refused " + std::string(what) + " '" + std::string(name) + "'");
}
const xmlChar* xc(const std::string& s) { return reinterpret_cast<const xmlChar*>(s.c_str()); }
}  // namespace

struct XmlWriter::Impl {
  xmlBufferPtr buf = xmlBufferCreate();
  xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : nullptr;
  ~Impl() {
    if (w) xmlFreeTextWriter(w);
    if (buf) xmlBufferFree(buf);
  }
  void check(int rc, std::string_view what, std::string_view name) const {
    if (rc < 0) refused(what, name);
  }
};

XmlWriter::XmlWriter(XmlStyle style) : impl_(std::make_unique<Impl>()) {
  if (!impl_->w) throw std::runtime_error("XML writer: libxml2 could not make a writer");
  xmlTextWriterSetIndent(impl_->w, 1);
  xmlTextWriterSetIndentString(impl_->w, reinterpret_cast<const xmlChar*>("  "));
  impl_->check(xmlTextWriterSetQuoteChar(impl_->w, static_cast<xmlChar>(style.quote)), "quote", {&style.quote, 1});
  if (style.declaration) impl_->check(xmlTextWriterStartDocument(impl_->w, nullptr, "UTF-8", nullptr), "declaration", "");
}

XmlWriter::~XmlWriter() = default;

XmlWriter& XmlWriter::open(std::string_view name) {
  impl_->check(xmlTextWriterStartElement(impl_->w, xc(std::string(name))), "element", name);
  return *this;
}

XmlWriter& XmlWriter::attr(std::string_view name, std::string_view value) {
  const std::string n(name);
  impl_->check(xmlTextWriterStartAttribute(impl_->w, xc(n)), "attribute", name);
  impl_->check(xmlTextWriterWriteRaw(impl_->w, xc(xml_escape(value))), "attribute", name);
  impl_->check(xmlTextWriterEndAttribute(impl_->w), "attribute", name);
  return *this;
}

XmlWriter& XmlWriter::text(std::string_view t) {
  impl_->check(xmlTextWriterWriteRaw(impl_->w, xc(xml_escape(t))), "text", t.substr(0, 40));
  return *this;
}

XmlWriter& XmlWriter::close() {
  impl_->check(xmlTextWriterEndElement(impl_->w), "closing an element", "");
  return *this;
}

XmlWriter& XmlWriter::leaf(std::string_view name, std::string_view content) {
  return open(name).text(content).close();
}

std::string XmlWriter::finish() {
  impl_->check(xmlTextWriterEndDocument(impl_->w), "ending the document", "");
  impl_->check(xmlTextWriterFlush(impl_->w), "flushing the document", "");
  std::string out(reinterpret_cast<const char*>(xmlBufferContent(impl_->buf)),
                  static_cast<std::size_t>(xmlBufferLength(impl_->buf)));
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

std::string XmlWriter::number(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

}  // namespace rlab::util
