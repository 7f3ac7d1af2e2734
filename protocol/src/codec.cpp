#include "rlab/protocol/codec.hpp"

#include <array>
#include <stdexcept>

#include "rlab/protocol/framing.hpp"
#include "rlab/protocol/json.hpp"

namespace rlab::protocol {
namespace {

using nlohmann::json;

constexpr std::array<const char*, 7> kCodes = {"malformed", "oversized",    "unknown_type", "bad_field",
                                               "incompatible", "busy", "failed"};

/// Parses the envelope: a JSON object with a string `type`; reads `id` when readable.
struct Envelope {
  json j;
  std::string type;
  std::optional<RequestId> id;
};

std::variant<Envelope, ProtocolError> open(std::string_view line) {
  // A blank line is not a message: malformed, said plainly rather than as a parser position.
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return ProtocolError{ErrorCode::malformed, "empty line: expected one JSON object per line", {}};
  Envelope e;
  try {
    e.j = json::parse(line.begin(), line.end());
  } catch (const json::exception& ex) {
    // parse_error, and out_of_range for numbers no double holds (e.g. 1e400): both malformed.
    return ProtocolError{ErrorCode::malformed, std::string("invalid JSON: ") + ex.what(), {}};
  }
  if (!e.j.is_object())
    return ProtocolError{ErrorCode::malformed, std::string("expected a JSON object, got ") + e.j.type_name(), {}};
  if (auto it = e.j.find("id"); it != e.j.end() && it->is_number_unsigned()) e.id = it->get<RequestId>();
  auto t = e.j.find("type");
  if (t == e.j.end()) return ProtocolError{ErrorCode::malformed, "message has no \"type\"", e.id};
  if (!t->is_string())
    return ProtocolError{ErrorCode::bad_field, std::string("type: expected a string, got ") + t->type_name(), e.id};
  e.type = t->get<std::string>();
  return e;
}

template <class Variant, class T>
ParseResult<Variant> convert(const Envelope& e) {
  try {
    return Variant{e.j.get<T>()};
  } catch (ProtocolException& ex) {
    ex.error.id = e.id;
    return ex.error;
  } catch (const nlohmann::json::exception& ex) {
    // A conversion the field validators did not anticipate: still a reply, never a throw.
    return ProtocolError{ErrorCode::bad_field, std::string(e.type) + ": " + ex.what(), e.id};
  }
}

std::string finish(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() + 1 > kMaxLineBytes)
    throw std::length_error("protocol message \"" + j.value("type", std::string("?")) + "\" is " +
                            std::to_string(s.size() + 1) + " bytes, over the line limit");
  s.push_back('\n');
  return s;
}

}  // namespace

const char* to_string(ErrorCode code) { return kCodes.at(static_cast<std::size_t>(code)); }

const char* to_string(Layout layout) { return layout == Layout::per_copy ? "per-copy" : "shared"; }

const char* to_string(Runner runner) { return runner == Runner::unixbench ? "unixbench" : "rlab"; }

const char* to_string(AttributionLevel level) {
  switch (level) {
    case AttributionLevel::counts: return "counts";
    case AttributionLevel::stacks: return "stacks";
    case AttributionLevel::full: return "full";
    default: return "off";
  }
}

std::optional<ErrorCode> error_code_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kCodes.size(); ++i)
    if (name == kCodes[i]) return static_cast<ErrorCode>(i);
  return std::nullopt;
}

ParseResult<HostMessage> parse_host_message(std::string_view line) {
  auto opened = open(line);
  if (auto* err = std::get_if<ProtocolError>(&opened)) return *err;
  const auto& e = std::get<Envelope>(opened);
  if (e.type == "hello") return convert<HostMessage, HelloRequest>(e);
  if (e.type == "prepare") return convert<HostMessage, Prepare>(e);
  if (e.type == "run") return convert<HostMessage, Run>(e);
  if (e.type == "shutdown") return convert<HostMessage, Shutdown>(e);
  return ProtocolError{ErrorCode::unknown_type,
                       "unknown message type \"" + e.type + "\" (requests: hello, prepare, run, shutdown)", e.id};
}

ParseResult<AgentMessage> parse_agent_message(std::string_view line) {
  auto opened = open(line);
  if (auto* err = std::get_if<ProtocolError>(&opened)) return *err;
  const auto& e = std::get<Envelope>(opened);
  if (e.type == "hello") return convert<AgentMessage, Hello>(e);
  if (e.type == "prepared") return convert<AgentMessage, Prepared>(e);
  if (e.type == "sample") return convert<AgentMessage, Sample>(e);
  if (e.type == "pass") return convert<AgentMessage, PassReport>(e);
  if (e.type == "result") return convert<AgentMessage, Result>(e);
  if (e.type == "error") return convert<AgentMessage, Error>(e);
  if (e.type == "bye") return convert<AgentMessage, Bye>(e);
  return ProtocolError{ErrorCode::unknown_type, "unknown message type \"" + e.type + "\" from the agent", e.id};
}

std::optional<ProtocolError> check_protocol(int peer_version, std::optional<RequestId> id) {
  if (peer_version == kProtocolVersion) return std::nullopt;
  return ProtocolError{ErrorCode::incompatible,
                       "protocol version " + std::to_string(peer_version) + " is not supported (this side speaks " +
                           std::to_string(kProtocolVersion) + ")",
                       id};
}

std::string encode(const HostMessage& msg) {
  return std::visit([](const auto& m) { return finish(json(m)); }, msg);
}
std::string encode(const AgentMessage& msg) {
  return std::visit([](const auto& m) { return finish(json(m)); }, msg);
}

const char* type_name(const HostMessage& msg) {
  static constexpr std::array<const char*, 4> names = {"hello", "prepare", "run", "shutdown"};
  return names.at(msg.index());
}
const char* type_name(const AgentMessage& msg) {
  static constexpr std::array<const char*, 7> names = {"hello", "prepared", "sample", "pass",
                                                      "result", "error", "bye"};
  return names.at(msg.index());
}

}  // namespace rlab::protocol
