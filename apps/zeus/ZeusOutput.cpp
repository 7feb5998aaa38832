// The ZEUS solver's output: field files (HDF5 + XDMF, zone-centred) and checkpoints.
#include "ZeusGravity.hpp"
#include "ZeusSolver.hpp"

namespace hcart::zeus {

std::vector<NamedField> Solver::named_fields() const {
  return {{field_names[0], m_d},
          {field_names[1], m_e},
          {field_names[2], m_v[0]},
          {field_names[3], m_v[1]},
          {field_names[4], m_v[2]}};
}

std::string Solver::write_output() {
  auto scope = m_timers.region("io");
  std::vector<NamedField> fields = named_fields();
  // The potential of the density written (solved at the end of every step).
  if (m_gravity) fields.emplace_back("potential", m_gravity->potential());
  XdmfGeometry geometry;
  geometry.centering = XdmfCentering::Cell;
  for (int a = 0; a < 3; ++a) {
    geometry.origin[a] = m_s.lower[a];
    geometry.spacing[a] = m_dx[a];
  }
  return m_files.write_output(fields, m_time, m_steps, geometry);
}

std::string Solver::write_checkpoint() {
  auto scope = m_timers.region("io");
  return m_files.write_checkpoint(
      named_fields(), m_time, m_steps,
      {{"time", m_time}, {"dt", m_dt}, {"step", static_cast<double>(m_steps)}});
}

} // namespace hcart::zeus
