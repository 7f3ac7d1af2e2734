#include "nightly/reports.hpp"

#include "util/paths.hpp"

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

}  // namespace rlab::nightly
