#pragma once
// The store's rows of the agent's messages (protocol -> store), in one place: what run_boot
// records of a hello, a sample, a pass and a result.
#include "rlab/protocol/messages.hpp"
#include "store/store.hpp"

namespace rlab::run {

/// The hello's facts (tracepoints as a JSON array).
store::Hello to_store(const protocol::Hello& hello);

/// A sample without its host facts (SampleHostMeter::fill adds them).
store::Sample to_store(const protocol::Sample& sample);

/// A `pass` message: latency and counters as the protocol's JSON, the XFS placement when the
/// agent sent one, the attribution object as JSON when collected.
store::Pass to_store(const protocol::PassReport& pass);

/// The `result` message with `score` (lpm): the agent's own, or UnixBench's aggregation of
/// the counted passes when warm-up passes ran.
store::Result to_store(const protocol::Result& result, double score);

}  // namespace rlab::run
