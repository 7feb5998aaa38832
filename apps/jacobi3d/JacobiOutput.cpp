// Jacobi3D's output: the field series (HDF5 + XDMF) and checkpoints.
#include "AppDeck.hpp"
#include "JacobiSolver.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/Xdmf.hpp>

#include <filesystem>

namespace hcart::jacobi {

void Solver::write_output() {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "jacobi3d", m_iteration);
  FileMetadata meta = apps::file_metadata("jacobi3d", "output", static_cast<double>(m_iteration),
                                          m_iteration, m_output);
  write_fields(path, m_grid, {{"u", m_u}}, meta);
  const std::string name = std::filesystem::path(path).filename().string();
  m_outputs.emplace_back(name, meta.time);
  // The unknowns are the nodes of a uniform grid: the first at h, spaced h.
  XdmfGeometry geometry;
  const auto g = m_grid.global_size();
  for (int d = 0; d < 3; ++d) {
    geometry.origin[d] = geometry.spacing[d] = 1.0 / static_cast<double>(g[d] + 1);
  }
  agree_on_errors(m_grid.decomposition().comm(), [&] {
    if (m_grid.decomposition().rank() != 0) return;
    write_xdmf(path.substr(0, path.size() - 3) + ".xmf", name, g, {"u"}, meta.time, geometry);
    write_xdmf_series((std::filesystem::path(m_output.directory) / "jacobi3d.xmf").string(),
                      m_outputs, g, {"u"}, geometry);
  });
}

std::string Solver::write_checkpoint(double residual) {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "checkpoint", m_iteration);
  FileMetadata meta = apps::file_metadata("jacobi3d", "checkpoint",
                                          static_cast<double>(m_iteration), m_iteration, m_output);
  meta.state["iteration"] = static_cast<double>(m_iteration);
  meta.state["residual"] = residual;
  write_fields(path, m_grid, {{"u", m_u}}, meta);
  // Older checkpoints go only now that a newer one is complete.
  apps::keep_newest(m_checkpoints, path, m_output.checkpoint_keep,
                    m_grid.decomposition().rank() == 0);
  return path;
}

void Solver::after_step(double residual) {
  if (m_output.every > 0 && m_iteration % m_output.every == 0) write_output();
  if (m_output.checkpoint_every > 0 && m_iteration % m_output.checkpoint_every == 0) {
    write_checkpoint(residual);
  }
}

} // namespace hcart::jacobi
