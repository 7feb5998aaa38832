// The files an application writes during a run: numbered field files, each with its XDMF
// description beside it and the series of all of them, and checkpoints, of which the newest
// [output] checkpoint_keep stay. Jacobi3D and ZEUS write through it.
#pragma once

#include "AppDeck.hpp"

#include <hcart/grid/Grid.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/Xdmf.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hcart::apps {

class RunFiles {
public:
  /// `application` names the files ("jacobi3d": directory/jacobi3d_00000042.h5 and the series
  /// directory/jacobi3d.xmf) and their metadata; `output` is the run's [output] table.
  RunFiles(const Grid& grid, std::string application, OutputSettings output);

  /// \brief Writes `fields` at `step` (time `time`) to a numbered file, its .xmf beside it
  /// and the series with every file this run wrote so far (XDMF describes the fields
  /// without components). Collective over the grid's communicator; returns the path.
  std::string write_output(const std::vector<NamedField>& fields, double time, long step,
                           const XdmfGeometry& geometry);

  /// \brief Writes a checkpoint (directory/checkpoint_<step>.h5) with the solver's `state`,
  /// then, on rank 0, removes this run's oldest checkpoints beyond the newest
  /// checkpoint_keep: a newer complete file always exists before an older one goes.
  /// Collective; returns the path.
  std::string write_checkpoint(const std::vector<NamedField>& fields, double time, long step,
                               const std::map<std::string, double>& state);

private:
  FileMetadata metadata(const char* kind, double time, long step) const;

  const Grid& m_grid;
  std::string m_application;
  OutputSettings m_output;
  std::vector<std::pair<std::string, double>> m_series; // the outputs' file names and times
  std::vector<std::string> m_checkpoints;               // this run's, oldest first
};

} // namespace hcart::apps
