#pragma once
// SHA-256 (OpenSSL EVP) for content-addressed cache keys.
#include <filesystem>
#include <string>
#include <string_view>

namespace rlab::util {

/// Incremental SHA-256. Feed parts with update(); hex() returns 64 lowercase hex digits.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  /// Adds bytes. Parts are length-prefixed so ("ab","c") and ("a","bc") differ.
  Sha256& update(std::string_view part);
  /// Adds a file's bytes (length-prefixed); throws std::runtime_error if unreadable.
  Sha256& update_file(const std::filesystem::path& p);
  std::string hex();

 private:
  void* ctx_;
};

/// SHA-256 of one string, as 64 hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace rlab::util
