#include "io/Hdf5Handle.hpp"

#include <hcart/core/Collective.hpp>
#include <hcart/core/Error.hpp>
#include <hcart/core/MpiCheck.hpp>
#include <hcart/core/Version.hpp>
#include <hcart/io/FieldFile.hpp>
#include <hcart/io/OutputDirectory.hpp>

#include <hdf5.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <vector>

namespace hcart {

namespace {

using impl::Hdf5Handle;

// HDF5 prints its error stack by default; hcart reports one line instead.
class QuietHdf5 {
public:
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &m_function, &m_data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, m_function, m_data); }
  QuietHdf5(const QuietHdf5&) = delete;
  QuietHdf5& operator=(const QuietHdf5&) = delete;

private:
  H5E_auto2_t m_function = nullptr;
  void* m_data = nullptr;
};

void write_string(hid_t location, const char* name, const std::string& value) {
  Hdf5Handle type(HCART_HDF5_CHECK(H5Tcopy(H5T_C_S1)), H5Tclose);
  HCART_HDF5_CHECK(H5Tset_size(type.get(), std::max<std::size_t>(value.size(), 1)));
  Hdf5Handle space(HCART_HDF5_CHECK(H5Screate(H5S_SCALAR)), H5Sclose);
  Hdf5Handle attribute(HCART_HDF5_CHECK(H5Acreate2(location, name, type.get(), space.get(),
                                                   H5P_DEFAULT, H5P_DEFAULT)),
                       H5Aclose);
  const std::string stored = value.empty() ? std::string(1, '\0') : value;
  HCART_HDF5_CHECK(H5Awrite(attribute.get(), type.get(), stored.data()));
}

template <class T>
void write_numbers(hid_t location, const char* name, const T* values, hsize_t count) {
  const hid_t type = std::is_same<T, double>::value ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  Hdf5Handle space(
      HCART_HDF5_CHECK(count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr)),
      H5Sclose);
  Hdf5Handle attribute(
      HCART_HDF5_CHECK(H5Acreate2(location, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT)),
      H5Aclose);
  HCART_HDF5_CHECK(H5Awrite(attribute.get(), type, values));
}

std::string read_string(hid_t location, const char* name) {
  Hdf5Handle attribute(HCART_HDF5_CHECK(H5Aopen(location, name, H5P_DEFAULT)), H5Aclose);
  Hdf5Handle type(HCART_HDF5_CHECK(H5Aget_type(attribute.get())), H5Tclose);
  HCART_CHECK(H5Tget_class(type.get()) == H5T_STRING, "attribute '" << name << "' is not a string");
  const std::size_t size = H5Tget_size(type.get());
  std::string value(size, '\0');
  HCART_HDF5_CHECK(H5Aread(attribute.get(), type.get(), value.data()));
  value.resize(std::strlen(value.c_str()));
  return value;
}

template <class T>
std::vector<T> read_numbers(hid_t location, const char* name) {
  const hid_t type = std::is_same<T, double>::value ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  Hdf5Handle attribute(HCART_HDF5_CHECK(H5Aopen(location, name, H5P_DEFAULT)), H5Aclose);
  Hdf5Handle space(HCART_HDF5_CHECK(H5Aget_space(attribute.get())), H5Sclose);
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  HCART_CHECK(count >= 1 && count <= 64, "attribute '" << name << "' has " << count << " values");
  std::vector<T> values(static_cast<std::size_t>(count));
  HCART_HDF5_CHECK(H5Aread(attribute.get(), type, values.data()));
  return values;
}

// The owned block of a rank: a contiguous memory space of its size, and its hyperslab in
// the file. The block is copied to or from a contiguous buffer rather than described as a
// hyperslab of the field with halos: Open MPI 4.1's OMPIO wrote such non-contiguous memory
// selections wrongly now and then in collective writes (seen with 4 ranks and halo 3).
struct Selection {
  Hdf5Handle memory, file;
};

