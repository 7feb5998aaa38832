// Jacobi3D's output: the field series (HDF5 + XDMF) and checkpoints.
#include "JacobiSolver.hpp"

namespace hcart::jacobi {

void Solver::write_output() {
  auto scope = m_timers.region("io");
  // The unknowns are the nodes of a uniform grid: the first at h, spaced h.
  XdmfGeometry geometry;
  const auto g = m_grid.global_size();
  for (int d = 0; d < 3; ++d) {
    geometry.origin[d] = geometry.spacing[d] = 1.0 / static_cast<double>(g[d] + 1);
  }
  m_files.write_output({{"u", m_u}}, static_cast<double>(m_iteration), m_iteration, geometry);
}

std::string Solver::write_checkpoint(double residual) {
  auto scope = m_timers.region("io");
  return m_files.write_checkpoint(
      {{"u", m_u}}, static_cast<double>(m_iteration), m_iteration,
      {{"iteration", static_cast<double>(m_iteration)}, {"residual", residual}});
}

void Solver::after_step(double residual) {
  if (m_output.every > 0 && m_iteration % m_output.every == 0) write_output();
  if (m_output.checkpoint_every > 0 && m_iteration % m_output.checkpoint_every == 0) {
    write_checkpoint(residual);
  }
}

} // namespace hcart::jacobi
