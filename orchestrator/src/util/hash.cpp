#include "util/hash.hpp"

#include "util/paths.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <stdexcept>

namespace rlab::util {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_DigestInit_ex(sha256) failed");
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

Sha256& Sha256::update(std::string_view part) {
  std::string len = std::to_string(part.size()) + ":";
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), len.data(), len.size());
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), part.data(), part.size());
  return *this;
}

Sha256& Sha256::update_file(const std::filesystem::path& p) { return update(read_file(p)); }

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), md, &n);
  std::string out;
  char b[3];
  for (unsigned i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%02x", md[i]);
    out += b;
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex();
}

}  // namespace rlab::util
