#include "RunFiles.hpp"

#include <hcart/core/Collective.hpp>

#include <cstdio>
#include <filesystem>

namespace hcart::apps {

namespace {

// "directory/stem_00000042.h5".
std::string numbered_file(const std::string& directory, const std::string& stem, long step) {
  char name[64];
  std::snprintf(name, sizeof name, "_%08ld.h5", step);
  return (std::filesystem::path(directory) / (stem + name)).string();
}

} // namespace

RunFiles::RunFiles(const Grid& grid, std::string application, OutputSettings output)
    : m_grid(grid), m_application(std::move(application)), m_output(std::move(output)) {}

FileMetadata RunFiles::metadata(const char* kind, double time, long step) const {
  FileMetadata meta;
  meta.application = m_application;
  meta.kind = kind;
  meta.time = time;
  meta.step = step;
  meta.deck = m_output.deck;
  return meta;
}

std::string RunFiles::write_output(const std::vector<NamedField>& fields, double time, long step,
                                   const XdmfGeometry& geometry) {
  const std::string path = numbered_file(m_output.directory, m_application, step);
  write_fields(path, m_grid, fields, metadata("output", time, step));
  const std::string name = std::filesystem::path(path).filename().string();
  m_series.emplace_back(name, time);
  std::vector<std::string> names;
  for (const auto& f : fields) {
    if (!f.has_components()) names.push_back(f.name);
  }
  const auto g = m_grid.global_size();
  const Decomposition& decomposition = m_grid.decomposition();
  agree_on_errors(decomposition.comm(), [&] {
    if (decomposition.rank() != 0) return;
    write_xdmf(path.substr(0, path.size() - 3) + ".xmf", name, g, names, time, geometry);
    write_xdmf_series(
        (std::filesystem::path(m_output.directory) / (m_application + ".xmf")).string(), m_series,
        g, names, geometry);
  });
  return path;
}

std::string RunFiles::write_checkpoint(const std::vector<NamedField>& fields, double time,
                                       long step, const std::map<std::string, double>& state) {
  const std::string path = numbered_file(m_output.directory, "checkpoint", step);
  FileMetadata meta = metadata("checkpoint", time, step);
  meta.state = state;
  write_fields(path, m_grid, fields, meta);
  m_checkpoints.push_back(path);
  const long keep = m_output.checkpoint_keep;
  while (keep > 0 && static_cast<long>(m_checkpoints.size()) > keep) {
    if (m_grid.decomposition().rank() == 0) {
      std::error_code ignored;
      std::filesystem::remove(m_checkpoints.front(), ignored);
    }
    m_checkpoints.erase(m_checkpoints.begin());
  }
  return path;
}

} // namespace hcart::apps
