#pragma once
// nlohmann-json conversion of every message body (ADL: j = msg; msg = j.get<T>()).
// to_json writes `type` too; from_json validates and throws ProtocolException (codec.hpp)
// naming the field, e.g. "run.passes: expected an unsigned integer, got -1".
#include <nlohmann/json.hpp>

#include "rlab/protocol/codec.hpp"
#include "rlab/protocol/messages.hpp"

namespace rlab::protocol {

void to_json(nlohmann::json& j, const HelloRequest& m);
void to_json(nlohmann::json& j, const Prepare& m);
void to_json(nlohmann::json& j, const Run& m);
void to_json(nlohmann::json& j, const Shutdown& m);
void to_json(nlohmann::json& j, const Hello& m);
void to_json(nlohmann::json& j, const Prepared& m);
void to_json(nlohmann::json& j, const Counters& m);
void to_json(nlohmann::json& j, const Histogram& m);
void to_json(nlohmann::json& j, const Sample& m);
void to_json(nlohmann::json& j, const Attribution& m);  ///< no `type` (a part of `pass`)
void to_json(nlohmann::json& j, const PassReport& m);
void to_json(nlohmann::json& j, const Result& m);
void to_json(nlohmann::json& j, const Error& m);
void to_json(nlohmann::json& j, const Bye& m);

void from_json(const nlohmann::json& j, HelloRequest& m);
void from_json(const nlohmann::json& j, Prepare& m);
void from_json(const nlohmann::json& j, Run& m);
void from_json(const nlohmann::json& j, Shutdown& m);
void from_json(const nlohmann::json& j, Hello& m);
void from_json(const nlohmann::json& j, Prepared& m);
void from_json(const nlohmann::json& j, Counters& m);
void from_json(const nlohmann::json& j, Histogram& m);
void from_json(const nlohmann::json& j, Sample& m);
void from_json(const nlohmann::json& j, Attribution& m);
void from_json(const nlohmann::json& j, PassReport& m);
void from_json(const nlohmann::json& j, Result& m);
void from_json(const nlohmann::json& j, Error& m);
void from_json(const nlohmann::json& j, Bye& m);

}  // namespace rlab::protocol
