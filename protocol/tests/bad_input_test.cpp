// A table of bad inputs and the error each must produce.
#include <gtest/gtest.h>

#include "rlab/protocol/protocol.hpp"

namespace rp = rlab::protocol;

namespace {

struct BadCase {
  const char* line;
  rp::ErrorCode code;
  const char* mentions;              ///< substring the message must contain
  std::optional<rp::RequestId> id;   ///< id the error must carry
};

const BadCase kHostCases[] = {
    // A blank line is malformed JSON, not a keep-alive: it gets an error like any other.
    {"", rp::ErrorCode::malformed, "empty line: expected one JSON object per line", {}},
    {" \t ", rp::ErrorCode::malformed, "empty line", {}},
    {"\r", rp::ErrorCode::malformed, "empty line", {}},
    {"{\"type\":\"run\"", rp::ErrorCode::malformed, "invalid JSON", {}},
    {"not json", rp::ErrorCode::malformed, "invalid JSON", {}},
    {"[1,2]", rp::ErrorCode::malformed, "expected a JSON object, got array", {}},
    {"42", rp::ErrorCode::malformed, "got number", {}},
    {R"({"id":1})", rp::ErrorCode::malformed, "no \"type\"", 1},
    {R"({"type":5,"id":2})", rp::ErrorCode::bad_field, "type: expected a string", 2},
    {R"({"type":"dance","id":3})", rp::ErrorCode::unknown_type, "\"dance\"", 3},
    {R"({"type":"result","id":3})", rp::ErrorCode::unknown_type, "\"result\"", 3},
    {R"({"type":"hello","protocol":1})", rp::ErrorCode::bad_field, "hello.id: missing", {}},
    {R"({"type":"hello","id":-1,"protocol":1})", rp::ErrorCode::bad_field, "hello.id: expected an unsigned integer, got an integer (-1)", {}},
    {R"({"type":"hello","id":1,"protocol":"1"})", rp::ErrorCode::bad_field, "hello.protocol: expected an integer, got a string", 1},
    {R"({"type":"run","id":4,"workload":"shell1","copies":"2","duration_s":3,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.copies: expected an unsigned integer, got a string", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":0,"duration_s":3,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.copies: must be 1..4096", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":4294967297,"duration_s":3,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.copies: out of range", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1.5,"duration_s":3,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.copies: expected an unsigned integer, got a number (1.5)", 4},
    {R"({"type":"run","id":4,"workload":"dhrystone","copies":1,"duration_s":3,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.workload", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":0,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.duration_s: must be > 0", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"rel"})", rp::ErrorCode::bad_field, "run.workdir: expected an absolute path", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3})", rp::ErrorCode::bad_field, "run.workdir: missing", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","layout":"spread"})", rp::ErrorCode::bad_field, "run.layout: expected \"shared\" or \"per-copy\"", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","runner":"lmbench"})", rp::ErrorCode::bad_field, "run.runner: expected \"rlab\" or \"unixbench\"", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":2.5,"workdir":"/w","runner":"unixbench"})", rp::ErrorCode::bad_field, "run.duration_s: UnixBench's looper takes whole seconds", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","unixbench_dir":"ub"})", rp::ErrorCode::bad_field, "run.unixbench_dir: expected an absolute path", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","input_base64":"abc"})", rp::ErrorCode::bad_field, "run.input_base64: base64 length must be a multiple of 4", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","input_base64":"ab!d"})", rp::ErrorCode::bad_field, "run.input_base64: not base64", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","sample_interval_s":-1})", rp::ErrorCode::bad_field, "run.sample_interval_s", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","sample_interval_s":0.01})", rp::ErrorCode::bad_field, "run.sample_interval_s: must be 0 (no sampling) or 0.1..86400", 4},
    // Time spans beyond a day would overflow the agent's clocks and never end.
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":1e300,"workdir":"/w"})", rp::ErrorCode::bad_field, "run.duration_s: must be at most 86400 (one day), got 1e+300", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","sample_interval_s":1e300})", rp::ErrorCode::bad_field, "run.sample_interval_s: must be 0 (no sampling) or 0.1..86400", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","pause_s":1e300})", rp::ErrorCode::bad_field, "run.pause_s: must be 0..86400, got 1e+300", 4},
    {R"({"type":"run","id":4,"workload":"shell1","copies":1,"duration_s":3,"workdir":"/w","pause_s":-1})", rp::ErrorCode::bad_field, "run.pause_s: must be 0..86400", 4},
    {R"({"type":"prepare","id":5,"fs":"xfs","mountpoint":"/mnt"})", rp::ErrorCode::bad_field, "exactly one of", 5},
    {R"({"type":"prepare","id":5,"device":"/dev/vdb","serial":"x","fs":"xfs","mountpoint":"/mnt"})", rp::ErrorCode::bad_field, "exactly one of", 5},
    {R"({"type":"prepare","id":5,"device":"/dev/vdb","fs":"btrfs","mountpoint":"/mnt"})", rp::ErrorCode::bad_field, "prepare.fs", 5},
    {R"({"type":"prepare","id":5,"device":"/dev/vdb","fs":"xfs","mkfs_options":["-d",4],"mountpoint":"/mnt"})", rp::ErrorCode::bad_field, "prepare.mkfs_options[1]: expected a string", 5},
    {R"({"type":"prepare","id":5,"device":"/dev/vdb","fs":"xfs","mkfs_options":"-d agcount=4","mountpoint":"/mnt"})", rp::ErrorCode::bad_field, "prepare.mkfs_options: expected an array", 5},
    {R"({"type":"shutdown","id":6,"poweroff":"yes"})", rp::ErrorCode::bad_field, "shutdown.poweroff: expected a boolean", 6},
};

}  // namespace

