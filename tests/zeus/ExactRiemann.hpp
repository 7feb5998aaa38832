// The exact solution of the Riemann problem for an ideal gas (Toro, Riemann Solvers and
// Numerical Methods for Fluid Dynamics, ch. 4), for checking the hydro solver's Sod runs.
#pragma once

#include <cmath>
#include <stdexcept>

namespace hcart::test {

struct GasState {
  double rho, u, p;
};

class ExactRiemann {
public:
  ExactRiemann(GasState left, GasState right, double gamma) : m_l(left), m_r(right), m_g(gamma) {
    m_cl = std::sqrt(gamma * left.p / left.rho);
    m_cr = std::sqrt(gamma * right.p / right.rho);
    double p = 0.5 * (left.p + right.p);
    for (int it = 0; it < 200; ++it) { // Newton on f(p) = f_L + f_R + du
      double fl, dfl, fr, dfr;
      side(p, m_l, m_cl, fl, dfl);
      side(p, m_r, m_cr, fr, dfr);
      const double next = std::max(1e-14, p - (fl + fr + m_r.u - m_l.u) / (dfl + dfr));
      if (std::fabs(next - p) < 1e-15 * p) {
        p = next;
        break;
      }
      p = next;
    }
    m_p = p;
    double fl, dfl, fr, dfr;
    side(p, m_l, m_cl, fl, dfl);
    side(p, m_r, m_cr, fr, dfr);
    m_u = 0.5 * (m_l.u + m_r.u) + 0.5 * (fr - fl);
  }

  /// Density at similarity coordinate s = (x - x0) / t.
  double density(double s) const {
    const double g = m_g;
    if (s < m_u) {
      if (m_p > m_l.p) { // left shock
        const double ratio = m_p / m_l.p;
        const double shock =
            m_l.u - m_cl * std::sqrt((g + 1) / (2 * g) * ratio + (g - 1) / (2 * g));
        return s < shock ? m_l.rho
                         : m_l.rho * (ratio + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ratio + 1);
      }
      const double c_star = m_cl * std::pow(m_p / m_l.p, (g - 1) / (2 * g));
      if (s < m_l.u - m_cl) return m_l.rho;
      if (s > m_u - c_star) return m_l.rho * std::pow(m_p / m_l.p, 1 / g);
      return m_l.rho *
             std::pow(2 / (g + 1) + (g - 1) / ((g + 1) * m_cl) * (m_l.u - s), 2 / (g - 1));
    }
    if (m_p > m_r.p) { // right shock
      const double ratio = m_p / m_r.p;
      const double shock = m_r.u + m_cr * std::sqrt((g + 1) / (2 * g) * ratio + (g - 1) / (2 * g));
      return s > shock ? m_r.rho
                       : m_r.rho * (ratio + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ratio + 1);
    }
    const double c_star = m_cr * std::pow(m_p / m_r.p, (g - 1) / (2 * g));
    if (s > m_r.u + m_cr) return m_r.rho;
    if (s < m_u + c_star) return m_r.rho * std::pow(m_p / m_r.p, 1 / g);
    return m_r.rho * std::pow(2 / (g + 1) - (g - 1) / ((g + 1) * m_cr) * (m_r.u - s), 2 / (g - 1));
  }
  double star_pressure() const { return m_p; }

private:
  void side(double p, const GasState& k, double c, double& f, double& df) const {
    const double g = m_g;
    if (p > k.p) {
      const double a = 2 / ((g + 1) * k.rho), b = (g - 1) / (g + 1) * k.p;
      f = (p - k.p) * std::sqrt(a / (p + b));
      df = std::sqrt(a / (b + p)) * (1 - (p - k.p) / (2 * (b + p)));
    } else {
      f = 2 * c / (g - 1) * (std::pow(p / k.p, (g - 1) / (2 * g)) - 1);
      df = 1 / (k.rho * c) * std::pow(p / k.p, -(g + 1) / (2 * g));
    }
  }

  GasState m_l, m_r;
  double m_g, m_cl, m_cr, m_p = 0, m_u = 0;
};

} // namespace hcart::test
