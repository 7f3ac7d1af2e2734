#include "nightly/report_dirs.hpp"

#include "util/paths.hpp"

#include <algorithm>
#include <regex>
#include <tuple>

namespace rlab::nightly {

std::filesystem::path write_reports(const NightAnalysis& r, const std::filesystem::path& out_dir) {
  const auto dir = out_dir / r.dir_name();
  std::filesystem::create_directories(dir);
  util::write_file_atomic(dir / "report.html", render_html(r));
  util::write_file_atomic(dir / "summary.txt", render_summary(r));
  util::write_file_atomic(dir / "kcidb.json", to_kcidb(r).dump(2) + "\n");
  util::write_file_atomic(dir / "junit.xml", render_junit(r));
  return dir;
}

std::size_t prune_reports(const std::filesystem::path& out_dir, unsigned keep) {
  static const std::regex kNight(R"((\d{4}-\d{2}-\d{2})-run(\d{1,18}))");
  std::vector<std::tuple<std::string, long long, std::filesystem::path>> nights;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(out_dir, ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (e.is_directory(ec) && std::regex_match(name, m, kNight))
      nights.emplace_back(m[1].str(), std::stoll(m[2].str()), e.path());
  }
  if (nights.size() <= keep) return 0;
  std::sort(nights.begin(), nights.end());
  std::size_t removed = 0;
  for (std::size_t i = 0; i + keep < nights.size(); ++i)
    removed += std::filesystem::remove_all(std::get<2>(nights[i]), ec) > 0 && !ec;
  return removed;
}

}  // namespace rlab::nightly
