#include "vm/xml.hpp"

#include <libxml/parser.h>
#include <libxml/xpath.h>

#include <cstdlib>
#include <stdexcept>

namespace rlab::vm {

struct XmlDoc::Impl {
  xmlDocPtr doc = nullptr;
  xmlXPathContextPtr ctx = nullptr;
  std::string what;
  ~Impl() {
    if (ctx) xmlXPathFreeContext(ctx);
    if (doc) xmlFreeDoc(doc);
  }
  /// Evaluates `xpath`; the caller frees the result.
  xmlXPathObjectPtr eval(const std::string& xpath) const {
    xmlXPathObjectPtr o = xmlXPathEvalExpression(reinterpret_cast<const xmlChar*>(xpath.c_str()), ctx);
    if (!o) throw std::invalid_argument(what + ": bad XPath expression '" + xpath + "'");
    return o;
  }
};

namespace {
std::string node_text(xmlNodePtr n) {
  xmlChar* c = xmlNodeGetContent(n);
  std::string s = c ? reinterpret_cast<const char*>(c) : "";
  xmlFree(c);
  return s;
}
// libxml2 reports parse errors through a global handler; rlab reports them as exceptions.
void quiet(void*, const char*, ...) {}
}  // namespace

XmlDoc::XmlDoc(std::string_view text, std::string what) : impl_(std::make_unique<Impl>()) {
  impl_->what = std::move(what);
  xmlSetGenericErrorFunc(nullptr, quiet);
  impl_->doc = xmlReadMemory(text.data(), static_cast<int>(text.size()), "libvirt.xml", nullptr,
                             XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!impl_->doc) {
    const xmlError* e = xmlGetLastError();
    throw std::runtime_error(impl_->what + ": not well-formed XML" +
                             (e && e->message ? std::string(": ") + e->message : std::string()));
  }
  impl_->ctx = xmlXPathNewContext(impl_->doc);
  if (!impl_->ctx) throw std::runtime_error(impl_->what + ": cannot create an XPath context");
}

XmlDoc::~XmlDoc() = default;
XmlDoc::XmlDoc(XmlDoc&&) noexcept = default;
XmlDoc& XmlDoc::operator=(XmlDoc&&) noexcept = default;

std::string XmlDoc::text(const std::string& xpath) const {
  xmlXPathObjectPtr o = impl_->eval(xpath);
  std::string out;
  if (o->type == XPATH_STRING && o->stringval) out = reinterpret_cast<const char*>(o->stringval);
  else if (o->type == XPATH_NODESET && o->nodesetval && o->nodesetval->nodeNr > 0)
    out = node_text(o->nodesetval->nodeTab[0]);
  else if (o->type == XPATH_NUMBER) {
    xmlChar* s = xmlXPathCastNumberToString(o->floatval);
    out = reinterpret_cast<const char*>(s);
    xmlFree(s);
  }
  xmlXPathFreeObject(o);
  return out;
}

std::vector<std::string> XmlDoc::texts(const std::string& xpath) const {
  xmlXPathObjectPtr o = impl_->eval(xpath);
  std::vector<std::string> out;
  if (o->type == XPATH_NODESET && o->nodesetval)
    for (int i = 0; i < o->nodesetval->nodeNr; ++i) out.push_back(node_text(o->nodesetval->nodeTab[i]));
  xmlXPathFreeObject(o);
  return out;
}

std::optional<unsigned long long> XmlDoc::number(const std::string& xpath) const {
  const std::string s = text(xpath);
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  try {
    return std::stoull(s);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace rlab::vm
