// Pinning as libvirt reports it for a running domain, against what rlab asked for.
#include "vm/domain_facts.hpp"

#include <gtest/gtest.h>

using namespace rlab::vm;

TEST(DomainFacts, CpusetsParseAndPrintBothWays) {
  EXPECT_EQ(parse_cpuset("0-3,8,2"), (std::vector<unsigned>{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpuset("5"), (std::vector<unsigned>{5}));
  EXPECT_EQ(to_cpuset({0, 1, 2, 3, 8}), "0-3,8");
  EXPECT_EQ(to_cpuset({}), "");
  EXPECT_THROW(parse_cpuset(""), std::invalid_argument);
  EXPECT_THROW(parse_cpuset("3-1"), std::invalid_argument);
  EXPECT_THROW(parse_cpuset("0,a"), std::invalid_argument);
}

TEST(DomainFacts, PinningAsAskedMatchesAndAnythingElseIsNamed) {
  DomainFacts f;
  f.host_cpus = 4;
  f.vcpu_cpus = {{2}, {3}};
  f.emulator_cpus = {2, 3};
  EXPECT_EQ(pinning_mismatch({"2", "3"}, "2-3", f), "");
  EXPECT_EQ(pinning_mismatch({"2", "1"}, "2-3", f), "vCPU 1 runs on host CPUs 3, asked 1");
  EXPECT_EQ(pinning_mismatch({"2", "3"}, "", f), "the emulator threads run on host CPUs 2-3, asked 0-3");
  // Unpinned: every host CPU, which is what libvirt reports for a domain without <cputune>.
  DomainFacts free;
  free.host_cpus = 2;
  free.vcpu_cpus = {{0, 1}};
  free.emulator_cpus = {0, 1};
  EXPECT_EQ(pinning_mismatch({}, "", free), "");
  EXPECT_EQ(pinning_mismatch({"0"}, "0", free), "vCPU 0 runs on host CPUs 0-1, asked 0");
}
