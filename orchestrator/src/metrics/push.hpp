#pragma once
// Pushing a run's results to a Prometheus Pushgateway at the end of the run (the batch-job
// pattern). Grouping keys (job is always "rlab"; instance is this machine's host name):
//
//   {job, instance, cell}  one group per cell of the run (`cell` = the cell id, sent base64url
//                          encoded): the cell's latest result in this run and its totals over
//                          the store. PUT when the run has a result for the cell (it replaces
//                          the cell's older result only), POST with just rlab_cells_total when
//                          every boot of the cell failed (the older result stays).
//   {job, instance, kind}  one group per run kind ("matrix", "nightly", "bisect"): the run's
//                          progress, process-level metrics (LiveMetrics), and the timestamps
//                          rlab_run_last_push_timestamp_seconds and, when the run's status is
//                          "done", rlab_run_last_success_timestamp_seconds. POST, so a failed
//                          run keeps the previous success time.
//
// So one run's push never erases another run's cells, and a cell that disappeared from the
// matrix stays at its last value with its timestamp showing its age.
#include "metrics/live.hpp"
#include "store/store.hpp"
#include "util/usage_error.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace rlab::metrics {

/// A Pushgateway address split for prometheus-cpp's Gateway.
struct PushTarget {
  std::string base;  ///< scheme and host, e.g. "http://127.0.0.1" or "http://[::1]"
  std::string port;  ///< e.g. "9091"
};

/// Bad `--push` / `push:` value. what() names the value and what is wrong.
struct PushUrlError : UsageError {
  using UsageError::UsageError;
};

/// Parses "http(s)://host[:port][/]" (port defaults to 80 / 443). Throws PushUrlError for
/// other schemes, a missing host, a path other than "/", a query, or a bad port.
PushTarget parse_push_url(const std::string& url);

/// What push_run() did. A failed push never touches the store: everything stays there and
/// the push can be repeated (`push_run` again).
struct PushOutcome {
  unsigned groups_pushed = 0;         ///< groups the Pushgateway accepted (HTTP 2xx)
  std::vector<std::string> errors;    ///< one line per failed group: method, URL path, cause
  bool ok() const { return errors.empty(); }
};

/// Pushes run `run` of `store` to the Pushgateway at `url` (see the grouping above), with
/// `live` (may be null) as the run's process-level metrics. Reads the store read-only
/// through its own connection. Throws PushUrlError for a bad `url` and store::StoreError
/// when the run does not exist or the store cannot be read; failed HTTP requests are
/// reported in the outcome, not thrown.
PushOutcome push_run(const store::Store& store, store::RunId run, const std::string& url,
                     const LiveMetrics* live = nullptr);

/// RFC 4648 base64url without padding (Pushgateway's `<label>@base64` grouping values).
std::string base64url(std::string_view data);

}  // namespace rlab::metrics
