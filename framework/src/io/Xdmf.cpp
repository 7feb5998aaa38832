#include <hcart/core/Error.hpp>
#include <hcart/io/OutputDirectory.hpp>
#include <hcart/io/Xdmf.hpp>

#include <cstdio>
#include <sstream>

namespace hcart {

namespace {

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// One <Grid> element for one HDF5 file.
std::string grid_element(const std::string& h5_name, const std::array<std::int64_t, 3>& mesh,
                         const std::vector<std::string>& fields, double time, const XdmfGeometry& g,
                         const std::string& indent) {
  const bool cell = g.centering == XdmfCentering::Cell;
  // Topology dimensions count nodes: one more than the cells for cell-centred data.
  const std::int64_t extra = cell ? 1 : 0;
  std::ostringstream out;
  const std::string dims =
      std::to_string(mesh[0]) + " " + std::to_string(mesh[1]) + " " + std::to_string(mesh[2]);
  out << indent << "<Grid Name=\"" << h5_name << "\" GridType=\"Uniform\">\n"
      << indent << "  <Time Value=\"" << number(time) << "\"/>\n"
      << indent << "  <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << mesh[0] + extra
      << " " << mesh[1] + extra << " " << mesh[2] + extra << "\"/>\n"
      << indent << "  <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
      << indent
      << "    <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">"
      << number(g.origin[0]) << " " << number(g.origin[1]) << " " << number(g.origin[2])
      << "</DataItem>\n"
      << indent
      << "    <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">"
      << number(g.spacing[0]) << " " << number(g.spacing[1]) << " " << number(g.spacing[2])
      << "</DataItem>\n"
      << indent << "  </Geometry>\n";
  for (const auto& f : fields) {
    out << indent << "  <Attribute Name=\"" << f << "\" AttributeType=\"Scalar\" Center=\""
        << (cell ? "Cell" : "Node") << "\">\n"
        << indent << "    <DataItem Dimensions=\"" << dims
        << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << h5_name << ":/fields/" << f
        << "</DataItem>\n"
        << indent << "  </Attribute>\n";
  }
  out << indent << "</Grid>\n";
  return out.str();
}

const char* header = "<?xml version=\"1.0\" ?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
                     "<Xdmf Version=\"2.0\">\n  <Domain>\n";
const char* footer = "  </Domain>\n</Xdmf>\n";

} // namespace

void write_xdmf(const std::string& path, const std::string& h5_name,
                const std::array<std::int64_t, 3>& mesh, const std::vector<std::string>& fields,
                double time, const XdmfGeometry& geometry) {
  write_text_file(path,
                  std::string(header) +
                      grid_element(h5_name, mesh, fields, time, geometry, "    ") + footer,
                  "hcart::write_xdmf");
}

void write_xdmf_series(const std::string& path,
                       const std::vector<std::pair<std::string, double>>& files,
                       const std::array<std::int64_t, 3>& mesh,
                       const std::vector<std::string>& fields, const XdmfGeometry& geometry) {
  std::string text = header;
  text += "    <Grid Name=\"series\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  for (const auto& [name, time] : files)
    text += grid_element(name, mesh, fields, time, geometry, "      ");
  text += "    </Grid>\n";
  text += footer;
  write_text_file(path, text, "hcart::write_xdmf_series");
}

} // namespace hcart
