// Fields in parallel HDF5 files, in global index order, readable by any decomposition
// (the file layout is documented in docs/output.md).
//
//   hcart::FileMetadata meta;
//   meta.time = t; meta.step = step; meta.deck = deck.resolved();
//   hcart::write_fields("out/jacobi3d_000100.h5", grid, {{"u", u}}, meta);   // collective
//   hcart::read_field("out/checkpoint_000100.h5", other_grid, "u", u2);      // any ranks
//   hcart::write_fields("out/lbm.h5", grid, {{"f", f}}, meta);   // f: a ComponentField
//
// Writing is collective: one dataset per field of the global size (a field with N components:
// N x the global size), each rank writing its owned block as one hyperslab. The files are created,
// opened and described collectively; the data move with independent MPI-IO transfers by default,
// collective ones with HCART_HDF5_TRANSFER=collective (docs/output.md says why). The file is
// written as `path.tmp` and renamed to `path` only when complete and closed on every rank, so a
// crash never leaves a half-written file under the final name and never destroys the last good one.
// Reading checks the file first (format tag, mesh, dataset shapes) and refuses a missing, truncated
// or foreign file with an hcart::InputError on every rank, before any data is read.
#pragma once

#include <hcart/grid/Field.hpp>
#include <hcart/grid/Grid.hpp>

#include <mpi.h>

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace hcart {

/// \brief The format tag every hcart field file carries.
inline constexpr const char* field_file_format = "hcart-fields/1";

struct FileMetadata {
  std::string kind = "output"; ///< "output" or "checkpoint" (or an application's word)
  std::string application;     ///< e.g. "jacobi3d"
  double time = 0.0;
  std::int64_t step = 0;
  std::string deck;                    ///< the resolved deck text
  std::map<std::string, double> state; ///< solver state needed to continue (checkpoints)
};

/// \brief What a field file holds, as checked by inspect_fields().
struct FileContents {
  FileMetadata metadata;
  std::array<std::int64_t, 3> mesh{};
  std::array<int, 3> halo{}, dims{};
  std::string strategy;
  std::string machine;
  std::string hcart_version;
  std::vector<std::string> fields;
  /// Per field (as `fields`): 0 for a field, N for a field with N components.
  std::vector<int> components;
};

/// \brief A field to write: its name and a field of doubles of any field type (a Field<double>,
/// or a ComponentField<double>: one dataset of shape components x mesh).
struct NamedField {
  template <class F, class = std::enable_if_t<is_field_v<F>>>
  NamedField(std::string name, const F& field)
      : name(std::move(name)),
        components(FieldTraits<F>::has_components ? FieldTraits<F>::components(field) : 0),
        require_fits(
            [field](const Grid& grid, const char* who) { grid.require_fits(field, who); }) {
    static_assert(std::is_same_v<typename FieldTraits<F>::value_type, double>,
                  "hcart::NamedField: field files hold fields of double");
    for (int c = 0; c < FieldTraits<F>::components(field); ++c)
      parts.push_back(FieldTraits<F>::component(field, c));
  }
  /// \brief A (name, field) pair (the older form).
  template <class F, class = std::enable_if_t<is_field_v<F>>>
  NamedField(const std::pair<std::string, F>& named) // NOLINT: a pair converts
      : NamedField(named.first, named.second) {}

  std::string name;
  std::vector<Field<double>> parts; ///< its components, each a Field of the same memory
  int components = 0;               ///< the dataset's components: 0 for a field without
  bool has_components() const noexcept { return components > 0; }
  /// Grid::require_fits of the field as given (its message counts the components).
  std::function<void(const Grid&, const char*)> require_fits;
};

/// \brief Writes `fields` (name, field) of `grid` to `path` (collective over the grid's
/// communicator), creating missing directories of the path.
/// \throws hcart::InputError (collective) for a path that is a directory or whose directory
/// cannot be created, naming them; hcart::Error (collective) when the file cannot be written.
/// The final path is then untouched.
void write_fields(const std::string& path, const Grid& grid, const std::vector<NamedField>& fields,
                  const FileMetadata& metadata);
/// \brief write_fields() of a braced list: {{"u", u}, {"f", f}}, fields with components or
/// not.
inline void write_fields(const std::string& path, const Grid& grid,
                         std::initializer_list<NamedField> fields, const FileMetadata& metadata) {
  write_fields(path, grid, std::vector<NamedField>(fields), metadata);
}
/// \brief write_fields() of (name, field) pairs.
inline void write_fields(const std::string& path, const Grid& grid,
                         const std::vector<std::pair<std::string, Field<double>>>& fields,
                         const FileMetadata& metadata) {
  write_fields(path, grid, std::vector<NamedField>(fields.begin(), fields.end()), metadata);
}

/// \brief Opens `path` and checks that it is a complete hcart field file (collective).
/// \throws hcart::InputError (collective) naming the file and what is wrong.
FileContents inspect_fields(MPI_Comm comm, const std::string& path);

namespace impl {
void read_field(const std::string& path, const Grid& grid, const std::string& name,
                const NamedField& into);
} // namespace impl

/// \brief Reads field `name` of `path` into the owned cells of `field`, a Field<double> or a
/// ComponentField<double> of as many components as the file's field (collective over the
/// grid's communicator; any decomposition). The halos are left as they were.
/// \throws hcart::InputError (collective) for a bad file, a missing field, a mesh of another
/// size, or a field with components read into one without or with another number of them.
template <class F, class = std::enable_if_t<is_field_v<F>>>
void read_field(const std::string& path, const Grid& grid, const std::string& name, F& field) {
  impl::read_field(path, grid, name, NamedField(name, field));
}

/// \brief The whole of field `name` of `path` in global index order (k fastest; for a field
/// with components, component by component), read by
/// this process alone (not collective; for tools such as hcart-compare). Check the file
/// with inspect_fields(MPI_COMM_SELF, path) first.
/// \throws hcart::InputError naming the file when the field is missing or cannot be read.
std::vector<double> read_whole_field(const std::string& path, const std::string& name);

} // namespace hcart
