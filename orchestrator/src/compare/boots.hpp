#pragma once
// The scored boots of one run as comparisons need them: score, cell identity, the recorded
// environment and the inodegc tracepoint totals (store::scored_boots, docs/store.md).
#include "store/readers.hpp"

namespace rlab::compare {

/// The environment's field names (store::kEnvFields, the one list).
using store::kEnvFields;

/// One boot with a result (store::scored_boots).
using BootData = store::ScoredBoot;

}  // namespace rlab::compare
