// The ZEUS solver's output: field files (HDF5 + XDMF, zone-centred) and checkpoints.
#include "AppDeck.hpp"
#include "ZeusSolver.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/Xdmf.hpp>

#include <filesystem>

namespace hcart::zeus {

std::vector<std::pair<std::string, Field<double>>> Solver::named_fields() const {
  return {{field_names[0], m_d},
          {field_names[1], m_e},
          {field_names[2], m_v[0]},
          {field_names[3], m_v[1]},
          {field_names[4], m_v[2]}};
}

std::string Solver::write_output() {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "zeus", m_steps);
  FileMetadata meta = apps::file_metadata("zeus", "output", m_time, m_steps, m_output);
  write_fields(path, m_grid, named_fields(), meta);
  const std::string name = std::filesystem::path(path).filename().string();
  m_outputs.emplace_back(name, m_time);
  XdmfGeometry geometry;
  geometry.centering = XdmfCentering::Cell;
  for (int a = 0; a < 3; ++a) {
    geometry.origin[a] = m_s.lower[a];
    geometry.spacing[a] = m_dx[a];
  }
  const auto g = m_grid.global_size();
  const std::vector<std::string> names(field_names, field_names + 5);
  agree_on_errors(m_grid.decomposition().comm(), [&] {
    if (m_grid.decomposition().rank() != 0) return;
    write_xdmf(path.substr(0, path.size() - 3) + ".xmf", name, g, names, m_time, geometry);
    write_xdmf_series((std::filesystem::path(m_output.directory) / "zeus.xmf").string(), m_outputs,
                      g, names, geometry);
  });
  return path;
}

std::string Solver::write_checkpoint() {
  auto scope = m_timers.region("io");
  const std::string path = apps::numbered_file(m_output.directory, "checkpoint", m_steps);
  FileMetadata meta = apps::file_metadata("zeus", "checkpoint", m_time, m_steps, m_output);
  meta.state = {{"time", m_time}, {"dt", m_dt}, {"step", static_cast<double>(m_steps)}};
  write_fields(path, m_grid, named_fields(), meta);
  apps::keep_newest(m_checkpoints, path, m_output.checkpoint_keep,
                    m_grid.decomposition().rank() == 0);
  return path;
}

} // namespace hcart::zeus
