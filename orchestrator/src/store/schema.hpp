#pragma once
// The store's SQL schema (docs/store.md). Internal to store/.

namespace rlab::store::detail {

/// Schema version stored in PRAGMA user_version.
inline constexpr int kSchemaVersion = 1;

/// CREATE statements of version 1 (tables, indexes, views), idempotent.
extern const char* const kSchemaSql;

}  // namespace rlab::store::detail
