#pragma once
// The `kernels:` section: entries, `extends`, resolution into build::KernelSpec.
// Internal to matrix/.
#include "matrix/yaml_check.hpp"

#include <map>
#include <string>

namespace rlab::matrix::detail {

/// Parses and resolves every entry of the `kernels:` mapping. Relative paths are taken
/// against `base_dir`; with `check_paths`, fragments, patches and git trees must exist.
std::map<std::string, build::KernelSpec> parse_kernels(const Checker& ck, const YAML::Node& node,
                                                       const std::filesystem::path& base_dir,
                                                       bool check_paths);

/// The path in `n` (a string), taken against `base_dir` when relative and normalised; with
/// `check`, it must exist and be a directory (`directory`) or a regular file, else
/// ck.fail names the place.
std::filesystem::path resolve_path(const Checker& ck, const YAML::Node& n, const std::string& what,
                                   const std::filesystem::path& base_dir, bool check, bool directory);

/// Whether `name` is a valid kernel name: [A-Za-z0-9][A-Za-z0-9._+-]* (it appears in cell
/// ids, libvirt domain names and metric labels).
bool valid_kernel_name(const std::string& name);

}  // namespace rlab::matrix::detail
