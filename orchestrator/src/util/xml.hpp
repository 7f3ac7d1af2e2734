#pragma once
// Text inside XML and HTML documents (libvirt domain XML, the nightly HTML, SVG and JUnit).
#include <string>
#include <string_view>

namespace rlab::util {

/// `text` with &, <, >, " and ' written as character references (&amp; &lt; &gt; &quot;
/// &#39;), safe in element content and in quoted attribute values of XML and HTML.
std::string xml_escape(std::string_view text);

}  // namespace rlab::util