TEST(BadInput, HostMessagesTable) {
  for (const auto& c : kHostCases) {
    SCOPED_TRACE(c.line);
    auto r = rp::parse_host_message(c.line);
    ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
    const auto& e = std::get<rp::ProtocolError>(r);
    EXPECT_EQ(e.code, c.code) << rp::to_string(e.code) << ": " << e.message;
    EXPECT_NE(e.message.find(c.mentions), std::string::npos) << e.message;
    EXPECT_EQ(e.id, c.id);
    // The error reply itself is a valid agent message.
    auto reply = rp::parse_agent_message(rp::encode(rp::AgentMessage{e.to_message()}));
    EXPECT_TRUE(std::holds_alternative<rp::AgentMessage>(reply));
  }
}

TEST(BadInput, AgentMessages) {
  auto r = rp::parse_agent_message(R"({"type":"error","code":"grumpy","message":"x"})");
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
  EXPECT_NE(std::get<rp::ProtocolError>(r).message.find("error.code: unknown error code"), std::string::npos);

  r = rp::parse_agent_message(R"({"type":"hello","protocol":1,"agent_version":"x","kernel_release":"6.12","page_size":65536,)"
                              R"("nr_cpus":1,"tracepoints":[],"xfs_stats":false,"uptime_s":-0.5})");
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
  EXPECT_NE(std::get<rp::ProtocolError>(r).message.find("hello.uptime_s: must be seconds >= 0, got -0.5"), std::string::npos)
      << std::get<rp::ProtocolError>(r).message;

  r = rp::parse_agent_message(
      R"({"type":"pass","id":1,"pass":0,"loops":1,"failures":0,"duration_s":1,"lpm":60,)"
      R"("latency":{"bounds_s":[1],"counts":[1]},"counters":{}})");
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
  EXPECT_NE(std::get<rp::ProtocolError>(r).message.find("pass.latency.counts: expected 2 entries"), std::string::npos);

  r = rp::parse_agent_message(
      R"({"type":"result","id":1,"score":1,"failures":0,"passes":[{"id":1,"pass":0,"loops":1,"failures":0,)"
      R"("duration_s":1,"lpm":"60","latency":{"bounds_s":[],"counts":[1]},"counters":{}}]})");
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
  EXPECT_NE(std::get<rp::ProtocolError>(r).message.find("result.passes[0].lpm: expected a number"), std::string::npos);

  r = rp::parse_agent_message(R"({"type":"sample","id":1,"pass":0,"t_s":1,"loops":3,"failures":0,)"
                              R"("counters":{"tracepoints":{"xfs:xfs_inodegc_queue":-3}}})");
  ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
  EXPECT_NE(std::get<rp::ProtocolError>(r).message.find("sample.counters.tracepoints.xfs:xfs_inodegc_queue"),
            std::string::npos);
  EXPECT_EQ(std::get<rp::ProtocolError>(r).id, 1u);
}

TEST(BadInput, ErrorCodeNames) {
  for (auto c : {rp::ErrorCode::malformed, rp::ErrorCode::oversized, rp::ErrorCode::unknown_type,
                 rp::ErrorCode::bad_field, rp::ErrorCode::incompatible, rp::ErrorCode::busy, rp::ErrorCode::failed})
    EXPECT_EQ(rp::error_code_from_string(rp::to_string(c)), c);
  EXPECT_FALSE(rp::error_code_from_string("nope").has_value());
}

// Numbers no double can hold make nlohmann throw out_of_range (not parse_error); the codec
// must still answer with a `malformed` error instead of letting the exception escape (which
// ended the agent).
TEST(BadInput, NumberOverflowIsMalformed) {
  for (const char* line : {R"({"type":"hello","id":1e400,"protocol":1})",
                           R"({"type":"run","id":1,"workload":"shell1","copies":1,"duration_s":-1e999,"workdir":"/w"})"}) {
    SCOPED_TRACE(line);
    rp::ParseResult<rp::HostMessage> r = rp::HostMessage{rp::HelloRequest{}};
    ASSERT_NO_THROW(r = rp::parse_host_message(line));
    ASSERT_TRUE(std::holds_alternative<rp::ProtocolError>(r));
    EXPECT_EQ(std::get<rp::ProtocolError>(r).code, rp::ErrorCode::malformed);
    EXPECT_NE(std::get<rp::ProtocolError>(r).message.find("number overflow"), std::string::npos);
    rp::ParseResult<rp::AgentMessage> a = rp::AgentMessage{rp::Bye{}};
    ASSERT_NO_THROW(a = rp::parse_agent_message(R"({"type":"sample","id":1,"t_s":1e400})"));
    EXPECT_TRUE(std::holds_alternative<rp::ProtocolError>(a));
  }
}
