// XDMF descriptions of hcart field files, so that ParaView and VisIt open them with the
// right geometry (docs/output.md).
//
//   hcart::XdmfGeometry g{{h, h, h}, {h, h, h}, hcart::XdmfCentering::Node};
//   hcart::write_xdmf("out/jacobi3d_000100.xmf", "jacobi3d_000100.h5", mesh, {"u"}, 0.5, g);
//   hcart::write_xdmf_series("out/jacobi3d.xmf", {{"jacobi3d_000100.h5", 0.5}, ...}, mesh, {"u"},
//   g);
//
// The unknowns of a field are either the nodes of a uniform grid (origin = the first
// unknown, spacing between unknowns: XdmfCentering::Node), or the cells of one (origin =
// the lower corner of the first cell: XdmfCentering::Cell). The heavy data stay in the
// HDF5 file, referenced by a path relative to the XDMF file. Written by one process;
// through a temporary name like the HDF5 files.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hcart {

enum class XdmfCentering { Node, Cell };

struct XdmfGeometry {
  std::array<double, 3> origin{{0, 0, 0}};
  std::array<double, 3> spacing{{1, 1, 1}};
  XdmfCentering centering = XdmfCentering::Node;
};

/// \brief An XDMF file for one HDF5 field file (`h5_name` relative to the XDMF file).
void write_xdmf(const std::string& path, const std::string& h5_name,
                const std::array<std::int64_t, 3>& mesh, const std::vector<std::string>& fields,
                double time, const XdmfGeometry& geometry);

/// \brief A temporal collection of several field files, in the order given.
void write_xdmf_series(const std::string& path,
                       const std::vector<std::pair<std::string, double>>& files,
                       const std::array<std::int64_t, 3>& mesh,
                       const std::vector<std::string>& fields, const XdmfGeometry& geometry);

} // namespace hcart
