#pragma once
// The agent protocol (docs/protocol.md): framing, message types, parsing/encoding, JSON.
#include "rlab/protocol/codec.hpp"
#include "rlab/protocol/framing.hpp"
#include "rlab/protocol/json.hpp"
#include "rlab/protocol/messages.hpp"
#include "rlab/protocol/score.hpp"