// `component` >= 0: that component of a dataset with components (its first dimension).
Selection select_block(const Grid& grid, hid_t file_space, int component = -1) {
  const auto n = grid.local_size();
  const auto off = grid.global_offset();
  const hsize_t count[3] = {hsize_t(n[0]), hsize_t(n[1]), hsize_t(n[2])};
  Selection s;
  s.memory = Hdf5Handle(HCART_HDF5_CHECK(H5Screate_simple(3, count, nullptr)), H5Sclose);
  s.file = Hdf5Handle(HCART_HDF5_CHECK(H5Scopy(file_space)), H5Sclose);
  if (component < 0) {
    const hsize_t start[3] = {hsize_t(off[0]), hsize_t(off[1]), hsize_t(off[2])};
    HCART_HDF5_CHECK(
        H5Sselect_hyperslab(s.file.get(), H5S_SELECT_SET, start, nullptr, count, nullptr));
  } else {
    const hsize_t start[4] = {hsize_t(component), hsize_t(off[0]), hsize_t(off[1]),
                              hsize_t(off[2])};
    const hsize_t count4[4] = {1, count[0], count[1], count[2]};
    HCART_HDF5_CHECK(
        H5Sselect_hyperslab(s.file.get(), H5S_SELECT_SET, start, nullptr, count4, nullptr));
  }
  return s;
}

// Copies the owned cells of a host view to a contiguous buffer (k fastest) or back.
template <class View>
void copy_owned(const Grid& grid, View& host, std::vector<double>& buffer, bool to_buffer) {
  const auto n = grid.local_size();
  const auto h = grid.halo_width();
  buffer.resize(static_cast<std::size_t>(n[0]) * n[1] * n[2]);
  std::size_t p = 0;
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k, ++p) {
        if (to_buffer)
          buffer[p] = host(i + h[0], j + h[1], k + h[2]);
        else
          host(i + h[0], j + h[1], k + h[2]) = buffer[p];
      }
}

// Raw data moves with independent MPI-IO by default: Open MPI 4.1.4's default OMPIO layer
// wrote wrong data now and then in collective transfers (4 ranks on a 2x2x1 grid, five
// fields; about one write in five), while independent transfers and ROMIO were always
// right. HCART_HDF5_TRANSFER=collective chooses collective transfers where the MPI library
// is known to be sound ("independent", or unset, is the default; any other value is an
// error). File creation, opening and metadata stay collective either way.
bool collective_transfers() {
  const char* mode = std::getenv("HCART_HDF5_TRANSFER");
  const std::string m = mode == nullptr ? "" : mode;
  HCART_REQUIRE(m.empty() || m == "independent" || m == "collective",
                "HCART_HDF5_TRANSFER=\"" << m << "\": expected independent or collective");
  return m == "collective";
}

Hdf5Handle data_transfer(bool collective) {
  Hdf5Handle dxpl(HCART_HDF5_CHECK(H5Pcreate(H5P_DATASET_XFER)), H5Pclose);
  HCART_HDF5_CHECK(
      H5Pset_dxpl_mpio(dxpl.get(), collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT));
  return dxpl;
}

