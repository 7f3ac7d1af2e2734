#include "matrix/yaml_document.hpp"

#include "matrix/matrix.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <optional>
#include <sstream>
#include <vector>

namespace rlab::matrix::detail {
namespace {

/// Records where each document's root node starts; ignores everything else.
class RootMarks : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> roots;

  void OnDocumentStart(const YAML::Mark&) override { pending_ = true; }
  void OnDocumentEnd() override { pending_ = false; }
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override { node(m); }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override { node(m); }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (pending_) roots.push_back(m);
    pending_ = false;
  }
  bool pending_ = false;
};

}  // namespace

YAML::Node load_one_document(const std::string& text, const std::filesystem::path& file) {
  try {
    // First pass over events only: at most two documents are looked at, so a parser that
    // does not advance cannot loop.
    std::istringstream in(text);
    YAML::Parser parser(in);
    RootMarks marks;
    for (int i = 0; i < 2 && parser.HandleNextDocument(marks); ++i) {}
    if (marks.roots.size() >= 2) {
      const YAML::Mark& second = marks.roots[1];
      if (second.pos == marks.roots[0].pos) {
        const std::string at = second.pos >= 0 && static_cast<std::size_t>(second.pos) < text.size()
                                   ? std::string(1, text[static_cast<std::size_t>(second.pos)])
                                   : std::string();
        throw MatrixError(file, second.line + 1, second.column + 1,
                          "unexpected '" + at + "': not valid YAML here");
      }
      throw MatrixError(file, second.line + 1, second.column + 1,
                        "a matrix is one YAML document; a second one starts here");
    }
    return YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own message for this is "bad file".
    throw MatrixError(file, e.mark.line + 1, e.mark.column + 1,
                      "nested more than " + std::to_string(e.depth() - 1) + " levels deep");
  } catch (const YAML::ParserException& e) {
    throw MatrixError(file, e.mark.line + 1, e.mark.column + 1, e.msg);
  }
}

}  // namespace rlab::matrix::detail
