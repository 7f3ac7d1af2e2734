#pragma once
// Text inside XML and HTML documents (libvirt domain XML, the nightly HTML, SVG and JUnit).
#include <string>
#include <string_view>

namespace rlab::util {

/// `text` with &, <, >, " and ' written as character references (&amp; &lt; &gt; &quot;
/// &#39;) and the control characters XML 1.0 cannot carry (below 0x20 but tab, newline and
/// carriage return; guest consoles have some) left out: safe in element content and in quoted
/// attribute values of XML and HTML. The one escaping rule of every document rlab writes.
std::string xml_escape(std::string_view text);

}  // namespace rlab::util