Hdf5Handle parallel_access(MPI_Comm comm) {
  Hdf5Handle fapl(HCART_HDF5_CHECK(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
  HCART_HDF5_CHECK(H5Pset_fapl_mpio(fapl.get(), comm, MPI_INFO_NULL));
  return fapl;
}

} // namespace

void write_fields(const std::string& path, const Grid& grid, const std::vector<NamedField>& fields,
                  const FileMetadata& metadata) {
  const Decomposition& decomp = grid.decomposition();
  const MPI_Comm comm = decomp.comm();
  const std::string temporary = path + ".tmp";
  const QuietHdf5 quiet;
  bool collective = false;
  // Every rank must create the same datasets: the number of fields, their names and their
  // components, compared through a signature's smallest and largest value over the ranks.
  std::size_t signature = fields.size();
  for (const NamedField& named : fields) {
    signature = signature * 1000003u ^ std::hash<std::string>()(named.name);
    signature = signature * 1000003u ^ static_cast<std::size_t>(named.components);
  }
  long long range[2] = {static_cast<long long>(signature >> 2),
                        -static_cast<long long>(signature >> 2)};
  HCART_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_LONG_LONG, MPI_MAX, comm));
  agree_on_errors(comm, [&] {
    HCART_REQUIRE(range[0] == -range[1], "hcart::write_fields: the ranks passed different fields "
                                         "(their number, names or components differ)");
    collective = collective_transfers();
    for (const NamedField& named : fields) {
      HCART_REQUIRE(!named.name.empty() && named.name.find('/') == std::string::npos,
                    "hcart::write_fields: field name '" << named.name << "', expected no '/'");
      named.require_fits(grid, "hcart::write_fields");
    }
    if (decomp.rank() == 0) {
      // is_directory sets its error code for a path that does not exist yet (a new file):
      // that is not an error, so it gets a code of its own.
      std::error_code probe;
      HCART_REQUIRE(!std::filesystem::is_directory(path, probe),
                    "hcart::write_fields: '" << path << "' is a directory, expected a file name");
      create_parent_directories(path, "hcart::write_fields");
    }
  });
  // Every HDF5 call below is collective or identical on all ranks; a failure on one rank
  // is reported everywhere by the agreement at the end.
  std::exception_ptr failure;
  try {
    Hdf5Handle fapl = parallel_access(comm);
    Hdf5Handle file(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    HCART_CHECK(file.get() >= 0, "cannot create '" << temporary << "'");
    const hid_t root = file.get();
    write_string(root, "hcart_format", field_file_format);
    write_string(root, "hcart_version", version);
    write_string(root, "application", metadata.application);
    write_string(root, "kind", metadata.kind);
    write_numbers(root, "time", &metadata.time, 1);
    const std::int64_t step = metadata.step;
    write_numbers(root, "step", &step, 1);
    const auto g = grid.global_size();
    write_numbers(root, "mesh", g.data(), 3);
    const auto h = grid.halo_width();
    const std::int64_t halo[3] = {h[0], h[1], h[2]};
    write_numbers(root, "halo", halo, 3);
    const auto d = decomp.dims();
    const std::int64_t dims[3] = {d[0], d[1], d[2]};
    write_numbers(root, "dims", dims, 3);
    write_string(root, "strategy", to_string(decomp.report().strategy));
    write_string(root, "machine", decomp.report().machine);
    write_string(root, "deck", metadata.deck);
    Hdf5Handle group(
        HCART_HDF5_CHECK(H5Gcreate2(root, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
        H5Gclose);
    const Hdf5Handle dxpl = data_transfer(collective);
    std::vector<double> block;
    for (const NamedField& named : fields) {
      // A field: the mesh's shape; with N components: N x the mesh, a component at a time.
      const int count = named.components;
      const hsize_t shape[4] = {hsize_t(count), hsize_t(g[0]), hsize_t(g[1]), hsize_t(g[2])};
      Hdf5Handle file_space(HCART_HDF5_CHECK(count > 0 ? H5Screate_simple(4, shape, nullptr)
                                                       : H5Screate_simple(3, shape + 1, nullptr)),
                            H5Sclose);
      Hdf5Handle dataset(
          HCART_HDF5_CHECK(H5Dcreate2(group.get(), named.name.c_str(), H5T_NATIVE_DOUBLE,
                                      file_space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
          H5Dclose);
      for (int c = 0; c < std::max(count, 1); ++c) {
        auto host = hcart::host_copy(named.parts[static_cast<std::size_t>(c)]);
        copy_owned(grid, host, block, true);
        const Selection s = select_block(grid, file_space.get(), count > 0 ? c : -1);
        HCART_HDF5_CHECK(H5Dwrite(dataset.get(), H5T_NATIVE_DOUBLE, s.memory.get(), s.file.get(),
                                  dxpl.get(), block.data()));
      }
    }
    if (!metadata.state.empty()) {
      Hdf5Handle state(
          HCART_HDF5_CHECK(H5Gcreate2(root, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)),
          H5Gclose);
      for (const auto& [key, value] : metadata.state)
        write_numbers(state.get(), key.c_str(), &value, 1);
    }
    const std::int64_t complete = 1;
    write_numbers(root, "complete", &complete, 1);
    group.reset();
    HCART_CHECK(file.reset(), "closing '" << temporary << "' failed");
  } catch (...) {
    failure = std::current_exception();
  }
  impl::rethrow_agreed(comm, failure);
  agree_on_errors(comm, [&] {
    if (decomp.rank() == 0) std::filesystem::rename(temporary, path);
  });
}

std::vector<double> read_whole_field(const std::string& path, const std::string& name) {
  const QuietHdf5 quiet;
  const std::string where = "file '" + path + "'";
  Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  HCART_REQUIRE(file.get() >= 0, where << ": cannot be opened as HDF5");
  const std::string dataset_name = "fields/" + name;
  HCART_REQUIRE(H5Lexists(file.get(), "fields", H5P_DEFAULT) > 0 &&
                    H5Lexists(file.get(), dataset_name.c_str(), H5P_DEFAULT) > 0,
                where << ": no field '" << name << "'");
  Hdf5Handle dataset(H5Dopen2(file.get(), dataset_name.c_str(), H5P_DEFAULT), H5Dclose);
  HCART_REQUIRE(dataset.get() >= 0, where << ": field '" << name << "' cannot be opened");
  Hdf5Handle space(HCART_HDF5_CHECK(H5Dget_space(dataset.get())), H5Sclose);
  const hssize_t cells = H5Sget_simple_extent_npoints(space.get());
  HCART_REQUIRE(cells >= 0, where << ": field '" << name << "' has no extent");
  std::vector<double> values(static_cast<std::size_t>(cells));
  HCART_REQUIRE(
      H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0,
      where << ": field '" << name << "' cannot be read");
  return values;
}

FileContents inspect_fields(MPI_Comm comm, const std::string& path) {
  FileContents c;
  agree_on_errors(comm, [&] {
    const QuietHdf5 quiet;
    const std::string where = "file '" + path + "'";
    HCART_REQUIRE(!std::filesystem::is_directory(path),
                  where << ": is a directory, expected a field file (.h5)");
    HCART_REQUIRE(std::filesystem::is_regular_file(path), where << ": does not exist");
    HCART_REQUIRE(H5Fis_hdf5(path.c_str()) > 0,
                  where << ": not an HDF5 file (foreign, or truncated before its header)");
    Hdf5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    HCART_REQUIRE(file.get() >= 0, where << ": cannot be opened as HDF5 (truncated or damaged)");
    const hid_t root = file.get();
    HCART_REQUIRE(H5Aexists(root, "hcart_format") > 0 &&
                      read_string(root, "hcart_format") == field_file_format,
                  where << ": not an hcart field file (expected the format tag '"
                        << field_file_format << "')");
    HCART_REQUIRE(H5Aexists(root, "complete") > 0 &&
                      read_numbers<std::int64_t>(root, "complete").at(0) == 1,
                  where << ": incomplete (its writer did not finish)");
    c.hcart_version = read_string(root, "hcart_version");
    c.metadata.application = read_string(root, "application");
    c.metadata.kind = read_string(root, "kind");
    c.metadata.time = read_numbers<double>(root, "time").at(0);
    c.metadata.step = read_numbers<std::int64_t>(root, "step").at(0);
    c.metadata.deck = read_string(root, "deck");
    c.strategy = read_string(root, "strategy");
    c.machine = read_string(root, "machine");
    const auto mesh = read_numbers<std::int64_t>(root, "mesh");
    const auto halo = read_numbers<std::int64_t>(root, "halo");
    const auto dims = read_numbers<std::int64_t>(root, "dims");
    HCART_REQUIRE(mesh.size() == 3 && halo.size() == 3 && dims.size() == 3,
                  where << ": mesh, halo or dims is not 3D");
    for (int i = 0; i < 3; ++i) {
      c.mesh[i] = mesh[i];
      c.halo[i] = static_cast<int>(halo[i]);
      c.dims[i] = static_cast<int>(dims[i]);
    }
    Hdf5Handle group(H5Gopen2(root, "fields", H5P_DEFAULT), H5Gclose);
    HCART_REQUIRE(group.get() >= 0, where << ": no group 'fields'");
    hsize_t count = 0;
    HCART_HDF5_CHECK(H5Gget_num_objs(group.get(), &count));
    for (hsize_t i = 0; i < count; ++i) {
      char name[256] = {};
      HCART_HDF5_CHECK(H5Gget_objname_by_idx(group.get(), i, name, sizeof name));
      Hdf5Handle dataset(H5Dopen2(group.get(), name, H5P_DEFAULT), H5Dclose);
      HCART_REQUIRE(dataset.get() >= 0, where << ": field '" << name << "' cannot be opened");
      Hdf5Handle space(HCART_HDF5_CHECK(H5Dget_space(dataset.get())), H5Sclose);
      // 3D, or components x 3D.
      const int rank = H5Sget_simple_extent_ndims(space.get());
      HCART_REQUIRE(rank == 3 || rank == 4,
                    where << ": field '" << name << "' is neither 3D nor components x 3D");
      hsize_t shape[4] = {0, 0, 0, 0};
      H5Sget_simple_extent_dims(space.get(), shape, nullptr);
      const hsize_t* cells = rank == 4 ? shape + 1 : shape;
      for (int d = 0; d < 3; ++d) {
        HCART_REQUIRE(static_cast<std::int64_t>(cells[d]) == c.mesh[d],
                      where << ": field '" << name << "' has " << cells[d] << " cells in direction "
                            << d << ", the mesh " << c.mesh[d]);
      }
      HCART_REQUIRE(rank == 3 || (shape[0] >= 1 && shape[0] <= 1u << 20),
                    where << ": field '" << name << "' has " << shape[0] << " components");
      c.fields.push_back(name);
      c.components.push_back(rank == 4 ? static_cast<int>(shape[0]) : 0);
    }
    if (H5Lexists(root, "state", H5P_DEFAULT) > 0) {
      Hdf5Handle state(HCART_HDF5_CHECK(H5Gopen2(root, "state", H5P_DEFAULT)), H5Gclose);
      // H5Aiterate2 exists in every HDF5 from 1.8 to 1.14, unlike the H5Oget_info variants.
      std::vector<std::string> names;
      auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      };
      hsize_t index = 0;
      HCART_HDF5_CHECK(
          H5Aiterate2(state.get(), H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names));
      for (const auto& name : names)
        c.metadata.state[name] = read_numbers<double>(state.get(), name.c_str()).at(0);
    }
  });
  return c;
}

void impl::read_field(const std::string& path, const Grid& grid, const std::string& name,
                      const NamedField& into) {
  const MPI_Comm comm = grid.decomposition().comm();
  const FileContents contents = inspect_fields(comm, path);
  bool collective = false;
  int count = 0; // the file's field's components (0: none)
  agree_on_errors(comm, [&] {
    collective = collective_transfers();
    into.require_fits(grid, "hcart::read_field");
    const auto found = std::find(contents.fields.begin(), contents.fields.end(), name);
    HCART_REQUIRE(found != contents.fields.end(),
                  "file '" << path << "': no field '" << name << "'");
    count = contents.components[static_cast<std::size_t>(found - contents.fields.begin())];
    if (!into.has_components()) {
      HCART_REQUIRE(count == 0, "file '" << path << "': field '" << name << "' has " << count
                                         << " components: read it into an "
                                            "hcart::ComponentField");
    } else {
      const int wanted = into.components;
      HCART_REQUIRE(count == wanted, "file '"
                                         << path << "': field '" << name << "' has "
                                         << (count == 0 ? std::string("no") : std::to_string(count))
                                         << " components, the field read into " << wanted);
    }
    HCART_REQUIRE(contents.mesh == grid.global_size(),
                  "file '" << path << "': mesh " << contents.mesh[0] << "x" << contents.mesh[1]
                           << "x" << contents.mesh[2] << ", expected " << grid.global_size()[0]
                           << "x" << grid.global_size()[1] << "x" << grid.global_size()[2]);
  });
  std::exception_ptr failure;
  try {
    const QuietHdf5 quiet;
    Hdf5Handle fapl = parallel_access(comm);
    Hdf5Handle file(HCART_HDF5_CHECK(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get())), H5Fclose);
    Hdf5Handle dataset(
        HCART_HDF5_CHECK(H5Dopen2(file.get(), ("fields/" + name).c_str(), H5P_DEFAULT)), H5Dclose);
    Hdf5Handle file_space(HCART_HDF5_CHECK(H5Dget_space(dataset.get())), H5Sclose);
    const Hdf5Handle dxpl = data_transfer(collective);
    std::vector<double> block(static_cast<std::size_t>(grid.local_size()[0]) *
                              grid.local_size()[1] * grid.local_size()[2]);
    for (int c = 0; c < std::max(count, 1); ++c) {
      const Field<double>& target = into.parts[static_cast<std::size_t>(c)];
      auto host = hcart::host_copy(target);
      const Selection s = select_block(grid, file_space.get(), count > 0 ? c : -1);
      HCART_HDF5_CHECK(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, s.memory.get(), s.file.get(),
                               dxpl.get(), block.data()));
      copy_owned(grid, host, block, false);
      Kokkos::deep_copy(target, host);
    }
  } catch (...) {
    failure = std::current_exception();
  }
  impl::rethrow_agreed(comm, failure);
}

} // namespace hcart
