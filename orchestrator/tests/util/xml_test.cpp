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

TEST(XmlWriter, NestsIndentsEscapesAndRefusesAnAttributeAfterContent) {
  rlab::util::XmlWriter x;
  x.open("domain").attr("type", "qemu").leaf("name", "a<b&'c'").open("vcpu").attr("n", 2).close();
  EXPECT_EQ(x.finish(), "<domain type='qemu'>\n  <name>a&lt;b&amp;&#39;c&#39;</name>\n  <vcpu n='2'/>\n</domain>\n");
  rlab::util::XmlWriter y({.quote = '"', .declaration = true});
  y.open("t").attr("v", 12.5).text("x");
  EXPECT_THROW(y.attr("late", "no"), std::runtime_error) << "an attribute after content";
  rlab::util::XmlWriter z({.quote = '"', .declaration = true});
  z.open("t").attr("v", 12.5).close();
  const auto doc = z.finish();
  EXPECT_EQ(doc.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u) << doc;
  EXPECT_NE(doc.find("<t v=\"12.5\"/>"), std::string::npos) << doc;
}
