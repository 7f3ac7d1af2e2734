// Label values, URL and address parsing.
#include "fixture.hpp"
#include "metrics/labels.hpp"
#include "metrics/push.hpp"
#include "metrics/server.hpp"

#include <gtest/gtest.h>

namespace rlab::metrics {
namespace {

TEST(HostLabel, TakesTheHostOfRemoteUrisAndTheLocalNameOtherwise) {
  EXPECT_EQ(host_label("qemu+ssh://arm-01/system", "lab"), "arm-01");
  EXPECT_EQ(host_label("qemu+ssh://root@arm-02:2222/system?keyfile=/k", "lab"), "arm-02");
  EXPECT_EQ(host_label("qemu+tcp://[fd00::7]:16509/system", "lab"), "fd00::7");
  EXPECT_EQ(host_label("qemu:///system", "lab"), "lab");
  EXPECT_EQ(host_label("", "lab"), "lab");
}

TEST(CellLabels, AlwaysCarryAllNineLabelsAndNameAnEmptyPatchsetNone) {
  CellLabels c{"6.12", "", 65536, "xfs", "agcount=4", 2, 2, "shell1", "lab"};
  auto l = c.to_labels();
  EXPECT_EQ(l.size(), 9u);
  EXPECT_EQ(l.at("patchset"), "none");
  EXPECT_EQ(l.at("page_size"), "65536");
  EXPECT_EQ(l.at("vcpus"), "2");
}

TEST(CellLabels, FromAMatrixCellMatchTheLabelsTheStoreExportGives) {
  const auto c = test::cells().back();  // 6.12+inline-inactivation, ext4 defaults, 2 vCPUs
  auto l = cell_labels(c, "qemu+ssh://arm-01/system");
  EXPECT_EQ(l, (CellLabels{"6.12+inline-inactivation", "inline-inactivation", 65536, "ext4",
                           "defaults", 2, 2, "shell1", "arm-01"}));
  EXPECT_EQ(cell_labels(c, "qemu:///system").host, local_hostname());
}

TEST(XfsStatName, MapsDocumentedFieldsAndDropsTheRest) {
  EXPECT_EQ(xfs_stat_name("vnodes.5"), "vnodes_reclaim");
  EXPECT_EQ(xfs_stat_name("ig.0"), "ig_attempts");
  EXPECT_EQ(xfs_stat_name("trans.2"), "trans_empty");
  EXPECT_EQ(xfs_stat_name("vnodes.8"), "");      // past the group
  EXPECT_EQ(xfs_stat_name("extent_alloc.0"), "");  // not selected
  EXPECT_EQ(xfs_stat_name("ig.x"), "");
  EXPECT_EQ(xfs_stat_name("ig"), "");
}

TEST(InodegcEvent, KeepsOnlyInodegcTracepoints) {
  EXPECT_EQ(inodegc_event("xfs:xfs_inodegc_throttle"), "throttle");
  EXPECT_EQ(inodegc_event("xfs:xfs_inodegc_shrinker_scan"), "shrinker_scan");
  EXPECT_EQ(inodegc_event("xfs:xfs_inode_set_need_inactive"), "");
  EXPECT_EQ(inodegc_event("xfs:xfs_inodegc_"), "");
  EXPECT_EQ(inodegc_event("xfs:xfs_inodegc_Bad-Name"), "");
}

TEST(Base64Url, MatchesRfc4648VectorsWithoutPadding) {
  EXPECT_EQ(base64url(""), "");
  EXPECT_EQ(base64url("f"), "Zg");
  EXPECT_EQ(base64url("fo"), "Zm8");
  EXPECT_EQ(base64url("foo"), "Zm9v");
  EXPECT_EQ(base64url("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64url("6.12/xfs?>"), "Ni4xMi94ZnM_Pg");  // '?' and '>' exercise - and _
}

TEST(PushUrl, SplitsHostAndPortAndRejectsWhatTheGatewayCannotUse) {
  auto t = parse_push_url("http://127.0.0.1:9091");
  EXPECT_EQ(t.base, "http://127.0.0.1");
  EXPECT_EQ(t.port, "9091");
  t = parse_push_url("https://push.example.org/");
  EXPECT_EQ(t.base, "https://push.example.org");
  EXPECT_EQ(t.port, "443");
  t = parse_push_url("http://[::1]:9091");
  EXPECT_EQ(t.base, "http://[::1]");
  EXPECT_EQ(t.port, "9091");
  for (const char* bad : {"127.0.0.1:9091", "ftp://h:1", "http://:9091", "http://h:0",
                          "http://h:99999", "http://h:9091/metrics", "http://h:9091?x=1",
                          "http://u:p@h:9091", "http://[::1"}) {
    EXPECT_THROW(parse_push_url(bad), PushUrlError) << bad;
  }
  try {
    parse_push_url("http://h:9091/metrics");
  } catch (const PushUrlError& e) {
    EXPECT_NE(std::string(e.what()).find("http://h:9091/metrics"), std::string::npos);
  }
}

TEST(ListenAddress, AcceptsHostPortAndRejectsTheRest) {
  EXPECT_EQ(check_listen_address("127.0.0.1:9464"), "127.0.0.1:9464");
  EXPECT_EQ(check_listen_address("[::1]:0"), "[::1]:0");
  EXPECT_EQ(check_listen_address("0.0.0.0:65535"), "0.0.0.0:65535");
  EXPECT_EQ(check_listen_address("[::]:9464"), "[::]:9464");
  for (const char* bad : {"9464", ":9464", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:65536",
                          "127.0.0.1:-1", "127.0.0.1:+80", "127.0.0.1:80x", "::1:9464", "[::1]",
                          "256.1.1.1:9100", "1.2.3:9464", "localhost:9464", "lab-host:9464",
                          "[::zz]:9464", "[127.0.0.1]:9464", "[]:9464", ""})
    EXPECT_THROW(check_listen_address(bad), ListenError) << bad;
  // The message names the value and says what is wrong with it.
  auto why = [](const char* v) {
    try {
      check_listen_address(v);
    } catch (const ListenError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why("256.1.1.1:9100"), "--listen '256.1.1.1:9100': '256.1.1.1' is not a numeric IPv4 "
                                   "address (e.g. 127.0.0.1:9464 or 0.0.0.0:9464; host names are not resolved)");
  EXPECT_NE(why("localhost:9464").find("'localhost' is not a numeric IPv4 address"), std::string::npos);
  EXPECT_NE(why("127.0.0.1:65536").find("port '65536' is not a number in 0-65535"), std::string::npos);
  EXPECT_NE(why("127.0.0.1").find("expected host:port"), std::string::npos);
}

}  // namespace
}  // namespace rlab::metrics
