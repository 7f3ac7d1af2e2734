#include "stats/student_t.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

#include <stdexcept>
#include <string>

namespace rlab::stats {
namespace {

void require_p(double p, const char* where) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument(std::string(where) + ": p must be in (0, 1)");
}

void require_df(unsigned df, const char* where) {
  if (df < 1) throw std::invalid_argument(std::string(where) + ": degrees of freedom must be >= 1");
}

}  // namespace

double t_cdf(double t, unsigned df) {
  require_df(df, "t_cdf");
  return boost::math::cdf(boost::math::students_t_distribution<double>(df), t);
}

double t_quantile(double p, unsigned df) {
  require_p(p, "t_quantile");
  require_df(df, "t_quantile");
  return boost::math::quantile(boost::math::students_t_distribution<double>(df), p);
}

double normal_quantile(double p) {
  require_p(p, "normal_quantile");
  return boost::math::quantile(boost::math::normal_distribution<double>(), p);
}

}  // namespace rlab::stats
