#pragma once
// The environment's columns (results.env_<name>, kEnvFields order) in SQL: what store/'s
// queries select and bind. Internal to store/.
#include "store/sqlite.hpp"
#include "store/store.hpp"

#include <string>
#include <string_view>

namespace rlab::store::detail {

/// "<alias>.env_host, <alias>.env_accel, ..." in kEnvFields order, for a SELECT over `results`.
std::string env_columns(std::string_view alias);

/// "env_host, env_accel, ...": the column list of an INSERT into `results`.
std::string env_column_names();

/// The environment in columns first .. first + kEnvFields.size() - 1 of the current row of
/// `st`, selected in env_columns() order.
Environment read_env(const Stmt& st, int first);

/// Binds the fields of `e` to parameters first .. first + kEnvFields.size() - 1, in
/// env_column_names() order (numbers as INTEGER or REAL).
void bind_env(Stmt& st, int first, const Environment& e);

}  // namespace rlab::store::detail
