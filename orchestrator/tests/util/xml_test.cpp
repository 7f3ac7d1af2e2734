// The one escaping rule of every XML and HTML document rlab writes.
#include "util/xml.hpp"

#include <gtest/gtest.h>

TEST(XmlEscape, MarkupCharactersBecomeReferencesAndUnrepresentableControlsGo) {
  using rlab::util::xml_escape;
  EXPECT_EQ(xml_escape(R"(a<b>&"c"'d')"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(xml_escape("tab\there\nline\r\n"), "tab\there\nline\r\n") << "whitespace XML carries stays";
  EXPECT_EQ(xml_escape(std::string("bell\x07 esc\x1b[0m nul") + '\0' + "end"), "bell esc[0m nulend")
      << "a guest console's control bytes would make the document ill-formed";
  EXPECT_EQ(xml_escape("UTF-8 stays: 64 KiB – äö"), "UTF-8 stays: 64 KiB – äö");
}
