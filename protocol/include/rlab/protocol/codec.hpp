#pragma once
// Parsing with validation, and encoding to one protocol line.
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "rlab/protocol/messages.hpp"

namespace rlab::protocol {

/// Why a line was rejected. `message` names the place, e.g. "run.copies: expected an
/// unsigned integer, got string"; `id` is the request id when it could be read.
struct ProtocolError {
  ErrorCode code = ErrorCode::malformed;
  std::string message;
  std::optional<RequestId> id;

  /// The `error` message to send back for this problem.
  Error to_message() const { return Error{id, code, message}; }
};

/// Thrown by from_json (json.hpp) on a missing or ill-typed field; parse_* catch it.
struct ProtocolException : std::runtime_error {
  explicit ProtocolException(ProtocolError e)
      : std::runtime_error(e.message), error(std::move(e)) {}
  ProtocolError error;
};

/// Either a value or the reason there is none.
template <class T>
using ParseResult = std::variant<T, ProtocolError>;

/// Parses one line (without '\n') sent by the host. Errors: malformed (not a JSON object),
/// unknown_type, bad_field (missing / wrong type / out of range). Unknown extra fields are
/// ignored. `hello` with another protocol version parses fine; the agent answers it with
/// `incompatible` (see check_protocol).
ParseResult<HostMessage> parse_host_message(std::string_view line);

/// Parses one line sent by the agent; same rules.
ParseResult<AgentMessage> parse_agent_message(std::string_view line);

/// nullopt when `peer_version` is spoken here, else an `incompatible` error naming both.
std::optional<ProtocolError> check_protocol(int peer_version, std::optional<RequestId> id = {});

/// One protocol line: compact JSON + '\n'. Throws std::length_error if it would exceed
/// kMaxLineBytes (callers keep messages small; failure examples are truncated).
std::string encode(const HostMessage& msg);
std::string encode(const AgentMessage& msg);

/// The `type` string of a message ("hello", "prepare", ...).
const char* type_name(const HostMessage& msg);
const char* type_name(const AgentMessage& msg);

}  // namespace rlab::protocol
